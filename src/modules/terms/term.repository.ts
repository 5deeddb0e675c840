import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Db, TermRow, TermTable } from '../../db/database.js';
import { containsInsensitive, dialectOf, likeEscape, transactionLock } from '../../db/dialect.js';
import { slugCandidate } from '../../lib/slug.js';
import type { TermOrderby } from './term.schema.js';
import type { Taxonomy } from './term.taxonomy.js';

/** Storage of categories and tags. The first parameter is the database or a transaction. */

export const TERM_COLUMNS = [
  'id',
  'taxonomy',
  'lang',
  'trid',
  'name',
  'slug',
  'description',
  'parent',
  'count',
] as const;

/** Case-insensitive name comparison, the same expression as the `terms_tax_lang_lname` index. */
const lowerName = (column = 'name') => sql<string>`lower(${sql.ref(column)})`;

export function findById(db: Db, id: number): Promise<TermRow | undefined> {
  return db.selectFrom('terms').select(TERM_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export function findInTaxonomy(db: Db, taxonomy: Taxonomy, id: number): Promise<TermRow | undefined> {
  return db
    .selectFrom('terms')
    .select(TERM_COLUMNS)
    .where('id', '=', id)
    .where('taxonomy', '=', taxonomy)
    .executeTakeFirst();
}

/** A term with this name (any case) under `parent`, other than `excludeId`: WordPress's term_exists. */
export async function findSibling(
  db: Db,
  taxonomy: Taxonomy,
  lang: string,
  parent: number,
  name: string,
  excludeId: number | null,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('terms')
    .select('id')
    .where('taxonomy', '=', taxonomy)
    .where('lang', '=', lang)
    .where(lowerName(), '=', sql<string>`lower(${name})`)
    .where('parent', '=', parent)
    .$if(excludeId !== null, (qb) => qb.where('id', '<>', excludeId!))
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return row?.id;
}

/**
 * The first free slug of `base` in the taxonomy and language. Candidates share at least the first
 * 150 characters of `base` (suffixes only shorten very long slugs), so one prefix query finds them all.
 */
export async function uniqueSlug(
  db: Db,
  taxonomy: Taxonomy,
  lang: string,
  base: string,
  excludeId: number | null,
): Promise<string> {
  const prefix = `${likeEscape(Array.from(base).slice(0, 150).join(''))}%`;
  const rows = await db
    .selectFrom('terms')
    .select('slug')
    .where('taxonomy', '=', taxonomy)
    .where('lang', '=', lang)
    .where(sql<SqlBool>`slug like ${prefix} escape '\\'`)
    .$if(excludeId !== null, (qb) => qb.where('id', '<>', excludeId!))
    .execute();
  const taken = new Set(rows.map((r) => r.slug));
  for (let n = 1; ; n += 1) {
    const candidate = slugCandidate(base, n);
    if (!taken.has(candidate)) return candidate;
  }
}

export type NewTerm = Omit<TermTable, 'id' | 'count' | 'trid'> & { trid: number | null };

/**
 * Inserts a term; with `trid: null` the term starts its own translation group (trid = its id),
 * which needs its id, hence the second statement.
 */
export async function insert(db: Db, term: NewTerm): Promise<number> {
  const { id } = await db
    .insertInto('terms')
    .values({ ...term, trid: term.trid ?? 0, count: 0 })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (term.trid === null) await db.updateTable('terms').set({ trid: id }).where('id', '=', id).execute();
  return id;
}

export async function update(db: Db, id: number, changes: Partial<Omit<TermTable, 'id'>>): Promise<void> {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('terms').set(changes).where('id', '=', id).execute();
}

/** Deletes a term for good: children move up to its parent; event links go by FK cascade. */
export async function remove(db: Db, term: TermRow): Promise<void> {
  await db.updateTable('terms').set({ parent: term.parent }).where('parent', '=', term.id).execute();
  await db.deleteFrom('terms').where('id', '=', term.id).execute();
}

/** The parent of a term, for walking up the tree (null when the term does not exist). */
export async function parentOf(db: Db, id: number): Promise<number | null> {
  const row = await db.selectFrom('terms').select('parent').where('id', '=', id).executeTakeFirst();
  return row ? row.parent : null;
}

/** How many of `ids` are terms of the taxonomy. */
export async function countExisting(db: Db, taxonomy: Taxonomy, ids: number[]): Promise<number> {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return 0;
  const row = await db
    .selectFrom('terms')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('taxonomy', '=', taxonomy)
    .where('id', 'in', wanted)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** What decides who sees an event's terms (event.access.ts): its author, status and password; undefined when there is none. */
export function eventAccess(
  db: Db,
  id: number,
): Promise<{ author: number; status: string; password: string } | undefined> {
  return db.selectFrom('events').select(['author', 'status', 'password']).where('id', '=', id).executeTakeFirst();
}

/** The other members of a translation group. */
export async function groupMembers(db: Db, trid: number, excludeId: number): Promise<{ id: number; lang: string }[]> {
  return db
    .selectFrom('terms')
    .select(['id', 'lang'])
    .where('trid', '=', trid)
    .where('id', '<>', excludeId)
    .orderBy('id')
    .execute();
}

export async function setGroup(db: Db, ids: number[], trid: number): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('terms').set({ trid }).where('id', 'in', ids).execute();
}

export interface TermFilter {
  taxonomy: Taxonomy;
  lang: string;
  hideEmpty: boolean;
  /** With hide_empty, a category with events only in its subcategories still shows, as in WordPress. */
  hierarchical: boolean;
  search?: string | undefined;
  include?: number[] | undefined;
  exclude?: number[] | undefined;
  parent?: number | undefined;
  eventId?: number | undefined;
  slug?: string | undefined;
}

export interface TermOrder {
  orderby: TermOrderby;
  direction: 'asc' | 'desc';
}

/**
 * hide_empty: a term with published events; for categories also an ancestor of one (WordPress's
 * get_terms keeps "empty categories that have children" with events). UNION stops at any loop.
 */
function notEmpty(filter: TermFilter): RawBuilder<SqlBool> {
  if (!filter.hierarchical) return sql<SqlBool>`"count" > 0`;
  return sql<SqlBool>`("count" > 0 or id in (
    with recursive up(id) as (
      select parent from terms where taxonomy = ${filter.taxonomy} and lang = ${filter.lang} and "count" > 0 and parent <> 0
      union
      select t.parent from terms t join up on t.id = up.id where t.parent <> 0
    ) select id from up))`;
}

/** The list's WHERE clause, shared by the page and the total so they always agree. */
function filtered(db: Db, filter: TermFilter) {
  const dialect = dialectOf(db);
  return db
    .selectFrom('terms')
    .where('taxonomy', '=', filter.taxonomy)
    .where('lang', '=', filter.lang)
    .$if(filter.hideEmpty, (qb) => qb.where(notEmpty(filter)))
    .$if(filter.search !== undefined, (qb) => {
      const pattern = `%${likeEscape(filter.search!)}%`;
      return qb.where((eb) =>
        eb.or([
          containsInsensitive(dialect, sql.ref('name'), pattern),
          containsInsensitive(dialect, sql.ref('slug'), pattern),
        ]),
      );
    })
    .$if(filter.include !== undefined && filter.include.length > 0, (qb) => qb.where('id', 'in', filter.include!))
    .$if(filter.exclude !== undefined && filter.exclude.length > 0, (qb) => qb.where('id', 'not in', filter.exclude!))
    .$if(filter.parent !== undefined, (qb) => qb.where('parent', '=', filter.parent!))
    .$if(filter.slug !== undefined, (qb) => qb.where('slug', '=', filter.slug!))
    .$if(filter.eventId !== undefined, (qb) =>
      qb.where('id', 'in', (eb) =>
        eb.selectFrom('event_terms').select('term_id').where('event_id', '=', filter.eventId!),
      ),
    );
}

export async function count(db: Db, filter: TermFilter): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Sort key of each `orderby`; `term_group` is always 0, so only the id tie-break remains. */
function sortKey(order: TermOrder, include: number[] | undefined): Expression<unknown> | null {
  switch (order.orderby) {
    case 'name':
      // Case-insensitive, as the original's MySQL collation sorts, and the same on both back ends.
      return lowerName();
    case 'slug':
    case 'count':
    case 'description':
      return sql.ref(order.orderby);
    case 'include':
      if (!include || include.length === 0) return lowerName();
      return sql`case ${sql.join(
        include.map((id, i) => sql`when id = ${id} then ${i}`),
        sql` `,
      )} end`;
    default:
      return null;
  }
}

export async function page(
  db: Db,
  filter: TermFilter,
  order: TermOrder,
  limit: number,
  offset: number,
): Promise<TermRow[]> {
  const key = sortKey(order, filter.include);
  let query = filtered(db, filter).select(TERM_COLUMNS);
  if (key !== null) query = query.orderBy(key, order.direction);
  return query
    .orderBy('id', key === null ? order.direction : 'asc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/**
 * Taken before a write looks a term name up and then creates it, so two requests creating the
 * same name one after the other's look-up cannot both create it.
 */
export function lockNames(trx: Db, taxonomy: Taxonomy, lang: string): Promise<void> {
  return transactionLock(trx, `terms:${taxonomy}:${lang}`);
}
