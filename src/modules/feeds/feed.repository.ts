import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db, EventRow } from '../../db/database.js';

/**
 * Every statement of the calendar feeds: the events a feed selects (under the event list's own
 * conditions, events/event-list.service.ts buildFilter), their full rows, and the series they
 * bring (feed.service.ts decides which).
 */

/** What a feed's selection reads of an event before choosing: its order and its zone. */
export interface FeedLight {
  id: number;
  start_local: string;
  timezone: string;
  all_day: number;
}

/** The list's base: its language and listed events (the literal matches the partial index), under `where`. */
function listed(db: Db, lang: string, where: Expression<SqlBool>[]) {
  return db
    .selectFrom('events')
    .where('events.lang', '=', lang)
    .where(sql<SqlBool>`events.hide_from_listings = 0`)
    .where((eb) => eb.and(where));
}

/** Events trashed after publication, which feeds show as cancelled. */
export function cancelledClauses(): Expression<SqlBool>[] {
  return [sql<SqlBool>`events.status = 'trash'`, sql<SqlBool>`events.trashed_from = 'publish'`];
}

/** Events that start on or after `local` (`after`), or before it. */
export function startClause(local: string, after: boolean): Expression<SqlBool> {
  return after ? sql<SqlBool>`events.start_local >= ${local}` : sql<SqlBool>`events.start_local < ${local}`;
}

/** The first `limit` listed events of `where` by start and id, in `direction`. */
export function lightRows(
  db: Db,
  lang: string,
  where: Expression<SqlBool>[],
  direction: 'asc' | 'desc',
  limit: number,
): Promise<FeedLight[]> {
  return listed(db, lang, where)
    .select(['events.id', 'events.start_local', 'events.timezone', 'events.all_day'])
    .orderBy('events.start_local', direction)
    .orderBy('events.id', direction)
    .limit(limit)
    .execute() as Promise<FeedLight[]>;
}

/** The count of the listed events of `where` (for the count cache). */
export function countListed(db: Db, lang: string, where: Expression<SqlBool>[]) {
  return listed(db, lang, where).select((eb) => eb.fn.countAll<number>().as('n'));
}

/** Full rows of some of the selected events, in the order of `ids`. */
export async function loadFeedRows(db: Db, ids: number[]): Promise<EventRow[]> {
  if (ids.length === 0) return [];
  const rows = (await db.selectFrom('events').selectAll().where('id', 'in', ids).execute()) as EventRow[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The rows of series `ids` (their masters). */
export function seriesMasters(db: Db, ids: number[]): Promise<EventRow[]> {
  return db.selectFrom('events').selectAll().where('id', 'in', ids).execute();
}

/** The live occurrences of series `ids` that differ from their series: exceptions, unpublished or unlisted ones. */
export function seriesDepartures(db: Db, ids: number[]): Promise<EventRow[]> {
  return db
    .selectFrom('events')
    .selectAll()
    .where('series_id', 'in', ids)
    .where('status', '<>', 'trash')
    .where((eb) =>
      eb.or([eb('recurrence_exception', '=', 1), eb('status', '<>', 'publish'), eb('hide_from_listings', '=', 1)]),
    )
    .orderBy('recurrence_id')
    .execute();
}

/** The exceptions of series `ids` that were trashed after publication. */
export function cancelledExceptions(db: Db, ids: number[]): Promise<EventRow[]> {
  return db
    .selectFrom('events')
    .selectAll()
    .where('series_id', 'in', ids)
    .where('recurrence_exception', '=', 1)
    .where('status', '=', 'trash')
    .where('trashed_from', '=', 'publish')
    .orderBy('recurrence_id')
    .execute();
}

/** The zones of the timed masters and exceptions of the series that events `ids` belong to. */
export async function seriesZoneNames(db: Db, ids: number[]): Promise<string[]> {
  const rows = await db
    .selectFrom('events')
    .select('timezone')
    .distinct()
    .where('all_day', '=', 0)
    .where((eb) => eb.or([eb('id', '=', eb.ref('series_id')), eb('recurrence_exception', '=', 1)]))
    .where('series_id', 'in', (eb) =>
      eb
        .selectFrom('events as selected')
        .select('selected.series_id')
        .where('selected.id', 'in', ids)
        .where('selected.series_id', 'is not', null),
    )
    .execute();
  return rows.map((r) => r.timezone);
}
