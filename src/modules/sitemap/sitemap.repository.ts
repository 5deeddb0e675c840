import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../../db/database.js';

/**
 * The statements of the sitemaps: the public records of one language in the order of an index, a
 * file's worth at a time (keyset: rows after a key, never an offset from the start), and the
 * published translations of the records of a file. Every read is a bounded range of an index:
 * - events: the partial index of listed published events on (lang, start_local, id);
 * - venues and organizers: (lang, date, id), drafts skipped as they come (a language's few);
 * - categories and tags: the unique (taxonomy, lang, slug), those without a published event skipped;
 * - translations: the (trid) indexes, a file's groups at a time.
 */

/** What a sitemap lists, each read in its own index's order. */
export type SitemapSource = 'event' | 'venue' | 'organizer' | 'category' | 'tag';

export const SITEMAP_SOURCES: readonly SitemapSource[] = ['event', 'venue', 'organizer', 'category', 'tag'];

/** A row's place in its source's order: the index's sort column, then the id. */
export interface SitemapKey {
  sort: string;
  id: number;
}

export interface SitemapRow extends SitemapKey {
  slug: string;
  /** Translation group. */
  trid: number;
  /** UTC `YYYY-MM-DD HH:MM:SS`, when the source keeps one. */
  modified: string | null;
}

export interface SitemapTranslation {
  trid: number;
  lang: string;
  slug: string;
}

const TAXONOMY = { category: 'cal_events_cat', tag: 'post_tag' } as const;

/**
 * Where each source's rows are, their order and what makes one public. The published and listed
 * conditions are literals, so that SQLite matches the partial index on them.
 */
function specOf(source: SitemapSource): {
  table: string;
  sort: string;
  /** The sort column is unique in a language: keyed by it alone, as its index is. */
  unique?: true;
  modified: boolean;
  where: RawBuilder<SqlBool>;
} {
  switch (source) {
    case 'event':
      return {
        table: 'events',
        sort: 'start_local',
        modified: true,
        where: sql<SqlBool>`status = 'publish' and hide_from_listings = 0`,
      };
    case 'venue':
    case 'organizer':
      return { table: `${source}s`, sort: 'date', modified: true, where: sql<SqlBool>`status = 'publish'` };
    case 'category':
    case 'tag':
      return {
        table: 'terms',
        sort: 'slug',
        unique: true,
        modified: false,
        where: sql<SqlBool>`taxonomy = ${TAXONOMY[source]} and count > 0`,
      };
  }
}

/** `limit` rows of `source` in `lang` from `from` on (inclusive), `skip` rows skipped, in index order. */
async function readRange(
  db: Db,
  source: SitemapSource,
  lang: string,
  from: SitemapKey | null,
  limit: number,
  skip: number,
): Promise<SitemapRow[]> {
  const spec = specOf(source);
  const sort = sql.ref(spec.sort);
  const after =
    from === null
      ? sql``
      : spec.unique
        ? sql` and ${sort} >= ${from.sort}`
        : sql` and (${sort}, id) >= (${from.sort}, ${from.id})`;
  const order = spec.unique ? sort : sql`${sort}, id`;
  const modified = spec.modified ? sql.ref('modified_utc') : sql`null`;
  // Stepping over a file reads keys only (the index's own columns); a file reads its rows.
  const columns = skip > 0 ? sql`'' as slug, 0 as trid` : sql`slug, trid`;
  const { rows } = await sql<{ id: number; slug: string; trid: number; sort: string; modified: string | null }>`
    select id, ${columns}, ${sort} as sort, ${skip > 0 ? sql`null` : modified} as modified
    from ${sql.table(spec.table)}
    where lang = ${lang} and ${spec.where}${after}
    order by ${order}
    limit ${limit} offset ${skip}`.execute(db);
  return rows.map((row) => ({
    id: Number(row.id),
    slug: row.slug,
    trid: Number(row.trid),
    sort: String(row.sort),
    modified: row.modified === null ? null : String(row.modified),
  }));
}

/** At most `limit` rows of `source` in `lang` from `from` on. */
export function readSitemapRows(
  db: Db,
  source: SitemapSource,
  lang: string,
  from: SitemapKey | null,
  limit: number,
): Promise<SitemapRow[]> {
  return readRange(db, source, lang, from, limit, 0);
}

/**
 * The key of the row `skip` rows after `from` (inclusive) in `source`'s order, or null when there
 * are not that many: where the next file starts. Reads the index's entries between them only.
 */
export async function readSitemapKeyAfter(
  db: Db,
  source: SitemapSource,
  lang: string,
  from: SitemapKey | null,
  skip: number,
): Promise<SitemapKey | null> {
  const [row] = await readRange(db, source, lang, from, 1, skip);
  return row === undefined ? null : { sort: row.sort, id: row.id };
}

/** The published translations (in other languages) of the given translation groups. */
export async function readSitemapTranslations(
  db: Db,
  source: SitemapSource,
  trids: number[],
  lang: string,
): Promise<SitemapTranslation[]> {
  if (trids.length === 0) return [];
  const rows =
    source === 'event'
      ? await db
          .selectFrom('events')
          .select(['trid', 'lang', 'slug'])
          .where('trid', 'in', trids)
          .where('lang', '!=', lang)
          .where(sql<SqlBool>`status = 'publish'`)
          .where(sql<SqlBool>`hide_from_listings = 0`)
          .execute()
      : source === 'venue' || source === 'organizer'
        ? await db
            .selectFrom(source === 'venue' ? 'venues' : 'organizers')
            .select(['trid', 'lang', 'slug'])
            .where('trid', 'in', trids)
            .where('lang', '!=', lang)
            .where(sql<SqlBool>`status = 'publish'`)
            .execute()
        : await db
            .selectFrom('terms')
            .select(['trid', 'lang', 'slug'])
            .where('trid', 'in', trids)
            .where('lang', '!=', lang)
            .where('taxonomy', '=', TAXONOMY[source])
            .where('count', '>', 0)
            .execute();
  return rows.map((row) => ({ trid: Number(row.trid), lang: row.lang, slug: row.slug }));
}
