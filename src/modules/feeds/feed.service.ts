import type { Expression, SqlBool } from 'kysely';
import { DateTime } from 'luxon';
import type { Db, EventRow } from '../../db/database.js';
import type { CountCache } from '../../db/count-cache.js';
import type { RequestContext } from '../../http/context.js';
import { nowUtc } from '../../lib/clock.js';
import { shiftDays, utcToLocal, zoneOrUtc } from '../../lib/dates.js';
import { canRead } from '../../auth/roles.js';
import { buildFilter } from '../events/event-list.service.js';
import type { EventListParams } from '../events/event.schema.js';
import * as feeds from './feed.repository.js';
import { findRecurrences } from '../recurrence/recurrence.service.js';
import type { FeedSeries, SeriesWritten } from './ical.series.js';

/**
 * Which events a calendar feed holds, and the series they bring (feed.repository.ts runs the
 * statements). The events: the event list's filters and visibility (buildFilter, the same code as
 * GET /events), over the feed's window, not paginated, at most `max` events: the nearest to today
 * first when more match. Events trashed after publication that are still in the window come too,
 * to be written as cancelled.
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
  const sets: Expression<SqlBool>[][] = [filter.where];
  if (showsPublished(q.status)) {
    const others = filter.where.filter((w) => w !== filter.visibility);
    sets.push([...others, ...feeds.cancelledClauses()]);
  }
  const light = (where: Expression<SqlBool>[], direction: 'asc' | 'desc', limit: number) =>
    feeds.lightRows(db, ctx.lang, where, direction, limit);

  const firsts = await Promise.all(sets.map((where) => light(where, 'asc', max + 1)));
  let chosen: feeds.FeedLight[][] = firsts;
  let total = firsts.reduce((n, rows) => n + rows.length, 0);
  if (total > max) {
    // More than the cap: the nearest to today (site wall clock) either way, today's own at distance 0.
    const split = `${today} 00:00:00`;
    const [totals, halves] = await Promise.all([
      Promise.all(sets.map((where) => counts.count(feeds.countListed(db, ctx.lang, where), version))),
      Promise.all(
        sets.flatMap((where) => [
          light([...where, feeds.startClause(split, true)], 'asc', max),
          light([...where, feeds.startClause(split, false)], 'desc', max),
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

const readable = (row: EventRow, ctx: RequestContext): boolean =>
  row.status !== 'trash' && row.hide_from_listings === 0 && canRead(ctx.actor, row);
/** A row the feeds show as cancelled (as selectFeedEvents selects them): trashed after publication. */
const cancelledOnce = (row: EventRow): boolean =>
  row.status === 'trash' && row.trashed_from === 'publish' && row.hide_from_listings === 0;

/**
 * The series of `rows` not yet written whose series row the caller may read, or that was trashed
 * after publication (three queries for a batch of rows, none when no row recurs; one more when a
 * series is cancelled). Occurrences of other series are written as plain events.
 */
export async function loadFeedSeries(
  db: Db,
  rows: EventRow[],
  ctx: RequestContext,
  written: SeriesWritten,
): Promise<Map<number, FeedSeries>> {
  const found = new Map<number, FeedSeries>();
  const ids = [
    ...new Set(
      rows.flatMap((row) =>
        row.series_id === null || row.series_id === undefined || written.has(row.series_id) ? [] : [row.series_id],
      ),
    ),
  ];
  if (ids.length === 0) return found;
  const [masters, recurrences, others] = await Promise.all([
    feeds.seriesMasters(db, ids),
    findRecurrences(db, ids),
    feeds.seriesDepartures(db, ids),
  ]);
  const cancelledIds = masters.filter((m) => m.series_id === m.id && cancelledOnce(m)).map((m) => m.id);
  const cancelledExceptions = cancelledIds.length === 0 ? [] : await feeds.cancelledExceptions(db, cancelledIds);
  for (const master of masters) {
    const recurrence = recurrences.get(master.id);
    if (!recurrence || master.series_id !== master.id) continue;
    if (cancelledIds.includes(master.id)) {
      const exdates = new Set(recurrence.exdates);
      const exceptions = cancelledExceptions.filter(
        (row) => row.series_id === master.id && row.id !== master.id && !exdates.has(row.recurrence_id!),
      );
      found.set(master.id, { master, recurrence, cancelled: true, exceptions, hidden: [] });
      continue;
    }
    if (!readable(master, ctx)) continue;
    const own = others.filter((row) => row.series_id === master.id && row.id !== master.id);
    found.set(master.id, {
      master,
      recurrence,
      cancelled: false,
      exceptions: own.filter((row) => row.recurrence_exception === 1 && readable(row, ctx)),
      hidden: own.filter((row) => !readable(row, ctx)).map((row) => row.recurrence_id!),
    });
  }
  return found;
}

/**
 * The time zones a feed of `ids` writes besides those of the rows themselves: a series brings its
 * master and its exceptions, which may lie outside the feed's window (and an exception may have
 * been moved to another zone). Each needs its VTIMEZONE, or a TZID would name nothing.
 */
export async function seriesZones(db: Db, ids: number[]): Promise<Set<string>> {
  const zones = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    for (const zone of await feeds.seriesZoneNames(db, ids.slice(i, i + 500))) zones.add(zone);
  }
  return zones;
}
