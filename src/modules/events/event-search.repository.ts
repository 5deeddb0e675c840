import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../db/database.js';
import {
  CAPITAL_I_DOT,
  containsInsensitive,
  dialectOf,
  likeEscape,
  likeFolding,
  type DialectName,
} from '../../db/dialect.js';
import { cachePerOwner, CACHE_BUDGET } from '../../lib/cache-budget.js';

/**
 * `search`: every word must be contained, case-insensitively, in the title, description or
 * excerpt; in the title only for a password-protected event the reader has not opened (its
 * description and excerpt are blanked, and a search on them would read them out letter by
 * letter: event.access.ts). That LIKE test is the definition and always applies. On SQLite an
 * FTS5 trigram index (migration 012, with the queue of events not in it yet: 033) first names the
 * events that contain a word, so a rare word does not make the list read every event of its
 * window; PostgreSQL's pg_trgm indexes (007) serve the LIKE itself.
 * A search no index narrows is counted from its own per-day counts (event-counts.service.ts).
 */

/**
 * `maxHits`: the most events a word may name for the index to narrow the list with them; a commoner
 * word ("event") is left to the window's own scan, which stops at the page it needs.
 * `commonWordMs`: how long a word found commoner than that is not read in the index again
 * (commonWords, below). Tests lower them.
 */
export const searchIndexLimits = { maxHits: 5000, commonWordMs: 600_000 };

/**
 * Words SQLite's index answers exactly as the LIKE does: three characters or more (trigrams) and
 * ASCII only, where the index's case folding and lower() agree.
 */
const INDEXABLE = /^[\x20-\x7e]{3,}$/;

/**
 * Words pg_trgm's indexes narrow: letters and digits only (it splits words at anything else), at
 * least three (a trigram).
 */
const TRIGRAM_WORD = /^[\p{L}\p{N}]{3,}$/u;

/** An FTS5 phrase: the word as one string, its quotes doubled. */
const phrase = (word: string) => `"${word.replace(/"/g, '""')}"`;

/**
 * The FTS5 query of the events that may contain `word`. The index folds the case of ASCII letters
 * and of the Kelvin sign as lower() does, but not of the capital I with a dot above, whose lower
 * case is "i" and a combining dot: "TAXİ" contains "taxi" as the lists test it (dialect.ts,
 * likeFolding). So a word ending in "i" is also looked for with that letter in its place.
 */
function indexQuery(word: string): string {
  return /[iI]$/.test(word) ? `${phrase(word)} OR ${phrase(`${word.slice(0, -1)}${CAPITAL_I_DOT}`)}` : phrase(word);
}

export interface SearchFilter {
  /** The distinct words searched, in order. */
  words: string[];
  /** Each word's LIKE pattern, the one the list and the per-day count triggers test. */
  patterns: string[];
  /** The events whose description and excerpt the search looks into (shownFieldsSql). */
  shown: Expression<SqlBool>;
  clauses: Expression<SqlBool>[];
  /** Whether an index names few enough events (at most `maxHits`) that counting them one by one is cheap. */
  narrow: () => Promise<boolean>;
}

/** Joins an event's texts in one string (searchedText): white space, which no search word holds (searchWords). */
const TEXT_SEPARATOR = '\n';

/**
 * The text a search looks into, as one string: an event's title, description and excerpt when it
 * is `shown` (the reader sees its description and excerpt), else its title alone. The parts are
 * joined by a line break, which no search word contains, so a word is in this text exactly when it
 * is in one of the parts.
 */
function searchedText(shown?: Expression<SqlBool>): RawBuilder<string> {
  const all = sql<string>`events.title || ${TEXT_SEPARATOR} || events.description || ${TEXT_SEPARATOR} || events.excerpt`;
  return shown === undefined ? all : sql<string>`(case when ${shown} then ${all} else events.title end)`;
}

/**
 * The search's test, one condition per word: each pattern in the title, description or excerpt,
 * in any case (containsInsensitive), and in the title alone unless `shown`. On SQLite a pattern
 * its own LIKE tests (likeFolding) is tested in each column, in C; one only lower() tests is
 * tested in the `searchedText` of `shown`, lowered once per word, not once per column (lower()
 * is a JavaScript function there, a row's costliest part). PostgreSQL tests the joined text with
 * ilike: a slice of a search's counts took about a quarter less than with the columns one by one
 * (measured at 100 k and 1 M events).
 */
export function containedInText(
  dialect: DialectName,
  patterns: string[],
  shown?: Expression<SqlBool>,
): Expression<SqlBool>[] {
  return patterns.map((pattern) =>
    dialect === 'sqlite' && likeFolding(pattern) !== null
      ? inParts(dialect, pattern, shown)
      : containsInsensitive(dialect, searchedText(shown), pattern),
  );
}

/** The pattern's test in the title, the description and the excerpt, each on its own. */
function partTests(dialect: DialectName, pattern: string): [RawBuilder<SqlBool>, ...RawBuilder<SqlBool>[]] {
  const [title, ...others] = ['title', 'description', 'excerpt'].map((c) =>
    containsInsensitive(dialect, sql.ref(`events.${c}`), pattern),
  );
  return [title!, ...others];
}

/** The pattern in the title, or in the description or excerpt of a `shown` event. */
function inParts(dialect: DialectName, pattern: string, shown?: Expression<SqlBool>): Expression<SqlBool> {
  const [title, ...others] = partTests(dialect, pattern);
  const rest = sql<SqlBool>`(${sql.join(others, sql` or `)})`;
  return shown === undefined ? sql<SqlBool>`(${title} or ${rest})` : sql<SqlBool>`(${title} or (${rest} and ${shown}))`;
}

/**
 * The list's test of the patterns: each contained in the title, description or excerpt, and with
 * `shown` (the events whose description and excerpt the reader sees) in the title unless shown.
 * PostgreSQL's is written as (title or description or excerpt) and (title or shown), so the
 * trigram indexes of the three columns serve its first part. SQLite has no such index (its FTS5
 * index narrows the list beforehand: searchFilter), so there it is containedInText's test.
 */
export function containsAll(
  dialect: DialectName,
  patterns: string[],
  shown?: Expression<SqlBool>,
): Expression<SqlBool>[] {
  if (dialect === 'sqlite') return containedInText(dialect, patterns, shown);
  return patterns.map((pattern) => {
    const parts = partTests(dialect, pattern);
    const anywhere = sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
    return shown === undefined ? anywhere : sql<SqlBool>`(${anywhere} and (${parts[0]} or ${shown}))`;
  });
}

/**
 * Per database: the words SQLite's index named more than `maxHits` events for when last read. To
 * find that out, the index reads and intersects the word's trigrams until one row past the limit:
 * 3.5–10 ms a common word at 100,000 and at 1,000,000 events, at every ask of it, on the event
 * loop. The outcome only decides whether the index narrows the list (the LIKE test always applies,
 * so a total never depends on it); a word is read again after `commonWordMs`, when removed events
 * may have made it rare enough to narrow.
 */
const commonWordsIn = cachePerOwner<Db, true>(CACHE_BUDGET.commonWords);

async function indexedIds(db: Db, word: string): Promise<number[] | null> {
  const common = commonWordsIn(db);
  if (common.has(word)) return null;
  const { maxHits } = searchIndexLimits;
  // The events the index names and those queued for it (migration 033), in one statement: an
  // event the background moves from the queue to the index meanwhile is in one or the other.
  const rows = await sql<{
    id: number;
    queued: number;
  }>`select id, 1 as queued from (select id from events_search_pending limit ${maxHits + 1})
    union all select id, 0 from (select rowid as id from events_search where events_search match ${indexQuery(word)} limit ${maxHits + 1})`.execute(
    db,
  );
  if (rows.rows.filter((r) => !r.queued).length > maxHits) {
    common.set(word, true, { ttl: searchIndexLimits.commonWordMs });
    return null;
  }
  // A long queue (an import the background has not indexed yet) makes no word common for long.
  return rows.rows.length <= maxHits ? rows.rows.map((r) => r.id) : null;
}

/** Whether events wait in the search index's queue (migration 033). */
export async function searchQueueWaits(db: Db): Promise<boolean> {
  const { rows } = await sql<{ id: number }>`select id from events_search_pending limit 1`.execute(db);
  return rows.length > 0;
}

/**
 * Moves the first `batch` queued events into the search index, in one transaction: one segment
 * of the index for all of them. Their text is read now, as it is (an event queued, then edited,
 * is queued once).
 */
export async function indexQueued(db: Db, batch: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    // The batch's last id and size, from the queue's primary key.
    const { rows } = await sql<{ last: number | null; n: number }>`select max(id) as last, count(*) as n
      from (select id from events_search_pending order by id limit ${batch})`.execute(trx);
    const { last, n } = rows[0]!;
    if (last === null) return 0;
    // The queue first (cross join): without statistics on it, the planner would scan the events.
    await sql`insert into events_search (rowid, title, description, excerpt)
      select e.id, e.title, e.description, e.excerpt from events_search_pending q cross join events e on e.id = q.id where q.id <= ${last}`.execute(
      trx,
    );
    await sql`delete from events_search_pending where id <= ${last}`.execute(trx);
    return n;
  });
}

/**
 * PostgreSQL: whether the words pg_trgm can serve (three characters or more) match at most
 * `maxHits` events, read through their trigram indexes and stopped one past it.
 */
async function fewTrigramHits(db: Db, patterns: string[], words: string[]): Promise<boolean> {
  const indexed = patterns.filter((_, i) => TRIGRAM_WORD.test(words[i]!));
  if (indexed.length === 0) return false;
  const hits = sql<SqlBool>`${sql.join(containsAll('postgres', indexed), sql` and `)}`;
  const { maxHits } = searchIndexLimits;
  const { rows } = await sql<{
    n: number | string;
  }>`select count(*) as n from (select 1 from events where ${hits} limit ${maxHits + 1}) s`.execute(db);
  return Number(rows[0]!.n) <= maxHits;
}

/** The distinct words of a search, in order: each is one more condition (and on SQLite one more index query). */
export function searchWords(search: string): string[] {
  return [...new Set(search.split(/\s+/).filter(Boolean))];
}

/**
 * The clauses of `search` for a reader who sees the description and excerpt of `shown` events,
 * and whether an index narrows it (PostgreSQL reads its indexes for that when asked).
 */
export async function searchFilter(db: Db, search: string, shown: Expression<SqlBool>): Promise<SearchFilter> {
  const dialect = dialectOf(db);
  const words = searchWords(search);
  const patterns = words.map((word) => `%${likeEscape(word)}%`);
  const clauses = containsAll(dialect, patterns, shown);
  if (dialect !== 'sqlite')
    return { words, patterns, shown, clauses, narrow: () => fewTrigramHits(db, patterns, words) };
  // Only words the index names few events for narrow the list: a common word, passed on as a
  // subquery, made the count and the page slower than the scan (measured at a million events).
  let narrowed: Set<number> | null = null;
  for (const word of words.filter((w) => INDEXABLE.test(w))) {
    const ids = await indexedIds(db, word);
    if (ids === null) continue;
    narrowed = narrowed === null ? new Set(ids) : new Set(ids.filter((id) => narrowed!.has(id)));
  }
  if (narrowed === null) return { words, patterns, shown, clauses, narrow: async () => false };
  const byIndex =
    narrowed.size === 0
      ? sql<SqlBool>`1 = 0`
      : sql<SqlBool>`events.id in (${sql.join([...narrowed].sort((a, b) => a - b))})`;
  return { words, patterns, shown, clauses: [byIndex, ...clauses], narrow: async () => true };
}
