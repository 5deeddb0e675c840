import type { FastifyInstance } from 'fastify';
import { Registry } from 'prom-client';
import { writeRetries } from '../../db/transaction.js';
import type { Progress } from '../import/import.types.js';
import { defineMetrics, type MetricSources } from './metrics.definitions.js';
import { deliveriesByStatus, runningImports } from './metrics.repository.js';
import { withTimeout } from './operations.timeout.js';

/**
 * Collecting the metrics (metrics.definitions.ts) of one app into a registry of its own: a
 * process may hold several apps (the tests do). Requests are observed as they are answered,
 * statements as the storage's query hook reports them, the rest read at each scrape.
 */

/** Statement durations reported by the storage's query hook, for every app on it. */
export type QueryObserver = (durationMs: number) => void;
const observers = new Set<QueryObserver>();
export function observeQuery(durationMs: number): void {
  for (const observer of observers) observer(durationMs);
}

/** How long a scrape waits for the counts it reads from the database. */
const DB_READ_TIMEOUT_MS = 1_000;

const statusClass = (code: number) => `${Math.floor(code / 100)}xx`;

/** Where the metrics read at each scrape find their values. */
function sourcesOf(app: FastifyInstance): MetricSources {
  const { pageCache } = app.services;
  const { db, readers } = app.services.storage;
  return {
    pageCache: () => pageCache.stats,
    writeRetries,
    // Read from the database at each scrape; a scrape while the database is down or slow leaves them
    // out (the error is logged) rather than failing or holding up the process metrics with it.
    async fromDatabase(what, read) {
      try {
        await withTimeout(read(), DB_READ_TIMEOUT_MS);
      } catch (error) {
        app.log.warn({ err: error }, `metrics: ${what} not read`);
      }
    },
    deliveriesByStatus: () => deliveriesByStatus(db),
    importsRunning: async () => (await runningImports(db)).map(({ progress }) => JSON.parse(progress) as Progress),
    sqliteReaders: readers ? () => readers.stats() : null,
  };
}

/** The app's metrics, collected from now until it closes. */
export function collectMetrics(app: FastifyInstance): Registry {
  const registry = new Registry();
  const { requests, latency, queries } = defineMetrics(registry, sourcesOf(app));
  const observer: QueryObserver = (ms) => queries.observe(ms / 1000);
  observers.add(observer);
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      route: request.routeOptions?.url ?? 'not_found',
      method: request.method,
      status: statusClass(reply.statusCode),
    };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
  });
  app.addHook('onClose', async () => {
    observers.delete(observer);
  });
  return registry;
}
