import type { Db } from '../../src/db/database.js';

/**
 * How many events a public list of whole days searching `search` holds, by the definition,
 * computed here over the rows as stored: in English, published and listed, within the days, and
 * every word a substring of the title, description or excerpt in any case (JavaScript's lower case).
 */
export async function definitionTotal(db: Db, search: string, from: string, to: string): Promise<number> {
  const rows = await db
    .selectFrom('events')
    .select(['title', 'description', 'excerpt', 'status', 'hide_from_listings', 'start_local', 'end_local', 'lang'])
    .execute();
  const words = search
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
  return rows.filter(
    (r) =>
      r.lang === 'en' &&
      r.status === 'publish' &&
      r.hide_from_listings === 0 &&
      r.start_local >= `${from} 00:00:00` &&
      r.end_local <= `${to} 23:59:59` &&
      words.every((w) => [r.title, r.description, r.excerpt].some((f) => f.toLowerCase().includes(w))),
  ).length;
}
