import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/database.js';
import { migrationsPending } from '../../db/connect.js';
import { ping } from './health.repository.js';
import { TimeoutError, withTimeout } from './operations.timeout.js';

const DB_TIMEOUT_MS = 1_000;

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

export interface Readiness {
  checks: Record<string, string>;
  /** Why the instance is not ready, or null when it is. */
  reason: string | null;
}

/**
 * The readiness check of one app: the database answers within a second, every migration has run
 * and the instance is not draining.
 */
export function readinessCheck(
  db: Db,
  lifecycle: { draining: boolean },
): (log: FastifyBaseLogger) => Promise<Readiness> {
  // Once every migration this version knows has run, they stay run: asked until then only.
  let migrated = false;
  return async (log) => {
    const checks: Record<string, string> = { draining: lifecycle.draining ? 'yes' : 'no' };
    checks['database'] = await check(log, async () => {
      await ping(db);
      migrated ||= !(await migrationsPending(db));
    });
    checks['migrations'] = migrated ? 'done' : checks['database'] === 'ok' ? 'pending' : 'unknown';
    const reason = lifecycle.draining
      ? 'the instance is shutting down'
      : checks['database'] !== 'ok'
        ? `database ${checks['database']}`
        : checks['migrations'] !== 'done'
          ? 'migrations have not all run'
          : null;
    return { checks, reason };
  };
}
