import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ApiError, sendError } from '../../http/errors.js';
import { responses } from '../../http/schemas.js';
import { Health } from './health.schema.js';
import { readinessCheck } from './health.service.js';

/**
 * What a load balancer or an orchestrator asks. `/health/live`: the process answers (even when
 * overloaded). `/health/ready`: the database answers within a second, every migration has run and
 * the instance is not draining; otherwise 503 in the contract's error body. Neither needs
 * credentials, and a success is not logged at info (probes come every few seconds).
 */

const quiet = { access: 'public', bare: true } as const;

const unavailable = (reason: string, checks: Record<string, string>) =>
  new ApiError(503, 'rest_service_unavailable', `Not ready: ${reason}.`, { checks }, { 'Retry-After': '5' });

export async function healthRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const readiness = readinessCheck(app.services.storage.db, app.services.lifecycle);

  app.get(
    '/health/live',
    { schema: { hide: true, response: responses({ 200: Health }) }, config: quiet, logLevel: 'warn' },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/health/ready',
    { schema: { hide: true, response: responses({ 200: Health }) }, config: quiet, logLevel: 'warn' },
    async (request, reply) => {
      const { checks, reason } = await readiness(request.log);
      void reply.header('Cache-Control', 'no-store');
      if (reason === null) return { status: 'ok', checks };
      // Sent here rather than thrown: the error handler would log it as the overload guard's 503.
      request.log.warn({ checks }, `not ready: ${reason}`);
      return sendError(reply, unavailable(reason, checks));
    },
  );
}
