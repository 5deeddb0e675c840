import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';

/** Tables whose integer primary key is a public id (posts: events, venues, organizers, images). */
const TABLES = ['posts', 'terms', 'users', 'app_passwords'];

/**
 * Public ids are never handed out twice. SQLite's `INTEGER PRIMARY KEY` without AUTOINCREMENT
 * takes max(id) + 1, so deleting the record with the highest id (a tag, a user, an application
 * password) gave its id to the next new one; PostgreSQL's serial columns never go back. Each table
 * is rebuilt with AUTOINCREMENT, keeping every row, id and index, by SQLite's documented procedure
 * (foreign keys off, new table, copy, drop, rename, check); sqlite_sequence then starts at the
 * current highest id. Nothing to do on PostgreSQL.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;
  // Outside a transaction (Kysely runs SQLite migrations without one): the pragma is ignored inside.
  await sql`pragma foreign_keys = off`.execute(db);
  try {
    await db.transaction().execute(async (trx) => {
      for (const table of TABLES) await rebuildWithAutoincrement(trx, table);
      const broken = await sql`pragma foreign_key_check`.execute(trx);
      if (broken.rows.length > 0)
        throw new Error(`006_monotonic_ids: foreign keys broken: ${JSON.stringify(broken.rows.slice(0, 5))}`);
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function rebuildWithAutoincrement(trx: Kysely<any>, table: string): Promise<void> {
  const objects = await sql<{
    type: string;
    sql: string | null;
  }>`select type, sql from sqlite_master where tbl_name = ${table}`.execute(trx);
  const create = objects.rows.find((o) => o.type === 'table')?.sql;
  if (!create) throw new Error(`006_monotonic_ids: no table ${table}`);
  if (/autoincrement/i.test(create)) return;
  const pattern = /("id"|\bid\b)\s+integer\s+primary\s+key/i;
  if (!pattern.test(create)) throw new Error(`006_monotonic_ids: ${table} has no integer primary key id`);
  const temporary = `${table}__monotonic`;
  const createNew = create
    .replace(pattern, '"id" integer primary key autoincrement')
    .replace(/^create table\s+("[^"]+"|\S+)/i, `create table "${temporary}"`);
  await sql.raw(createNew).execute(trx);
  await sql`insert into ${sql.table(temporary)} select * from ${sql.table(table)}`.execute(trx);
  await sql`drop table ${sql.table(table)}`.execute(trx);
  await sql`alter table ${sql.table(temporary)} rename to ${sql.table(table)}`.execute(trx);
  // Dropping the table dropped its indexes and triggers; they come back as they were.
  for (const object of objects.rows) {
    if ((object.type === 'index' || object.type === 'trigger') && object.sql) await sql.raw(object.sql).execute(trx);
  }
}
