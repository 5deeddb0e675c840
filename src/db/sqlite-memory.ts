import type BetterSqlite3 from 'better-sqlite3';

/**
 * SQLite's page cache per connection, in KiB (a negative `cache_size`). better-sqlite3 builds
 * SQLite with 16 MB (SQLITE_DEFAULT_CACHE_SIZE=-16000), which every connection fills as it reads
 * (the main one and each reader thread), where SQLite's own default is 2 MB. The file's pages stay
 * in the operating system's cache, outside the process, so a page SQLite no longer holds costs a
 * copy of a few microseconds, not a disk access: at 1,000,000 events the statements of a mix of
 * lists and pages took the same user time with 4 MB as with 16 MB, and 6 % more CPU in all (the
 * copies), for 12 MB less resident per connection.
 */
export const SQLITE_CACHE_KIB = 4096;

/**
 * The embedded database's memory settings, for every connection the service opens (the reader
 * threads copy them): a page cache of {@link SQLITE_CACHE_KIB}, and no memory-mapped reads, whose
 * pages would count in the process's resident memory up to the size of the file (the operating
 * system caches the file either way).
 */
export function tuneSqliteMemory(sqlite: BetterSqlite3.Database): void {
  sqlite.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
  sqlite.pragma('mmap_size = 0');
}

/**
 * The main connection's page cache while a long run of writes goes on, in KiB. An import's every
 * event also goes into the search index (FTS5, trigrams), whose insert reads pages across the
 * index: with 4 MB it cost 0.15 ms an event at 5,000 events and 8 ms at 50,000 (the pages read
 * again from the operating system each time), with 64 MB 0.6 ms; the import's rate fell fourfold
 * over a 50,000-event file.
 */
export const SQLITE_BULK_CACHE_KIB = 65536;

/**
 * Runs work with the larger cache on `sqlite`, then gives the memory back (a smaller cache_size
 * frees the pages beyond it); overlapping runs keep it until the last ends.
 */
export function bulkCache(sqlite: BetterSqlite3.Database): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  return async (work) => {
    if (running++ === 0) sqlite.pragma(`cache_size = -${SQLITE_BULK_CACHE_KIB}`);
    try {
      return await work();
    } finally {
      if (--running === 0) sqlite.pragma(`cache_size = -${SQLITE_CACHE_KIB}`);
    }
  };
}
