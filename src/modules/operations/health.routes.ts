import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { Type } from 'typebox';
import { migrationsPending } from '../../db/connect.js';
import { ApiError } from '../../http/errors.js';
import { responses } from '../../http/schemas.js';

/**
 * What a load balancer or an orchestrator asks. `/health/live`: the process answers (even when
 * overloaded). `/health/ready`: the database answers within a second, every migration has run and
 * the instance is not draining; otherwise 503 in the contract's error body. Neither needs
 * credentials, and a success is not logged at info (probes come every few seconds).
 */

const DB_TIMEOUT_MS = 1_000;
const quiet = { access: 'public', bare: true } as const;
const Health = Type.Object({ status: Type.String(), checks: Type.Optional(Type.Record(Type.String(), Type.String())) });

const unavailable = (reason: string, checks: Record<string, string>) => new ApiError(503, 'rest_service_unavailable', `Not ready: ${reason}.`, { checks }, { 'Retry-After': '5' });

/** Resolves with what the database said within the timeout, or a description of why not. */
async function databaseCheck(run: () => Promise<unknown>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(`no answer within ${DB_TIMEOUT_MS} ms`), DB_TIMEOUT_MS)));
  try {
    return await Promise.race([run().then(() => 'ok'), timeout]);
  } catch (error) {
    return `error: ${(error as Error).message}`;
  } finally {
    clearTimeout(timer);
  }
}

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.services.storage;
  app.get('/health/live', { schema: { hide: true, response: responses({ 200: Health }) }, config: quiet, logLevel: 'warn' }, async () => ({ status: 'ok' }));

  app.get('/health/ready', { schema: { hide: true, response: responses({ 200: Health }) }, config: quiet, logLevel: 'warn' }, async (_request, reply) => {
    const checks: Record<string, string> = { draining: app.services.lifecycle.draining ? 'yes' : 'no' };
    checks['database'] = await databaseCheck(() => sql`select 1`.execute(db));
    if (checks['database'] === 'ok') checks['migrations'] = (await migrationsPending(db)) ? 'pending' : 'done';
    void reply.header('Cache-Control', 'no-store');
    if (app.services.lifecycle.draining) throw unavailable('the instance is shutting down', checks);
    if (checks['database'] !== 'ok') throw unavailable(`database ${checks['database']}`, checks);
    if (checks['migrations'] !== 'done') throw unavailable('migrations have not all run', checks);
    return { status: 'ok', checks };
  });
}
