import { sql, type Expression, type SqlBool } from 'kysely';
import type {
  Db,
  EventRow,
  EventTable,
  ImageRow,
  ImageTable,
  OrganizerRow,
  OrganizerTable,
  VenueRow,
  VenueTable,
} from '../../db/database.js';
import { dialectOf, jsonRows } from '../../db/dialect.js';
import { prepared } from '../../db/prepared.js';
import { EMBEDDED_TERM_COLUMNS, embeddedTermsQuery, type EmbeddedTermRow } from '../terms/term.embed.js';

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

/**
 * Of each table's `ids`, the venues or organizers that `visible` (the caller's visibility condition
 * for that table) lets through; one query for all of them (a union).
 */
export async function visibleLinkedIds(
  db: Db,
  named: { table: 'venues' | 'organizers'; ids: number[]; visible: Expression<SqlBool> }[],
): Promise<Map<'venues' | 'organizers', Set<number>>> {
  const found = new Map<'venues' | 'organizers', Set<number>>();
  const selects = named
    .filter(({ ids }) => ids.length > 0)
    .map(({ table, ids, visible }) =>
      db
        .selectFrom(table)
        .select([sql.lit(table).as('kind'), 'id'])
        .where('id', 'in', ids)
        .where(visible),
    );
  if (selects.length === 0) return found;
  const query = selects.slice(1).reduce((union, select) => union.unionAll(select), selects[0]!);
  for (const row of await query.execute()) {
    const kind = row.kind as 'venues' | 'organizers';
    found.set(kind, (found.get(kind) ?? new Set()).add(row.id));
  }
  return found;
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

// --- The records a page of events embeds, in one statement ----------------------------------

/** Every column of a table, named once: the compiler fails when the table gains or loses one. */
function columnsOf<T>(all: Record<keyof T & string, true>): (keyof T & string)[] {
  return Object.keys(all) as (keyof T & string)[];
}

const POST = {
  id: true,
  lang: true,
  trid: true,
  author: true,
  status: true,
  password: true,
  slug: true,
  title: true,
  description: true,
  excerpt: true,
  date: true,
  date_utc: true,
  modified: true,
  modified_utc: true,
  image_id: true,
} as const;
const VENUE_COLUMNS = columnsOf<VenueTable>({
  ...POST,
  address: true,
  city: true,
  country: true,
  province: true,
  state: true,
  zip: true,
  phone: true,
  website: true,
  stateprovince: true,
  show_map: true,
  show_map_link: true,
  geo_lat: true,
  geo_lng: true,
});
const ORGANIZER_COLUMNS = columnsOf<OrganizerTable>({ ...POST, phone: true, website: true, email: true });
const IMAGE_COLUMNS = columnsOf<ImageTable>({ id: true, url: true, extension: true, width: true, height: true });
const LINK_COLUMNS = ['event_id', 'organizer_id', 'position'] as const;
const MEMBER_COLUMNS = ['id', 'trid', 'lang', 'author', 'status'] as const;

/**
 * The statement of findEmbedded: the events, their organizer links and the translation groups of
 * their venues and organizers as common table expressions (each read once, through the primary
 * keys, the link's key and the trid indexes), then each kind as one JSON array. `withRows`: from
 * the events themselves, each row with the arrays (for one event: findWithEmbedded).
 */
function embeddedStatement(db: Db, args: { eventIds: number[]; lang: string }, withRows: boolean) {
  const q = db
    .with('ev', (d) =>
      d.selectFrom('events').select(['id', 'trid', 'venue_id', 'image_id']).where('id', 'in', args.eventIds),
    )
    .with('eo', (d) => d.selectFrom('event_organizers').select(LINK_COLUMNS).where('event_id', 'in', args.eventIds))
    .with('vg', (d) =>
      d
        .selectFrom('venues')
        .select(VENUE_COLUMNS)
        .where('trid', 'in', (eb) =>
          eb.selectFrom('venues as v').innerJoin('ev', 'ev.venue_id', 'v.id').select('v.trid'),
        ),
    )
    .with('og', (d) =>
      d
        .selectFrom('organizers')
        .select(ORGANIZER_COLUMNS)
        .where('trid', 'in', (eb) =>
          eb.selectFrom('organizers as o').innerJoin('eo', 'eo.organizer_id', 'o.id').select('o.trid'),
        ),
    );
  // The subqueries name the expressions without repeating their WITH (withTables only types them).
  const t = db.withTables<{
    ev: Pick<EventRow, 'id' | 'trid' | 'venue_id' | 'image_id'>;
    eo: { event_id: number; organizer_id: number; position: number };
    vg: VenueRow;
    og: OrganizerRow;
  }>();
  const imageIds = t
    .selectFrom('ev')
    .select('image_id')
    .union(t.selectFrom('vg').select('image_id'))
    .union(t.selectFrom('og').select('image_id'));
  const translations = t
    .selectFrom('events')
    .select(MEMBER_COLUMNS)
    .where('trid', 'in', t.selectFrom('ev').select('trid'))
    .where('status', '<>', 'trash');
  const arrays = [
    jsonRows(db, LINK_COLUMNS, t.selectFrom('eo').select(LINK_COLUMNS)).as('links'),
    jsonRows(db, VENUE_COLUMNS, t.selectFrom('vg').select(VENUE_COLUMNS)).as('venues'),
    jsonRows(db, ORGANIZER_COLUMNS, t.selectFrom('og').select(ORGANIZER_COLUMNS)).as('organizers'),
    jsonRows(db, MEMBER_COLUMNS, translations).as('translations'),
    jsonRows(db, EMBEDDED_TERM_COLUMNS, embeddedTermsQuery(db, args.eventIds, args.lang)).as('terms'),
    jsonRows(db, IMAGE_COLUMNS, t.selectFrom('images').select(IMAGE_COLUMNS).where('id', 'in', imageIds)).as('images'),
  ];
  return withRows
    ? q.selectFrom('events').selectAll('events').select(arrays).where('events.id', 'in', args.eventIds)
    : q.selectNoFrom(arrays);
}

const embedded = prepared((db, args: { eventIds: number[]; lang: string }) => embeddedStatement(db, args, false));
const oneWithEmbedded = prepared((db, args: { eventIds: number[]; lang: string }) => embeddedStatement(db, args, true));

/** What a page of events embeds, as read by findEmbedded; each list by id (links by event and position). */
export interface EmbeddedRows {
  links: { event_id: number; organizer_id: number; position: number }[];
  /** Every member of the translation groups of the events' venues, trashed ones too. */
  venues: VenueRow[];
  organizers: OrganizerRow[];
  /** The members of the events' own translation groups, not trashed, with their ownership. */
  translations: { id: number; trid: number; lang: string; author: number; status: string }[];
  /** The rows of embeddedTermsQuery (term.embed.ts), by `n`. */
  terms: EmbeddedTermRow[];
  /** The images of the events and of those venues and organizers. */
  images: ImageRow[];
}

/**
 * The organizer links, venues, organizers (whole translation groups), the events' translation
 * groups, terms and images of `eventIds`, in one statement whatever their number: on PostgreSQL
 * each statement is a round trip. Each list is built in the database as a JSON array (a subquery
 * served by the same index as its statement of its own: link keys, trid, primary keys).
 */
export async function findEmbedded(db: Db, eventIds: number[], lang: string): Promise<EmbeddedRows> {
  if (eventIds.length === 0) return { links: [], venues: [], organizers: [], translations: [], terms: [], images: [] };
  const [row] = await embedded(db, { eventIds, lang });
  return embeddedOf(row as Record<keyof EmbeddedRows, unknown>);
}

/** The event `id` and what it embeds (findEmbedded), in one statement: a single read's one round trip. */
export async function findWithEmbedded(
  db: Db,
  id: number,
  lang: string,
): Promise<{ row: EventRow; embedded: EmbeddedRows } | undefined> {
  const [found] = await oneWithEmbedded(db, { eventIds: [id], lang });
  if (!found) return undefined;
  const { links, venues, organizers, translations, terms, images, ...row } = found as EventRow &
    Record<keyof EmbeddedRows, unknown>;
  return { row, embedded: embeddedOf({ links, venues, organizers, translations, terms, images }) };
}

/** The arrays of the statement, parsed and in order. */
function embeddedOf(arrays: Record<keyof EmbeddedRows, unknown>): EmbeddedRows {
  // PostgreSQL's driver parses JSON; SQLite's hands the text over.
  const list = <T>(value: unknown): T[] => (typeof value === 'string' ? JSON.parse(value) : value) as T[];
  const byId = <T extends { id: number }>(value: unknown) => list<T>(value).sort((a, b) => a.id - b.id);
  return {
    links: list<EmbeddedRows['links'][number]>(arrays.links).sort(
      (a, b) => a.event_id - b.event_id || a.position - b.position,
    ),
    venues: byId<VenueRow>(arrays.venues),
    organizers: byId<OrganizerRow>(arrays.organizers),
    translations: byId<EmbeddedRows['translations'][number]>(arrays.translations),
    terms: list<EmbeddedTermRow>(arrays.terms).sort((a, b) => a.n - b.n),
    images: list<ImageRow>(arrays.images),
  };
}

/** An event's organizers, in order: a position is its place in the list, so the shape's own. */
const linkOrganizers = prepared((db, args: { eventId: number; organizerIds: number[] }) =>
  db
    .insertInto('event_organizers')
    .values(args.organizerIds.map((organizer_id, position) => ({ event_id: args.eventId, organizer_id, position }))),
);

/** Replaces the organizers, keeping the order given (`fresh`: the event has none yet). */
export async function setOrganizers(db: Db, eventId: number, ids: number[], fresh = false): Promise<void> {
  if (!fresh) await db.deleteFrom('event_organizers').where('event_id', '=', eventId).execute();
  if (ids.length === 0) return;
  await linkOrganizers(db, { eventId, organizerIds: ids });
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

const linkOrganizersAndTerms = prepared((db, args: { eventId: number; organizerIds: number[]; termIds: number[] }) =>
  db
    .with('linked_organizers', (qb) =>
      qb
        .insertInto('event_organizers')
        .values(args.organizerIds.map((organizer_id, position) => ({ event_id: args.eventId, organizer_id, position })))
        .returning('event_id'),
    )
    .insertInto('event_terms')
    .values(args.termIds.map((term_id) => ({ event_id: args.eventId, term_id }))),
);

/**
 * A new event's organizers (in order) and terms. On PostgreSQL in one statement when it has both
 * (a data-modifying WITH): each statement is a round trip, and a create's are most of its time.
 * SQLite, in process, has no round trips to save (nor such WITH).
 */
export async function linkNew(db: Db, eventId: number, organizerIds: number[], termIds: number[]): Promise<void> {
  const terms = [...new Set(termIds)];
  if (organizerIds.length > 0 && terms.length > 0 && dialectOf(db) === 'postgres') {
    await linkOrganizersAndTerms(db, { eventId, organizerIds, termIds: terms });
    return;
  }
  await setOrganizers(db, eventId, organizerIds, true);
  await setTerms(db, eventId, [], terms);
}

export async function allTermIds(db: Db, eventId: number): Promise<number[]> {
  const rows = await db.selectFrom('event_terms').select('term_id').where('event_id', '=', eventId).execute();
  return rows.map((r) => r.term_id);
}
