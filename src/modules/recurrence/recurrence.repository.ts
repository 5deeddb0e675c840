import type { Db, EventRow } from '../../db/database.js';
import type { Recurrence } from './recurrence.rule.js';

/** Reads and writes of `event_recurrence` and of the occurrence columns of `events`. */

export interface StoredRecurrence extends Recurrence {
  seriesId: number;
  expandedUntil: string;
  complete: boolean;
}

const parseDates = (json: string): string[] => JSON.parse(json) as string[];

export async function findRecurrences(db: Db, seriesIds: number[]): Promise<Map<number, StoredRecurrence>> {
  const found = new Map<number, StoredRecurrence>();
  if (seriesIds.length === 0) return found;
  const rows = await db.selectFrom('event_recurrence').selectAll().where('series_id', 'in', seriesIds).execute();
  for (const row of rows) {
    found.set(row.series_id, {
      seriesId: row.series_id,
      rrule: row.rrule,
      rdates: parseDates(row.rdates),
      exdates: parseDates(row.exdates),
      expandedUntil: row.expanded_until,
      complete: row.complete === 1,
    });
  }
  return found;
}

export async function findRecurrence(db: Db, seriesId: number): Promise<StoredRecurrence | undefined> {
  return (await findRecurrences(db, [seriesId])).get(seriesId);
}

export async function saveRecurrence(
  db: Db,
  seriesId: number,
  recurrence: Recurrence,
  expandedUntil: string,
  complete: boolean,
): Promise<void> {
  const values = {
    rrule: recurrence.rrule,
    rdates: JSON.stringify(recurrence.rdates),
    exdates: JSON.stringify(recurrence.exdates),
    expanded_until: expandedUntil,
    complete: complete ? 1 : 0,
  };
  await db
    .insertInto('event_recurrence')
    .values({ series_id: seriesId, ...values })
    .onConflict((oc) => oc.column('series_id').doUpdateSet(values))
    .execute();
}

export async function deleteRecurrence(db: Db, seriesId: number): Promise<void> {
  await db.deleteFrom('event_recurrence').where('series_id', '=', seriesId).execute();
}

/** The occurrences of a series other than the series row, not in the trash, in date order. */
export function liveOccurrences(db: Db, seriesId: number): Promise<EventRow[]> {
  return db
    .selectFrom('events')
    .selectAll()
    .where('series_id', '=', seriesId)
    .where('id', '<>', seriesId)
    .where('status', '<>', 'trash')
    .orderBy('recurrence_id')
    .orderBy('id')
    .execute();
}

/** How many occurrences a series has had, the trashed ones included (the cap counts what was created). */
export async function occurrenceCount(db: Db, seriesId: number): Promise<number> {
  const row = await db
    .selectFrom('events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('series_id', '=', seriesId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Series whose occurrences stop short of `horizon` (local wall time compared per zone by the caller). */
export async function openSeries(db: Db, before: string, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('event_recurrence')
    .select('series_id')
    .where('complete', '=', 0)
    .where('expanded_until', '<', before)
    .orderBy('expanded_until')
    .limit(limit)
    .execute();
  return rows.map((r) => r.series_id);
}

/** The exceptions of series (edited occurrences still live), for their editors. */
export async function exceptionsOf(
  db: Db,
  seriesIds: number[],
): Promise<Map<number, { id: number; recurrence_id: string }[]>> {
  const found = new Map<number, { id: number; recurrence_id: string }[]>();
  if (seriesIds.length === 0) return found;
  const rows = await db
    .selectFrom('events')
    .select(['id', 'series_id', 'recurrence_id'])
    .where('series_id', 'in', seriesIds)
    .where('recurrence_exception', '=', 1)
    .where('status', '<>', 'trash')
    .orderBy('recurrence_id')
    .execute();
  for (const row of rows) {
    const list = found.get(row.series_id!) ?? [];
    list.push({ id: row.id, recurrence_id: row.recurrence_id! });
    found.set(row.series_id!, list);
  }
  return found;
}
