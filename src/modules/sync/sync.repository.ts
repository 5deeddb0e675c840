import { sql, type SqlBool } from 'kysely';
import type { ChangeLogTable, Db, EventRow, TermRow } from '../../db/database.js';
import { WRITE_ORDER_LOCK } from '../../db/dialect.js';
import type { Selectable } from 'kysely';
import { can, type Actor } from '../../auth/roles.js';
import type { LinkedKind, LinkedRow } from '../linked/linked.kind.js';

export type ChangeRow = Selectable<ChangeLogTable>;
export type ChangeKind = ChangeLogTable['kind'];
export const CHANGE_KINDS: readonly ChangeKind[] = ['event', 'venue', 'organizer', 'category', 'tag'];

/**
 * Which changes a reader is told of: editors all; authors and contributors those of records that
 * are or were public, and of their own; everyone else those of records that are or were public, so
 * a draft's comings and goings never show, and an unpublished record shows as a tombstone.
 */
function visibleChanges(actor: Actor | null): SqlBool | ReturnType<typeof sql<SqlBool>> {
  if (can(actor, 'edit_others_posts')) return sql<SqlBool>`1 = 1`;
  const publicOnes = sql<SqlBool>`(is_public = 1 or was_public = 1)`;
  return actor !== null && can(actor, 'edit_posts')
    ? sql<SqlBool>`(${publicOnes} or author = ${actor.id})`
    : publicOnes;
}

/**
 * A page of a language's changes after `position` and up to `through` (when given), in commit
 * order (one more than asked, to tell `more`).
 */
export function changesAfter(
  db: Db,
  lang: string,
  position: number,
  through: number | null,
  kinds: readonly ChangeKind[],
  actor: Actor | null,
  limit: number,
): Promise<ChangeRow[]> {
  return db
    .selectFrom('change_log')
    .selectAll()
    .where('lang', '=', lang)
    .where('position', '>', position)
    .$if(through !== null, (qb) => qb.where('position', '<=', through!))
    .$if(kinds.length < CHANGE_KINDS.length, (qb) => qb.where('kind', 'in', [...kinds]))
    .where(visibleChanges(actor) as never)
    .orderBy('position')
    .limit(limit + 1)
    .execute();
}

/**
 * PostgreSQL: the last position whose writers have all ended, so none at or before it can still
 * appear. Writers hold the write-order lock shared from before their first position to their
 * commit (016, 026); holding it exclusive for a moment, no writer is between the two, so every
 * position drawn so far is committed or gone, and any drawn later is higher. `null` when a writer
 * holds it longer than `waitMs` (a long import): meanwhile new writers queue behind the wait, so
 * it is short. SQLite's writers are serial: a position a reader sees is final (never called).
 */
export async function settledPosition(db: Db, waitMs: number): Promise<number | null> {
  try {
    return await db.transaction().execute(async (trx) => {
      await sql`select set_config('lock_timeout', ${`${waitMs}ms`}, true)`.execute(trx);
      await sql`select pg_advisory_xact_lock(${WRITE_ORDER_LOCK})`.execute(trx);
      const row = await trx
        .selectFrom('change_log')
        .select((eb) => eb.fn.max('position').as('p'))
        .executeTakeFirst();
      return Number(row?.p ?? 0);
    });
  } catch (error) {
    // 55P03 lock_not_available: the wait timed out.
    if ((error as { code?: string }).code === '55P03') return null;
    throw error;
  }
}

/** The last position a token may name and still be answered: before it, history was pruned. */
export async function prunedThrough(db: Db): Promise<number> {
  const row = await db.selectFrom('change_log_state').select('pruned_through').where('id', '=', 1).executeTakeFirst();
  return Number(row?.pruned_through ?? 0);
}

/**
 * Removes the history older than `beforeUtc`, raising the pruned mark first in the same
 * transaction, so a reader never gets a page with a hole: a token at or before the mark is 410.
 */
export async function prune(db: Db, beforeUtc: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const last = await trx
      .selectFrom('change_log')
      .select((eb) => eb.fn.max('position').as('p'))
      .where('at_utc', '<', beforeUtc)
      .executeTakeFirst();
    const through = Number(last?.p ?? 0);
    if (through === 0) return 0;
    await trx
      .updateTable('change_log_state')
      .set({ pruned_through: sql`case when pruned_through > ${through} then pruned_through else ${through} end` })
      .where('id', '=', 1)
      .execute();
    const result = await trx.deleteFrom('change_log').where('position', '<=', through).executeTakeFirst();
    return Number(result.numDeletedRows);
  });
}

/** The records behind a page of changes, by id (those deleted since are simply not found). */
export async function eventsByIds(db: Db, ids: number[]): Promise<EventRow[]> {
  return (await db.selectFrom('events').selectAll().where('id', 'in', ids).execute()) as EventRow[];
}

export async function linkedByIds(db: Db, kind: LinkedKind, ids: number[]): Promise<LinkedRow[]> {
  return (await db.selectFrom(kind.table).selectAll().where('id', 'in', ids).execute()) as LinkedRow[];
}

export async function termsByIds(db: Db, ids: number[]): Promise<TermRow[]> {
  return (await db.selectFrom('terms').selectAll().where('id', 'in', ids).execute()) as TermRow[];
}
