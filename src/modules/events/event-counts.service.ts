import type { FastifyInstance } from 'fastify';
import { DateTime } from 'luxon';
import type { Db } from '../../db/database.js';
import { runInBackground } from '../../lib/background.js';
import { cachePerOwner, CACHE_BUDGET } from '../../lib/cache-budget.js';
import { unprotectedSql } from '../../db/visibility.js';
import { searchFilter, type SearchFilter } from './event-search.repository.js';
import {
  listsAtLeast,
  findPhrase,
  sampledListedTexts,
  addPhrase,
  countPhraseSlice,
  startDayCounts,
  touchPhrase,
  type CountKey,
  type Facet,
} from './event-counts.repository.js';

export type { CountKey } from './event-counts.repository.js';

/**
 * Per-day counts for searches no index narrows (migration 019). A public list that searches such
 * words registers them (when they come back, below); their counts are then taken in the
 * background, a slice of events at a time (029, `buildSearchCounts`), and the triggers keep them.
 * Every later list of whole days searching the same words sums them, so `search=jazz` over a year
 * costs what `categories=jazz` does, not a test of the year's events.
 *
 * Only searches that would scan are registered (a rare word is counted through its index), and at
 * most MAX_PHRASES of them, the least recently used going first: each costs every write of an
 * event a test of its words. So a search is registered when it comes back (one asked once is
 * counted as before), and an instance registers one search a second at most; the common words are
 * registered ahead (`registerCommonSearches`). Both are this process's memory on purpose: they only
 * decide when to register, never what a count is.
 */

export const MAX_PHRASES = 200;

/** How stale a phrase's last use may get before a read records it again (one write an hour at most). */
const TOUCH_AFTER_HOURS = 1;

/**
 * Per database: searches seen and not registered, each with the time (Date.now()) until which it
 * needs no look: 0 for a search seen once (registered when seen again), later for one an index
 * narrowed when it came back (`registrationPacing.narrowLookMs`).
 */
const seenIn = cachePerOwner<Db, number>(CACHE_BUDGET.searchesSeen);
/** When this instance last registered a search (ms). */
let lastRegistration = 0;
/**
 * The least time between two registrations of this instance, and how long a search an index
 * narrowed is not looked at again (a calendar's new events may make its words common: then it is
 * registered at its next ask after that). Tests lower them.
 */
export const registrationPacing = { gapMs: 1000, narrowLookMs: 600_000 };

/**
 * The registered phrase of the words: their JSON, sorted, so that "a b" and "b a" share it, and
 * ASCII letters in lower case, so that "Jazz" and "jazz" do (both databases compare ASCII letters
 * in any case; beyond ASCII SQLite does not, so "É" and "é" keep phrases of their own).
 */
const phraseOf = (words: string[]) => JSON.stringify(words.map(asciiLower).sort());
const asciiLower = (word: string) => word.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());

/**
 * The id of the per-day counts of `search`, registering them if no index narrows the search; null
 * when it is narrowed (counting its events one by one is cheap) or has no words.
 */
export async function searchCountsId(db: Db, search: SearchFilter): Promise<number | null> {
  if (search.words.length === 0) return null;
  const phrase = phraseOf(search.words);
  const known = await knownPhrase(db, phrase);
  // Counts still being taken are not summed: the list is counted row by row meanwhile.
  if (known !== null) return known.complete ? known.id : null;
  const seenBefore = seenIn(db);
  const lookAfter = seenBefore.get(phrase);
  if (lookAfter === undefined) {
    seenBefore.set(phrase, 0);
    return null;
  }
  if (lookAfter > Date.now() || Date.now() - lastRegistration < registrationPacing.gapMs) return null;
  // Whether an index narrows it is a read of up to `maxHits` events on PostgreSQL (some 10–40 ms at
  // 10,000 events): a search it narrows, which is never registered, is not read again at every ask.
  if (await search.narrow()) {
    seenBefore.set(phrase, Date.now() + registrationPacing.narrowLookMs);
    return null;
  }
  lastRegistration = Date.now();
  seenBefore.delete(phrase);
  // This list is still counted row by row: the background takes the new counts.
  await register(db, phrase, search.patterns);
  return null;
}

/** A registered phrase's id and whether its counts are complete, its last use recorded if stale; null when not registered. */
async function knownPhrase(db: Db, phrase: string): Promise<{ id: number; complete: boolean } | null> {
  const known = await findPhrase(db, phrase);
  if (!known) return null;
  const stale = DateTime.utc().minus({ hours: TOUCH_AFTER_HOURS }).toFormat('yyyy-MM-dd HH:mm:ss');
  if (known.used_utc < stale) await touchPhrase(db, known.id);
  return { id: known.id, complete: known.counted_through === null };
}

/** Events a slice of a registered search's counts reads (ids): some milliseconds of work. */
export const SLICE_EVENTS = 5000;

/**
 * Takes slices of registered searches' counts for about `budgetMs`, yielding to the event loop
 * between them, until every search's counts are complete; answers the slices taken. Every
 * instance runs it in its background: slices of two instances take turns (each moves the
 * search's `counted_through` under the write lock), so they share the work.
 */
export async function buildSearchCounts(db: Db, budgetMs: number, size = SLICE_EVENTS): Promise<number> {
  if ((idleUntil.get(db) ?? 0) > performance.now()) return 0;
  const until = performance.now() + budgetMs;
  let slices = 0;
  for (;;) {
    if (performance.now() >= until) return slices;
    const before = registrations.get(db) ?? 0;
    const outcome = await countPhraseSlice(db, size);
    // Idle only if this instance registered nothing while it looked (its look may have missed it).
    if (outcome === 'none' && (registrations.get(db) ?? 0) === before)
      idleUntil.set(db, performance.now() + IDLE_LOOK_MS);
    if (outcome !== 'counted') return slices;
    slices += 1;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * Once every search's counts are complete, how long an instance waits before it looks again
 * (ms), unless it registers one itself: an idle service reads nothing every second, and another
 * instance's registration, which that instance starts counting at once, is shared within this.
 */
const IDLE_LOOK_MS = 30_000;
/** Per database: until when this instance does not look for counts to take (performance.now()). */
const idleUntil = new WeakMap<Db, number>();
/** Per database: how many searches this instance has registered. */
const registrations = new WeakMap<Db, number>();

/** Of every second (the background's round), how long an instance may spend taking search counts. */
const SEARCH_COUNT_BUDGET_MS = 100;

/** How often an instance looks whether the common words are due to be read again (hourly: COMMON_SEARCHES). */
export const COMMON_SEARCH_ROUND_MS = 60_000;

/**
 * This instance's background work for search counts: taking registered searches' counts, a
 * slice at a time, about a tenth of the time (the first look comes IDLE_LOOK_MS after start-up:
 * counts a restart left unfinished wait that long, unless this instance registers a search), and
 * registering the `commonSearches` most common words ahead (none when 0).
 */
export function startSearchCounts(app: FastifyInstance, db: Db, commonSearches: number): void {
  idleUntil.set(db, performance.now() + IDLE_LOOK_MS);
  runInBackground(app, 'counting registered searches', async () => {
    await buildSearchCounts(db, SEARCH_COUNT_BUDGET_MS);
    return 0;
  });
  const common = { ...COMMON_SEARCHES, most: commonSearches };
  if (common.most > 0)
    runInBackground(
      app,
      'registering common searches',
      async () => {
        await registerCommonSearches(db, common);
        return 0;
      },
      COMMON_SEARCH_ROUND_MS,
    );
}

/** Registers a search, and has this instance's next round look for its counts at once. */
async function register(db: Db, phrase: string, patterns: string[]): Promise<void> {
  await addPhrase(db, phrase, patterns, MAX_PHRASES);
  registrations.set(db, (registrations.get(db) ?? 0) + 1);
  idleUntil.delete(db);
}

/**
 * Common words counted ahead. Registered when it comes back, a search no index narrows costs
 * its first asks a count of every event it tests, while the visitor waits (a common word at
 * 1,000,000 events: about a second). The words such searches are made of are common by
 * definition, so they are few and found in the events themselves: each instance, in its
 * background, now and then reads the text of a sample of the listed events (the newest of each
 * tenth of their ids: sampledListedTexts), takes the words the most of them contain, and
 * registers them. A word an index narrows is left (counted through the index, it is cheap), as is
 * every word of a calendar too small for a count to be slow. A visitor's first search of such a
 * word is then summed from its per-day counts, once the background has taken them.
 *
 * Searches of several words, and words the sampled events do not share, are registered when they
 * come back, as before. The words found are this process's memory, as `seen` is: they decide
 * what to count ahead, never what a count is.
 */
export interface CommonSearchOptions {
  /** Most words counted ahead (CAL_COMMON_SEARCHES; 0: none). */
  most: number;
  /** How many listed events' text is read for the words' frequency (spread over the calendar's ids). */
  sample: number;
  /** The least share of those events a word must be in. */
  minShare: number;
  /** The fewest listed events for a search's count to be worth doing ahead. */
  minListed: number;
  /** How long the words found are kept before the events are read again (ms). */
  resampleMs: number;
}

export const COMMON_SEARCHES: Omit<CommonSearchOptions, 'most'> = {
  sample: 1000,
  minShare: 0.02,
  // About where a count of every listed event starts to take tens of milliseconds.
  minListed: 20_000,
  resampleMs: 3_600_000,
};

/** Words as visitors type them: runs of letters and digits (up to 40; "a" is one, as a search). */
const WORD = /[\p{L}\p{N}]{1,40}/gu;
/** Markup is not text: a search for "div" is not what the tags are there for. */
const TAG = /<[^>]{0,500}>/g;

/**
 * The words in at least `minShare` of `texts`, the most frequent first, at most `most`; each
 * text's words counted once, ASCII letters in lower case. Yields to the event loop every hundred
 * texts: a sample is read in the background, never in one long turn of the loop.
 */
async function commonWords(texts: string[], most: number, minShare: number): Promise<string[]> {
  const frequency = new Map<string, number>();
  for (let i = 0; i < texts.length; i++) {
    if (i % 100 === 99) await new Promise((resolve) => setImmediate(resolve));
    const words = new Set(texts[i]!.replace(TAG, ' ').match(WORD)?.map(asciiLower));
    for (const word of words) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  }
  const least = Math.max(1, Math.ceil(minShare * texts.length));
  return [...frequency]
    .filter(([, n]) => n >= least)
    .sort(([a, m], [b, n]) => n - m || (a < b ? -1 : 1))
    .slice(0, most)
    .map(([word]) => word);
}

/** Per database: when this instance last read the common words. */
const commonReadAt = new WeakMap<Db, number>();

/**
 * Reads the common words again if `resampleMs` has passed, and registers those not registered yet
 * that no index narrows; one already registered has its use recorded, so that visitors' searches do
 * not push it out. Answers the words registered.
 */
export async function registerCommonSearches(
  db: Db,
  options: CommonSearchOptions,
  now: number = Date.now(),
): Promise<string[]> {
  const readAt = commonReadAt.get(db);
  if (options.most === 0 || (readAt !== undefined && now - readAt < options.resampleMs)) return [];
  commonReadAt.set(db, now);
  if (!(await listsAtLeast(db, options.minListed))) return [];
  const registered: string[] = [];
  for (const word of await commonWords(await sampledListedTexts(db, options.sample), options.most, options.minShare)) {
    const phrase = phraseOf([word]);
    if ((await knownPhrase(db, phrase)) !== null) continue;
    // As the public lists search it: anonymous readers see a protected event's title only.
    const search = await searchFilter(db, word, unprotectedSql('events'));
    if (await search.narrow()) continue;
    await register(db, phrase, search.patterns);
    registered.push(word);
  }
  return registered;
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
