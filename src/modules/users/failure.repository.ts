import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

/**
 * Failed attempts per key (a hash of what is limited: an address and a username, an address and
 * an event…), in the database so that every instance on it counts the same attempts (migration
 * 021). `reset_at` is the end of the key's window, in milliseconds since the epoch.
 */

export interface FailureCount {
  key_hash: string;
  failures: number;
  reset_at: number;
}

/** The counts of `keys` (the primary key serves it). */
export async function readFailures(db: Db, keys: string[]): Promise<FailureCount[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .selectFrom('failure_counts')
    .select(['key_hash', 'failures', 'reset_at'])
    .where('key_hash', 'in', keys)
    .execute();
  // PostgreSQL answers a bigint as a string.
  return rows.map((r) => ({ key_hash: r.key_hash, failures: Number(r.failures), reset_at: Number(r.reset_at) }));
}

/**
 * One more failure of `key`, atomically whichever instance counts it: a window that has ended
 * starts again at one. Returns the count and window end as stored.
 */
export async function addFailure(db: Db, key: string, now: number, windowMs: number): Promise<FailureCount> {
  const current = sql<boolean>`failure_counts.reset_at > ${now}`;
  const row = await db
    .insertInto('failure_counts')
    .values({ key_hash: key, failures: 1, reset_at: now + windowMs })
    .onConflict((oc) =>
      oc.column('key_hash').doUpdateSet({
        failures: sql<number>`case when ${current} then failure_counts.failures + 1 else 1 end`,
        reset_at: sql<number>`case when ${current} then failure_counts.reset_at else excluded.reset_at end`,
      }),
    )
    .returning(['key_hash', 'failures', 'reset_at'])
    .executeTakeFirstOrThrow();
  return { key_hash: row.key_hash, failures: Number(row.failures), reset_at: Number(row.reset_at) };
}

/** One failure of `key` taken back (an attempt counted before it was checked, that turned out refused or right). */
export async function removeFailure(db: Db, key: string): Promise<void> {
  await db
    .updateTable('failure_counts')
    .set({ failures: sql<number>`failures - 1` })
    .where('key_hash', '=', key)
    .where('failures', '>', 0)
    .execute();
}

export async function clearFailures(db: Db, key: string): Promise<void> {
  await db.deleteFrom('failure_counts').where('key_hash', '=', key).execute();
}

/** Drops the windows that ended before `now` (the reset_at index serves it). */
export async function purgeFailures(db: Db, now: number): Promise<void> {
  await db.deleteFrom('failure_counts').where('reset_at', '<', now).execute();
}
