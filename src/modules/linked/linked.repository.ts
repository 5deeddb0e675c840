import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../db/database.js';
import { containsInsensitive, dialectOf, likeEscape } from '../../db/dialect.js';
import { nowUtc } from '../../lib/clock.js';
import type { LinkedKind, LinkedRow } from './linked.kind.js';
import type { Owned } from '../../auth/roles.js';

/**
 * The SQL of the venue and organizer routes. A venue is linked to events through events.venue_id,
 * an organizer through event_organizers; each helper below hides that difference, and each is
 * served by an index of 001_initial (events_venue, event_organizers_organizer, the primary keys).
 */

export function findById(db: Db, kind: LinkedKind, id: number): Promise<LinkedRow | undefined> {
  return db.selectFrom(kind.table).selectAll().where('id', '=', id).executeTakeFirst() as Promise<
    LinkedRow | undefined
  >;
}

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

/** Events that count for `has_events` (original 3.2). */
const LISTED_EVENT = sql<SqlBool>`e.status not in ('draft', 'pending', 'trash')`;
/** Local start times lie at most 12 hours before UTC ones (UTC-12); a day leaves room. */
const LOCAL_MARGIN_MS = 24 * 3600 * 1000;

/**
 * `has_events`: the record is linked (`linked` true), or not, to an event that counts for it and
 * whose links the reader sees (`shown`, on `e`).
 */
export function hasListedEvent(kind: LinkedKind, shown: Expression<SqlBool>, linked: boolean): Expression<SqlBool> {
  const condition = hasLinkedEvent(kind, sql<SqlBool>`${LISTED_EVENT} and ${shown}`);
  return linked ? condition : sql<SqlBool>`not ${condition}`;
}

/**
 * The record is linked to an event starting at `now` or later that meets `readable` and `shown`
 * (both on `e`).
 */
export function hasUpcomingEvent(
  kind: LinkedKind,
  now: Date,
  readable: Expression<SqlBool>,
  shown: Expression<SqlBool>,
): Expression<SqlBool> {
  const nowText = nowUtc(now);
  // The start_local bound only lets events(venue_id, start_local) skip past events; start_utc decides.
  const localBound = nowUtc(new Date(now.getTime() - LOCAL_MARGIN_MS));
  return hasLinkedEvent(
    kind,
    sql<SqlBool>`e.start_local >= ${localBound} and e.start_utc >= ${nowText} and ${readable} and ${shown}`,
  );
}

/** One of the searched fields contains every word, case-insensitively. */
export function matchesEveryWord(db: Db, kind: LinkedKind, fields: string[], words: string[]): Expression<SqlBool> {
  const dialect = dialectOf(db);
  const matches = fields.map((field) => {
    const column = sql.ref<string>(`${kind.table}.${field}`);
    return sql.join(
      words.map((word) => containsInsensitive(dialect, column, `%${likeEscape(word)}%`)),
      sql` and `,
    );
  });
  return sql<SqlBool>`((${sql.join(matches, sql`) or (`)}))`;
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

export async function insert(trx: Db, kind: LinkedKind, values: Record<string, unknown>): Promise<void> {
  await trx
    .insertInto(kind.table)
    .values(values as never)
    .execute();
}

export async function update(trx: Db, kind: LinkedKind, id: number, values: Record<string, unknown>): Promise<void> {
  await trx
    .updateTable(kind.table)
    .set(values as never)
    .where('id', '=', id)
    .execute();
}

/**
 * The lowest id of the language's records meeting `visible` whose `compared` columns equal the
 * values case-insensitively. The name is compared through lower(title), which 002_linked_title_ci
 * indexes.
 */
export async function findDuplicate(
  db: Db,
  kind: LinkedKind,
  lang: string,
  visible: Expression<SqlBool>,
  compared: [string, string][],
): Promise<number | undefined> {
  let query = db.selectFrom(kind.table).select('id').where('lang', '=', lang).where(visible);
  for (const [column, value] of compared)
    query = query.where(sql<boolean>`lower(${sql.ref(column)}) = lower(${value})`);
  const row = await query.orderBy('id').limit(1).executeTakeFirst();
  return row?.id;
}
