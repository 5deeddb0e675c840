import { sql, type Insertable, type SqlBool } from 'kysely';
import type { Db, MailOutboxTable } from '../../db/database.js';
import { dialectOf } from '../../db/dialect.js';

/** The mail outbox (migration 024): rendered mails, claimed and sent by the worker. */

/** What a queued mail is given; the rest (status, attempts, due time) the outbox sets. */
export type QueuedMail = Pick<
  Insertable<MailOutboxTable>,
  'to_address' | 'lang' | 'kind' | 'subject' | 'text_body' | 'html_body' | 'headers' | 'dedupe' | 'created_utc'
> & { created_utc: string };

/**
 * Queues a mail in the caller's transaction. One with a `dedupe` key already queued is not queued
 * again (a moderator's digest of a day, prepared by two instances at once): returns false then.
 */
export async function enqueue(trx: Db, mail: QueuedMail): Promise<boolean> {
  const row = await trx
    .insertInto('mail_outbox')
    .values({ ...mail, status: 'pending', next_attempt_utc: mail.created_utc })
    .onConflict((oc) => oc.column('dedupe').doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function isQueued(db: Db, dedupe: string): Promise<boolean> {
  return (
    (await db.selectFrom('mail_outbox').select('id').where('dedupe', '=', dedupe).executeTakeFirst()) !== undefined
  );
}

export interface ClaimedMail {
  id: number;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  headers: string;
  attempts: number;
  created_utc: string;
}

/**
 * Claims up to `limit` mails due at `now`, leasing them until `leaseUntil` and counting the
 * attempt: FOR UPDATE SKIP LOCKED on PostgreSQL, so instances never claim one twice (SQLite's
 * writers never overlap). Served by the partial index of pending mails by due time.
 */
export function claimDue(db: Db, now: string, leaseUntil: string, limit: number): Promise<ClaimedMail[]> {
  const postgres = dialectOf(db) === 'postgres';
  return db.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('mail_outbox')
      .select('id')
      .where(sql<SqlBool>`status = 'pending'`)
      .where('next_attempt_utc', '<=', now)
      .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', now)]))
      .orderBy('next_attempt_utc')
      .orderBy('id')
      .limit(limit)
      .$if(postgres, (qb) => qb.forUpdate().skipLocked())
      .execute();
    if (due.length === 0) return [];
    const ids = due.map((d) => d.id);
    return trx
      .updateTable('mail_outbox')
      .set({ lease_until: leaseUntil, attempts: sql`attempts + 1` })
      .where('id', 'in', ids)
      .returning(['id', 'to_address', 'subject', 'text_body', 'html_body', 'headers', 'attempts', 'created_utc'])
      .execute();
  });
}

export async function markSent(db: Db, id: number, messageId: string, at: string): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({ status: 'sent', sent_utc: at, lease_until: null, message_id: messageId, last_error: null })
    .where('id', '=', id)
    .execute();
}

export async function scheduleRetry(db: Db, id: number, error: string, nextAttempt: string): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({ lease_until: null, last_error: error, next_attempt_utc: nextAttempt })
    .where('id', '=', id)
    .execute();
}

export async function markFailed(db: Db, id: number, error: string): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({ status: 'failed', lease_until: null, last_error: error })
    .where('id', '=', id)
    .execute();
}

/** How many mails are in each state (the admin's mail line); served by the (status, id) index. */
export async function countByStatus(db: Db): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('mail_outbox')
    .select(['status', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

/** Forgets sent and failed mails queued before `before` (the outbox is a queue, not an archive). */
export async function purge(db: Db, before: string): Promise<void> {
  await db
    .deleteFrom('mail_outbox')
    .where('status', 'in', ['sent', 'failed'])
    .where('created_utc', '<', before)
    .execute();
}
