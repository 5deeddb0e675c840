import { sql, type Compilable, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { Database, Db, PostColumns } from '../../db/database.js';
import { prepared, type PreparedArgs } from '../../db/prepared.js';
import { newPostRow, type PostType } from '../../db/post-ids.js';
import type { Actor, Owned } from '../../auth/roles.js';
import { statusVisibility } from './post.visibility.js';

/**
 * The SQL of what events, venues and organizers have in common: the shared id sequence, slugs,
 * translation groups and the status condition of lists. The first parameter is the database or a
 * transaction.
 */

export type PostTableName = 'events' | 'venues' | 'organizers';
/** The three tables share PostColumns; generic code sees them through this view. */
type PostsDb = Kysely<Record<PostTableName, PostColumns> & Pick<Database, 'posts' | 'terms'>>;
const posts = (db: Db): PostsDb => db as unknown as PostsDb;

/** One prepared query per table (a table name is part of the SQL, never a placeholder). */
function perTable<A extends PreparedArgs<A>, R>(
  build: (db: PostsDb, table: PostTableName, args: A) => Compilable<R>,
): Record<PostTableName, (db: Db, args: A) => Promise<R[]>> {
  const each = (table: PostTableName) => prepared((db: Db, args: A) => build(posts(db), table, args));
  return { events: each('events'), venues: each('venues'), organizers: each('organizers') };
}

/** A record's language, group and ownership (the source a `translation_of` names). */
export function findGroupMember(
  db: Db,
  table: PostTableName,
  id: number,
): Promise<(Owned & { id: number; lang: string; trid: number }) | undefined> {
  return posts(db)
    .selectFrom(table)
    .select(['id', 'lang', 'trid', 'author', 'status'])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The live (not trashed) record of a group in a language, if any. */
export function findLiveInLanguage(
  db: Db,
  table: PostTableName,
  trid: number,
  lang: string,
): Promise<(Owned & { id: number }) | undefined> {
  return posts(db)
    .selectFrom(table)
    .select(['id', 'author', 'status'])
    .where('trid', '=', trid)
    .where('lang', '=', lang)
    .where('status', '<>', 'trash')
    .executeTakeFirst();
}

/** How many records, trashed ones included, a translation group holds. */
export async function groupSize(db: Db, table: PostTableName, trid: number): Promise<number> {
  const row = await posts(db)
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('trid', '=', trid)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

const slugTaken = perTable((db, table, args: { lang: string; slug: string; excludeId: number }) =>
  db
    .selectFrom(table)
    .select('id')
    .where('lang', '=', args.lang)
    .where('slug', '=', args.slug)
    .where('status', '<>', 'trash')
    .where('id', '<>', args.excludeId)
    .limit(1),
);

/** Whether a record of the language not in the trash, other than `excludeId` (0: none), has the slug. */
export async function isSlugTaken(
  db: Db,
  table: PostTableName,
  args: { lang: string; slug: string; excludeId: number },
): Promise<boolean> {
  return (await slugTaken[table](db, args)).length > 0;
}

const idAndSlugTaken = perTable(
  // Back to the schema's own type, the one the shared statement is written for (Kysely's types do
  // not let this module's view of the tables stand for it).
  (db, table, args: { type: PostType; lang: string; slug: string }) =>
    newPostRow(db as unknown as Db, args.type).returning((eb) => [
      'id',
      eb
        .selectFrom(table)
        .select(sql<number>`1`.as('one'))
        .where('lang', '=', args.lang)
        .where('slug', '=', args.slug)
        .where('status', '<>', 'trash')
        .limit(1)
        .as('slug_taken'),
    ]),
);

/**
 * A new record's id, drawn from the shared sequence by db/post-ids.ts's statement, and whether a
 * record of the language not in the trash has `slug`: one statement, where a create made two round
 * trips before its insert (SQLite and PostgreSQL both take a subquery in RETURNING).
 */
export async function newIdAndSlugTaken(
  db: Db,
  table: PostTableName,
  args: { type: PostType; lang: string; slug: string },
): Promise<{ id: number; taken: boolean }> {
  const [row] = await idAndSlugTaken[table](db, args);
  return { id: row!.id, taken: row!.slug_taken !== null };
}

/** The largest suffix the search tries (2^30: its sums stay within PostgreSQL's 4-byte integers). */
const MAX_SUFFIX = 1 << 30;

/**
 * The suffix n of the first free slug of `base` among the language's records not in the trash,
 * other than `excludeId` (0: none): 1 when `base` itself is free, else base-n with n as
 * post.input.ts's uniqueSlug describes it (doubling n while taken, then halving back between the
 * last taken and the first free), searched inside one statement: each look-up is an exact value of
 * the (lang, slug) index, and the n-th copy of a title costs one round trip instead of 2·log2(n).
 * `stems[d - 1]` is what a candidate keeps of `base` before a suffix of d digits (slugStem).
 */
export async function firstFreeSuffix(
  db: Db,
  table: PostTableName,
  args: { lang: string; base: string; stems: string[]; excludeId: number },
): Promise<number> {
  const candidate = (n: RawBuilder<number>) =>
    sql`(case when ${n} = 1 then ${args.base} else (select stem from stems where digits = length(cast(${n} as text))) || '-' || cast(${n} as text) end)`;
  // A scalar subquery, not EXISTS: PostgreSQL turns an EXISTS into a semi-join and hashes every
  // record of the language; a scalar subquery is a look-up of the (lang, slug) index per candidate.
  const taken = (n: RawBuilder<number>) =>
    sql<SqlBool>`(select 1 from ${sql.table(table)} where lang = ${args.lang} and slug = ${candidate(n)} and status <> 'trash' and id <> ${args.excludeId} limit 1) is not null`;
  const n = sql<number>`n`;
  // Each halving step tests its middle for both of its columns: two index look-ups inside the
  // statement (a recursive step may not read its own row through a subquery, on SQLite).
  const middle = sql<number>`((low + high) / 2)`;
  const stems = sql.join(args.stems.map((stem, i) => sql`(${sql.lit(i + 1)}, ${stem})`));
  const { rows } = await sql<{ n: number | string }>`with recursive
    stems(digits, stem) as (values ${stems}),
    up(n) as (select 1 union all select n * 2 from up where n < ${sql.lit(MAX_SUFFIX)} and ${taken(n)}),
    top(high) as (select max(n) from up),
    halves(low, high) as (
      select high / 2, high from top where high > 1
      union all
      select case when ${taken(middle)} then ${middle} else low end, case when ${taken(middle)} then high else ${middle} end
      from halves where high - low > 1
    )
    select coalesce((select high from halves where high - low = 1), 1) as n`.execute(db);
  return Number(rows[0]!.n);
}

/** Whether another live record of the group of `record` is in its language. */
export async function languageTaken(
  trx: Db,
  table: PostTableName,
  record: { id: number; lang: string; trid: number },
): Promise<boolean> {
  const other = await posts(trx)
    .selectFrom(table)
    .select('id')
    .where('trid', '=', record.trid)
    .where('lang', '=', record.lang)
    .where('status', '<>', 'trash')
    .where('id', '<>', record.id)
    .limit(1)
    .executeTakeFirst();
  return other !== undefined;
}

/**
 * Renames the group named after record `id` (its trid) after its oldest remaining member, which
 * keeps the other members linked when `id` leaves.
 */
export async function renameGroupAfterHeir(trx: Db, table: PostTableName, id: number): Promise<void> {
  const heir = await posts(trx)
    .selectFrom(table)
    .select((eb) => eb.fn.min('id').as('id'))
    .where('trid', '=', id)
    .where('id', '<>', id)
    .executeTakeFirst();
  if (heir?.id)
    await posts(trx).updateTable(table).set({ trid: heir.id }).where('trid', '=', id).where('id', '<>', id).execute();
}

/** The ids of the records in the given records' translation groups. */
export async function groupMemberIds(db: Db, table: PostTableName, ids: number[]): Promise<number[]> {
  const rows = await posts(db)
    .selectFrom(table)
    .select('id')
    .where('trid', 'in', (eb) => eb.selectFrom(table).select('trid').where('id', 'in', ids))
    .execute();
  return rows.map((r) => r.id);
}

const termGroups = prepared((db, args: { trids: number[] }) =>
  db.selectFrom('terms').select(['id', 'trid', 'lang']).where('trid', 'in', args.trids).orderBy('id'),
);
const postGroups = perTable((db, table, args: { trids: number[] }) =>
  db
    .selectFrom(table)
    .select(['id', 'trid', 'lang', 'author', 'status'])
    .where('trid', 'in', args.trids)
    .where('status', '<>', 'trash')
    .orderBy('id'),
);

/** Members of translation groups by trid, by id: every term; records with their ownership, not the trashed ones. */
export function findTermGroups(db: Db, trids: number[]): Promise<{ id: number; trid: number; lang: string }[]> {
  return termGroups(db, { trids });
}

export function findPostGroups(
  db: Db,
  table: PostTableName,
  trids: number[],
): Promise<(Owned & { id: number; trid: number; lang: string })[]> {
  return postGroups[table](db, { trids });
}

/**
 * Which records of `statuses` the caller may list (post.visibility.ts), as SQL. `alias` qualifies
 * the columns.
 */
export function visibleTo(actor: Actor | null, statuses: string[], alias?: string): RawBuilder<SqlBool> {
  const status = sql.ref(alias ? `${alias}.status` : 'status');
  const author = sql.ref(alias ? `${alias}.author` : 'author');
  const rule = statusVisibility(actor, statuses);
  switch (rule.sees) {
    case 'all':
      return sql<SqlBool>`${status} in (${sql.join(rule.statuses)})`;
    case 'published':
      // A literal, so the planner can use the partial index of published records.
      return sql<SqlBool>`${status} = 'publish'`;
    case 'nothing':
      return sql<SqlBool>`1 = 0`;
    case 'own': {
      const own = sql<SqlBool>`(${status} in (${sql.join(rule.statuses)}) and ${author} = ${rule.author})`;
      return rule.published ? sql<SqlBool>`(${status} = 'publish' or ${own})` : own;
    }
  }
}
