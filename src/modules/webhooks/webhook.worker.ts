import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { backgroundContext } from '../../http/context.js';
import type { Settings } from '../../http/site-settings.js';
import { nowUtc } from '../../lib/clock.js';
import { backoffMs, runInBackground } from '../../lib/background.js';

export { backoffMs };
import { currentRecords, readableThrough, toEntry } from '../sync/sync.service.js';
import { send, signedHeaders, type SendResult } from './webhook.send.js';
import * as deliveries from './webhook.repository.js';
import type { Claimed } from './webhook.repository.js';

/**
 * The delivery worker each instance runs: claims due deliveries (with FOR UPDATE SKIP LOCKED on
 * PostgreSQL, so several instances never claim one twice), renders each as the public change-feed
 * entry of its record now, signs and posts it, and records the outcome. At least once, in the
 * order of the change log per record (a delivery waits while one of its record at an earlier
 * position is pending or, on PostgreSQL, may still commit), retried with
 * exponential backoff and jitter for 24 hours; then the subscription is marked failing.
 */

export interface WebhookDeps {
  db: Db;
  config: Config;
  settings: () => Promise<Settings>;
}

/** How long a claim holds a delivery (well beyond the 10 s a POST may take). */
const LEASE_MS = 60_000;
const GIVE_UP_MS = 24 * 3_600_000;

const stamp = (at: Date, plusMs = 0): string => nowUtc(new Date(at.getTime() + plusMs));

/**
 * How long a learnt bound serves the claims before it is asked again (sync.service.ts
 * `readableThrough`): a worker draining a backlog under a steady write load asks once a second, not
 * once a round; a change committed since waits for the next ask and the next round (a second or
 * two, as for a feed reader polling each second).
 */
const BOUND_REUSE_MS = 1_000;

/**
 * Claims up to `limit` due deliveries for this worker (a lease, so a crashed worker's come back).
 * On PostgreSQL only changes whose writers, and every earlier position's, have ended: a record's
 * change that commits after a later one of it is then never overtaken (the sync feed's bound,
 * asked only when something is due, and at most once every BOUND_REUSE_MS).
 */
async function claim(db: Db, at: Date, limit: number): Promise<Claimed[]> {
  if (!(await deliveries.anyDue(db, stamp(at)))) return [];
  const through = await readableThrough(db, BOUND_REUSE_MS);
  return deliveries.claimDue(db, stamp(at), stamp(at, LEASE_MS), limit, through);
}

/** The body of each claimed delivery: the public change-feed entry of its record as it is now. */
async function payloads(deps: WebhookDeps, claimed: Claimed[]): Promise<Map<number, string>> {
  const bodies = new Map<number, string>();
  const settings = await deps.settings();
  for (const lang of new Set(claimed.map((c) => c.lang))) {
    const mine = claimed.filter((c) => c.lang === lang);
    const ctx = backgroundContext(deps.config, lang, settings);
    const records = await currentRecords(deps.db, mine, ctx);
    for (const c of mine) {
      const change = c.event_type.slice(c.event_type.indexOf('.') + 1) as 'created' | 'updated' | 'trashed' | 'deleted';
      bodies.set(
        c.id,
        JSON.stringify(toEntry({ kind: c.kind, record_id: c.record_id, change, at_utc: c.change_at_utc }, records)),
      );
    }
  }
  return bodies;
}

async function record(db: Db, delivery: Claimed, result: SendResult, at: Date): Promise<void> {
  const outcome: deliveries.Outcome = {
    last_status: result.status,
    last_error: result.error,
    last_response: result.response.slice(0, 1024),
    last_latency_ms: result.latencyMs,
  };
  if (result.ok) return deliveries.markDelivered(db, delivery.id, outcome, stamp(at));
  const givingUp = at.getTime() - Date.parse(`${delivery.created_utc.replace(' ', 'T')}Z`) >= GIVE_UP_MS;
  if (!givingUp) return deliveries.scheduleRetry(db, delivery.id, outcome, stamp(at, backoffMs(delivery.attempts)));
  await db.transaction().execute((trx) => deliveries.giveUp(trx, delivery, outcome, stamp(at)));
}

/** One round: claims what is due at `at`, delivers it, records the outcomes; returns how many were attempted. */
export async function deliverDue(deps: WebhookDeps, at: Date = new Date(), limit = 20): Promise<number> {
  const claimed = await claim(deps.db, at, limit);
  if (claimed.length === 0) return 0;
  const bodies = await payloads(deps, claimed);
  // Deliveries of one record go one after another; different records side by side.
  const byRecord = new Map<string, Claimed[]>();
  for (const c of claimed)
    byRecord.set(`${c.webhook_id}:${c.kind}:${c.record_id}`, [
      ...(byRecord.get(`${c.webhook_id}:${c.kind}:${c.record_id}`) ?? []),
      c,
    ]);
  await Promise.all(
    [...byRecord.values()].map(async (queue) => {
      for (const delivery of queue) {
        const body = bodies.get(delivery.id)!;
        const result = await send(
          delivery.url,
          body,
          signedHeaders(delivery.secret, `msg_${delivery.id}`, new Date(), body),
          deps.config.webhooksAllowPrivate,
        );
        await record(deps.db, delivery, result, at);
        if (!result.ok) break;
      }
    }),
  );
  return claimed.length;
}

/** Runs the worker every second in the background of this instance (one round at a time). */
export function startWorker(app: FastifyInstance, deps: WebhookDeps): void {
  runInBackground(app, 'webhook deliveries', () => deliverDue(deps));
}
