import { LRUCache } from 'lru-cache';

const MB = 1024 * 1024;

/**
 * The bytes each in-process cache that traffic fills may hold, in one place so that their sum is
 * known: 20.5 MB, with 4 MB more per SQLite reader thread (issue 30: the embedded service at
 * 100,000 events within 150 MB). A cache bounded by entries is bounded by nothing when its keys or
 * values vary in size (a count's key held its whole SQL; a prepared statement holds a program the
 * size of its SQL; a page is 200 KB where an event is 5 KB), so each one counts the bytes of its
 * entries and drops the least recently used beyond its budget.
 */
export const CACHE_BUDGET = {
  /**
   * API answers (JSON) of the page cache, kept coded (page-cache.ts): a list of 50 events is 10–15
   * KB as brotli and gzip, so some 300 answers: the lists and events that come back.
   */
  answers: 4 * MB,
  /**
   * Pages and feeds of the page cache, kept coded: a month or a list page is 100–200 KB as HTML
   * and 20–40 KB as brotli and gzip, so some 250 pages: the months, lists and days visitors share.
   */
  pages: 8 * MB,
  /**
   * Prepared statements per SQLite connection (sqlite-statements.ts counts what SQLite holds for
   * one): the 70 statements a mix of lists and pages runs take some 2.4 MB by that count.
   */
  statements: 4 * MB,
  /** Exact list totals, with a fixed-size key each (count-cache.ts): some 5,000 totals. */
  counts: 1 * MB,
  /** Parsed recurrence rules: about 1,500, where a page shows at most a few hundred series. */
  rules: 1 * MB,
  /** Zone offsets at instants (dates/convert.ts): some 6,000, more than a page of a year asks. */
  offsets: 1 * MB,
  /** Searches asked once, registered for per-day counts when asked again (event-counts.service.ts). */
  searchesSeen: 1 * MB,
  /** Words SQLite's search index names too many events for to narrow a list (event-search.repository.ts). */
  commonWords: 256 * 1024,
  /** Site addresses' `global_id` hosts (http/context.ts): one per address the service answers at. */
  hosts: 256 * 1024,
} as const;

/** What an entry costs besides its key and value: the cache's slots, the Map's entry, an object header. */
export const ENTRY_BYTES = 100;

/** A string's bytes in V8's heap: a byte per character for Latin-1 text, two otherwise, and a header. */
export function stringBytes(text: string): number {
  // eslint-disable-next-line no-control-regex
  return 16 + text.length * (/[^\u0000-\u00ff]/.test(text) ? 2 : 1);
}

/**
 * A least-recently-used cache of at most `bytes`, each entry counted as `sizeOf` says plus
 * {@link ENTRY_BYTES}. Without `max`, lru-cache grows its slots with the entries instead of
 * allocating them all up front.
 */
export function byteBoundedCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(
  bytes: number,
  sizeOf: (value: V, key: K) => number,
  options: Omit<LRUCache.Options<K, V, unknown>, 'max' | 'maxSize' | 'sizeCalculation'> = {},
): LRUCache<K, V> {
  return new LRUCache<K, V>({
    ...options,
    maxSize: bytes,
    sizeCalculation: (value, key) => Math.max(1, Math.ceil(sizeOf(value, key) + ENTRY_BYTES)),
  });
}

/**
 * A byteBoundedCache of string keys (their bytes counted; the values small) for each owner, made
 * at the owner's first use and gone with it: a module's memory of one database, where tests open
 * many.
 */
export function cachePerOwner<O extends object, V extends NonNullable<unknown>>(
  bytes: number,
): (owner: O) => LRUCache<string, V> {
  const caches = new WeakMap<O, LRUCache<string, V>>();
  return (owner) => {
    let cache = caches.get(owner);
    if (!cache) caches.set(owner, (cache = byteBoundedCache<string, V>(bytes, (_, key) => stringBytes(key))));
    return cache;
  };
}

/**
 * A least-recently-used cache of at most `entries` entries that are all of one small size (a hash
 * and a few fields), so their number bounds their bytes. Unlike lru-cache's `max`, which allocates
 * every slot up front (100,000 slots take 4 MB from the start), its slots grow with the entries.
 */
export function entryBoundedCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>>(
  entries: number,
  options: Omit<LRUCache.Options<K, V, unknown>, 'max' | 'maxSize' | 'sizeCalculation'> = {},
): LRUCache<K, V> {
  return new LRUCache<K, V>({ ...options, maxSize: entries, sizeCalculation: () => 1 });
}
