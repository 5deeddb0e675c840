import { DateTime } from 'luxon';
import type { Config } from '../../config.js';
import type { Expression, SqlBool } from 'kysely';
import type { Db, EventRow } from '../../db/database.js';
import type { RequestContext } from '../../http/context.js';
import { ApiError } from '../../http/errors.js';
import { rootPathOf } from '../../http/languages.js';
import { countsByStartDay, type CountKey } from '../events/event-counts.service.js';
import { buildFilter, linkedGrid, type LinkedGrid } from '../events/event-list.service.js';
import { toEventObject } from '../events/event.mapper.js';
import { loadEventRelations } from '../events/event-relations.service.js';
import type { EventListParams } from '../events/event.schema.js';
import { findLinkedBySlug } from '../linked/linked.service.js';
import { loadTranslations } from '../posts/post.service.js';
import { VENUE } from '../venues/venue.kind.js';
import { nowUtc } from '../../lib/clock.js';
import { utcToLocal, zoneOrUtc } from '../../lib/dates.js';
import { excerpt } from '../../lib/redact.js';
import { stripTags } from '../../lib/html.js';
import { eventSummary, pageCost } from './page.event.js';
import { formats, wallDate } from './page.i18n.js';
import { pagePaths, queryString, type ViewFilters } from './page.links.js';
import { PageProblem, type PageScope, type Translations } from './page.render.js';
import { dayTotals, layoutGrid, pairsOf, type GridDay } from './page.grid.js';
import {
  dayCounts,
  firstOfEachDay,
  GRID_FIELDS,
  lastingRange,
  multiDayCounts,
  multiDayEvents,
  multiDayPairs,
  publishedSlugs,
  termChoices,
  venueChoices,
  type GridEvent,
} from './page.repository.js';
import type { PageQuery } from './page.schema.js';

/**
 * What the pages share: their query parameters read, the list's filters resolved (a venue by its
 * slug) into the list's own SQL, the filter form, a list's events as the API's objects, the
 * translations of a record, and the month grid's events (page.repository.ts runs the statements).
 */

/** Events a list shows per page (the list view, term, venue and organizer pages). */
export const LIST_PER_PAGE = 20;
/** Filter choices offered in the form (by name); any other can still be given in the URL. */
const MAX_CHOICES = 200;
const MAX_PAGE = 1000;
const MAX_SEARCH = 200;

// --- Query parameters ------------------------------------------------------------------------

/** A single string parameter (the last one when repeated), trimmed; '' when absent. */
export function param(query: PageQuery, name: string): string {
  const value = query[name];
  const last = Array.isArray(value) ? value[value.length - 1] : value;
  return typeof last === 'string' ? last.trim() : '';
}

export function pageNumber(query: PageQuery): number {
  const raw = param(query, 'page');
  if (raw === '') return 1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE)
    throw new PageProblem(400, `page must be a whole number from 1 to ${MAX_PAGE}.`);
  return n;
}

/**
 * The view's filters, and `embed: '1'` on an embedded page: every link a view builds from them
 * (the next month, the next page, a day) keeps it, so a visitor stays inside the frame.
 */
export function viewFilters(query: PageQuery): PageFilters {
  const filters: PageFilters = {};
  for (const name of ['category', 'tag', 'venue', 'search'] as const) {
    const value = param(query, name);
    if (value !== '') filters[name] = value.slice(0, MAX_SEARCH);
  }
  if (param(query, 'embed') === '1') filters.embed = '1';
  return filters;
}

/** A view's filters and whether it is embedded. */
export type PageFilters = ViewFilters & { embed?: '1' };

/**
 * The local time a list splits upcoming from past events at (page-views.repository.ts's
 * conditions): now in the site's zone, to ten minutes, so a cached page serves ten minutes (the
 * moment is a part of its cache key) and an event over this morning is past by then.
 */
export function upcomingMoment(ctx: RequestContext): string {
  const now = utcToLocal(nowUtc(), zoneOrUtc(ctx.settings.timezone));
  return `${now.slice(0, 15)}0:00`;
}

// --- Filters and the filter form -------------------------------------------------------------

/** The filters as the list's parameters; a venue is named by its slug. */
export async function listParams(db: Db, scope: PageScope, filters: ViewFilters): Promise<EventListParams> {
  const q: EventListParams = {};
  if (filters.category) q.categories = [filters.category];
  if (filters.tag) q.tags = [filters.tag];
  if (filters.search) q.search = filters.search;
  if (filters.venue) {
    const venue = await findLinkedBySlug(db, VENUE, filters.venue, scope.lang);
    if (!venue || venue.status !== 'publish') throw new PageProblem(400, `${scope.m.venue}: ${filters.venue}?`);
    q.venue = [venue.id];
  }
  return q;
}

export interface PageFilter {
  where: Expression<SqlBool>[];
  /** The per-day counts that count these events, if any (event-counts.service.ts). */
  countKey: CountKey | null;
  /** The grid's events read from a link table, when the filter is a category, tag or organizer. */
  linked: LinkedGrid<(typeof GRID_FIELDS)[number]> | null;
}

/** The list's other filters (category, tag, venue, search) as SQL, without a date window. */
export async function pageFilter(db: Db, ctx: RequestContext, q: EventListParams): Promise<PageFilter> {
  try {
    const filter = await buildFilter(db, q, ctx, DateTime.utc(), { dates: false });
    return { where: filter.where, countKey: filter.countKey, linked: linkedGrid(db, q, filter, ctx.lang, GRID_FIELDS) };
  } catch (error) {
    // An unknown category or tag in a shared URL: the site's own page says which.
    if (error instanceof ApiError && error.status === 400) throw new PageProblem(400, error.message);
    throw error;
  }
}

/** The filter form's choices and current values, and the iCalendar feed of the same events. */
export async function filterForm(db: Db, scope: PageScope, filters: PageFilters, q: EventListParams) {
  const [categories, tags, venues] = await Promise.all([
    termChoices(db, 'cal_events_cat', scope.lang, MAX_CHOICES),
    termChoices(db, 'post_tag', scope.lang, MAX_CHOICES),
    venueChoices(db, scope.lang, MAX_CHOICES),
  ]);
  const feed =
    scope.paths.api('events') +
    queryString({
      format: 'ical',
      categories: filters.category,
      tags: filters.tag,
      venue: q.venue?.join(','),
      search: filters.search,
    });
  const filtered = Object.keys(filters).some((name) => name !== 'embed');
  return { filters, choices: { categories, tags, venues }, feed, filtered };
}

// --- Events and records as shown -------------------------------------------------------------

/** Characters of an excerpt shown in a list, and of the stored text read to make it. */
const EXCERPT_SHOWN = 220;
const EXCERPT_READ = 4000;

/**
 * A list's excerpt of an event: its excerpt, or else the start of its description, as plain text
 * (the list shows a line or two, not the author's markup), bounded before the HTML parser reads it.
 */
function plainExcerpt(row: EventRow): string {
  if (row.password !== '') return '';
  const source = row.excerpt.trim() !== '' ? row.excerpt : row.description;
  return source === '' ? '' : excerpt(stripTags(source.slice(0, EXCERPT_READ)), EXCERPT_SHOWN);
}

const hourFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * An event's time of day as a list under day headings shows it ("7:00 – 9:30 PM", or "All day"):
 * for an event that starts and ends on its day; '' for one lasting several days (its dates say it).
 */
function hoursOf(row: EventRow, scope: PageScope): string {
  if (row.start_local.slice(0, 10) !== row.end_local.slice(0, 10)) return '';
  if (row.all_day === 1) return scope.m.allDay;
  let f = hourFormats.get(scope.lang);
  if (!f)
    hourFormats.set(scope.lang, (f = new Intl.DateTimeFormat(scope.lang, { timeStyle: 'short', timeZone: 'UTC' })));
  const [start, end] = [wallDate(row.start_local), wallDate(row.end_local)];
  return end.getTime() <= start.getTime() ? f.format(start) : f.formatRange(start, end);
}

/** A list's events as the API maps them, then as the list shows them (with its day, hours, plain excerpt and picture). */
export async function summaries(db: Db, ctx: RequestContext, scope: PageScope, rows: EventRow[]) {
  const relations = await loadEventRelations(db, rows, ctx, false);
  return rows.map((row) => {
    const event = toEventObject(row, relations, ctx, { single: false, blank: row.password !== '' });
    const image = row.image_id === null ? undefined : relations.images.get(row.image_id);
    return {
      ...eventSummary(event, scope.paths, scope.lang, pageCost(row, scope.m)),
      day: row.start_local.slice(0, 10),
      hours: hoursOf(row, scope),
      text: plainExcerpt(row),
      picture: image && /^https?:\/\//i.test(image.url) ? { src: image.url } : null,
    };
  });
}

export type ListedEvent = Awaited<ReturnType<typeof summaries>>[number];

/**
 * A list's events under a heading per day: the day each starts, or `from` for those that started
 * before it and are still going on (an upcoming list shows them as today's). Events come in order.
 */
export function byDay(events: ListedEvent[], lang: string, from: string | null) {
  const days: { date: string; label: string; events: ListedEvent[] }[] = [];
  for (const event of events) {
    const date = from !== null && event.day < from ? from : event.day;
    const last = days[days.length - 1];
    if (last?.date === date) last.events.push(event);
    else days.push({ date, label: formats.longDay(lang, date), events: [event] });
  }
  return days;
}

/** Paths of a record's published translations, for the switcher and hreflang. */
export async function translationPaths(
  db: Db,
  config: Config,
  table: 'events' | 'venues' | 'organizers',
  row: { id: number; trid: number; lang: string; slug: string },
  path: (paths: ReturnType<typeof pagePaths>, slug: string) => string,
): Promise<Translations> {
  const group = (await loadTranslations(db, table, [row.trid], null)).get(row.trid) ?? {};
  const ids = Object.entries(group)
    .filter(([lang]) => lang !== row.lang)
    .map(([, id]) => id);
  const others = ids.length === 0 ? [] : await publishedSlugs(db, table, ids);
  return Object.fromEntries([...others, row].map((r) => [r.lang, path(pagePaths(rootPathOf(config, r.lang)), r.slug)]));
}

// --- The month grid --------------------------------------------------------------------------

/** Bars a grid reads at most: past them (a calendar of thousands of long events) the days count them. */
const MAX_BARS = 500;

/**
 * A grid's cells (month or week: whole weeks of `days`), `cap` slots a day at most (page.grid.ts
 * lays them out). A bounded number of statements, each a short range of an index, whatever the
 * calendar's size: the first `cap + 1` events starting each day; the multi-day events reaching
 * into the grid (where they start from the per-day counts, then those events); how many start on
 * the days holding more than `cap`; and, only when the multi-day events are more than MAX_BARS,
 * how many of them there are per start and end day. Every event of a day is shown or counted.
 */
export async function gridEvents(
  db: Db,
  ctx: RequestContext,
  filter: PageFilter,
  days: string[],
  cap: number,
): Promise<Map<string, GridDay>> {
  const { where } = filter;
  const first = days[0]!;
  const last = days[days.length - 1]!;
  const [rows, pairs] = await Promise.all([
    filter.linked ? filter.linked.firstOfDays(days, cap + 1) : firstOfEachDay(db, ctx, where, days, cap + 1),
    multiDayPairs(db, ctx.lang, first, last),
  ]);
  const lasting = filter.linked && lastingRange(pairs, first);
  const bars = lasting
    ? await filter.linked!.within(lasting, MAX_BARS)
    : await multiDayEvents(db, ctx, where, pairs, first, MAX_BARS);
  const starting = new Map<string, GridEvent[]>();
  for (const row of rows) {
    const day = row.start_local.slice(0, 10);
    starting.set(day, [...(starting.get(day) ?? []), row]);
  }
  const overflowing = [...starting].filter(([, list]) => list.length > cap).map(([day]) => day);
  const [counts, barPairs] = await Promise.all([
    startsPerDay(db, ctx, filter, overflowing),
    bars.length < MAX_BARS
      ? pairsOf(bars)
      : filter.countKey?.kind === 'all'
        ? pairs
        : lasting
          ? filter.linked!.pairsWithin(lasting)
          : multiDayCounts(db, ctx, where, pairs, first),
  ]);
  const starts = new Map(days.map((day) => [day, counts.get(day) ?? starting.get(day)?.length ?? 0]));
  return layoutGrid({ days, bars, starting, totals: dayTotals(days, starts, barPairs), cap });
}

/** How many listed events start on each of `days`: from the per-day counts when they hold them (009, 013, 018). */
async function startsPerDay(
  db: Db,
  ctx: RequestContext,
  filter: PageFilter,
  days: string[],
): Promise<Map<string, number>> {
  if (days.length === 0) return new Map();
  if (filter.countKey !== null) return countsByStartDay(db, ctx.lang, filter.countKey, days);
  return dayCounts(db, ctx, filter.where, days);
}
