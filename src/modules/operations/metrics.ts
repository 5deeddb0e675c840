import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Progress } from '../import/import.jobs.js';
import { withTimeout } from './timeout.js';

/**
 * GET /metrics in the Prometheus text format (prom-client), when CAL_METRICS=1: requests and their
 * latency by route pattern (never the raw URL, which would make a series per event) and status
 * class, page-cache hits and misses, database statement time, the process (event-loop delay,
 * heap, CPU: prom-client's defaults), webhook deliveries by status and imports running. With
 * CAL_METRICS_PORT it is served on its own port instead, so it need not be public.
 * One registry per app: a process may hold several (the tests do).
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

export async function registerMetrics(app: FastifyInstance): Promise<void> {
  const { config } = app.services;
  if (!config.metrics) return;
  const registry = new Registry();
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
  const observer: QueryObserver = (ms) => queries.observe(ms / 1000);
  observers.add(observer);
  const { pageCache } = app.services;
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
        this.inc(pageCache.stats[key]);
      },
    });
  }
  const { db } = app.services.storage;
  // Read from the database at each scrape; a scrape while the database is down or slow leaves them
  // out (the error is logged) rather than failing or holding up the process metrics with it.
  const fromDatabase = async (what: string, read: () => Promise<void>) => {
    try {
      await withTimeout(read(), DB_READ_TIMEOUT_MS);
    } catch (error) {
      app.log.warn({ err: error }, `metrics: ${what} not read`);
    }
  };
  new Gauge({
    name: 'cal_webhook_deliveries',
    help: 'Webhook deliveries by status',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      this.reset();
      await fromDatabase('webhook deliveries', async () => {
        const rows = await db
          .selectFrom('webhook_deliveries')
          .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
          .groupBy('status')
          .execute();
        for (const row of rows) this.set({ status: row.status }, Number(row.n));
      });
    },
  });
  const runningImports = () => db.selectFrom('imports').select('progress').where('status', '=', 'running').execute();
  new Gauge({
    name: 'cal_imports_running',
    help: 'Imports under way',
    registers: [registry],
    async collect() {
      this.reset();
      await fromDatabase('imports', async () => this.set((await runningImports()).length));
    },
  });
  new Gauge({
    name: 'cal_import_records',
    help: 'Records of the imports under way, by kind: done and total',
    labelNames: ['kind', 'count'],
    registers: [registry],
    async collect() {
      this.reset();
      await fromDatabase('import progress', async () => {
        for (const { progress } of await runningImports()) {
          for (const [kind, counts] of Object.entries(JSON.parse(progress) as Progress)) {
            this.inc({ kind, count: 'done' }, counts?.done ?? 0);
            this.inc({ kind, count: 'total' }, counts?.total ?? 0);
          }
        }
      });
    },
  });

  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      route: request.routeOptions?.url ?? 'not_found',
      method: request.method,
      status: statusClass(reply.statusCode),
    };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
  });

  const text = async () => ({ type: registry.contentType, body: await registry.metrics() });
  if (config.metricsPort === 0) {
    app.get(
      '/metrics',
      { schema: { hide: true }, config: { access: 'public', bare: true }, logLevel: 'warn' },
      async (_request, reply) => {
        const { type, body } = await text();
        return reply.type(type).header('Cache-Control', 'no-store').send(body);
      },
    );
  } else {
    const server = http.createServer((request, response) => {
      if (request.url !== '/metrics') {
        response.writeHead(404).end();
        return;
      }
      text().then(
        ({ type, body }) => response.writeHead(200, { 'content-type': type }).end(body),
        () => response.writeHead(500).end(),
      );
    });
    app.addHook('onListen', async () => {
      await new Promise<void>((resolve, reject) =>
        server.once('error', reject).listen(config.metricsPort, config.host, resolve),
      );
    });
    app.addHook('onClose', async () => {
      await new Promise((resolve) => server.close(resolve));
    });
  }
  app.addHook('onClose', async () => {
    observers.delete(observer);
  });
}
