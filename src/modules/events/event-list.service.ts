import type { Expression, SqlBool } from 'kysely';
import { DateTime } from 'luxon';
import type { Db, EventRow } from '../../db/database.js';
import type { CountCache } from '../../db/count-cache.js';
import { dialectOf } from '../../db/dialect.js';
import type { RequestContext } from '../../http/context.js';
import { invalidParam } from '../../http/errors.js';
import { buildPage, clampPerPage, isPastTheEnd, offsetOf, type Page } from '../../http/pagination.js';
import { booleanParam } from '../../http/params.js';
import { Problems } from '../../http/problems.js';
import { TEXT_LIMITS } from '../../http/schemas.js';
import { formatSql, parseDateTime, shiftDays, zoneOrUtc, type Zone } from '../../lib/dates.js';
import { checkStatusFilter, statusEcho, visibleTo, withTranslations } from '../posts/post.service.js';
import { searchFilter, searchWords } from './event-search.repository.js';
import { countKeyOf, searchCountsId, wholeDay, type CountableFilters } from './event-counts.service.js';
import { defaultListStatuses } from '../../auth/roles.js';
import { eventErrors } from './event.errors.js';
import { toEventObject } from './event.mapper.js';
import { loadEventRelations } from './event-relations.service.js';
import { unlocked } from '../posts/post.password.js';
import { shownFieldsSql } from '../../db/visibility.js';
import type { EventListParams } from './event.schema.js';
import { assertCountsAgree, windowCountQuery, type CountKey, type DayWindow } from './event-counts.repository.js';
import * as list from './event-list.repository.js';

const RELATIVE = ['starts_before', 'starts_after', 'ends_before', 'ends_after'] as const;
type DateParam = 'start_date' | 'end_date' | (typeof RELATIVE)[number];
const COMPARE: Record<DateParam, { column: 'start_local' | 'end_local'; op: '>=' | '<=' | '<' | '>' }> = {
  start_date: { column: 'start_local', op: '>=' },
  end_date: { column: 'end_local', op: '<=' },
  starts_before: { column: 'start_local', op: '<' },
  starts_after: { column: 'start_local', op: '>' },
  ends_before: { column: 'end_local', op: '<' },
  ends_after: { column: 'end_local', op: '>' },
};
/**
 * The first and last times stored (four-digit years). Bounds are compared as text, where a year
 * of five digits sorts before "2030": a bound past these is read as them.
 */
const FIRST_TIME = '0000-01-01 00:00:00';
const LAST_TIME = '9999-12-31 23:59:59';

/** The filters of a list request once checked: what the SQL needs and what rest_url echoes. */
export interface EventFilter {
  where: Expression<SqlBool>[];
  echo: [string, string][];
  byInclude: boolean;
  /** Set when the list is the public view of a window of whole days that per-day counts hold (countKey). */
  dayWindow: DayWindow | null;
  /**
   * Set when per-day counts hold this list's events, whatever its window (event-counts.service.ts):
   * with dayWindow the total is their sum, and the month grid counts its days with them.
   */
  countKey: CountKey | null;
  /** The caller's visibility clause, one of `where` (the calendar feeds put cancelled events beside it). */
  visibility: Expression<SqlBool>;
  /** The filters on links (categories, tags, organizers), each with its condition in `where`. */
  links: LinkCondition[];
  /** The date window's bounds, each also a condition in `where`. */
  bounds: list.Bound[];
  /**
   * Whether the list shows published events only, and with a link filter unprotected ones only
   * (what the links' index of migration 025 holds; listed ones unless `include_hidden`).
   */
  publicLinks: boolean;
  /** Whether it has no filter but the window and its link filters. */
  linksOnly: boolean;
  /**
   * Set when the list is the public view of a window of whole days filtered by a venue and one
   * category, tag or organizer, each with per-day counts of its own: which of the two holds fewer
   * events of the window says which the list is read from (listEvents).
   */
  venueOrLink: { window: DayWindow; venue: CountKey; link: CountKey } | null;
}

/** A link filter and its condition among a filter's `where`. */
interface LinkCondition {
  link: list.LinkFilter;
  clause: Expression<SqlBool>;
}

/** Parameters that filter beyond the date window and the view (the per-day counts know some: countKeyOf). */
const OTHER_FILTERS = [
  'search',
  'categories',
  'tags',
  'venue',
  'organizer',
  'featured',
  'post_parent',
  'include',
  'geoloc',
  'geoloc_lat',
  'geoloc_lng',
  'include_hidden',
  'hide_subsequent_recurrences',
  'author',
] as const;

/** The whole-day window of the bounds, or null when one is not a whole day of its side (strict, relative). */
function dayWindowOf(bounds: [DateParam, string][]): DayWindow | null {
  const window: DayWindow = { from: null, to: null };
  for (const [name, value] of bounds) {
    const side = name === 'start_date' ? 'from' : name === 'end_date' ? 'to' : null;
    const day = side === null ? null : wholeDay(value, side);
    if (side === null || day === null) return null;
    window[side] = day;
  }
  return window;
}

/**
 * The date window (original 3.1): whole days in the site's zone unless `strict_dates`, defaults
 * from yesterday to two years ahead, dropped when a relative bound is given, ignored with `include`.
 */
function dateBounds(
  q: EventListParams,
  siteZone: Zone,
  strict: boolean,
  problems: Problems,
  now: DateTime,
): [DateParam, string][] {
  const utc = zoneOrUtc('UTC');
  const bounds: [DateParam, string][] = [];
  const read = (name: DateParam, value: string): string | null => {
    const parsed = strict ? parseDateTime(value, utc)?.setZone(siteZone) : parseDateTime(value, siteZone);
    if (!parsed) {
      problems.add(name, `${name} is not a valid date.`);
      return null;
    }
    if (parsed.year > 9999) return LAST_TIME;
    if (parsed.year < 0) return FIRST_TIME;
    if (strict) return formatSql(parsed);
    const day = parsed.toFormat('yyyy-MM-dd');
    return name === 'start_date' ? `${day} 00:00:00` : `${day} 23:59:59`;
  };
  const relative = RELATIVE.some((r) => q[r] !== undefined);
  const defaults: Partial<Record<DateParam, DateTime>> = relative
    ? {}
    : {
        start_date: now.minus({ days: 1 }).set({ hour: 23, minute: 59, second: 0 }).setZone(siteZone),
        end_date: now.plus({ months: 24 }).setZone(siteZone),
      };
  for (const name of ['start_date', 'end_date', ...RELATIVE] as DateParam[]) {
    const given = q[name];
    if (given !== undefined) {
      const value = read(name, given);
      if (value !== null) bounds.push([name, value]);
    } else if (defaults[name]) {
      const day = defaults[name]!.toFormat('yyyy-MM-dd');
      bounds.push([
        name,
        strict ? formatSql(defaults[name]!) : name === 'start_date' ? `${day} 00:00:00` : `${day} 23:59:59`,
      ]);
    }
  }
  return bounds;
}

/** Ids that must exist in `table`, expanded to their translations. */
async function linkedFilter(
  db: Db,
  table: 'venues' | 'organizers',
  name: string,
  ids: number[],
  problems: Problems,
): Promise<number[]> {
  const found = await list.existingIds(db, table, ids);
  if (found.length !== new Set(ids).size) {
    problems.add(name, `${name} must list existing ${table}.`);
    return [];
  }
  return withTranslations(db, table, ids);
}

/**
 * SPEC 14: only one of geoloc_lat/geoloc_lng names the missing one, extension on or off; while the
 * extension is off, its check comes first and every geoloc* parameter is refused with its code.
 */
function checkGeoloc(q: EventListParams, ctx: RequestContext): void {
  const given = (['geoloc', 'geoloc_lat', 'geoloc_lng'] as const).filter((p) => q[p] !== undefined);
  if (given.length === 0) return;
  const missing = q.geoloc_lat === undefined ? 'geoloc_lat' : 'geoloc_lng';
  const onlyOne = (q.geoloc_lat === undefined) !== (q.geoloc_lng === undefined);
  if (!ctx.settings.geoloc) {
    const reason = 'The geolocation filters need the geolocation extension, which is off.';
    throw invalidParam(onlyOne ? missing : given[0]!, reason, 'geoloc-extension-not-active');
  }
  if (onlyOne)
    throw invalidParam(
      missing,
      `${missing} must be given with ${missing === 'geoloc_lat' ? 'geoloc_lng' : 'geoloc_lat'}.`,
    );
}

/**
 * The term ids an event list filter matches: each item by slug (request language first) or id,
 * then child categories (WordPress includes children), then every translation of those terms.
 * null when an item names no term of the taxonomy (the caller answers 400).
 */
async function resolveTermFilter(
  db: Db,
  taxonomy: 'cal_events_cat' | 'post_tag',
  items: (number | string)[],
  lang: string,
): Promise<number[] | null> {
  const keys = [...new Set(items.map((item) => String(item).trim()))];
  const numeric = keys.filter((key) => /^\d+$/.test(key)).map(Number);
  // Every candidate in one query: by slug in any language, or by id.
  const candidates = await list.termCandidates(db, taxonomy, keys, numeric);
  const ids = new Set<number>();
  for (const key of keys) {
    const bySlug = candidates
      .filter((c) => c.slug === key)
      .sort((a, b) => Number(b.lang === lang) - Number(a.lang === lang) || a.id - b.id)[0];
    const match = bySlug ?? candidates.find((c) => String(c.id) === key);
    if (!match) return null;
    ids.add(match.id);
  }
  if (taxonomy === 'cal_events_cat') {
    // Children, grandchildren… level by level (category trees are shallow).
    let frontier = [...ids];
    while (frontier.length > 0) {
      frontier = (await list.childTermIds(db, frontier)).filter((id) => !ids.has(id));
      for (const id of frontier) ids.add(id);
    }
  }
  for (const id of await list.translatedTermIds(db, [...ids])) ids.add(id);
  return [...ids];
}

/** What buildFilter's parts add to: the conditions, the rest_url echo, the problems, what the counts know. */
interface FilterParts {
  where: Expression<SqlBool>[];
  links: LinkCondition[];
  echo: [string, string][];
  problems: Problems;
  counted: CountableFilters;
}

/**
 * The filters on an event's links: categories and tags (each item by slug in the request's
 * language first, or id; then subcategories and translations), venues and organizers (with their
 * translations). Returns whether one was given (a protected event's links are hidden from it).
 */
async function linkFilters(db: Db, q: EventListParams, ctx: RequestContext, parts: FilterParts): Promise<boolean> {
  const { echo, problems, counted } = parts;
  // Beside a venue, the venue's index drives the plain list and each event's links are probed.
  const probed = q.venue !== undefined && q.venue.length > 0;
  const linkedTo = (link: list.LinkFilter) => {
    const clause = list.linkedTo(link, probed);
    parts.where.push(clause);
    parts.links.push({ link, clause });
  };
  let given = false;
  for (const [param, taxonomy] of [
    ['categories', 'cal_events_cat'],
    ['tags', 'post_tag'],
  ] as const) {
    const items = q[param];
    if (items === undefined || items.length === 0) continue;
    const termIds = await resolveTermFilter(db, taxonomy, items, ctx.lang);
    if (termIds === null)
      problems.add(param, `${param} must list existing ${param === 'tags' ? 'tags' : 'categories'} (ids or slugs).`);
    else linkedTo({ table: 'event_terms', key: 'term_id', ids: termIds });
    counted.terms = termIds;
    given = true;
  }
  if (q.venue !== undefined && q.venue.length > 0) {
    const ids = await linkedFilter(db, 'venues', 'venue', q.venue, problems);
    if (ids.length > 0) parts.where.push(list.atVenues(ids));
    counted.venues = ids;
    given = true;
    echo.push(['venue', q.venue.join(',')]);
  }
  if (q.organizer !== undefined && q.organizer.length > 0) {
    const ids = await linkedFilter(db, 'organizers', 'organizer', q.organizer, problems);
    if (ids.length > 0) linkedTo({ table: 'event_organizers', key: 'organizer_id', ids });
    counted.organizers = ids;
    given = true;
    echo.push(['organizer', q.organizer.join(',')]);
  }
  return given;
}

/** `geoloc` (at a venue with coordinates) and `geoloc_lat`/`geoloc_lng` (within the site's radius). */
function geoFilters(q: EventListParams, ctx: RequestContext, { where, echo, problems }: FilterParts): boolean {
  let given = false;
  if (q.geoloc !== undefined && booleanParam(q.geoloc, 'geoloc')) {
    where.push(list.atGeolocatedVenue());
    given = true;
    echo.push(['geoloc', '1']);
  }
  if (q.geoloc_lat !== undefined && q.geoloc_lng !== undefined) {
    if (Math.abs(q.geoloc_lat) > 90) problems.add('geoloc_lat', 'geoloc_lat must be between -90 and 90.');
    if (Math.abs(q.geoloc_lng) > 180) problems.add('geoloc_lng', 'geoloc_lng must be between -180 and 180.');
    where.push(list.geoWithin(q.geoloc_lat, q.geoloc_lng, ctx.settings.geoloc_radius, ctx.settings.geoloc_unit));
    given = true;
    echo.push(['geoloc_lat', String(q.geoloc_lat)], ['geoloc_lng', String(q.geoloc_lng)]);
  }
  return given;
}

/**
 * The checked filters of a list request, as conditions (event-list.repository.ts) and echo.
 *
 * `dates: false` leaves the date window out (no bounds, not even the default ones): the public
 * pages put their own window beside the list's other filters (a month grid takes in events that
 * overlap it).
 */
export async function buildFilter(
  db: Db,
  q: EventListParams,
  ctx: RequestContext,
  now: DateTime,
  options: { dates?: boolean } = {},
): Promise<EventFilter> {
  checkGeoloc(q, ctx);
  const problems = new Problems();
  const where: Expression<SqlBool>[] = [];
  const echo: [string, string][] = [];
  const strict = booleanParam(q.strict_dates, 'strict_dates') ?? false;
  const siteZone = zoneOrUtc(ctx.settings.timezone);
  const byInclude = q.include !== undefined && q.include.length > 0;

  if (booleanParam(q.ticketed, 'ticketed') === true) {
    throw invalidParam('ticketed', 'Ticketing is not part of this service.', 'tickets-not-available');
  }

  const statuses = checkStatusFilter(q.status, ctx.actor, problems) ?? defaultListStatuses(ctx.actor);
  const visibility = visibleTo(ctx.actor, statuses, 'events');
  where.push(visibility);

  // Search and the filters on fields a password hides see protected events as their reader does.
  const shown = shownFieldsSql(ctx, q);
  let filtersHidden = false;

  let dayWindow: DayWindow | null = null;
  // A public list may be counted from per-day counts: the filters it has decide which (countKeyOf).
  // They count protected events as anonymous readers see them (migration 021).
  const publicOnly = statuses.length === 1 && statuses[0] === 'publish' && shown.public;
  const others = OTHER_FILTERS.filter((name) => q[name] !== undefined);
  const counted: CountableFilters = {
    given: others,
    terms: null,
    venues: [],
    organizers: [],
    featured: undefined,
    search: null,
  };
  const parts: FilterParts = { where, links: [], echo, problems, counted };
  const windowBounds: list.Bound[] = [];
  let startBound: string | null = null;
  if (!byInclude && options.dates !== false) {
    const bounds = dateBounds(q, siteZone, strict, problems, now);
    dayWindow = publicOnly ? dayWindowOf(bounds) : null;
    startBound = bounds.find(([name]) => name === 'start_date' || name === 'starts_after')?.[1] ?? null;
    for (const [name, value] of bounds) {
      const { column, op } = COMPARE[name];
      where.push(list.boundClause(column, op, value));
      windowBounds.push({ column, op, value });
      // An event starts before it ends, so an upper bound on the end bounds the start too: the
      // index on (lang, start_local) then scans the window, not everything after its start. A day
      // of margin covers local times that repeat when the clocks go back (end_local < start_local);
      // past the last day stored, a day more would be a five-digit year (no event at all).
      if (column === 'end_local' && op.startsWith('<')) {
        const last = value.slice(0, 10) === LAST_TIME.slice(0, 10) ? LAST_TIME : shiftDays(value, 1);
        where.push(list.startsAtMost(last));
        windowBounds.push({ column: 'start_local', op: '<=', value: last });
      }
      echo.push([name, value]);
    }
  }

  // Each word is a condition of its own: past a dozen, PostgreSQL refused the statement (expression
  // tree too large) and SQLite ran one index query per word.
  if (q.search !== undefined && searchWords(q.search).length > TEXT_LIMITS.searchWords) {
    problems.add('search', `search has more than ${TEXT_LIMITS.searchWords} different words.`);
  } else if (q.search !== undefined) {
    const search = await searchFilter(db, q.search, shown.clause);
    where.push(...search.clauses);
    // A public search alone may be counted from per-day counts of its own (event-counts.service.ts).
    if (publicOnly && !byInclude && others.length === 1) counted.search = await searchCountsId(db, search);
    echo.push(['search', q.search]);
  }
  echo.push(['status', statusEcho(q.status, statuses)]);

  if (await linkFilters(db, q, ctx, parts)) filtersHidden = true;

  const featured = booleanParam(q.featured, 'featured');
  if (featured !== undefined) {
    where.push(list.isFeatured(featured));
    counted.featured = featured;
    filtersHidden = true;
    echo.push(['featured', featured ? '1' : '0']);
  }
  if (booleanParam(q.include_hidden, 'include_hidden') === true) echo.push(['include_hidden', '1']);

  if (q.post_parent !== undefined) {
    if (!(await list.isEvent(db, q.post_parent))) problems.add('post_parent', 'post_parent is not the id of an event.');
    where.push(list.withParent(q.post_parent));
    echo.push(['post_parent', String(q.post_parent)]);
  }

  if (booleanParam(q.hide_subsequent_recurrences, 'hide_subsequent_recurrences') === true) {
    where.push(list.firstOfSeries(db, startBound));
    echo.push(['hide_subsequent_recurrences', '1']);
  }

  if (q.author !== undefined && q.author.length > 0) {
    where.push(list.byAuthors(q.author));
    echo.push(['author', q.author.join(',')]);
  }

  if (byInclude) {
    where.push(list.amongIds(q.include!));
    echo.push(['include', q.include!.join(',')]);
  }

  if (geoFilters(q, ctx, parts)) filtersHidden = true;
  // Not a filter, but the next and previous pages' addresses keep it.
  if (q.orderby !== undefined) echo.push(['orderby', q.orderby]);
  if (q.order !== undefined) echo.push(['order', q.order]);

  // A protected event's venue, organizers, terms and flags are blanked for this reader: no filter
  // on them matches it (it would tell them), as a filter on an empty field would not.
  if (filtersHidden) where.push(shown.clause);

  problems.throwIfAny();
  const countKey = publicOnly && !byInclude ? countKeyOf(counted) : null;
  return {
    where,
    echo,
    byInclude,
    dayWindow: countKey === null ? null : dayWindow,
    countKey,
    visibility,
    links: parts.links,
    bounds: windowBounds,
    publicLinks: statuses.length === 1 && statuses[0] === 'publish' && shown.public,
    linksOnly: others.every((name) => name === 'categories' || name === 'tags' || name === 'organizer'),
    venueOrLink: publicOnly && !byInclude ? venueOrLinkOf(counted, parts.links, dayWindow) : null,
  };
}

/**
 * A public list's EventFilter.venueOrLink: set when its only filters are a venue and one link
 * (`links`), in a window of whole days, and per-day counts hold each of the two alone.
 */
function venueOrLinkOf(
  counted: CountableFilters,
  links: LinkCondition[],
  window: DayWindow | null,
): EventFilter['venueOrLink'] {
  const [other, ...more] = counted.given.filter((name) => name !== 'venue');
  if (window === null || links.length !== 1 || other === undefined || more.length > 0) return null;
  if (!counted.given.includes('venue')) return null;
  const venue = countKeyOf({ ...counted, given: ['venue'] });
  const link = countKeyOf({ ...counted, given: [other] });
  return venue && link ? { window, venue, link } : null;
}

/**
 * What the default date window depends on, for cache keys: the UTC date and the site-local date
 * (whole days), or the exact second in strict mode when a default bound applies.
 */
export function windowKey(q: EventListParams, ctx: RequestContext, now: DateTime = DateTime.utc()): string {
  const siteZone = zoneOrUtc(ctx.settings.timezone);
  const usesDefault =
    q.include === undefined &&
    !RELATIVE.some((r) => q[r] !== undefined) &&
    (q.start_date === undefined || q.end_date === undefined);
  if (!usesDefault) return '';
  if (booleanParam(q.strict_dates, 'strict_dates')) return now.toISO() ?? '';
  return `${now.toISODate()}|${now.setZone(siteZone).toISODate()}`;
}

/** Set by the test suite: every total taken from the per-day counts is also counted row by row and compared. */
const verifyCounts = process.env['CAL_VERIFY_COUNTS'] === '1';

/** The exact total: from the per-day counts when the filter allows, else by counting the rows. */
async function countEvents(
  db: Db,
  counts: CountCache,
  rowByRow: list.CountQuery,
  filter: EventFilter,
  lang: string,
  version: string,
): Promise<number> {
  if (filter.dayWindow === null || filter.countKey === null) return counts.count(rowByRow, version);
  const { dayWindow: window, countKey } = filter;
  const compare = () => assertCountsAgree(db, windowCountQuery(db, lang, window, countKey), rowByRow, window);
  return counts.count(windowCountQuery(db, lang, window, countKey), version, verifyCounts ? compare : undefined);
}

/** `orderby` and `order`; without them, by start, or by publication date for `include` (as the original). */
function orderOf(q: EventListParams, byInclude: boolean): list.EventOrder {
  const column = q.orderby === 'date' || (q.orderby === undefined && byInclude) ? 'date' : 'start_local';
  return { column, direction: q.order ?? 'asc' };
}

/** Filters that read their own index (a venue's events, the search's words, ids): a link's would not do better. */
const OWN_INDEX = ['venue', 'search', 'include', 'post_parent'] as const;

/**
 * Whether a list filtered by a venue and a link (EventFilter.venueOrLink) is read from the link:
 * when the link's per-day counts hold fewer events of the window than the venue's (a rare tag at
 * a busy venue), else from the venue's index, each event's link probed. Either walk then reads
 * no more events than the smaller of the two.
 */
async function linkHoldsFewer(
  db: Db,
  counts: CountCache,
  filter: EventFilter,
  lang: string,
  version: string,
): Promise<boolean> {
  if (filter.venueOrLink === null) return false;
  const { window, venue, link } = filter.venueOrLink;
  const [atVenue, linked] = await Promise.all([
    counts.count(windowCountQuery(db, lang, window, venue), version),
    counts.count(windowCountQuery(db, lang, window, link), version),
  ]);
  return linked < atVenue;
}

/**
 * The list read from a link table in order (migration 025), when it can be: a public list of
 * listed events by start, filtered by a category, tag or organizer and by nothing with an index of
 * its own (but a venue, when `linkFirst`: linkHoldsFewer). The organizer drives when there is one
 * (fewer events than a term), else the first term filter; the page then walks that link's own
 * events from the window's start, where the plain list walks the window and tests each event's
 * links. With no other filter, the link's copies say every condition: the walk reads the index
 * alone, and only the page's events are read.
 */
function linkedList(
  db: Db,
  q: EventListParams,
  filter: EventFilter,
  order: list.EventOrder,
  lang: string,
  includeHidden: boolean,
  linkFirst = false,
): list.LinkedList | null {
  if (order.column !== 'start_local' || includeHidden || !filter.publicLinks || filter.links.length === 0) return null;
  if (OWN_INDEX.some((name) => q[name] !== undefined && !(name === 'venue' && linkFirst))) return null;
  const driver = filter.links.find((l) => l.link.table === 'event_organizers') ?? filter.links[0]!;
  return {
    db,
    lang,
    link: driver.link,
    others: filter.links.filter((l) => l !== driver).map((l) => l.link),
    bounds: filter.bounds,
    where: filter.linksOnly ? null : filter.where.filter((w) => !filter.links.some((l) => l.clause === w)),
  };
}

/** A public grid's reads from a link table in order (migration 025), each event's `columns` only: see linkedGrid. */
export interface LinkedGrid<C extends keyof EventRow & string> {
  /** The first `limit` events starting on each of `days`, by start then id. */
  firstOfDays(days: string[], limit: number): Promise<Pick<EventRow, C>[]>;
  /** The first `limit` events of `range`, by start then id. */
  within(range: list.LinkedRange, limit: number): Promise<Pick<EventRow, C>[]>;
  /** Those events counted by start and end day. */
  pairsWithin(range: list.LinkedRange): Promise<{ start_day: string; end_day: string; n: number }[]>;
}

/**
 * For the public month and week grids: their events read from the link table in order, when the
 * page's filter is one a list would read so (a category, tag or organizer, and nothing with an
 * index of its own), where the plain statements would walk each day's events and test their
 * links (some 1,400 a day at a million events); else null.
 */
export function linkedGrid<C extends keyof EventRow & string>(
  db: Db,
  q: EventListParams,
  filter: EventFilter,
  lang: string,
  columns: readonly C[],
): LinkedGrid<C> | null {
  const linked = linkedList(db, q, filter, { column: 'start_local', direction: 'asc' }, lang, false);
  if (!linked) return null;
  return {
    firstOfDays: (days, limit) => list.linkedFirstOfDays(linked, days, limit, columns),
    within: (range, limit) => list.linkedWithin(linked, range, limit, columns),
    pairsWithin: (range) => list.linkedDayPairsWithin(linked, range),
  };
}

/** GET /events: one query for the page, one for the total, a fixed number for the embedded records. */
export async function listEvents(
  db: Db,
  counts: CountCache,
  q: EventListParams,
  ctx: RequestContext,
  version: string,
  options: { now?: DateTime; onRows?: (rows: readonly EventRow[]) => Promise<void> } = {},
): Promise<Page<'events'>> {
  const now = options.now ?? DateTime.utc();
  const page = q.page ?? 1;
  const perPage = clampPerPage(q.per_page);
  const filter = await buildFilter(db, q, ctx, now);

  const includeHidden = booleanParam(q.include_hidden, 'include_hidden') === true;
  const order = orderOf(q, filter.byInclude);
  const linkFirst = await linkHoldsFewer(db, counts, filter, ctx.lang, version);
  const linked = linkedList(db, q, filter, order, ctx.lang, includeHidden, linkFirst);
  const base = list.listBase(db, ctx.lang, includeHidden, filter.where);
  const rowByRow = linked ? list.linkedCount(linked) : list.countAll(base);
  const pageRows = () =>
    linked
      ? list.linkedPage(linked, order.direction, perPage, offsetOf(page, perPage))
      : list.pageRows(db, base, order, perPage, offsetOf(page, perPage));
  // A total from per-day counts costs a few hundred rows: read it first, and skip the page when it
  // holds nothing (a tag with no event in the window would otherwise walk the whole window). So
  // on SQLite always, whose one connection runs statements one after the other anyway. Other
  // totals on PostgreSQL count rows: both queries run at once.
  const [total, rows] =
    (filter.dayWindow !== null && filter.countKey !== null) || dialectOf(db) === 'sqlite'
      ? await countEvents(db, counts, rowByRow, filter, ctx.lang, version).then(
          async (n) => [n, offsetOf(page, perPage) >= n ? [] : await pageRows()] as const,
        )
      : await Promise.all([countEvents(db, counts, rowByRow, filter, ctx.lang, version), pageRows()]);
  if (isPastTheEnd(page, perPage, total)) throw eventErrors.archivePageNotFound();

  // The caller learns which rows were shown (the password limiter judges a list's password by them).
  await options.onRows?.(rows);
  const relations = await loadEventRelations(db, rows, ctx, false);
  const items = rows.map((row) => toEventObject(row, relations, ctx, { single: false, blank: !unlocked(row, ctx, q) }));
  return buildPage('events', items, { base: `${ctx.base}/events/`, page, perPage, total, echo: filter.echo });
}
