import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { Type } from 'typebox';
import { migrationsPending } from '../../db/connect.js';
import { ApiError, sendError } from '../../http/errors.js';
import { responses } from '../../http/schemas.js';
import { TimeoutError, withTimeout } from './timeout.js';

/**
 * What a load balancer or an orchestrator asks. `/health/live`: the process answers (even when
 * overloaded). `/health/ready`: the database answers within a second, every migration has run and
 * the instance is not draining; otherwise 503 in the contract's error body. Neither needs
 * credentials, and a success is not logged at info (probes come every few seconds).
 */

const DB_TIMEOUT_MS = 1_000;
const quiet = { access: 'public', bare: true } as const;
const Health = Type.Object({ status: Type.String(), checks: Type.Optional(Type.Record(Type.String(), Type.String())) });

const unavailable = (reason: string, checks: Record<string, string>) =>
  new ApiError(503, 'rest_service_unavailable', `Not ready: ${reason}.`, { checks }, { 'Retry-After': '5' });

/**
 * 'ok' when `run` finishes within the timeout, else why not: the timeout, or 'error' (the message
 * goes to the log, not to an anonymous caller: it may name hosts).
 */
async function check(log: FastifyBaseLogger, run: () => Promise<unknown>): Promise<string> {
  try {
    await withTimeout(run(), DB_TIMEOUT_MS);
    return 'ok';
  } catch (error) {
    if (error instanceof TimeoutError) return error.message;
    log.warn({ err: error }, 'readiness: the database failed');
    return 'error';
  }
}

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.services.storage;
  const { lifecycle } = app.services;
  // Once every migration this version knows has run, they stay run: asked until then only.
  let migrated = false;

  app.get(
    '/health/live',
    { schema: { hide: true, response: responses({ 200: Health }) }, config: quiet, logLevel: 'warn' },
    async () => ({ status: 'ok' }),
  );

  app.get(
    '/health/ready',
    { schema: { hide: true, response: responses({ 200: Health }) }, config: quiet, logLevel: 'warn' },
    async (request, reply) => {
      const checks: Record<string, string> = { draining: lifecycle.draining ? 'yes' : 'no' };
      checks['database'] = await check(request.log, async () => {
        await sql`select 1`.execute(db);
        migrated ||= !(await migrationsPending(db));
      });
      checks['migrations'] = migrated ? 'done' : checks['database'] === 'ok' ? 'pending' : 'unknown';
      void reply.header('Cache-Control', 'no-store');
      const reason = lifecycle.draining
        ? 'the instance is shutting down'
        : checks['database'] !== 'ok'
          ? `database ${checks['database']}`
          : checks['migrations'] !== 'done'
            ? 'migrations have not all run'
            : null;
      if (reason === null) return { status: 'ok', checks };
      // Sent here rather than thrown: the error handler would log it as the overload guard's 503.
      request.log.warn({ checks }, `not ready: ${reason}`);
      return sendError(reply, unavailable(reason, checks));
    },
  );
}
