import { sql, type Expression, type SqlBool } from 'kysely';
import { DateTime } from 'luxon';
import type { Db, EventRow } from '../../db/database.js';
import type { CountCache } from '../../db/count-cache.js';
import type { RequestContext } from '../../http/context.js';
import { nowUtc } from '../../lib/clock.js';
import { shiftDays, utcToLocal, zoneOrUtc } from '../../lib/dates.js';
import { buildFilter } from '../events/event.list.js';
import type { EventListParams } from '../events/event.schema.js';

/**
 * Which events a calendar feed holds: the event list's filters and visibility (buildFilter, the
 * same code as GET /events), over the feed's window, not paginated, at most `max` events: the
 * nearest to today first when more match. Events trashed after publication that are still in the
 * window come too, to be written as cancelled.
 */

const RELATIVE = ['starts_before', 'starts_after', 'ends_before', 'ends_after'] as const;

/** Days before today the default window starts. */
export const FEED_DAYS_BEFORE = 30;
/** Years after today the default window ends. */
export const FEED_YEARS_AHEAD = 1;

/** Today in the site's time zone (`YYYY-MM-DD`): the default window and the cache key depend on it. */
export function feedToday(ctx: RequestContext, at: Date = new Date()): string {
  return utcToLocal(nowUtc(at), zoneOrUtc(ctx.settings.timezone)).slice(0, 10);
}

/**
 * The list's parameters with the feed's window: a bound not given is today − 30 days (start) or
 * today + 1 year (end), whole days in the site's zone. Relative bounds and `include` keep the
 * list's own rules (no default window).
 */
export function feedParams(q: EventListParams, today: string): EventListParams {
  if ((q.include !== undefined && q.include.length > 0) || RELATIVE.some((r) => q[r] !== undefined)) return q;
  if (q.start_date !== undefined && q.end_date !== undefined) return q;
  const start = shiftDays(`${today} 00:00:00`, -FEED_DAYS_BEFORE).slice(0, 10);
  const end = DateTime.fromISO(today, { zone: 'utc' }).plus({ years: FEED_YEARS_AHEAD }).toISODate()!;
  return Object.assign({}, q, { start_date: q.start_date ?? start, end_date: q.end_date ?? end });
}

interface Light {
  id: number;
  start_local: string;
  timezone: string;
  all_day: number;
}

export interface FeedSelection {
  /** Event ids in the feed's order: start, then id. */
  ids: number[];
  /** The time zones the selected timed events use (all-day events are zone-less dates). */
  zones: Set<string>;
  /** Events that match, before the cap. */
  total: number;
}

/** Whether the list's statuses take in published events (only then are cancelled ones shown). */
function showsPublished(status: EventListParams['status']): boolean {
  if (status === undefined) return true;
  const items = Array.isArray(status) ? status : String(status).split(',');
  return items.some((s) => String(s).trim() === 'publish');
}

const wallMillis = (local: string): number => Date.parse(`${local.slice(0, 10)}T${local.slice(11, 19) || '00:00:00'}Z`);

/**
 * Selects the feed's events. Validation is the list's: a bad filter throws its 400 here, before
 * anything is sent. `max` is CAL_FEED_MAX_EVENTS.
 */
export async function selectFeedEvents(
  db: Db,
  counts: CountCache,
  q: EventListParams,
  ctx: RequestContext,
  version: string,
  today: string,
  max: number,
): Promise<FeedSelection> {
  const filter = await buildFilter(db, feedParams(q, today), ctx, DateTime.utc());
  // The list's base: its language and listed events (the literal matches the partial index).
  const base = (where: Expression<SqlBool>[]) =>
    db
      .selectFrom('events')
      .where('events.lang', '=', ctx.lang)
      .where(sql<SqlBool>`events.hide_from_listings = 0`)
      .where((eb) => eb.and(where));
  const sets: Expression<SqlBool>[][] = [filter.where];
  if (showsPublished(q.status)) {
    const others = filter.where.filter((w) => w !== filter.visibility);
    sets.push([...others, sql<SqlBool>`events.status = 'trash'`, sql<SqlBool>`events.trashed_from = 'publish'`]);
  }
  const light = (where: Expression<SqlBool>[], direction: 'asc' | 'desc', limit: number) =>
    base(where)
      .select(['events.id', 'events.start_local', 'events.timezone', 'events.all_day'])
      .orderBy('events.start_local', direction)
      .orderBy('events.id', direction)
      .limit(limit)
      .execute() as Promise<Light[]>;

  const firsts = await Promise.all(sets.map((where) => light(where, 'asc', max + 1)));
  let chosen: Light[][] = firsts;
  let total = firsts.reduce((n, rows) => n + rows.length, 0);
  if (total > max) {
    // More than the cap: the nearest to today (site wall clock) either way, today's own at distance 0.
    const split = `${today} 00:00:00`;
    const [totals, halves] = await Promise.all([
      Promise.all(
        sets.map((where) =>
          counts.count(
            base(where).select((eb) => eb.fn.countAll<number>().as('n')),
            version,
          ),
        ),
      ),
      Promise.all(
        sets.flatMap((where) => [
          light([...where, sql<SqlBool>`events.start_local >= ${split}`], 'asc', max),
          light([...where, sql<SqlBool>`events.start_local < ${split}`], 'desc', max),
        ]),
      ),
    ]);
    total = totals.reduce((n, t) => n + t, 0);
    const origin = wallMillis(split);
    const distance = (start: number) => (start < origin ? origin - start : Math.max(0, start - origin - 86_400_000));
    const candidates = halves.flat().map((row) => ({ row, distance: distance(wallMillis(row.start_local)) }));
    candidates.sort((a, b) => a.distance - b.distance || a.row.id - b.row.id);
    chosen = [[...new Map(candidates.map((c) => [c.row.id, c.row])).values()].slice(0, max)];
  }
  // An editor's `status=publish,trash` finds a cancelled event in both sets: once is enough.
  const rows = [...new Map(chosen.flat().map((r) => [r.id, r])).values()];
  rows.sort((a, b) => (a.start_local < b.start_local ? -1 : a.start_local > b.start_local ? 1 : a.id - b.id));
  return {
    ids: rows.map((r) => r.id),
    zones: new Set(rows.flatMap((r) => (r.all_day === 1 ? [] : [r.timezone]))),
    total,
  };
}

/** Full rows of some of the selected events, in the order of `ids`. */
export async function loadFeedRows(db: Db, ids: number[]): Promise<EventRow[]> {
  if (ids.length === 0) return [];
  const rows = (await db.selectFrom('events').selectAll().where('id', 'in', ids).execute()) as EventRow[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
