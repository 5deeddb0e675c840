import { CompiledQuery, sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { dialectOf } from '../../db/dialect.js';
import type { Row, Schema, TableInfo } from './tables.repository.js';

/**
 * The copy's statements on the database it writes, where SQLite and PostgreSQL differ.
 *
 * Derived tables: the per-day counts (`event_window_counts`, `event_term_window_counts`,
 * `event_facet_window_counts`), term
 * counts, the change log and the webhook outbox are kept by triggers on the base tables. Copied
 * with the triggers running, every base row would count, log and enqueue a second time (and queue
 * a webhook delivery per copied change). So the triggers are off while the rows go in and the
 * derived tables are copied as they are, exactly the source's; the check afterwards compares them
 * too. The one exception is SQLite's FTS5 index (`events_search`), which exists on SQLite only and
 * is rebuilt from its content table at the end.
 *
 * Foreign keys stay on: tables are filled parents first (tables.order.ts orders them), so no superuser
 * is needed on PostgreSQL (which `session_replication_role` would need); the owner of the tables
 * (the user that ran the migrations) may disable their triggers.
 */

/** Runs `work` in one transaction on `target` with its triggers off; they are back on when it commits. */
export async function withTriggersOff<T>(target: Db, schema: Schema, work: (trx: Db) => Promise<T>): Promise<T> {
  return target.transaction().execute(async (trx) => {
    if (dialectOf(trx) === 'postgres') {
      // Transactional DDL: other sessions never see the triggers off (they wait on the table locks).
      for (const t of schema.tables) await sql`alter table ${sql.table(t.name)} disable trigger user`.execute(trx);
      const result = await work(trx);
      for (const t of schema.tables) await sql`alter table ${sql.table(t.name)} enable trigger user`.execute(trx);
      return result;
    }
    // SQLite cannot switch a trigger off: each is dropped and made again from its own definition.
    const triggers = (await sql<Row>`select name, sql from sqlite_master where type = 'trigger'`.execute(trx)).rows;
    for (const t of triggers) await sql`drop trigger ${sql.id(String(t['name']))}`.execute(trx);
    const result = await work(trx);
    for (const t of triggers) await sql.raw(String(t['sql'])).execute(trx);
    await rebuildIndexes(trx, schema);
    return result;
  });
}

/**
 * SQLite's virtual tables: an FTS5 index over a content table (`content=…`) is rebuilt from it, and
 * its queue emptied (the rebuild indexed every row; --replace leaves the old queue). Any other
 * virtual table would hold data the copy cannot carry across databases, so it is refused (by
 * uncopyableVirtualTables in copy.service.ts) before anything is written.
 */
async function rebuildIndexes(trx: Db, schema: Schema): Promise<void> {
  for (const v of schema.virtual) {
    await sql`insert into ${sql.table(v.name)} (${sql.ref(v.name)}) values ('rebuild')`.execute(trx);
    if (v.queue) await sql`delete from ${sql.table(v.queue)}`.execute(trx);
  }
}

/** Empties every table (children first), for --replace. */
export async function clearTables(trx: Db, tables: TableInfo[]): Promise<void> {
  if (dialectOf(trx) === 'postgres') {
    // One statement for all: TRUNCATE of a table others point to must name them together.
    if (tables.length > 0) await sql`truncate table ${sql.join(tables.map((t) => sql.table(t.name)))}`.execute(trx);
    return;
  }
  for (const t of [...tables].reverse()) await sql`delete from ${sql.table(t.name)}`.execute(trx);
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * The INSERT of one batch of rows with every id as it is, as SQL text and parameters. Written out
 * rather than built with Kysely's `sql` (a node per value: a third of the copy's time went to
 * building and compiling them at 100,000 events).
 */
export function insertStatement(trx: Db, table: string, columns: string[], rows: Row[]): CompiledQuery {
  const postgres = dialectOf(trx) === 'postgres';
  const parameters: unknown[] = [];
  const tuples: string[] = [];
  for (const row of rows) {
    const marks: string[] = [];
    for (const column of columns) {
      parameters.push(row[column] ?? null);
      marks.push(postgres ? `$${parameters.length}` : '?');
    }
    tuples.push(`(${marks.join(',')})`);
  }
  // OVERRIDING SYSTEM VALUE: an identity column takes the id given, as a serial one does.
  const overriding = postgres ? ' overriding system value' : '';
  return CompiledQuery.raw(
    `insert into ${quoted(table)} (${columns.map(quoted).join(',')})${overriding} values ${tuples.join(',')}`,
    parameters,
  );
}

/** Sends one batch's INSERT (built by {@link insertStatement}). */
export function sendInsert(trx: Db, statement: CompiledQuery): Promise<unknown> {
  return trx.executeQuery(statement);
}

/** The last id each serial table's sequence handed out (SQLite's AUTOINCREMENT marks, PostgreSQL's sequences). */
export async function highWaterMarks(db: Db, tables: TableInfo[]): Promise<Map<string, number>> {
  const marks = new Map<string, number>();
  if (dialectOf(db) === 'sqlite') {
    for (const m of (await sql<Row>`select name, seq from sqlite_sequence`.execute(db)).rows)
      marks.set(String(m['name']), Number(m['seq']));
    return marks;
  }
  for (const table of tables) {
    if (table.serial === null) continue;
    const sequence = (await sql<Row>`select pg_get_serial_sequence(${table.name}, ${table.serial}) as s`.execute(db))
      .rows[0]?.['s'];
    if (!sequence) continue;
    const state = (await sql<Row>`select last_value, is_called from ${sql.raw(String(sequence))}`.execute(db)).rows[0]!;
    if (state['is_called']) marks.set(table.name, Number(state['last_value']));
  }
  return marks;
}

/**
 * Ids are never handed out twice (a deleted record's included), so each sequence goes on from the
 * source's high-water mark, which may be above the highest id left.
 */
export async function continueSequences(trx: Db, tables: TableInfo[], marks: Map<string, number>): Promise<void> {
  for (const table of tables) {
    if (table.serial === null) continue;
    const highest = Number(
      (
        await sql<Row>`select coalesce(max(${sql.ref(table.serial)}), 0) as n from ${sql.table(table.name)}`.execute(
          trx,
        )
      ).rows[0]!['n'],
    );
    const next = Math.max(highest, marks.get(table.name) ?? 0);
    if (dialectOf(trx) === 'postgres') {
      // setval(…, 1, false): the next id is 1, for a table that never had a row.
      await sql`select setval(pg_get_serial_sequence(${table.name}, ${table.serial}), ${Math.max(next, 1)}, ${next > 0})`.execute(
        trx,
      );
    } else {
      await sql`delete from sqlite_sequence where name = ${table.name}`.execute(trx);
      if (next > 0) await sql`insert into sqlite_sequence (name, seq) values (${table.name}, ${next})`.execute(trx);
    }
  }
}

/** Whether `db` holds records: a row in any table with its own id sequence (settings and counters do not count). */
export async function holdsData(db: Db, tables: TableInfo[]): Promise<string | null> {
  for (const table of tables.filter((t) => t.serial !== null)) {
    if ((await sql<Row>`select 1 as x from ${sql.table(table.name)} limit 1`.execute(db)).rows.length > 0)
      return table.name;
  }
  return null;
}
