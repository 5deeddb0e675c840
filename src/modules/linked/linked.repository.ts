import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../db/database.js';
import type { LinkedKind, LinkedRow } from './linked-kind.js';
import type { Owned } from '../../auth/roles.js';

/**
 * The SQL of the venue and organizer routes. A venue is linked to events through events.venue_id,
 * an organizer through event_organizers; each helper below hides that difference, and each is
 * served by an index of 001_initial (events_venue, event_organizers_organizer, the primary keys).
 */

/** The record with this slug in a language, preferring one that is not in the trash (SPEC item 22). */
export function findBySlug(db: Db, kind: LinkedKind, slug: string, lang: string): Promise<LinkedRow | undefined> {
  return db
    .selectFrom(kind.table)
    .selectAll()
    .where('lang', '=', lang)
    .where('slug', '=', slug)
    .orderBy(sql`case when status = 'trash' then 1 else 0 end`)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst() as Promise<LinkedRow | undefined>;
}

/** Who may read the event: its author and status, undefined when there is none. */
export function eventOwnership(db: Db, id: number): Promise<Owned | undefined> {
  return db.selectFrom('events').select(['author', 'status']).where('id', '=', id).executeTakeFirst();
}

/** `from … where …` reaching, as alias `e`, the events linked to the outer query's record. */
function linkedEventsOf(kind: LinkedKind): RawBuilder<unknown> {
  return kind.table === 'venues'
    ? sql`events e where e.venue_id = venues.id`
    : sql`event_organizers eo join events e on e.id = eo.event_id where eo.organizer_id = organizers.id`;
}

/** The record is linked to at least one event meeting `condition` (any event without one). */
export function hasLinkedEvent(kind: LinkedKind, condition?: Expression<SqlBool>): RawBuilder<SqlBool> {
  const extra = condition ? sql` and ${condition}` : sql``;
  return sql<SqlBool>`exists (select 1 from ${linkedEventsOf(kind)}${extra})`;
}

/**
 * The record linked to the event, or a translation of it: lists show the request's language, and
 * an event's venue and organizers follow the language (SPEC "Languages"). `shown` (on `e`) says
 * whether the reader sees the event's links (a protected event's are hidden: event.access.ts).
 */
export function linkedToEvent(kind: LinkedKind, eventId: number, shown: Expression<SqlBool>): RawBuilder<SqlBool> {
  return kind.table === 'venues'
    ? sql<SqlBool>`venues.trid in (select v.trid from events e join venues v on v.id = e.venue_id where e.id = ${eventId} and ${shown})`
    : sql<SqlBool>`organizers.trid in (select o.trid from event_organizers eo join events e on e.id = eo.event_id join organizers o on o.id = eo.organizer_id where eo.event_id = ${eventId} and ${shown})`;
}

/** Removes this record, and only it, from every event (SPEC item 4). */
export async function unlinkFromEvents(trx: Db, kind: LinkedKind, id: number): Promise<void> {
  if (kind.table === 'venues')
    await trx.updateTable('events').set({ venue_id: null }).where('venue_id', '=', id).execute();
  else await trx.deleteFrom('event_organizers').where('organizer_id', '=', id).execute();
}

/** One language's records meeting every condition; the lists order by (lang, date, id), an index. */
function filtered(db: Db, kind: LinkedKind, lang: string, where: Expression<SqlBool>[]) {
  return db
    .selectFrom(kind.table)
    .where(`${kind.table}.lang` as 'lang', '=', lang)
    .where((eb) => eb.and(where));
}

export async function countLinked(
  db: Db,
  kind: LinkedKind,
  lang: string,
  where: Expression<SqlBool>[],
): Promise<number> {
  const row = await filtered(db, kind, lang, where)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A page, newest publication date first, then highest id (WP_Query's default order). */
export function pageLinked(
  db: Db,
  kind: LinkedKind,
  lang: string,
  where: Expression<SqlBool>[],
  limit: number,
  offset: number,
): Promise<LinkedRow[]> {
  return filtered(db, kind, lang, where)
    .selectAll()
    .orderBy('date', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute() as Promise<LinkedRow[]>;
}
