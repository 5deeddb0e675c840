import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { dialectOf } from '../../db/dialect.js';
import { prepared } from '../../db/prepared.js';
import type { Taxonomy } from './term.taxonomy.js';
import { TERM_COLUMNS } from './term.repository.js';

/**
 * The terms' statements about events (term.embed.ts): the terms embedded in events, the terms an
 * event write names, the published-event counts. The first parameter is the database or a transaction.
 */

/**
 * The terms linked to the events, each as its translation in `lang` when the linked term is in
 * another language, once per member of its group (`member_id`, `member_lang`); `n` numbers them
 * by event, name, id and member (the database's collation orders the names). Not run here: the
 * events' embedded records read it within their one statement (event.repository.ts).
 */
export function embeddedTermsQuery(db: Db, eventIds: readonly number[], lang: string) {
  return (
    db
      .selectFrom('event_terms as et')
      .innerJoin('terms as t', 't.id', 'et.term_id')
      // The translation, only looked for when the linked term is in another language.
      .leftJoin('terms as tr', (join) =>
        join
          .onRef('tr.trid', '=', 't.trid')
          .onRef('tr.taxonomy', '=', 't.taxonomy')
          .on('tr.lang', '=', lang)
          .on('t.lang', '<>', lang),
      )
      .innerJoin('terms as s', (join) => join.on(sql<boolean>`s.id = coalesce(tr.id, t.id)`))
      .innerJoin('terms as m', 'm.trid', 's.trid')
      .select([
        'et.event_id',
        's.id',
        's.taxonomy',
        's.lang',
        's.trid',
        's.name',
        's.slug',
        's.description',
        's.parent',
        's.count',
        'm.id as member_id',
        'm.lang as member_lang',
        sql<number>`row_number() over (order by et.event_id, lower(s.name), s.id, m.id)`.as('n'),
      ])
      .where('et.event_id', 'in', eventIds)
  );
}

/** A row of embeddedTermsQuery. */
export interface EmbeddedTermRow {
  event_id: number;
  id: number;
  taxonomy: string;
  lang: string;
  trid: number;
  name: string;
  slug: string;
  description: string;
  parent: number;
  count: number;
  member_id: number;
  member_lang: string;
  n: number;
}

/** The columns of EmbeddedTermRow, for a statement that reads the rows as JSON (event.repository.ts). */
export const EMBEDDED_TERM_COLUMNS: readonly (keyof EmbeddedTermRow)[] = [
  'event_id',
  ...TERM_COLUMNS,
  'member_id',
  'member_lang',
  'n',
];

/** Which of `ids` are terms of one of the taxonomies, and of which. */
export async function findTermIds(
  db: Db,
  taxonomies: Taxonomy[],
  ids: number[],
): Promise<{ id: number; taxonomy: Taxonomy }[]> {
  return db
    .selectFrom('terms')
    .select(['id', 'taxonomy'])
    .where('taxonomy', 'in', taxonomies)
    .where('id', 'in', ids)
    .execute();
}

/** A union of two index searches: with an OR, SQLite walks every term of the taxonomy and language. */
const termsNamed = prepared(
  (db, args: { taxonomies: Taxonomy[]; lang: string; slugs: string[]; lowered: string[] }) => {
    const terms = db
      .selectFrom('terms')
      .select(['id', 'taxonomy', 'slug', 'name'])
      .where('taxonomy', 'in', args.taxonomies)
      .where('lang', '=', args.lang);
    const byName = terms.where(sql<string>`lower(name)`, 'in', args.lowered);
    return (args.slugs.length > 0 ? terms.where('slug', 'in', args.slugs).union(byName) : byName).orderBy('id');
  },
);

/** The taxonomies' terms in `lang` with one of `slugs` or whose lower-cased name is one of `lowered`, by id. */
export function findNamed(
  db: Db,
  args: { taxonomies: Taxonomy[]; lang: string; slugs: string[]; lowered: string[] },
): Promise<{ id: number; taxonomy: Taxonomy; slug: string; name: string }[]> {
  return termsNamed(db, args);
}

/**
 * Sets `count` to the number of published events linked to each term, in one statement: for bulk
 * loads (the benchmark's seed) and tests. Event writes move counts with shiftTermCounts (term.embed.ts).
 */
export async function recountTerms(trx: Db, termIds: number[]): Promise<void> {
  const ids = [...new Set(termIds)];
  if (ids.length === 0) return;
  await trx
    .updateTable('terms')
    .set((eb) => ({
      count: eb
        .selectFrom('event_terms')
        .innerJoin('events', 'events.id', 'event_terms.event_id')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('event_terms.term_id', '=', 'terms.id')
        .where('events.status', '=', 'publish'),
    }))
    .where('id', 'in', ids)
    .execute();
}

const addCount = prepared((db, args: { id: number; by: number }) =>
  db
    .updateTable('terms')
    .set((eb) => ({ count: eb('count', '+', args.by) }))
    .where('id', '=', args.id),
);

/**
 * Several terms' counts in one statement (PostgreSQL), their rows locked first in ascending id (the
 * sorted sub-select's row locks are taken in its order), whatever order the update then finds them in.
 */
const addCounts = prepared((db, args: { ids: number[]; by: number[] }) =>
  db
    .updateTable('terms')
    .from(
      db
        .selectFrom('terms as locked')
        .innerJoin(
          sql<{
            id: number;
            by: number;
          }>`(values ${sql.join(args.ids.map((id, i) => sql`(${id}::int, ${args.by[i]}::int)`))})`.as(
            sql`change(id, by)`,
          ),
          'change.id',
          'locked.id',
        )
        .select(['locked.id', 'change.by'])
        .orderBy('locked.id')
        .forNoKeyUpdate('locked')
        .as('counted'),
    )
    .set((eb) => ({ count: eb('terms.count', '+', eb.ref('counted.by')) }))
    .whereRef('terms.id', '=', 'counted.id'),
);

/**
 * Adds to each term's count its change (negative: subtracts). `changes` in ascending id: one term at
 * a time in that order, or on PostgreSQL all in one statement locking in that order; either way no
 * two writers wait on each other's terms in a cycle.
 */
export async function addToCounts(trx: Db, changes: readonly (readonly [id: number, by: number])[]): Promise<void> {
  if (changes.length > 1 && dialectOf(trx) === 'postgres') {
    await addCounts(trx, { ids: changes.map(([id]) => id), by: changes.map(([, by]) => by) });
    return;
  }
  for (const [id, by] of changes) await addCount(trx, { id, by });
}
