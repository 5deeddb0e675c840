import type { FastifyInstance } from 'fastify';
import { sql, type SqlBool } from 'kysely';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { dialectOf } from '../../db/dialect.js';
import { backgroundContext } from '../../http/context.js';
import type { Settings } from '../../http/site-settings.js';
import { nowUtc } from '../../lib/clock.js';
import { currentRecords } from '../sync/sync.records.js';
import { toEntry } from '../sync/sync.feed.js';
import type { ChangeKind } from '../sync/sync.repository.js';
import { send, signedHeaders, type SendResult } from './webhook.send.js';

/**
 * The delivery worker each instance runs: claims due deliveries (with FOR UPDATE SKIP LOCKED on
 * PostgreSQL, so several instances never claim one twice), renders each as the public change-feed
 * entry of its record now, signs and posts it, and records the outcome. At least once, in order
 * per record (a delivery waits while an earlier one of its record is pending), retried with
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
const TICK_MS = 1_000;

/** The wait before attempt `attempts + 1`: 5 s doubling, at most an hour, times 0.5-1.5 (jitter). */
export function backoffMs(attempts: number, random: () => number = Math.random): number {
  return Math.round(Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 3_600_000) * (0.5 + random()));
}

const stamp = (at: Date, plusMs = 0): string => nowUtc(new Date(at.getTime() + plusMs));

interface Claimed {
  id: number;
  webhook_id: number;
  kind: ChangeKind;
  record_id: number;
  lang: string;
  event_type: string;
  change_at_utc: string;
  attempts: number;
  created_utc: string;
  url: string;
  secret: string;
}

/** Claims up to `limit` due deliveries for this worker (a lease, so a crashed worker's come back). */
async function claim(db: Db, at: Date, limit: number): Promise<Claimed[]> {
  const now = stamp(at);
  const postgres = dialectOf(db) === 'postgres';
  return db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
      .select(['d.id'])
      .where(sql<SqlBool>`d.status = 'pending'`)
      .where('d.next_attempt_utc', '<=', now)
      .where((eb) => eb.or([eb('d.lease_until', 'is', null), eb('d.lease_until', '<', now)]))
      .where('w.active', '=', 1)
      .where('w.status', '=', 'active')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('webhook_deliveries as e')
              .select('e.id')
              .whereRef('e.webhook_id', '=', 'd.webhook_id')
              .whereRef('e.kind', '=', 'd.kind')
              .whereRef('e.record_id', '=', 'd.record_id')
              .whereRef('e.id', '<', 'd.id')
              .where('e.status', '=', 'pending'),
          ),
        ),
      )
      .orderBy('d.next_attempt_utc')
      .orderBy('d.id')
      .limit(limit)
      .$if(postgres, (qb) => qb.forUpdate('d').skipLocked())
      .execute();
    if (due.length === 0) return [];
    const ids = due.map((d) => d.id);
    await trx
      .updateTable('webhook_deliveries')
      .set({ lease_until: stamp(at, LEASE_MS), attempts: sql`attempts + 1` })
      .where('id', 'in', ids)
      .execute();
    return (await trx
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
      .select([
        'd.id',
        'd.webhook_id',
        'd.kind',
        'd.record_id',
        'd.lang',
        'd.event_type',
        'd.change_at_utc',
        'd.attempts',
        'd.created_utc',
        'w.url',
        'w.secret',
      ])
      .where('d.id', 'in', ids)
      .orderBy('d.id')
      .execute()) as Claimed[];
  });
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
  const outcome = {
    last_status: result.status,
    last_error: result.error,
    last_response: result.response.slice(0, 1024),
    last_latency_ms: result.latencyMs,
    lease_until: null,
  };
  if (result.ok) {
    await db
      .updateTable('webhook_deliveries')
      .set({ ...outcome, status: 'delivered', delivered_utc: stamp(at) })
      .where('id', '=', delivery.id)
      .execute();
    return;
  }
  const givingUp = at.getTime() - Date.parse(`${delivery.created_utc.replace(' ', 'T')}Z`) >= GIVE_UP_MS;
  if (!givingUp) {
    await db
      .updateTable('webhook_deliveries')
      .set({ ...outcome, next_attempt_utc: stamp(at, backoffMs(delivery.attempts)) })
      .where('id', '=', delivery.id)
      .execute();
    return;
  }
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('webhook_deliveries')
      .set({ ...outcome, status: 'failed' })
      .where('id', '=', delivery.id)
      .execute();
    await trx
      .updateTable('webhooks')
      .set({ status: 'failing', failing_since: stamp(at) })
      .where('id', '=', delivery.webhook_id)
      .where('status', '=', 'active')
      .execute();
  });
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
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | null = null;
  const tick = () => {
    if (running) return;
    running = (async () => {
      while ((await deliverDue(deps)) > 0) {
        /* drain what is due */
      }
    })()
      .catch((error: unknown) => app.log.error({ err: error }, 'webhook deliveries failed'))
      .finally(() => (running = null));
  };
  app.addHook('onReady', async () => {
    timer = setInterval(tick, TICK_MS);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
