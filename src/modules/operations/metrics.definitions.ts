import { Counter, Gauge, Histogram, collectDefaultMetrics, type Registry } from 'prom-client';
import type { SqliteReadersStats } from '../../db/sqlite-readers.js';
import type { Progress } from '../import/import.types.js';

/**
 * The metrics an app exports, each with its name, help, labels and buckets: requests and their
 * latency by route pattern (never the raw URL, which would make a series per event) and status
 * class, page-cache hits and misses, database statement time and write retries, the process
 * (event-loop delay, heap, CPU: prom-client's defaults), webhook deliveries by status, imports
 * running and SQLite's reader threads. Those read at each scrape take their values from `sources`
 * (metrics.service.ts).
 */

export interface MetricSources {
  pageCache(): { hits: number; misses: number };
  writeRetries(): { unique: number; deadlock: number };
  /** Runs `read` against the database; when it fails or is slow, the metric is left out. */
  fromDatabase(what: string, read: () => Promise<void>): Promise<void>;
  deliveriesByStatus(): Promise<{ status: string; n: number }[]>;
  importsRunning(): Promise<Progress[]>;
  /** SQLite's reader threads' counts, when the storage may start them (null: PostgreSQL, or none allowed). */
  sqliteReaders: (() => SqliteReadersStats) | null;
}

/** The metrics observed as requests and statements go (the others are read at each scrape). */
export interface ObservedMetrics {
  requests: Counter;
  latency: Histogram;
  queries: Histogram;
}

export function defineMetrics(registry: Registry, sources: MetricSources): ObservedMetrics {
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'cal_http_requests_total',
    help: 'HTTP requests by route pattern, method and status class',
    labelNames: ['route', 'method', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'cal_http_request_duration_seconds',
    help: 'HTTP request latency by route pattern, method and status class',
    labelNames: ['route', 'method', 'status'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  const queries = new Histogram({
    name: 'cal_db_query_duration_seconds',
    help: 'Database statement time',
    buckets: [0.0001, 0.0005, 0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1],
    registers: [registry],
  });
  for (const [name, key] of [
    ['cal_page_cache_hits_total', 'hits'],
    ['cal_page_cache_misses_total', 'misses'],
  ] as const) {
    new Counter({
      name,
      help: `Page-cache ${key}`,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(sources.pageCache()[key]);
      },
    });
  }
  new Counter({
    name: 'cal_db_write_retries_total',
    help: 'Write transactions run again: a unique value another writer inserted first, or a deadlock',
    labelNames: ['reason'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [reason, n] of Object.entries(sources.writeRetries())) this.inc({ reason }, n);
    },
  });
  new Gauge({
    name: 'cal_webhook_deliveries',
    help: 'Webhook deliveries by status',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      this.reset();
      await sources.fromDatabase('webhook deliveries', async () => {
        for (const row of await sources.deliveriesByStatus()) this.set({ status: row.status }, row.n);
      });
    },
  });
  new Gauge({
    name: 'cal_imports_running',
    help: 'Imports under way',
    registers: [registry],
    async collect() {
      this.reset();
      await sources.fromDatabase('imports', async () => this.set((await sources.importsRunning()).length));
    },
  });
  new Gauge({
    name: 'cal_import_records',
    help: 'Records of the imports under way, by kind: done and total',
    labelNames: ['kind', 'count'],
    registers: [registry],
    async collect() {
      this.reset();
      await sources.fromDatabase('import progress', async () => {
        for (const progress of await sources.importsRunning()) {
          for (const [kind, counts] of Object.entries(progress)) {
            this.inc({ kind, count: 'done' }, counts?.done ?? 0);
            this.inc({ kind, count: 'total' }, counts?.total ?? 0);
          }
        }
      });
    },
  });
  if (sources.sqliteReaders) defineReaderMetrics(registry, sources.sqliteReaders);
  return { requests, latency, queries };
}

/**
 * SQLite's reader threads (CAL_SQLITE_READERS): how many run (none until a read was slow), and
 * what became of the reads that could go to them, so that an operator sees whether slow reads are
 * refused (their 503s, which the log marks with `cause`) or a thread had to be replaced.
 */
function defineReaderMetrics(registry: Registry, stats: () => SqliteReadersStats): void {
  new Gauge({
    name: 'cal_sqlite_reader_threads',
    help: 'SQLite reader threads running; none until a read on the main connection was slow',
    registers: [registry],
    collect() {
      this.set(stats().threads);
    },
  });
  new Counter({
    name: 'cal_sqlite_reads_total',
    help: 'SQLite reads by outcome: run in a thread, on the main connection as known quick, run again after their thread stopped, refused with too many slow reads waiting',
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      this.reset();
      const { ran, quick, retried, refused } = stats();
      for (const [outcome, n] of Object.entries({ thread: ran, quick, retried, refused })) this.inc({ outcome }, n);
    },
  });
}
