import type { LRUCache } from 'lru-cache';
import { DateTime } from 'luxon';
import type { Db } from '../../db/database.js';
import { byteBoundedCache, CACHE_BUDGET, stringBytes } from '../../lib/cache-budget.js';
import type { SearchFilter } from './event-search.repository.js';
import {
  findPhrase,
  registerPhrase,
  startDayCounts,
  touchPhrase,
  type CountKey,
  type Facet,
} from './event-counts.repository.js';

export type { CountKey } from './event-counts.repository.js';

/**
 * Per-day counts for searches no index narrows (migration 019). A public list that searches such
 * words registers them (when they come back, below): one count of their matching events grouped
 * by day pair, then the triggers keep it. Every later list of whole days searching the same words sums it, so
 * `search=jazz` over a year costs what `categories=jazz` does, not a test of the year's events.
 *
 * Only searches that would scan are registered (a rare word is counted through its index), and at
 * most MAX_PHRASES of them, the least recently used going first: each costs every write of an
 * event a test of its words. A registration counts every event of the search once and, on
 * PostgreSQL, holds writers back meanwhile; so a search is registered when it comes back (one
 * asked once is counted as before), and an instance registers one search a second at most, so
 * that a stream of distinct searches cannot keep writers waiting. Both are this process's
 * memory on purpose: they only decide when to register, never what a count is.
 */

export const MAX_PHRASES = 200;

/** How stale a phrase's last use may get before a read records it again (one write an hour at most). */
const TOUCH_AFTER_HOURS = 1;

/** Per database: searches seen once and not registered, registered when seen again. */
const seen = new WeakMap<Db, LRUCache<string, true>>();
/** When this instance last registered a search (ms). */
let lastRegistration = 0;
/** The least time between two registrations of this instance; tests that register many searches lower it. */
export const registrationPacing = { gapMs: 1000 };

/** The registered phrase of the words: their JSON, sorted, so that "a b" and "b a" share it. */
const phraseOf = (words: string[]) => JSON.stringify([...words].sort());

/**
 * The id of the per-day counts of `search`, registering them if no index narrows the search; null
 * when it is narrowed (counting its events one by one is cheap) or has no words.
 */
export async function searchCountsId(db: Db, search: SearchFilter): Promise<number | null> {
  if (search.words.length === 0) return null;
  const phrase = phraseOf(search.words);
  const known = await findPhrase(db, phrase);
  if (known) {
    const stale = DateTime.utc().minus({ hours: TOUCH_AFTER_HOURS }).toFormat('yyyy-MM-dd HH:mm:ss');
    if (known.used_utc < stale) await touchPhrase(db, known.id);
    return known.id;
  }
  let seenOnce = seen.get(db);
  if (!seenOnce) seen.set(db, (seenOnce = byteBoundedCache(CACHE_BUDGET.searchesSeen, (_, key) => stringBytes(key))));
  if (!seenOnce.has(phrase)) {
    seenOnce.set(phrase, true);
    return null;
  }
  if (Date.now() - lastRegistration < registrationPacing.gapMs || (await search.narrow())) return null;
  lastRegistration = Date.now();
  seenOnce.delete(phrase);
  return registerPhrase(db, phrase, search, MAX_PHRASES);
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
  /** The per-day counts of the `search` filter (above), if it has them. */
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

/**
 * How many listed events start on each of `days`, from the per-day counts of `key` (the public
 * pages' month grid, whose filter's countKey names them).
 */
export function countsByStartDay(db: Db, lang: string, key: CountKey, days: string[]): Promise<Map<string, number>> {
  return startDayCounts(db, lang, key, days);
}
