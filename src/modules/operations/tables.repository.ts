import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { dialectOf } from '../../db/dialect.js';
import { inDependencyOrder } from './tables.order.js';

/**
 * A database's schema as the copy and its check see it, read from the database itself, so the
 * tables later migrations add are copied with no change here. Left out: the migrator's
 * bookkeeping (the migrations themselves are compared instead) and, on SQLite, virtual tables and
 * their shadow tables (an index such as the FTS5 `events_search`, which the copy rebuilds from
 * its content table rather than copying), with the queue of rows waiting for such an index, a
 * table named as it with `_pending` (migration 033): the rebuild indexes every row, so the copy
 * empties it instead.
 */
export interface TableInfo {
  name: string;
  /** The columns a row is written with (generated columns left out). */
  columns: string[];
  /** The primary key, which orders rows when reading in batches; empty when there is none. */
  key: string[];
  /** A serial/autoincrement column whose sequence continues after the copy. */
  serial: string | null;
  /** The tables its foreign keys point to, which must be filled first. */
  parents: string[];
}

export interface Schema {
  /** Every table to copy, parents before the tables that point to them. */
  tables: TableInfo[];
  /** Names of the migrations that have run. */
  migrations: string[];
  /**
   * SQLite virtual tables with their CREATE statement (an index to rebuild, or data the copy cannot
   * carry), and the queue of rows waiting for the index, if it has one.
   */
  virtual: { name: string; sql: string; queue?: string }[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Row = Record<string, any>;

const BOOKKEEPING = new Set(['kysely_migration', 'kysely_migration_lock']);

async function rows(db: Db, query: ReturnType<typeof sql<Row>>): Promise<Row[]> {
  return (await query.execute(db)).rows;
}

async function postgresTables(db: Db): Promise<{ tables: TableInfo[]; virtual: Schema['virtual'] }> {
  const names = (
    await rows(
      db,
      sql`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`,
    )
  ).map((r) => String(r['name']));
  const links = await rows(
    db,
    sql`select child.relname as child, parent.relname as parent from pg_constraint c
        join pg_class child on child.oid = c.conrelid join pg_class parent on parent.oid = c.confrelid
        where c.contype = 'f' and c.connamespace = current_schema()::regnamespace`,
  );
  const tables: TableInfo[] = [];
  for (const name of names.filter((n) => !BOOKKEEPING.has(n))) {
    const columns = await rows(
      db,
      sql`select column_name as name, column_default as def, is_identity as identity from information_schema.columns
          where table_schema = current_schema() and table_name = ${name} and is_generated = 'NEVER' order by ordinal_position`,
    );
    const key = await rows(
      db,
      sql`select a.attname as name from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
          where i.indrelid = ${name}::regclass and i.indisprimary order by array_position(i.indkey, a.attnum)`,
    );
    const serial = columns.find((c) => String(c['def'] ?? '').startsWith('nextval(') || c['identity'] === 'YES');
    tables.push({
      name,
      columns: columns.map((c) => String(c['name'])),
      key: key.map((k) => String(k['name'])),
      serial: serial ? String(serial['name']) : null,
      parents: links.filter((l) => l['child'] === name && l['parent'] !== name).map((l) => String(l['parent'])),
    });
  }
  return { tables, virtual: [] };
}

async function sqliteTables(db: Db): Promise<{ tables: TableInfo[]; virtual: Schema['virtual'] }> {
  // pragma table_list tells virtual tables and the shadow tables that hold their data apart.
  const listed = await rows(
    db,
    sql`select t.name, t.type, m.sql from pragma_table_list t join sqlite_master m on m.name = t.name where t.schema = 'main' and t.type in ('table', 'virtual')`,
  );
  const tables: TableInfo[] = [];
  const virtual: Schema['virtual'] = [];
  for (const { name, type, sql: ddl } of listed) {
    if (BOOKKEEPING.has(name) || String(name).startsWith('sqlite_')) continue;
    if (type === 'virtual') {
      virtual.push({ name: String(name), sql: String(ddl) });
      continue;
    }
    const columns = await rows(db, sql`select name, pk from pragma_table_info(${name})`);
    const key = columns
      .filter((c) => Number(c['pk']) > 0)
      .sort((a, b) => Number(a['pk']) - Number(b['pk']))
      .map((c) => String(c['name']));
    const parents = await rows(db, sql`select distinct "table" as parent from pragma_foreign_key_list(${name})`);
    tables.push({
      name: String(name),
      columns: columns.map((c) => String(c['name'])),
      key,
      serial: /autoincrement/i.test(String(ddl)) && key.length === 1 ? key[0]! : null,
      parents: parents.map((p) => String(p['parent'])).filter((p) => p !== name),
    });
  }
  const names = new Set(tables.map((t) => t.name));
  for (const v of virtual) if (names.has(`${v.name}_pending`)) v.queue = `${v.name}_pending`;
  const queues = new Set(virtual.map((v) => v.queue));
  return { tables: tables.filter((t) => !queues.has(t.name)), virtual };
}

/** The tables of `db` to copy (parents first), the migrations that ran on it and its virtual tables. */
export async function readSchema(db: Db): Promise<Schema> {
  const { tables, virtual } = dialectOf(db) === 'postgres' ? await postgresTables(db) : await sqliteTables(db);
  const migrations = (await rows(db, sql`select name from kysely_migration order by name`)).map((r) =>
    String(r['name']),
  );
  return { tables: inDependencyOrder(tables), migrations, virtual };
}

/**
 * Rows of a table in primary-key order, a batch at a time: keyset pagination on the key as a row
 * value (`(a, b) > (?, ?)`, which both databases index), or OFFSET for a table without one.
 */
export async function* readRows(
  db: Db,
  table: TableInfo,
  batch: number,
  columns = table.columns,
): AsyncGenerator<Row[]> {
  const list = sql.join(columns.map((c) => sql.ref(c)));
  const key = sql.join(table.key.map((c) => sql.ref(c)));
  if (table.key.length === 0) {
    for (let offset = 0; ; offset += batch) {
      const page = await rows(
        db,
        sql`select ${list} from ${sql.table(table.name)} order by ${list} limit ${batch} offset ${offset}`,
      );
      if (page.length > 0) yield page;
      if (page.length < batch) return;
    }
  }
  const missing = table.key.filter((c) => !columns.includes(c));
  if (missing.length > 0)
    throw new Error(`readRows: ${table.name}'s key ${missing.join(', ')} must be among the columns read.`);
  let after: unknown[] | null = null;
  for (;;) {
    const where = after === null ? sql`` : sql`where (${key}) > (${sql.join(after.map((v) => sql`${v}`))})`;
    const page = await rows(
      db,
      sql`select ${list} from ${sql.table(table.name)} ${where} order by ${key} limit ${batch}`,
    );
    if (page.length > 0) yield page;
    if (page.length < batch) return;
    const last = page.at(-1)!;
    after = table.key.map((c) => last[c]);
  }
}

/** Rows in all the tables, the length of the copy's progress bar. */
export async function countRows(db: Db, tables: TableInfo[]): Promise<number> {
  let total = 0;
  for (const t of tables)
    total += Number((await sql<Row>`select count(*) as n from ${sql.table(t.name)}`.execute(db)).rows[0]!['n']);
  return total;
}
