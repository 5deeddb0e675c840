import { sql, type Compilable, type Expression, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Database, Db, EventRow } from '../../db/database.js';
import { dayRows, dialectOf } from '../../db/dialect.js';

/**
 * The statements of GET /events (event-list.service.ts decides which): the list's conditions, the
 * lookups its filters need, the page and the row-by-row total. The search's are in
 * event-search.repository.ts, the per-day counts' in event-counts.repository.ts.
 */

/** The list's query before its select: the count and the page are made from it. */
export type EventQuery = SelectQueryBuilder<Database, 'events', object>;

type Taxonomy = 'cal_events_cat' | 'post_tag';

const EARTH_RADIUS = { mi: 3958.8, km: 6371 };

// --- Conditions -----------------------------------------------------------------------------

/** `events.<column> <op> value`, a bound of the date window. */
export function boundClause(column: 'start_local' | 'end_local', op: string, value: string): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(`events.${column}`)} ${sql.raw(op)} ${value}`;
}

export function startsAtMost(value: string): Expression<SqlBool> {
  return sql<SqlBool>`events.start_local <= ${value}`;
}

/** A filter on an event's links: the link table, its key and the ids any of which it matches. */
export interface LinkFilter {
  table: 'event_terms' | 'event_organizers';
  key: 'term_id' | 'organizer_id';
  ids: number[];
}

/**
 * A filter on a link (LinkFilter) is `events.id in (select … from the link table)`, not a
 * correlated `exists`: SQLite then reads the term's or organizer's events once, from the link's index, into
 * a set (with a Bloom filter) that each event of the window is tested against, instead of one
 * index search per event: at a million events, page 10 of an organizer's year went from 546 ms to
 * 9 ms, a category's from 71 ms to 15 ms. PostgreSQL plans both forms as the same semi-join.
 *
 * Beside a venue filter the link is `probed`: a correlated `exists`, one search of the link's
 * primary key per event of the venue. With the set, SQLite drove the list from the link instead,
 * reading every event of the term by its id (a year of a venue's 2,500 events and a tag of
 * 200,000 at a million events: 355 ms for the total and 397 ms for the page, where the venue's
 * index and a probe each took 18 ms and 0.4 ms). When the link holds fewer events of the window
 * than the venue, the list is read from the link instead (event-list.service.ts, linkedList).
 */
export function linkedTo({ table, key, ids }: LinkFilter, probed: boolean): Expression<SqlBool> {
  // The table and key are the LinkFilter's own names, never a client's text.
  const links = sql.raw(table);
  const matches = sql`${sql.ref(`l.${key}`)} in (${sql.join(ids)})`;
  return probed
    ? sql<SqlBool>`exists (select 1 from ${links} l where l.event_id = events.id and ${matches})`
    : sql<SqlBool>`events.id in (select l.event_id from ${links} l where ${matches})`;
}

export function atVenues(ids: number[]): Expression<SqlBool> {
  return sql<SqlBool>`events.venue_id in (${sql.join(ids)})`;
}

/** A literal, not a parameter: `featured = 1` is the condition of the partial index events_public_featured. */
export function isFeatured(featured: boolean): Expression<SqlBool> {
  return sql<SqlBool>`events.featured = ${sql.lit(featured ? 1 : 0)}`;
}

export function byAuthors(ids: number[]): Expression<SqlBool> {
  return sql<SqlBool>`events.author in (${sql.join(ids)})`;
}

export function withParent(id: number): Expression<SqlBool> {
  return sql<SqlBool>`events.post_parent = ${id}`;
}

export function amongIds(ids: number[]): Expression<SqlBool> {
  return sql<SqlBool>`events.id in (${sql.join(ids)})`;
}

export function atGeolocatedVenue(): Expression<SqlBool> {
  return sql<SqlBool>`exists (select 1 from venues v where v.id = events.venue_id and v.geo_lat is not null and v.geo_lng is not null)`;
}

/** Great-circle distance filter, bounded first by a latitude/longitude box the venues_geo index serves. */
export function geoWithin(lat: number, lng: number, radius: number, unit: 'mi' | 'km'): Expression<SqlBool> {
  const r = EARTH_RADIUS[unit];
  const dLat = (radius / r) * (180 / Math.PI);
  const dLng = dLat / Math.max(Math.cos((lat * Math.PI) / 180), 0.01);
  const rad = Math.PI / 180;
  return sql<SqlBool>`exists (select 1 from venues v where v.id = events.venue_id
    and v.geo_lat between ${lat - dLat} and ${lat + dLat} and v.geo_lng between ${lng - dLng} and ${lng + dLng}
    and ${2 * r} * asin(sqrt(
      power(sin((v.geo_lat - ${lat}) * ${rad} / 2), 2) +
      cos(${lat * rad}) * cos(v.geo_lat * ${rad}) * power(sin((v.geo_lng - ${lng}) * ${rad} / 2), 2)
    )) <= ${radius})`;
}

/**
 * `hide_subsequent_recurrences` (the original's premium parameter): of each series only its first
 * occurrence from the window's start on; plain events pass. Earlier occurrences of the same series,
 * language, status and listing are looked up through the series index; on SQLite a unary `+` keeps
 * the planner from the (lang, start_local) indexes, which it would otherwise scan for each row.
 */
export function firstOfSeries(db: Db, startBound: string | null): Expression<SqlBool> {
  const plus = sql.raw(dialectOf(db) === 'sqlite' ? '+' : '');
  const fromStart = startBound === null ? sql`` : sql` and ${plus}o.start_local >= ${startBound}`;
  return sql<SqlBool>`(events.series_id is null or not exists (select 1 from events o where o.series_id = events.series_id
    and ${plus}o.lang = events.lang and o.status = events.status and o.hide_from_listings = events.hide_from_listings${fromStart}
    and (${plus}o.start_local < events.start_local or (o.start_local = events.start_local and o.id < events.id))))`;
}

// --- Lookups of the filters -----------------------------------------------------------------

/** Of `ids`, those that are records of `table`. */
export async function existingIds(db: Db, table: 'venues' | 'organizers', ids: number[]): Promise<number[]> {
  const found = await db.selectFrom(table).select('id').where('id', 'in', ids).execute();
  return found.map((r) => r.id);
}

export async function isEvent(db: Db, id: number): Promise<boolean> {
  return (await db.selectFrom('events').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** Terms of a taxonomy whose slug (in any language) is one of `keys`, or whose id is one of `numeric`; one query. */
export function termCandidates(
  db: Db,
  taxonomy: Taxonomy,
  keys: string[],
  numeric: number[],
): Promise<{ id: number; slug: string; lang: string }[]> {
  return db
    .selectFrom('terms')
    .select(['id', 'slug', 'lang'])
    .where('taxonomy', '=', taxonomy)
    .where((eb) => eb.or([eb('slug', 'in', keys), ...(numeric.length > 0 ? [eb('id', 'in', numeric)] : [])]))
    .execute();
}

export async function childTermIds(db: Db, parents: number[]): Promise<number[]> {
  const children = await db.selectFrom('terms').select('id').where('parent', 'in', parents).execute();
  return children.map((c) => c.id);
}

/** Every term of the translation groups of `ids`. */
export async function translatedTermIds(db: Db, ids: number[]): Promise<number[]> {
  const translated = await db
    .selectFrom('terms')
    .select('id')
    .where('trid', 'in', (eb) => eb.selectFrom('terms').select('trid').where('id', 'in', ids))
    .execute();
  return translated.map((r) => r.id);
}

// --- The page and its total -----------------------------------------------------------------

/** The list's events in a language, listed ones only unless `includeHidden`, under `where`. */
export function listBase(db: Db, lang: string, includeHidden: boolean, where: Expression<SqlBool>[]): EventQuery {
  return (
    db
      .selectFrom('events')
      .where('events.lang', '=', lang)
      // A literal, matching the partial index of listed published events.
      .$if(!includeHidden, (qb) => qb.where(sql<SqlBool>`events.hide_from_listings = 0`))
      .where((eb) => eb.and(where))
  );
}

/** How a page is sorted: by start or publication date, the id breaking ties, in one direction. */
export interface EventOrder {
  column: 'start_local' | 'date';
  direction: 'asc' | 'desc';
}

/**
 * A page of the list in `order`. Both columns lead an index after the language (events_lang_start,
 * events_lang_date, each ending with the id), read forwards or backwards: a page is a walk along
 * it, not a sort of the window. On PostgreSQL, past the first page, the walk reads ids only and
 * only the page's rows are read whole: the public lists' index holds the end too (migration 031),
 * so at page 20 the walk reads a thousand index entries, not a thousand rows. SQLite reads its
 * rows in the walk as fast (031 says why it keeps its index).
 */
export function pageRows(
  db: Db,
  base: EventQuery,
  order: EventOrder,
  limit: number,
  offset: number,
): Promise<EventRow[]> {
  const column = `events.${order.column}` as const;
  if (offset === 0 || dialectOf(db) !== 'postgres')
    return base
      .selectAll('events')
      .orderBy(column, order.direction)
      .orderBy('events.id', order.direction)
      .limit(limit)
      .offset(offset)
      .execute() as Promise<EventRow[]>;
  const ids = base
    .select('events.id')
    .orderBy(column, order.direction)
    .orderBy('events.id', order.direction)
    .limit(limit)
    .offset(offset);
  return db
    .selectFrom('events')
    .selectAll('events')
    .where('events.id', 'in', ids)
    .orderBy(column, order.direction)
    .orderBy('events.id', order.direction)
    .execute() as Promise<EventRow[]>;
}

/** A statement of one row: a total. */
export type CountQuery = Compilable<{ n: number }> & { executeTakeFirstOrThrow(): Promise<{ n: number }> };

/** The total counted row by row. */
export function countAll(base: EventQuery): CountQuery {
  return base.select((eb) => eb.fn.countAll<number>().as('n'));
}

// --- A page read from a link table in order ---------------------------------------------------

/** A bound of the window on the list's key, as boundClause and startsAtMost write it on the event. */
export interface Bound {
  column: 'start_local' | 'end_local';
  op: '>=' | '<=' | '<' | '>';
  /** A value, or an expression of the statement around (a day of the month grid's lateral join). */
  value: string | RawBuilder<string>;
}

/**
 * A public list filtered by a term or organizer, read from the link table (migration 025): the
 * events a public reader sees through a link filter (published, listed, unprotected) in `lang`,
 * linked to one of `link`'s ids and to one of each of `others`', within `bounds`. `where` holds
 * the list's other conditions (those of its link filters left out), tested on each event read,
 * or null when the link's copies say all of them (`carried`): then only the page's events are read.
 */
export interface LinkedList {
  db: Db;
  lang: string;
  link: LinkFilter;
  others: LinkFilter[];
  bounds: Bound[];
  /** Conditions on the link's own columns (`lk.event_start_local`, `lk.event_end_local`), tested before any event is read. */
  linkWhere?: Expression<SqlBool>[];
  where: Expression<SqlBool>[] | null;
}

/** The columns of a link's copy of its event's key (migration 025). */
interface LinkKey {
  event_id: number;
  event_lang: string;
  event_start_local: string;
  event_end_local: string;
}

/**
 * The other link filters, tested on the link's event `lk.event_id`. Their links carry the same key
 * (the same event's): said of them too, the test reads the other link's index within the window,
 * and PostgreSQL merges the two in order (a hash of all the term's links otherwise: 27 ms for page
 * 2 of an organizer and a category at a million events, 0.5 ms merged); SQLite probes it per link.
 */
function linkedEach({ lang, bounds }: LinkedList, link: LinkFilter): Expression<SqlBool> {
  const within = bounds.map((b) => sql`and ${sql.ref(`x.event_${b.column}`)} ${sql.raw(b.op)} ${b.value}`);
  return sql<SqlBool>`exists (select 1 from ${sql.table(link.table)} x where x.event_id = lk.event_id
    and ${sql.ref(`x.${link.key}`)} in (${sql.join(link.ids)}) and x.event_lang = ${lang}
    and x.event_status = 'publish' and x.event_hide_from_listings = 0 and x.event_protected = 0
    and x.event_start_local = lk.event_start_local ${sql.join(within, sql` `)})`;
}

/**
 * The links of one id of the driving link, as `lk`: its index (`<table>_public_start`: id,
 * language, start) gives them in the list's order within the window. The other link filters are
 * tested on the link's event id; with `where`, each event is then read (`events`, by its id) and
 * tested. On SQLite `cross join` keeps the link first (its planner would otherwise walk the window
 * and probe the link); PostgreSQL's finds that order by cost.
 */
function linksOf(list: LinkedList, id: number) {
  const { db, lang, link, others, bounds } = list;
  return (
    db
      .selectFrom(sql<LinkKey>`${sql.table(link.table)}`.as('lk'))
      .where(sql<SqlBool>`${sql.ref(`lk.${link.key}`)} = ${id}`)
      .where(sql<SqlBool>`lk.event_lang = ${lang}`)
      // Literals, matching the partial index.
      .where(sql<SqlBool>`lk.event_status = 'publish' and lk.event_hide_from_listings = 0 and lk.event_protected = 0`)
      .where((eb) =>
        eb.and([
          ...bounds.map((b) => sql<SqlBool>`${sql.ref(`lk.event_${b.column}`)} ${sql.raw(b.op)} ${b.value}`),
          ...(list.linkWhere ?? []),
          ...others.map((other) => linkedEach(list, other)),
        ]),
      )
  );
}

/** linksOf with each event read and tested against the list's `where`. */
function eventsOf(list: LinkedList, id: number, where: Expression<SqlBool>[]) {
  return linksOf(list, id)
    .crossJoin('events')
    .where(sql<SqlBool>`events.id = lk.event_id`)
    .where((eb) => eb.and(where));
}

/** The links of one id that pass the list: read alone when it has no condition on their events. */
function passingOf(list: LinkedList, id: number) {
  return list.where === null ? linksOf(list, id) : eventsOf(list, id, list.where);
}

/** The first `limit` after `offset` of the links of one id in the list's order, as (event_id, event_start_local). */
function headOf(list: LinkedList, id: number, direction: 'asc' | 'desc', limit: number, offset: number) {
  return passingOf(list, id)
    .select(['lk.event_id', 'lk.event_start_local'])
    .orderBy(sql.ref('lk.event_start_local'), direction)
    .orderBy(sql.ref('lk.event_id'), direction)
    .limit(limit)
    .offset(offset);
}

/**
 * A page of a linked list, by start then id in `direction`: its events read from the link's
 * index, then read in full. With several ids (a category's subcategories, a term's
 * translations), each id's first `offset + limit` links hold the page: their union, without the
 * events linked twice, is sorted and cut.
 */
export function linkedPage(
  list: LinkedList,
  direction: 'asc' | 'desc',
  limit: number,
  offset: number,
): Promise<EventRow[]> {
  return linkedPageQuery(list, direction, limit, offset, 'all').execute() as Promise<EventRow[]>;
}

/** An event's columns to read: all of them (`'all'`), or those named (a grid's few). */
type EventColumns = 'all' | readonly (keyof EventRow & string)[];

/** `events.*`, or the columns named. */
function eventColumns<Q extends SelectQueryBuilder<Database, 'events', object>>(query: Q, columns: EventColumns) {
  return columns === 'all'
    ? query.selectAll('events')
    : query.select(columns.map((column) => sql.ref<unknown>(`events.${column}`).as(column)));
}

function linkedPageQuery(
  list: LinkedList,
  direction: 'asc' | 'desc',
  limit: number,
  offset: number,
  columns: EventColumns,
) {
  const { db, link, where } = list;
  // One id whose events are tested: the page from the walk itself, each event read once.
  if (link.ids.length === 1 && where !== null)
    return eventColumns(eventsOf(list, link.ids[0]!, where), columns)
      .orderBy(sql.ref('lk.event_start_local'), direction)
      .orderBy(sql.ref('lk.event_id'), direction)
      .limit(limit)
      .offset(offset);
  const one = link.ids.length === 1;
  const heads = link.ids.map((id, i) =>
    db
      .selectFrom(headOf(list, id, direction, one ? limit : offset + limit, one ? offset : 0).as(`h${i}`))
      .select(['event_id', 'event_start_local']),
  );
  const page = db
    .selectFrom(heads.reduce((all, head) => all.union(head)).as('lk'))
    .crossJoin('events')
    .where(sql<SqlBool>`events.id = lk.event_id`);
  const ordered = eventColumns(page, columns)
    .orderBy(sql.ref('lk.event_start_local'), direction)
    .orderBy(sql.ref('lk.event_id'), direction);
  return one ? ordered : ordered.limit(limit).offset(offset);
}

/**
 * The first `limit` events of a linked list starting on each of `days` (the public month and week
 * grids filtered by a category, tag or organizer), by start then id: each day a short walk of the
 * link's index from the day's start, as linkedPage does for a list's page, where the plain grid
 * would walk each day's events and test their links (some 1,400 a day at a million events). On
 * PostgreSQL one planned subquery per day through a lateral join; on SQLite a union of one query a day.
 * Only `columns` are read: a grid shows a few, and an event's whole row costs several times more
 * to build (SQLite's some 140 rows of a category's month: 3 ms whole, 0.5 ms as a grid's).
 */
export async function linkedFirstOfDays<C extends keyof EventRow & string>(
  list: LinkedList,
  days: string[],
  limit: number,
  columns: readonly C[],
): Promise<Pick<EventRow, C>[]> {
  const ofDay = (from: string | RawBuilder<string>, to: string | RawBuilder<string>) =>
    linkedPageQuery(
      {
        ...list,
        bounds: [
          ...list.bounds,
          { column: 'start_local', op: '>=', value: from },
          { column: 'start_local', op: '<=', value: to },
        ],
      },
      'asc',
      limit,
      0,
      columns,
    );
  const { db } = list;
  if (dialectOf(db) === 'postgres') {
    const lateral = ofDay(sql<string>`d.day || ' 00:00:00'`, sql<string>`d.day || ' 23:59:59'`);
    return (
      await sql<
        Pick<EventRow, C>
      >`select e.* from ${dayRows(days)} cross join lateral (${lateral}) as e order by e.start_local, e.id`.execute(db)
    ).rows;
  }
  // Each day's query wrapped as a derived table: a compound select takes no LIMIT of its members.
  const [first, ...rest] = days.map((day, i) =>
    db.selectFrom(ofDay(`${day} 00:00:00`, `${day} 23:59:59`).as(`d${i}`)).selectAll(),
  );
  return (await rest.reduce((q, next) => q.unionAll(next), first!).execute()) as Pick<EventRow, C>[];
}

/**
 * A linked list narrowed to the events starting within `from`..`to` that end at `endFrom` or
 * later, and tested against `where` besides: the bounds are the link's copies of the event's
 * key, so the walk reads that range of the link's index (a grid's bars by a category: some
 * 4,000 links for a month at a million events, where the plain statement read all 66,000 of
 * the category's and then each event).
 */
function within(list: LinkedList, range: LinkedRange): LinkedList {
  return {
    ...list,
    bounds: [
      ...list.bounds,
      { column: 'start_local', op: '>=', value: range.from },
      { column: 'start_local', op: '<=', value: range.to },
      { column: 'end_local', op: '>=', value: range.endFrom },
    ],
    linkWhere: [...(list.linkWhere ?? []), ...range.linkWhere],
  };
}

/** Events starting within from..to, ending at `endFrom` or later, whose links pass `linkWhere`. */
export interface LinkedRange {
  from: string;
  to: string;
  endFrom: string;
  linkWhere: Expression<SqlBool>[];
}

/** The first `limit` events of `within`, by start then id, of them only `columns` (as linkedFirstOfDays). */
export function linkedWithin<C extends keyof EventRow & string>(
  list: LinkedList,
  range: LinkedRange,
  limit: number,
  columns: readonly C[],
): Promise<Pick<EventRow, C>[]> {
  return linkedPageQuery(within(list, range), 'asc', limit, 0, columns).execute() as Promise<Pick<EventRow, C>[]>;
}

/** The events of `within` counted by start and end day, each once (an event linked to several ids too). */
export async function linkedDayPairsWithin(
  list: LinkedList,
  range: LinkedRange,
): Promise<{ start_day: string; end_day: string; n: number }[]> {
  const narrowed = within(list, range);
  const ids = narrowed.link.ids
    .map((id) => passingOf(narrowed, id).select('lk.event_id'))
    .reduce((all, one) => all.union(one));
  const startDay = sql<string>`substr(events.start_local, 1, 10)`;
  const endDay = sql<string>`substr(events.end_local, 1, 10)`;
  const rows = await list.db
    .selectFrom(ids.as('x'))
    .crossJoin('events')
    .where(sql<SqlBool>`events.id = x.event_id`)
    .select((eb) => [startDay.as('start_day'), endDay.as('end_day'), eb.fn.countAll<number | string>().as('n')])
    .groupBy([startDay, endDay])
    .execute();
  return rows.map((r) => ({ start_day: r.start_day, end_day: r.end_day, n: Number(r.n) }));
}

/** A linked list's total, counted along the link's index (an event linked to several ids once). */
export function linkedCount(list: LinkedList): CountQuery {
  const { db, link } = list;
  const each = link.ids.map((id) => passingOf(list, id));
  if (each.length === 1) return each[0]!.select((eb) => eb.fn.countAll<number>().as('n'));
  return db
    .selectFrom(
      each
        .map((links) => links.select('lk.event_id'))
        .reduce((all, one) => all.union(one))
        .as('linked'),
    )
    .select((eb) => eb.fn.countAll<number>().as('n'));
}
