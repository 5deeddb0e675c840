import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db } from '../../db/database.js';
import type { RequestContext } from '../../http/context.js';

/**
 * The map view's statements. Which events go on the map is one condition, added to the list's own
 * filters so the map pages through events exactly as the list view does (listSlice, over the
 * index of listed events by start): the event's venue is published, shows a map and has both
 * coordinates. The venue is read by its primary key for each event of the range. (The event's own
 * show_map is not asked: the API leaves it false unless a client sets it, as the original does.)
 */

/**
 * Whether an event goes on the map (`true`) or has no place on it (`false`). A correlated
 * `exists` rather than `venue_id in (…)`: the planner then keeps the index on start (the list's
 * order and window) and probes the venue by its key, instead of reading every event of every
 * mapped venue through events_venue and sorting them.
 */
export function onTheMap(mapped: boolean): Expression<SqlBool> {
  const placed = sql<SqlBool>`exists (select 1 from venues
    where venues.id = events.venue_id and venues.status = 'publish' and venues.show_map = 1
    and venues.geo_lat is not null and venues.geo_lng is not null)`;
  return mapped ? placed : sql<SqlBool>`not ${placed}`;
}

/** A venue as a marker: where it is and what its popup names. */
export interface MapVenue {
  id: number;
  slug: string;
  title: string;
  geo_lat: number;
  geo_lng: number;
}

/** The published venues of `ids` with their coordinates (a page's events' venues: a few dozen at most). */
export async function mapVenues(db: Db, ids: number[]): Promise<MapVenue[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('venues')
    .select(['id', 'slug', 'title', 'geo_lat', 'geo_lng'])
    .where('id', 'in', ids)
    .where(sql<SqlBool>`status = 'publish'`)
    .where('geo_lat', 'is not', null)
    .where('geo_lng', 'is not', null)
    .execute();
  // PostgreSQL's double precision arrives as a number; SQLite's REAL too: Number() keeps both honest.
  return rows.map((r) => ({ ...r, geo_lat: Number(r.geo_lat), geo_lng: Number(r.geo_lng) }));
}

/**
 * How many listed events (with the page's filters) starting from `from` up to `to` (inclusive;
 * open when null) have no place on the map, counted up to `cap`: the same range of the index the
 * page's mapped events were read from, so the count costs no more than the page did.
 */
export async function unmappedCount(
  db: Db,
  ctx: RequestContext,
  where: Expression<SqlBool>[],
  from: string,
  to: string | null,
  cap: number,
): Promise<number> {
  const inner = db
    .selectFrom('events')
    .select(sql<number>`1`.as('one'))
    .where('events.lang', '=', ctx.lang)
    .where(sql<SqlBool>`events.hide_from_listings = 0`)
    .where((eb) => eb.and([...where, onTheMap(false)]))
    .where('events.start_local', '>=', from)
    .$if(to !== null, (qb) => qb.where('events.start_local', '<=', to!))
    // In the index's order, so the count reads the range from its start, as the page did.
    .orderBy('events.start_local')
    .limit(cap);
  const row = await db
    .selectFrom(inner.as('u'))
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
