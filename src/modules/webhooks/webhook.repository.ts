import { sql, type Insertable, type Selectable, type SqlBool, type Updateable } from 'kysely';
import type { Db, WebhookTable } from '../../db/database.js';
import { dialectOf } from '../../db/dialect.js';
import { nowUtc } from '../../lib/clock.js';
import type { ChangeKind } from '../sync/sync.repository.js';

/** Subscriptions, their event patterns, their deliveries as the worker claims and settles them, and the log. */

export type WebhookRow = Selectable<WebhookTable>;
export type NewWebhook = Insertable<WebhookTable>;
export type WebhookUpdate = Updateable<WebhookTable>;

export function list(db: Db): Promise<WebhookRow[]> {
  return db.selectFrom('webhooks').selectAll().orderBy('id').execute();
}

export function findById(db: Db, id: number): Promise<WebhookRow | undefined> {
  return db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
}

export function create(trx: Db, row: NewWebhook): Promise<WebhookRow> {
  return trx.insertInto('webhooks').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function update(trx: Db, id: number, changes: WebhookUpdate): Promise<void> {
  if (Object.keys(changes).length > 0) await trx.updateTable('webhooks').set(changes).where('id', '=', id).execute();
}

/** Deletes a subscription; its patterns and deliveries go with it (foreign keys cascade). */
export async function remove(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The event types (`event.created`, `venue.*`, `*`) a subscription receives, which the outbox trigger matches. */
export async function replacePatterns(trx: Db, id: number, events: string[]): Promise<void> {
  await trx.deleteFrom('webhook_patterns').where('webhook_id', '=', id).execute();
  await trx
    .insertInto('webhook_patterns')
    .values([...new Set(events)].map((pattern) => ({ webhook_id: id, pattern })))
    .execute();
}

/** What a failing subscription gave up on is delivered again, from now, in order. */
export async function redeliverFailed(trx: Db, id: number): Promise<void> {
  await trx
    .updateTable('webhook_deliveries')
    .set({ status: 'pending', next_attempt_utc: nowUtc(), lease_until: null })
    .where('webhook_id', '=', id)
    .where('status', '=', 'failed')
    .execute();
}

/** A page of a subscription's delivery log, newest first (the (webhook_id, id) index serves it). */
export function deliveries(db: Db, id: number, page: number, perPage: number) {
  return db
    .selectFrom('webhook_deliveries')
    .select([
      'id',
      'event_type',
      'kind',
      'record_id',
      'status',
      'attempts',
      'last_status',
      'last_error',
      'last_latency_ms',
      'next_attempt_utc',
      'created_utc',
      'delivered_utc',
    ])
    .where('webhook_id', '=', id)
    .orderBy('id', 'desc')
    .limit(perPage)
    .offset((page - 1) * perPage)
    .execute();
}

/** A delivery a worker holds, with what it needs to send it. */
export interface Claimed {
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

/** Whether any delivery is pending and due at `now` (the partial index of pending deliveries). */
export async function anyDue(db: Db, now: string): Promise<boolean> {
  const row = await db
    .selectFrom('webhook_deliveries')
    .select('id')
    .where(sql<SqlBool>`status = 'pending'`)
    .where('next_attempt_utc', '<=', now)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Claims up to `limit` deliveries due at `now` (pending, not leased, of an active subscription,
 * and no pending delivery of the same record at an earlier position: in the order of the change
 * log per record), leasing them until `leaseUntil` and counting the attempt. `through`, when not
 * null, is the last position whose writers have all ended (the sync service's): a change past it
 * may have an earlier one of its record not yet committed, so it waits. On PostgreSQL `FOR UPDATE
 * SKIP LOCKED`, so several instances never claim one twice. Served by the partial index of pending
 * deliveries by due time, and the earlier ones by `webhook_deliveries_record` (034).
 */
export function claimDue(
  db: Db,
  now: string,
  leaseUntil: string,
  limit: number,
  through: number | null,
): Promise<Claimed[]> {
  const postgres = dialectOf(db) === 'postgres';
  return db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
      .select(['d.id'])
      .where(sql<SqlBool>`d.status = 'pending'`)
      .where('d.next_attempt_utc', '<=', now)
      .$if(through !== null, (qb) => qb.where('d.position', '<=', through!))
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
              .whereRef('e.position', '<', 'd.position')
              // A literal: the condition of the partial index that serves this probe (034).
              .where(sql<SqlBool>`e.status = 'pending'`),
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
      .set({ lease_until: leaseUntil, attempts: sql`attempts + 1` })
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

/** What an attempt answered, kept on its delivery. */
export interface Outcome {
  last_status: number | null;
  last_error: string | null;
  last_response: string;
  last_latency_ms: number;
}

export async function markDelivered(db: Db, id: number, outcome: Outcome, at: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ ...outcome, lease_until: null, status: 'delivered', delivered_utc: at })
    .where('id', '=', id)
    .execute();
}

export async function scheduleRetry(db: Db, id: number, outcome: Outcome, nextAttempt: string): Promise<void> {
  await db
    .updateTable('webhook_deliveries')
    .set({ ...outcome, lease_until: null, next_attempt_utc: nextAttempt })
    .where('id', '=', id)
    .execute();
}

/** Gives a delivery up and marks its subscription failing (in the caller's transaction). */
export async function giveUp(trx: Db, delivery: Claimed, outcome: Outcome, at: string): Promise<void> {
  await trx
    .updateTable('webhook_deliveries')
    .set({ ...outcome, lease_until: null, status: 'failed' })
    .where('id', '=', delivery.id)
    .execute();
  await trx
    .updateTable('webhooks')
    .set({ status: 'failing', failing_since: at })
    .where('id', '=', delivery.webhook_id)
    .where('status', '=', 'active')
    .execute();
}
