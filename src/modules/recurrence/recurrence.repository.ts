import { sql, type SqlBool } from 'kysely';
import type { Db, EventRow, EventTable } from '../../db/database.js';
import type { Recurrence } from './recurrence.rule.js';

/**
 * Reads and writes of `event_recurrence`, and of the events of series: their occurrences, made
 * and changed a chunk of a few hundred rows per statement (a series of a hundred dates costs a
 * fixed handful: ids, slugs, rows, links and term counts each in one multi-row statement).
 */

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

// --- Occurrences as event rows ----------------------------------------------------------------

/** Rows per INSERT: under SQLite's 32,766 bound parameters at ~40 columns a row. */
const CHUNK = 200;

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Runs `work` on `ids` a chunk at a time (an `in` list stays within every parameter bound). */
async function forChunks(ids: number[], work: (part: number[]) => Promise<unknown>): Promise<void> {
  for (const part of chunks(ids, 500)) await work(part);
}

/** An event row (a series, an occurrence). */
export function findEvent(db: Db, id: number): Promise<EventRow | undefined> {
  return db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Sets `columns` on the events `ids`, in chunks. */
export async function updateEvents(trx: Db, ids: number[], columns: Partial<EventTable>): Promise<void> {
  if (Object.keys(columns).length === 0) return;
  await forChunks(ids, (part) => trx.updateTable('events').set(columns).where('id', 'in', part).execute());
}

/** Bumps the revision (iCalendar SEQUENCE) of many events at once. */
export async function bumpRevisions(trx: Db, ids: number[]): Promise<void> {
  await forChunks(ids, (part) =>
    trx
      .updateTable('events')
      .set({ revision: sql`revision + 1` })
      .where('id', 'in', part)
      .execute(),
  );
}

/** The organizers of an event, in order. */
export async function organizerIdsOf(db: Db, eventId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('event_organizers')
    .select('organizer_id')
    .where('event_id', '=', eventId)
    .orderBy('position')
    .execute();
  return rows.map((r) => r.organizer_id);
}

/** The terms of an event, every taxonomy. */
export async function termIdsOf(db: Db, eventId: number): Promise<number[]> {
  const rows = await db.selectFrom('event_terms').select('term_id').where('event_id', '=', eventId).execute();
  return rows.map((r) => r.term_id);
}

/** New ids from the shared post sequence, in one statement. */
export async function allocateIds(trx: Db, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (const part of chunks(
    Array.from({ length: count }, () => ({ type: 'event' as const })),
    1000,
  )) {
    const rows = await trx.insertInto('posts').values(part).returning('id').execute();
    ids.push(...rows.map((r) => r.id));
  }
  return ids.sort((a, b) => a - b);
}

/** Of `slugs`, those a live record of the language has. */
export async function takenSlugs(trx: Db, lang: string, slugs: string[]): Promise<Set<string>> {
  const taken = new Set<string>();
  for (const part of chunks(slugs, 500)) {
    const rows = await trx
      .selectFrom('events')
      .select('slug')
      .where('lang', '=', lang)
      .where('slug', 'in', part)
      .where('status', '<>', 'trash')
      .execute();
    for (const row of rows) taken.add(row.slug);
  }
  return taken;
}

/**
 * The translation group each new occurrence joins: the group of the occurrence with the same
 * recurrence id in a translation of the series (so a translated series is linked date by date),
 * unless that group has a live member in this language already.
 */
export async function translationGroups(trx: Db, series: EventRow, walls: string[]): Promise<Map<string, number>> {
  const groups = new Map<string, number>();
  const siblings = await trx
    .selectFrom('events')
    .select('id')
    .where('trid', '=', series.trid)
    .where('id', '<>', series.id)
    .whereRef('series_id', '=', 'id')
    .execute();
  if (siblings.length === 0) return groups;
  const siblingIds = siblings.map((s) => s.id);
  for (const part of chunks(walls, 500)) {
    const rows = await trx
      .selectFrom('events as o')
      .select(['o.recurrence_id', 'o.trid'])
      .where('o.series_id', 'in', siblingIds)
      .where('o.recurrence_id', 'in', part)
      .where('o.status', '<>', 'trash')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('events as mine')
              .select('mine.id')
              .whereRef('mine.trid', '=', 'o.trid')
              .where('mine.lang', '=', series.lang)
              .where('mine.status', '<>', 'trash'),
          ),
        ),
      )
      .execute();
    for (const row of rows) if (!groups.has(row.recurrence_id!)) groups.set(row.recurrence_id!, row.trid);
  }
  return groups;
}

export async function insertEvents(trx: Db, rows: EventTable[]): Promise<void> {
  for (const part of chunks(rows)) await trx.insertInto('events').values(part).execute();
}

/** Links every event of `ids` to the organizers (in order) and terms given. */
export async function linkAll(trx: Db, ids: number[], organizerIds: number[], termIds: number[]): Promise<void> {
  const organizerRows = ids.flatMap((event_id) =>
    organizerIds.map((organizer_id, position) => ({ event_id, organizer_id, position })),
  );
  for (const part of chunks(organizerRows, 1000)) await trx.insertInto('event_organizers').values(part).execute();
  const termRows = ids.flatMap((event_id) => termIds.map((term_id) => ({ event_id, term_id })));
  for (const part of chunks(termRows, 1000)) await trx.insertInto('event_terms').values(part).execute();
}

/** Takes the organizer or term links of the events `ids` off. */
export async function unlinkAll(trx: Db, ids: number[], table: 'event_organizers' | 'event_terms'): Promise<void> {
  await forChunks(ids, (part) => trx.deleteFrom(table).where('event_id', 'in', part).execute());
}

/** The next published, listed occurrences of a series ending from `fromLocal` on, other than `exceptId`. */
export function nextPublished(db: Db, seriesId: number, exceptId: number, fromLocal: string, limit: number) {
  return db
    .selectFrom('events')
    .select(['id', 'slug', 'start_local', 'end_local', 'start_utc', 'end_utc', 'all_day', 'timezone', 'timezone_abbr'])
    .where('series_id', '=', seriesId)
    .where(sql<SqlBool>`status = 'publish'`)
    .where('hide_from_listings', '=', 0)
    .where('end_local', '>=', fromLocal)
    .where('id', '<>', exceptId)
    .orderBy('start_local')
    .limit(limit)
    .execute();
}
