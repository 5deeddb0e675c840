import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { dialectOf } from '../../db/dialect.js';

/**
 * The tables of a database as the copy and its check see them: found in the schema itself (so
 * tables later migrations add are copied with no change here), with their columns and the key
 * that orders their rows. Left out: the migrator's bookkeeping (the target runs the same
 * migrations) and SQLite's full-text index, which is rebuilt from `events` on a SQLite target.
 */
export interface TableInfo {
  name: string;
  columns: string[];
  /** Columns that order rows the same way on both databases (the primary key, else all). */
  order: string[];
  /** A serial/autoincrement column whose sequence continues after the copy. */
  serial: string | null;
}

const SKIPPED = /^(kysely_migration|kysely_migration_lock|sqlite_.*|events_search.*)$/;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Row = Record<string, any>;

export async function listTables(db: Db): Promise<TableInfo[]> {
  const tables: TableInfo[] = [];
  if (dialectOf(db) === 'postgres') {
    const names = (await sql<Row>`select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db)).rows.map((r) => String(r['table_name']));
    for (const name of names.filter((n) => !SKIPPED.test(n))) {
      const columns = (await sql<Row>`select column_name, column_default from information_schema.columns where table_schema = current_schema() and table_name = ${name} order by ordinal_position`.execute(db)).rows;
      const key = (
        await sql<Row>`select a.attname from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey) where i.indrelid = ${name}::regclass and i.indisprimary order by array_position(i.indkey, a.attnum)`.execute(db)
      ).rows.map((r) => String(r['attname']));
      const serial = columns.find((c) => String(c['column_default'] ?? '').startsWith('nextval('));
      tables.push({ name, columns: columns.map((c) => String(c['column_name'])), order: key.length > 0 ? key : columns.map((c) => String(c['column_name'])), serial: serial ? String(serial['column_name']) : null });
    }
    return tables;
  }
  const names = (await sql<Row>`select name, sql from sqlite_master where type = 'table' order by name`.execute(db)).rows;
  for (const { name, sql: ddl } of names) {
    if (SKIPPED.test(String(name))) continue;
    const info = (await sql<Row>`select name, pk from pragma_table_info(${name})`.execute(db)).rows;
    const key = info.filter((c) => Number(c['pk']) > 0).sort((a, b) => Number(a['pk']) - Number(b['pk'])).map((c) => String(c['name']));
    const serial = /autoincrement/i.test(String(ddl)) && key.length === 1 ? key[0]! : null;
    tables.push({ name: String(name), columns: info.map((c) => String(c['name'])), order: key.length > 0 ? key : info.map((c) => String(c['name'])), serial });
  }
  return tables;
}

/** Rows of a table in key order, a batch at a time (keyset on a one-column key, else offset). */
export async function* readRows(db: Db, table: TableInfo, batch = 1000): AsyncGenerator<Row[]> {
  const order = table.order.map((c) => sql.ref(c));
  const columns = table.columns.map((c) => sql.ref(c));
  if (table.order.length === 1) {
    const key = table.order[0]!;
    let after: unknown = null;
    for (;;) {
      const rows = (
        await sql<Row>`select ${sql.join(columns)} from ${sql.table(table.name)} ${after === null ? sql`` : sql`where ${sql.ref(key)} > ${after}`} order by ${sql.ref(key)} limit ${batch}`.execute(db)
      ).rows;
      if (rows.length === 0) return;
      yield rows;
      after = rows.at(-1)![key];
      if (rows.length < batch) return;
    }
  }
  for (let offset = 0; ; offset += batch) {
    const rows = (await sql<Row>`select ${sql.join(columns)} from ${sql.table(table.name)} order by ${sql.join(order)} limit ${batch} offset ${offset}`.execute(db)).rows;
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < batch) return;
  }
}

/** A value as both databases give it back the same: numbers as numbers, bytes as base64. */
function normalized(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return Number(value);
  if (Buffer.isBuffer(value)) return value.toString('base64');
  if (value instanceof Date) return value.toISOString();
  return value;
}

/**
 * Row count and a checksum of a table's content, the same on either database: the sum (mod 2^128)
 * of a SHA-256 of each row, so it does not depend on the order rows come in (text keys sort
 * differently under PostgreSQL's collation and SQLite's binary order).
 */
export async function tableChecksum(db: Db, table: TableInfo): Promise<{ rows: number; checksum: string }> {
  let sum = 0n;
  let rows = 0;
  for await (const batch of readRows(db, table)) {
    for (const row of batch) {
      const digest = createHash('sha256').update(JSON.stringify(table.columns.map((c) => normalized(row[c])))).digest();
      sum = (sum + BigInt(`0x${digest.subarray(0, 16).toString('hex')}`)) & ((1n << 128n) - 1n);
    }
    rows += batch.length;
  }
  return { rows, checksum: sum.toString(16).padStart(32, '0') };
}
