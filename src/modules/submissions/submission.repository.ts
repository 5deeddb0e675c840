import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db, SubmissionTable } from '../../db/database.js';
import { transactionLock } from '../../db/dialect.js';

/** Submissions and spam blocks (migration 024). */

export type SubmissionRow = Selectable<SubmissionTable>;

export async function insert(trx: Db, row: Insertable<SubmissionTable>): Promise<number> {
  const { id } = await trx.insertInto('submissions').values(row).returning('id').executeTakeFirstOrThrow();
  return id;
}

export function findById(db: Db, id: number): Promise<SubmissionRow | undefined> {
  return db.selectFrom('submissions').selectAll().where('id', '=', id).executeTakeFirst();
}

export function findByConfirmHash(db: Db, hash: string): Promise<SubmissionRow | undefined> {
  return db.selectFrom('submissions').selectAll().where('confirm_hash', '=', hash).executeTakeFirst();
}

/** A page of submissions in one state (or all), oldest first for the queue, newest first otherwise. */
export function page(db: Db, state: string | null, offset: number, limit: number): Promise<SubmissionRow[]> {
  return db
    .selectFrom('submissions')
    .selectAll()
    .$if(state !== null, (qb) => qb.where('state', '=', state!))
    .orderBy('id', state === 'pending' || state === 'unconfirmed' ? 'asc' : 'desc')
    .offset(offset)
    .limit(limit)
    .execute();
}

export async function count(db: Db, state: string | null): Promise<number> {
  const row = await db
    .selectFrom('submissions')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .$if(state !== null, (qb) => qb.where('state', '=', state!))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Submissions from each key since `since` (the rate limits), counted on the (key, created) indexes.
 * Spam-marked ones count too: a blocked sender's attempts are refused before they are stored.
 */
export async function recentCounts(
  db: Db,
  ipKey: string,
  emailKey: string,
  since: string,
): Promise<{ ip: number; email: number }> {
  const [ip, email] = await Promise.all(
    (['ip_key', 'email_key'] as const).map(async (column) => {
      const row = await db
        .selectFrom('submissions')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where(column, '=', column === 'ip_key' ? ipKey : emailKey)
        .where('created_utc', '>=', since)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    }),
  );
  return { ip: ip!, email: email! };
}

/** Changes a submission (in the caller's transaction) when it is still in one of `from`; false otherwise. */
export async function update(
  trx: Db,
  id: number,
  from: readonly string[],
  set: Partial<Omit<SubmissionRow, 'id'>>,
): Promise<boolean> {
  const result = await trx
    .updateTable('submissions')
    .set(set)
    .where('id', '=', id)
    .where('state', 'in', [...from])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Whether any of `keys` is blocked at `now` (one statement on the primary key). */
export async function isBlocked(db: Db, keys: string[], now: string): Promise<boolean> {
  const row = await db
    .selectFrom('spam_blocks')
    .select('key')
    .where('key', 'in', keys)
    .where('until_utc', '>', now)
    .executeTakeFirst();
  return row !== undefined;
}

export async function block(trx: Db, keys: string[], until: string, submissionId: number): Promise<void> {
  for (const key of keys)
    await trx
      .insertInto('spam_blocks')
      .values({ key, until_utc: until, submission_id: submissionId })
      .onConflict((oc) => oc.column('key').doUpdateSet({ until_utc: until, submission_id: submissionId }))
      .execute();
}

/** Submissions created since `since` and still waiting (a moderator's digest), oldest first. */
export function waitingSince(db: Db, since: string, limit: number): Promise<SubmissionRow[]> {
  return db
    .selectFrom('submissions')
    .selectAll()
    .where('state', '=', 'pending')
    .where('created_utc', '>=', since)
    .orderBy('id')
    .limit(limit)
    .execute();
}

/** Moderators (editors and administrators) who asked for submission mails of one kind. */
export function moderatorsWanting(db: Db, kind: 'each' | 'digest'): Promise<{ id: number; email: string }[]> {
  return db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('submission_mail', '=', kind)
    .where('role', 'in', ['editor', 'administrator'])
    .where('email', '<>', '')
    .orderBy('id')
    .execute();
}

export async function setSubmissionMail(db: Db, userId: number, value: string): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ submission_mail: value })
    .where('id', '=', userId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The account anonymous submissions belong to, made on first use (two instances at once: one wins). */
export async function submissionsAccount(trx: Db, username: string, registered: string): Promise<number> {
  await trx
    .insertInto('users')
    .values({ username, email: '', role: 'contributor', registered })
    .onConflict((oc) => oc.column('username').doNothing())
    .execute();
  const row = await trx.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow();
  return row.id;
}

/**
 * A live event (or waiting submission) of the same title (case-insensitive) starting at the same
 * local time in the language: the duplicate check. Served by the (lang, start_local) index.
 */
export async function sameTitleAndStart(
  db: Db,
  lang: string,
  startLocal: string,
  title: string,
  exceptId = 0,
): Promise<number | null> {
  const row = await db
    .selectFrom('events')
    .select('id')
    .where('lang', '=', lang)
    .where('start_local', '=', startLocal)
    .where('id', '<>', exceptId)
    .where('status', '<>', 'trash')
    .where(sql`lower(title)`, '=', title.toLowerCase())
    .executeTakeFirst();
  return row?.id ?? null;
}

/** Marks a proof-of-work challenge spent; false when it already was (a replayed solution). */
export async function spendChallenge(db: Db, key: string, until: string, now: string): Promise<boolean> {
  await db.deleteFrom('used_challenges').where('until_utc', '<', now).execute();
  const row = await db
    .insertInto('used_challenges')
    .values({ key, until_utc: until })
    .onConflict((oc) => oc.column('key').doNothing())
    .returning('key')
    .executeTakeFirst();
  return row !== undefined;
}

/** A live event of the same title (case-insensitive) on the same local day: a possible duplicate. */
export async function sameTitleOnDay(db: Db, lang: string, day: string, title: string): Promise<number | null> {
  const row = await db
    .selectFrom('events')
    .select('id')
    .where('lang', '=', lang)
    .where('start_local', '>=', `${day} 00:00:00`)
    .where('start_local', '<=', `${day} 23:59:59`)
    .where('status', '<>', 'trash')
    .where(sql`lower(title)`, '=', title.toLowerCase())
    .executeTakeFirst();
  return row?.id ?? null;
}

export async function userEmail(db: Db, userId: number): Promise<string | undefined> {
  return (await db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst())?.email;
}

/**
 * Makes concurrent submissions from one sender take turns until their transactions end, so the
 * rate limit and the duplicate check, made again inside the write, count each other (PostgreSQL:
 * advisory locks, in a fixed order so two writers never wait on each other; SQLite's writers never
 * overlap).
 */
export async function lockSender(trx: Db, keys: string[]): Promise<void> {
  for (const key of [...new Set(keys)].sort()) await transactionLock(trx, `submission\n${key}`);
}

/**
 * Open submissions whose event a moderator published or trashed through the events API or the
 * admin's event editor rather than the queue: the submissions table's state index, then each
 * event by its key.
 */
export function decidedElsewhere(db: Db, limit: number): Promise<(SubmissionRow & { event_status: string })[]> {
  return db
    .selectFrom('submissions as s')
    .innerJoin('events as e', 'e.id', 's.event_id')
    .selectAll('s')
    .select('e.status as event_status')
    .where('s.state', 'in', ['pending', 'unconfirmed'])
    .where('e.status', 'in', ['publish', 'trash'])
    .orderBy('s.id')
    .limit(limit)
    .execute();
}
