import type { FastifyInstance } from 'fastify';
import { ApiError, sendError } from '../../http/errors.js';

/**
 * Shutting down: from the moment the app starts closing (SIGTERM in server.ts, or any close), the
 * instance is draining. Readiness answers 503 (health.routes.ts) and a request that still reaches
 * it, on a kept-alive or pipelined connection, is answered 503 in the contract's body with
 * `Connection: close` (Fastify sets it while closing), so a load balancer retries it elsewhere.
 * The requests in flight finish (server.ts waits for them). Fastify's own 503 while closing, with
 * a body of its own, is off (`return503OnClosing: false` in app.ts) so that these answers are ours.
 */
const shuttingDown = () =>
  new ApiError(
    503,
    'rest_service_unavailable',
    'The service is shutting down: retry on another instance.',
    {},
    { 'Retry-After': '2' },
  );

export function registerDraining(app: FastifyInstance): void {
  const { lifecycle } = app.services;
  app.addHook('preClose', async () => {
    lifecycle.draining = true;
  });
  app.addHook('onRequest', async (request, reply) => {
    // Probes and metrics answer to the end (readiness says it is draining).
    if (!lifecycle.draining || request.routeOptions.config.bare) return;
    return sendError(reply, shuttingDown());
  });
}
