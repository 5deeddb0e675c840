import type { Expression, SqlBool } from 'kysely';
import type { Db, EventRow, EventTable } from '../../db/database.js';
import { prepared } from '../../db/prepared.js';

/** Reads and writes of the events table and its links; the first parameter may be a transaction. */

const byId = prepared((db, args: { id: number }) => db.selectFrom('events').selectAll().where('id', '=', args.id));

export async function findById(db: Db, id: number): Promise<EventRow | undefined> {
  return (await byId(db, { id }))[0];
}

/** Whether `id` belongs to a record of another kind (the ids of all post-like records are one sequence). */
export async function isOtherPost(db: Db, id: number): Promise<boolean> {
  const post = await db.selectFrom('posts').select('type').where('id', '=', id).executeTakeFirst();
  return post !== undefined && post.type !== 'event';
}

/** A slug in a language; the record out of the trash wins over a trashed one (SPEC item 22). */
export function findBySlug(db: Db, slug: string, lang: string): Promise<EventRow | undefined> {
  return db
    .selectFrom('events')
    .selectAll()
    .where('lang', '=', lang)
    .where('slug', '=', slug)
    .orderBy((eb) => eb.case().when('status', '=', 'trash').then(1).else(0).end())
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

/** The event `id` and the series it belongs to (its own id for a series row), if it is an event. */
export function seriesIdOf(
  db: Db,
  id: number,
): Promise<{ id: number; series_id: number | null | undefined } | undefined> {
  return db.selectFrom('events').select(['id', 'series_id']).where('id', '=', id).executeTakeFirst();
}

/** Of `ids`, the venues or organizers that `visible` (the caller's visibility condition) lets through; one query. */
export async function visibleLinkedIds(
  db: Db,
  table: 'venues' | 'organizers',
  ids: number[],
  visible: Expression<SqlBool>,
): Promise<Set<number>> {
  const rows = await db.selectFrom(table).select('id').where('id', 'in', ids).where(visible).execute();
  return new Set(rows.map((r) => r.id));
}

const insertRow = prepared((db, row: EventTable) => db.insertInto('events').values(row));

/** `row` has every column (the shape of the statement follows its keys). */
export async function insert(db: Db, row: EventTable): Promise<void> {
  await insertRow(db, row);
}

/** Every update and trash of an event raises its revision (the iCalendar SEQUENCE), in the write's transaction. */
export async function bumpRevision(db: Db, id: number): Promise<void> {
  await db
    .updateTable('events')
    .set((eb) => ({ revision: eb('revision', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

export async function update(db: Db, id: number, columns: Partial<EventTable>): Promise<void> {
  if (Object.keys(columns).length === 0) return;
  await db.updateTable('events').set(columns).where('id', '=', id).execute();
}

const linksOf = prepared((db, args: { eventIds: number[] }) =>
  db
    .selectFrom('event_organizers')
    .select(['event_id', 'organizer_id'])
    .where('event_id', 'in', args.eventIds)
    .orderBy('event_id')
    .orderBy('position'),
);

/** The organizer links of events, in each event's order. */
export async function organizerLinks(
  db: Db,
  eventIds: number[],
): Promise<{ event_id: number; organizer_id: number }[]> {
  return eventIds.length === 0 ? [] : linksOf(db, { eventIds });
}

/** Replaces the organizers, keeping the order given (`fresh`: the event has none yet). */
export async function setOrganizers(db: Db, eventId: number, ids: number[], fresh = false): Promise<void> {
  if (!fresh) await db.deleteFrom('event_organizers').where('event_id', '=', eventId).execute();
  if (ids.length === 0) return;
  await db
    .insertInto('event_organizers')
    .values(ids.map((organizer_id, position) => ({ event_id: eventId, organizer_id, position })))
    .execute();
}

/** The event's term ids of one taxonomy. */
export async function termIds(db: Db, eventId: number, taxonomy: 'cal_events_cat' | 'post_tag'): Promise<number[]> {
  const rows = await db
    .selectFrom('event_terms')
    .innerJoin('terms', 'terms.id', 'event_terms.term_id')
    .select('terms.id')
    .where('event_terms.event_id', '=', eventId)
    .where('terms.taxonomy', '=', taxonomy)
    .execute();
  return rows.map((r) => r.id);
}

const linkTerms = prepared((db, args: { eventId: number; termIds: number[] }) =>
  db.insertInto('event_terms').values(args.termIds.map((term_id) => ({ event_id: args.eventId, term_id }))),
);

/** Replaces the terms of one taxonomy. */
export async function setTerms(db: Db, eventId: number, previous: number[], next: number[]): Promise<void> {
  if (previous.length > 0)
    await db.deleteFrom('event_terms').where('event_id', '=', eventId).where('term_id', 'in', previous).execute();
  if (next.length > 0) await linkTerms(db, { eventId, termIds: [...new Set(next)] });
}

export async function allTermIds(db: Db, eventId: number): Promise<number[]> {
  const rows = await db.selectFrom('event_terms').select('term_id').where('event_id', '=', eventId).execute();
  return rows.map((r) => r.term_id);
}
