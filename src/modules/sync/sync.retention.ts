import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database.js';
import { prune } from './sync.repository.js';
import { nowUtc } from '../../lib/clock.js';

const HOUR = 3_600_000;

/** Removes the change history older than the retention; returns the number of changes removed. */
export function pruneChanges(db: Db, retentionDays: number, at: Date = new Date()): Promise<number> {
  const before = nowUtc(new Date(at.getTime() - retentionDays * 86_400_000));
  return prune(db, before);
}

/** Prunes hourly in the background of each instance (the pruned mark makes it safe to run twice). */
export function startRetentionStep(app: FastifyInstance, db: Db, retentionDays: number): void {
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(() => {
      pruneChanges(db, retentionDays).catch((error: unknown) =>
        app.log.error({ err: error }, 'pruning the change history failed'),
      );
    }, HOUR);
    timer.unref();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
