import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';

/**
 * GET /metrics in the Prometheus text format (prom-client), when CAL_METRICS=1 (what it holds:
 * metrics.definitions.ts). With CAL_METRICS_PORT it is served on its own port instead, so it need
 * not be public.
 */
export async function registerMetrics(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { config } = app.services;
  if (!config.metrics) return;
  // prom-client and its dependencies load only where metrics are on (issue 30: the heap after start).
  const { collectMetrics } = await import('./metrics.service.js');
  const registry = collectMetrics(app);
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
    return;
  }
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
