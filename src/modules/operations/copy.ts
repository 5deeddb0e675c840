import { sql } from 'kysely';
import cliProgress from 'cli-progress';
import type { Db } from '../../db/database.js';
import { dialectOf } from '../../db/dialect.js';
import { listTables, readRows, tableChecksum, type TableInfo } from './tables.js';

/**
 * `cal-events copy`: every table of one database into another (SQLite ↔ PostgreSQL, or the same
 * kind), ids and sequences kept, so URLs, `global_id`s, sync tokens and client caches stay valid.
 * One transaction on the target: triggers and foreign keys are off inside it (the derived tables,
 * counts and change log, are copied as they are rather than recomputed row by row), SQLite's
 * full-text index is rebuilt from the events, PostgreSQL's sequences continue after the highest
 * id. Then every table is compared: row count and a checksum of its content on both sides.
 */

export class CopyError extends Error {}

export interface CopyReport {
  tables: { table: string; rows: number; checksum: string; same: boolean }[];
  rows: number;
  seconds: number;
  rowsPerSecond: number;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Row = Record<string, any>;

/** Tables whose rows mean the database is in use (a target with any is refused without --replace). */
const CONTENT = ['posts', 'users', 'terms'];

async function isEmpty(db: Db): Promise<boolean> {
  for (const table of CONTENT) {
    const row = (await sql<Row>`select 1 as x from ${sql.table(table)} limit 1`.execute(db)).rows[0];
    if (row) return false;
  }
  return true;
}

/** Batch size per INSERT: SQLite's bound-parameter limit (32,766) over the widest row. */
const batchFor = (table: TableInfo) => Math.max(1, Math.min(1000, Math.floor(30_000 / table.columns.length)));

async function withoutTriggers<T>(target: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  if (dialectOf(target) === 'postgres') {
    return target.transaction().execute(async (trx) => {
      // Triggers, foreign-key checks included, are off for this transaction (needs a superuser or the SET privilege).
      await sql`set local session_replication_role = replica`.execute(trx);
      return work(trx);
    });
  }
  // SQLite: foreign keys are switched off outside the transaction; triggers cannot be, so they are
  // dropped and made again from their own definitions inside it.
  await sql`pragma foreign_keys = off`.execute(target);
  try {
    return await target.transaction().execute(async (trx) => {
      const triggers = (await sql<Row>`select name, sql from sqlite_master where type = 'trigger'`.execute(trx)).rows;
      for (const t of triggers) await sql.raw(`drop trigger ${String(t['name'])}`).execute(trx);
      const result = await work(trx);
      for (const t of triggers) await sql.raw(String(t['sql'])).execute(trx);
      await sql`insert into events_search(events_search) values ('rebuild')`.execute(trx);
      return result;
    });
  } finally {
    await sql`pragma foreign_keys = on`.execute(target);
  }
}

/** The last id each serial table's sequence handed out on `db` (SQLite's AUTOINCREMENT marks, PostgreSQL's sequences). */
async function highWaterMarks(db: Db, tables: TableInfo[]): Promise<Map<string, number>> {
  const marks = new Map<string, number>();
  if (dialectOf(db) === 'sqlite') {
    for (const m of (await sql<Row>`select name, seq from sqlite_sequence`.execute(db)).rows) marks.set(String(m['name']), Number(m['seq']));
    return marks;
  }
  for (const table of tables) {
    if (table.serial === null) continue;
    const sequence = (await sql<Row>`select pg_get_serial_sequence(${table.name}, ${table.serial}) as s`.execute(db)).rows[0]!['s'];
    if (!sequence) continue;
    const state = (await sql<Row>`select last_value, is_called from ${sql.raw(String(sequence))}`.execute(db)).rows[0]!;
    if (state['is_called']) marks.set(table.name, Number(state['last_value']));
  }
  return marks;
}

export async function copyDatabase(source: Db, target: Db, options: { replace: boolean; progress: boolean }): Promise<CopyReport> {
  const started = performance.now();
  if (!options.replace && !(await isEmpty(target))) throw new CopyError('The target database is not empty: add --replace to overwrite it.');
  const sourceTables = await listTables(source);
  const targetTables = new Map((await listTables(target)).map((t) => [t.name, t]));
  const missing = sourceTables.filter((t) => !targetTables.has(t.name)).map((t) => t.name);
  if (missing.length > 0) throw new CopyError(`The target lacks tables ${missing.join(', ')}: are both at the same version?`);
  const counts = new Map<string, number>();
  for (const table of sourceTables) counts.set(table.name, Number((await sql<Row>`select count(*) as n from ${sql.table(table.name)}`.execute(source)).rows[0]!['n']));
  const total = [...counts.values()].reduce((a, b) => a + b, 0);
  const marks = await highWaterMarks(source, sourceTables);
  const bar = options.progress ? new cliProgress.SingleBar({ format: 'copy [{bar}] {percentage}% | {value}/{total} rows | {table}', hideCursor: true }, cliProgress.Presets.shades_classic) : null;
  bar?.start(total, 0, { table: '' });

  await withoutTriggers(target, async (trx) => {
    let done = 0;
    for (const table of sourceTables) {
      // Only the columns both have (the same migrations give the same; a renamed one would show in the check).
      const columns = table.columns.filter((c) => targetTables.get(table.name)!.columns.includes(c));
      await sql`delete from ${sql.table(table.name)}`.execute(trx);
      for await (const rows of readRows(source, table, batchFor(table))) {
        const values = rows.map((row) => sql`(${sql.join(columns.map((c) => sql`${row[c] ?? null}`))})`);
        await sql`insert into ${sql.table(table.name)} (${sql.join(columns.map((c) => sql.ref(c)))}) values ${sql.join(values)}`.execute(trx);
        done += rows.length;
        bar?.update(done, { table: table.name });
      }
    }
    // Ids are never reused (a deleted record's id included): each sequence goes on from the
    // source's high-water mark, which may be above the highest id left.
    for (const table of sourceTables) {
      const serial = targetTables.get(table.name)!.serial;
      if (serial === null) continue;
      const highest = Number((await sql<Row>`select coalesce(max(${sql.ref(serial)}), 0) as n from ${sql.table(table.name)}`.execute(trx)).rows[0]!['n']);
      const next = Math.max(highest, marks.get(table.name) ?? 0);
      if (dialectOf(target) === 'postgres') {
        await sql`select setval(pg_get_serial_sequence(${table.name}, ${serial}), ${Math.max(next, 1)}, ${next > 0})`.execute(trx);
      } else if (next > 0) {
        await sql`delete from sqlite_sequence where name = ${table.name}`.execute(trx);
        await sql`insert into sqlite_sequence (name, seq) values (${table.name}, ${next})`.execute(trx);
      }
    }
  });
  bar?.stop();

  const tables: CopyReport['tables'] = [];
  for (const table of sourceTables) {
    const [a, b] = await Promise.all([tableChecksum(source, table), tableChecksum(target, { ...table, columns: table.columns.filter((c) => targetTables.get(table.name)!.columns.includes(c)) })]);
    tables.push({ table: table.name, rows: b.rows, checksum: b.checksum, same: a.rows === b.rows && a.checksum === b.checksum });
  }
  const seconds = (performance.now() - started) / 1000;
  const rows = tables.reduce((n, t) => n + t.rows, 0);
  const report = { tables, rows, seconds: Math.round(seconds * 10) / 10, rowsPerSecond: Math.round(rows / Math.max(seconds, 0.001)) };
  const different = tables.filter((t) => !t.same);
  if (different.length > 0) throw Object.assign(new CopyError(`The copy differs from the source in ${different.map((t) => t.table).join(', ')}.`), { report });
  return report;
}
