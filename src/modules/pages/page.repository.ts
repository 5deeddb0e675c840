import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Db, EventRow, TermRow } from '../../db/database.js';
import type { RequestContext } from '../../http/context.js';
import { dayRows, dialectOf } from '../../db/dialect.js';
import { DAY, storedWall } from '../../lib/dates.js';

/**
 * Every statement of the public pages. Their events: always the anonymous view (published,
 * listed), in the page's language, with the list's own filters (buildFilter, the code of GET
 * /events) and windows of their own. Every such query reads a bounded range of the index on
 * (lang, start_local): a month grid reads a few events per day, a list one page, whatever the
 * calendar's size. Then the records a page is about (an event, a category or tag, the translations
 * of each) and the filter form's choices.
 */

/**
 * What a grid shows of an event: the multi-day index holds them all on SQLite (migration 028),
 * keep it so. The grids read from a link table (linkedGrid) read these too.
 */
export const GRID_FIELDS = ['id', 'slug', 'title', 'start_local', 'end_local', 'all_day', 'featured'] as const;

/** The columns a month grid shows. */
export type GridEvent = Pick<EventRow, (typeof GRID_FIELDS)[number]>;

const GRID_COLUMNS = GRID_FIELDS.map((field) => `events.${field}` as const);

/**
 * Start days before a window holding more than this many events that reach into it: read as one
 * range instead of day by day (a calendar of long exhibitions).
 */
const MAX_SPANNING_DAYS = 60;

function listed(db: Db, ctx: RequestContext, where: Expression<SqlBool>[]) {
  return (
    db
      .selectFrom('events')
      .where('events.lang', '=', ctx.lang)
      // Literals, matching the partial index of listed published events (pageFilter holds the status).
      .where(sql<SqlBool>`events.hide_from_listings = 0`)
      .where((eb) => eb.and(where))
  );
}

const dayStart = (day: string) => `${day} 00:00:00`;

/**
 * An event that ends on a later day than it starts, as the partial index of such events (027, 028)
 * says it; of a link (`lk.event_`), on its copies of the event's start and end.
 */
const severalDays = (prefix: 'events.' | 'lk.event_') =>
  sql<SqlBool>`substr(${sql.raw(prefix)}end_local, 1, 10) > substr(${sql.raw(prefix)}start_local, 1, 10)`;
const lastsSeveralDays = severalDays('events.');
const dayEnd = (day: string) => `${day} 23:59:59`;

/**
 * Start days (ascending) as ranges of start times: one per run of consecutive days, or one range
 * over them all when there are many. A calendar whose every day starts some long event is one
 * range, which PostgreSQL reads in order from the multi-day index up to the grid's limit instead
 * of a bitmap of every day's (4,100 events' rows for 500 bars: 11 ms at a million events).
 */
function startRanges(startDays: string[]): [string, string][] {
  if (startDays.length === 0) return [];
  if (startDays.length > MAX_SPANNING_DAYS)
    return [[dayStart(startDays[0]!), dayEnd(startDays[startDays.length - 1]!)]];
  const runs: [string, string][] = [];
  for (const day of startDays) {
    const last = runs[runs.length - 1];
    if (last && storedWall(day) - storedWall(last[1]) === DAY) last[1] = day;
    else runs.push([day, day]);
  }
  return runs.map(([from, to]) => [dayStart(from), dayEnd(to)]);
}

/**
 * A start within one of `ranges` (ordered, at least one). On SQLite said also as the one range
 * that holds them all: it reads that range of an index where it would otherwise walk every event
 * of the language in start order to test the ranges (a second at a million events). PostgreSQL
 * reads each range of the multi-day events' index (027) and would add the whole range's events
 * to the bitmap for nothing.
 */
function startsWithin(db: Db, ranges: [string, string][]): Expression<SqlBool> {
  const any = sql<SqlBool>`(${sql.join(
    ranges.map(([from, to]) => startsBetween(from, to)),
    sql` or `,
  )})`;
  return dialectOf(db) === 'sqlite'
    ? sql<SqlBool>`${startsBetween(ranges[0]![0], ranges[ranges.length - 1]![1])} and ${any}`
    : any;
}

const startsBetween = (from: string, to: string, start: RawBuilder<string> = sql.ref('events.start_local')) =>
  sql<SqlBool>`(${start} >= ${from} and ${start} <= ${to})`;

/**
 * Ranges of start times, before `fromDay`, of the listed events that are still going on that day:
 * read from the per-day counts (migration 009), which hold the listed published events by start
 * and end day, so events that end before the window are never scanned.
 */
async function spanningRanges(db: Db, lang: string, fromDay: string): Promise<[string, string][]> {
  const days = await db
    .selectFrom('event_window_counts')
    .select('start_day')
    .distinct()
    .where('lang', '=', lang)
    .where('start_day', '<', fromDay)
    .where('end_day', '>=', fromDay)
    .where('n', '>', 0)
    .orderBy('start_day')
    .execute();
  return startRanges(days.map((d) => d.start_day));
}

/** Events that started before `fromDay` and are still going on then, by start. */
export async function spanningEvents(
  db: Db,
  ctx: RequestContext,
  where: Expression<SqlBool>[],
  fromDay: string,
  limit: number,
): Promise<EventRow[]> {
  const ranges = await spanningRanges(db, ctx.lang, fromDay);
  if (ranges.length === 0) return [];
  return (
    (await listed(db, ctx, where)
      .selectAll('events')
      .where(startsWithin(db, ranges))
      .where('events.end_local', '>=', dayStart(fromDay))
      // Implied (it started before the day and goes on into it), and said so that the index of
      // events lasting several days (migration 027) serves it.
      .where(lastsSeveralDays)
      .orderBy('events.start_local')
      .orderBy('events.id')
      .limit(limit)
      .execute()) as EventRow[]
  );
}

/**
 * The first `limit` events starting on each day, each day one short range of the index. PostgreSQL
 * runs one planned subquery per day through a lateral join (planning a union of forty-two took
 * longer than running it); SQLite, which has no lateral joins, a union of one query per day.
 */
export async function firstOfEachDay(
  db: Db,
  ctx: RequestContext,
  where: Expression<SqlBool>[],
  days: string[],
  limit: number,
): Promise<GridEvent[]> {
  const ofDay = (from: RawBuilder<string> | string, to: RawBuilder<string> | string) =>
    listed(db, ctx, where)
      .select(GRID_COLUMNS)
      .where('events.start_local', '>=', from)
      .where('events.start_local', '<=', to)
      .orderBy('events.start_local')
      .orderBy('events.id')
      .limit(limit);
  if (dialectOf(db) === 'postgres') {
    const lateral = ofDay(sql<string>`d.day || ' 00:00:00'`, sql<string>`d.day || ' 23:59:59'`);
    return (await sql<GridEvent>`select e.* from ${dayRows(days)} cross join lateral (${lateral}) as e`.execute(db))
      .rows;
  }
  // Each day's query wrapped as a derived table: a compound select takes no LIMIT of its members.
  const [first, ...rest] = days.map((day, i) =>
    db.selectFrom(ofDay(dayStart(day), dayEnd(day)).as(`d${i}`)).selectAll(),
  );
  return (await rest.reduce((q, next) => q.unionAll(next), first!).execute()) as GridEvent[];
}

/**
 * How many listed events start on each of `days`, counted (for a filter the per-day counts do not
 * hold: page.service.ts reads those through the events module).
 */
export async function dayCounts(
  db: Db,
  ctx: RequestContext,
  where: Expression<SqlBool>[],
  days: string[],
): Promise<Map<string, number>> {
  // One count per day, each over its own range of the index: one statement, never a scan of the table.
  const count = (from: RawBuilder<string> | string, to: RawBuilder<string> | string) =>
    listed(db, ctx, where)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('events.start_local', '>=', from)
      .where('events.start_local', '<=', to);
  if (dialectOf(db) === 'postgres') {
    const perDay = count(sql<string>`d.day || ' 00:00:00'`, sql<string>`d.day || ' 23:59:59'`);
    const rows = (
      await sql<{ day: string; n: number | string }>`select d.day, (${perDay}) as n from ${dayRows(days)}`.execute(db)
    ).rows;
    return new Map(rows.map((r) => [r.day, Number(r.n)]));
  }
  const [first, ...rest] = days.map((d) =>
    count(dayStart(d), dayEnd(d)).select(sql<string>`cast(${d} as text)`.as('day')),
  );
  const rows = await rest.reduce((q, next) => q.unionAll(next), first!).execute();
  return new Map(rows.map((r) => [r.day, Number(r.n)]));
}

/** How many events start on `start_day` and end on `end_day`. */
export interface DayPair {
  start_day: string;
  end_day: string;
  n: number;
}

/**
 * The listed events lasting several days that reach into `fromDay`…`toDay`, counted per start and
 * end day, unfiltered: read from the per-day counts (migration 009), so single-day events and
 * events ending before the window are never scanned. They also say where the filtered ones start.
 */
export async function multiDayPairs(db: Db, lang: string, fromDay: string, toDay: string): Promise<DayPair[]> {
  const rows = await db
    .selectFrom('event_window_counts')
    .select(['start_day', 'end_day', 'n'])
    .where('lang', '=', lang)
    .where('start_day', '<=', toDay)
    .where('end_day', '>=', fromDay)
    .where((eb) => eb('end_day', '>', eb.ref('start_day')))
    .where('n', '>', 0)
    .orderBy('start_day')
    .execute();
  return rows.map((r) => ({ ...r, n: Number(r.n) }));
}

/**
 * What a linked grid (event-list.service.ts linkedGrid) reads for the bars: events starting
 * within the hull of `pairs`' start days, ending on `fromDay` or later, lasting several days and
 * starting on one of those days, all of it tested on the link's copies of the event's start and
 * end, so that only the bars' events are read (a category's one-day events, nine in ten, were
 * each read to be thrown away: 20 ms of a category's month at a million events). Null without pairs.
 */
export function lastingRange(
  pairs: DayPair[],
  fromDay: string,
): { from: string; to: string; endFrom: string; linkWhere: Expression<SqlBool>[] } | null {
  const ranges = startRanges([...new Set(pairs.map((p) => p.start_day))]);
  if (ranges.length === 0) return null;
  const start = sql.ref<string>('lk.event_start_local');
  const any = sql<SqlBool>`(${sql.join(
    ranges.map(([from, to]) => startsBetween(from, to, start)),
    sql` or `,
  )})`;
  return {
    from: ranges[0]![0],
    to: ranges[ranges.length - 1]![1],
    endFrom: dayStart(fromDay),
    linkWhere: [severalDays('lk.event_'), any],
  };
}

/** The listed events (with the page's filters) of `pairs`' start days lasting several days and reaching `fromDay`. */
function multiDay(db: Db, ctx: RequestContext, where: Expression<SqlBool>[], pairs: DayPair[], fromDay: string) {
  return listed(db, ctx, where)
    .where(startsWithin(db, startRanges([...new Set(pairs.map((p) => p.start_day))])))
    .where('events.end_local', '>=', dayStart(fromDay))
    .where(lastsSeveralDays);
}

/** The first `limit` of those events, by start: a grid's bars. */
export async function multiDayEvents(
  db: Db,
  ctx: RequestContext,
  where: Expression<SqlBool>[],
  pairs: DayPair[],
  fromDay: string,
  limit: number,
): Promise<GridEvent[]> {
  if (pairs.length === 0) return [];
  return multiDay(db, ctx, where, pairs, fromDay)
    .select(GRID_COLUMNS)
    .orderBy('events.start_local')
    .orderBy('events.id')
    .limit(limit)
    .execute();
}

/** Those events counted per start and end day, when there are more than a grid reads. */
export async function multiDayCounts(
  db: Db,
  ctx: RequestContext,
  where: Expression<SqlBool>[],
  pairs: DayPair[],
  fromDay: string,
): Promise<DayPair[]> {
  if (pairs.length === 0) return [];
  const startDay = sql<string>`substr(events.start_local, 1, 10)`;
  const endDay = sql<string>`substr(events.end_local, 1, 10)`;
  const rows = await multiDay(db, ctx, where, pairs, fromDay)
    .select((eb) => [startDay.as('start_day'), endDay.as('end_day'), eb.fn.countAll<number | string>().as('n')])
    .groupBy([startDay, endDay])
    .execute();
  return rows.map((r) => ({ start_day: r.start_day, end_day: r.end_day, n: Number(r.n) }));
}

/** A page of a list and whether there is another after it. */
export interface ListSlice {
  rows: EventRow[];
  more: boolean;
}

/**
 * Events from `fromDay` on (those still going on that day first, then those starting from then,
 * by start), or with `to`, events that started before `toDay`, latest first: the list view's
 * upcoming and past events, and a day's events when both are the same day.
 */
export async function listSlice(
  db: Db,
  ctx: RequestContext,
  where: Expression<SqlBool>[],
  window: { from: string } | { before: string } | { day: string },
  offset: number,
  limit: number,
): Promise<ListSlice> {
  if ('before' in window) {
    const rows = (await listed(db, ctx, where)
      .selectAll('events')
      .where('events.start_local', '<', dayStart(window.before))
      .orderBy('events.start_local', 'desc')
      .orderBy('events.id', 'desc')
      .limit(limit + 1)
      .offset(offset)
      .execute()) as EventRow[];
    return { rows: rows.slice(0, limit), more: rows.length > limit };
  }
  const from = 'day' in window ? window.day : window.from;
  // The going-on events come first; they are few (the per-day counts find them), so all are read.
  const spanning = await spanningEvents(db, ctx, where, from, offset + limit + 1);
  const shown = spanning.slice(offset, offset + limit);
  const skip = Math.max(0, offset - spanning.length);
  const starting = (await listed(db, ctx, where)
    .selectAll('events')
    .where('events.start_local', '>=', dayStart(from))
    .$if('day' in window, (qb) => qb.where('events.start_local', '<=', dayEnd(from)))
    .orderBy('events.start_local')
    .orderBy('events.id')
    .limit(limit - shown.length + 1)
    .offset(skip)
    .execute()) as EventRow[];
  const rows = [...shown, ...starting];
  return { rows: rows.slice(0, limit), more: rows.length > limit || spanning.length > offset + limit };
}

// --- The records a page is about -------------------------------------------------------------

export type PageTaxonomy = 'cal_events_cat' | 'post_tag';

/** The filter form's choices of a taxonomy in `lang`, by name, `limit` at most. */
export function termChoices(db: Db, taxonomy: PageTaxonomy, lang: string, limit: number) {
  return db
    .selectFrom('terms')
    .select(['name', 'slug'])
    .where('taxonomy', '=', taxonomy)
    .where('lang', '=', lang)
    .orderBy('name')
    .limit(limit)
    .execute();
}

/** The filter form's published venues in `lang`, by name, `limit` at most. */
export function venueChoices(db: Db, lang: string, limit: number) {
  return db
    .selectFrom('venues')
    .select(['title as name', 'slug'])
    .where('lang', '=', lang)
    .where(sql<SqlBool>`status = 'publish'`)
    .orderBy('title')
    .limit(limit)
    .execute();
}

export function findTermBySlug(
  db: Db,
  taxonomy: PageTaxonomy,
  lang: string,
  slug: string,
): Promise<TermRow | undefined> {
  return db
    .selectFrom('terms')
    .selectAll()
    .where('taxonomy', '=', taxonomy)
    .where('lang', '=', lang)
    .where('slug', '=', slug)
    .executeTakeFirst();
}

/** The language and slug of each term of a translation group. */
export function termGroupSlugs(db: Db, trid: number, taxonomy: PageTaxonomy) {
  return db
    .selectFrom('terms')
    .select(['lang', 'slug'])
    .where('trid', '=', trid)
    .where('taxonomy', '=', taxonomy)
    .execute();
}

/** The event a page's slug names in `lang`: the published one first, then a trashed one, then any. */
export async function findEventBySlug(db: Db, lang: string, slug: string): Promise<EventRow | undefined> {
  return (await db
    .selectFrom('events')
    .selectAll()
    .where('lang', '=', lang)
    .where('slug', '=', slug)
    .orderBy(sql`case when status = 'publish' then 0 when status = 'trash' then 1 else 2 end`)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()) as EventRow | undefined;
}

/** The language and slug of those of `ids` that are published. */
export function publishedSlugs(db: Db, table: 'events' | 'venues' | 'organizers', ids: number[]) {
  return db
    .selectFrom(table)
    .select(['lang', 'slug'])
    .where('id', 'in', ids)
    .where(sql<SqlBool>`status = 'publish'`)
    .execute();
}
