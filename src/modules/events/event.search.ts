import { sql, type Expression, type SqlBool } from 'kysely';
import type { Db } from '../../db/database.js';
import { containsInsensitive, dialectOf, likeEscape } from '../../db/dialect.js';

/**
 * `search`: every word must be contained, case-insensitively, in the title, description or
 * excerpt. That LIKE test is the definition and always applies. On SQLite an FTS5 trigram index
 * (migration 012) first names the events that contain a word, so a rare word does not make the
 * list read every event of its window; PostgreSQL's pg_trgm indexes (007) serve the LIKE itself.
 */

/**
 * The most events a word may name for the index to narrow the list with them; a commoner word
 * ("event") is left to the window's own scan, which stops at the page it needs.
 */
const MAX_HITS = 5000;

/**
 * Words the index answers exactly as the LIKE does: three characters or more (trigrams) and
 * ASCII only, where the index's case folding and lower() agree.
 */
const INDEXABLE = /^[\x20-\x7e]{3,}$/;

/** An FTS5 phrase: the word as one string, its quotes doubled. */
const phrase = (word: string) => `"${word.replace(/"/g, '""')}"`;

async function indexedIds(db: Db, word: string): Promise<number[] | null> {
  const rows = await sql<{ id: number }>`select rowid as id from events_search where events_search match ${phrase(word)} limit ${MAX_HITS + 1}`.execute(db);
  return rows.rows.length > MAX_HITS ? null : rows.rows.map((r) => r.id);
}

export async function searchClauses(db: Db, search: string): Promise<Expression<SqlBool>[]> {
  const dialect = dialectOf(db);
  const words = search.split(/\s+/).filter(Boolean);
  const clauses: Expression<SqlBool>[] = words.map((word) => {
    const pattern = `%${likeEscape(word)}%`;
    const fields = ['title', 'description', 'excerpt'].map((c) => containsInsensitive(dialect, sql.ref(`events.${c}`), pattern));
    return sql<SqlBool>`(${sql.join(fields, sql` or `)})`;
  });
  if (dialect !== 'sqlite') return clauses;
  // Only words the index names few events for narrow the list: a common word, passed on as a
  // subquery, made the count and the page slower than the scan (measured at a million events).
  let narrowed: Set<number> | null = null;
  for (const word of words.filter((w) => INDEXABLE.test(w))) {
    const ids = await indexedIds(db, word);
    if (ids === null) continue;
    narrowed = narrowed === null ? new Set(ids) : new Set(ids.filter((id) => narrowed!.has(id)));
  }
  if (narrowed === null) return clauses;
  return [narrowed.size === 0 ? sql<SqlBool>`1 = 0` : sql<SqlBool>`events.id in (${sql.join([...narrowed].sort((a, b) => a - b))})`, ...clauses];
}
