import { sql, type SelectQueryBuilder } from 'kysely';
import type { Database, Db, EventFacetWindowCountTable } from '../../db/database.js';

/**
 * A public list's window of whole days (from `YYYY-MM-DD 00:00:00`, to `YYYY-MM-DD 23:59:59`),
 * as days; either side may be open.
 */
export interface DayWindow {
  from: string | null;
  to: string | null;
}

export type Facet = EventFacetWindowCountTable['facet'];

/**
 * Which per-day counts hold a public list's events: all of them (migration 009), those of one
 * category or tag (013), those of a facet (018) for one or more ids whose events never overlap
 * (the translations of one venue: an event has one venue), or those of a search (019).
 */
export type CountKey =
  | { kind: 'all' }
  | { kind: 'term'; id: number }
  | { kind: 'facet'; facet: Facet; ids: number[] }
  | { kind: 'search'; id: number };

const TABLES = {
  all: 'event_window_counts',
  term: 'event_term_window_counts',
  facet: 'event_facet_window_counts',
  search: 'search_window_counts',
} as const;

/** The per-day count rows of `key` in `lang`. The tables share the columns read by callers; the query is typed with the first. */
export function countRows(
  db: Db,
  lang: string,
  key: CountKey,
): SelectQueryBuilder<Database, 'event_window_counts', object> {
  return db
    .selectFrom(TABLES[key.kind] as 'event_window_counts')
    .where('lang', '=', lang)
    .$if(key.kind === 'term', (qb) => qb.where(sql.ref('term_id'), '=', (key as { id: number }).id))
    .$if(key.kind === 'search', (qb) => qb.where(sql.ref('phrase_id'), '=', (key as { id: number }).id))
    .$if(key.kind === 'facet', (qb) => {
      const { facet, ids } = key as { facet: Facet; ids: number[] };
      return qb.where(sql.ref('facet'), '=', facet).where(sql.ref('facet_id'), 'in', ids);
    });
}

/**
 * The total of a public list of whole days from the per-day counts of its filter: an event is in
 * the window when it starts on or after its first day and ends on or before its last, so the sum
 * over (start day, end day) pairs inside the window is exactly the count of its events, and
 * reads a few hundred rows for a year.
 */
export function windowCountQuery(db: Db, lang: string, window: DayWindow, key: CountKey) {
  return countRows(db, lang, key)
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'))
    .$if(window.from !== null, (qb) => qb.where('start_day', '>=', window.from!))
    .$if(window.to !== null, (qb) => qb.where('end_day', '<=', window.to!));
}

/** The filters of a public list, once resolved, that decide whether per-day counts hold its events. */
export interface CountableFilters {
  /** The list's parameters beyond the date window (`categories`, `venue`, `featured`…). */
  given: readonly string[];
  /** The term ids of the `categories` or `tags` filter, subcategories and translations included. */
  terms: number[] | null;
  /** The venue ids of `venue`, translations included. */
  venues: number[];
  /** The organizer ids of `organizer`, translations included. */
  organizers: number[];
  featured: boolean | undefined;
  /** The per-day counts of the `search` filter (event.search-counts.ts), if it has them. */
  search: number | null;
}

/**
 * The per-day counts that count exactly the events of these filters, or null. Sums must count an
 * event once: one term (an event may link a category and its subcategory), one organizer (an event
 * may link two), any venues (an event has one); `featured=false` has no counts of its own.
 */
export function countKeyOf(filters: CountableFilters): CountKey | null {
  const featured = filters.given.includes('featured');
  if (featured && filters.featured !== true) return null;
  const rest = filters.given.filter((name) => name !== 'featured');
  const facet = (plain: Facet | null, withFeatured: Facet, ids: number[]): CountKey | null =>
    featured
      ? { kind: 'facet', facet: withFeatured, ids }
      : plain === null
        ? null
        : { kind: 'facet', facet: plain, ids };
  if (rest.length === 0) return featured ? facet(null, 'featured', [0]) : { kind: 'all' };
  if (rest.length > 1) return null;
  const only = rest[0];
  if (only === 'search') return !featured && filters.search !== null ? { kind: 'search', id: filters.search } : null;
  if ((only === 'categories' || only === 'tags') && filters.terms?.length === 1) {
    return featured ? facet(null, 'featured_term', filters.terms) : { kind: 'term', id: filters.terms[0]! };
  }
  if (only === 'venue' && filters.venues.length > 0)
    return facet('venue', 'featured_venue', [...new Set(filters.venues)]);
  if (only === 'organizer' && filters.organizers.length === 1)
    return facet('organizer', 'featured_organizer', filters.organizers);
  return null;
}

/** The day of a bound when it is a whole-day bound of its side, else null (strict or relative bounds). */
export function wholeDay(value: string, side: 'from' | 'to'): string | null {
  const time = value.slice(11);
  return (side === 'from' ? time === '00:00:00' : time === '23:59:59') ? value.slice(0, 10) : null;
}
