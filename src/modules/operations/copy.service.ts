import type { Db } from '../../db/database.js';
import { dialectOf } from '../../db/dialect.js';
import { countRows, readRows, readSchema, type Schema, type TableInfo } from './tables.repository.js';
import { TableChecksum } from './tables.checksum.js';
import { progressBar, type Progress } from './copy.progress.js';
import {
  clearTables,
  continueSequences,
  highWaterMarks,
  holdsData,
  insertStatement,
  sendInsert,
  withTriggersOff,
} from './copy.repository.js';

/**
 * `cal-events copy`: every table of one database into another (SQLite ↔ PostgreSQL, or the same
 * kind), ids and sequences kept, so URLs, `global_id`s, sync tokens and client caches stay valid.
 * The source is read in one snapshot (a read transaction), the target written in one transaction
 * (all or nothing, triggers off: see copy.repository.ts), tables parents first, in batches. Then every
 * table is compared: its row count and checksum on the target against those of the rows read
 * from the source.
 */

export class CopyError extends Error {
  constructor(
    message: string,
    readonly report?: CopyReport,
  ) {
    super(message);
  }
}

export interface CopyReport {
  tables: { table: string; rows: number; checksum: string; same: boolean }[];
  rows: number;
  seconds: number;
  rowsPerSecond: number;
}

export interface CopyOptions {
  /** Empty a target that holds records first (refused otherwise). */
  replace: boolean;
  /** Draw a progress bar on stderr. */
  progress: boolean;
}

/** Rows per INSERT: SQLite's bound-parameter limit (32,766) over the row's width, at most 1,000. */
const batchFor = (table: TableInfo) => Math.max(1, Math.min(1000, Math.floor(30_000 / table.columns.length)));

/**
 * SQLite's virtual tables other than an FTS5 index over a content table (which the copy rebuilds
 * from it): they would hold data the copy cannot carry across databases, so they are refused
 * before anything is written.
 */
function uncopyableVirtualTables(schema: Schema): string[] {
  return schema.virtual
    .filter((v) => !/\busing\s+fts5\s*\(.*\bcontent\s*=\s*'?[a-z_]/is.test(v.sql))
    .map((v) => v.name);
}

/** Why the target cannot take the source's rows as they are, or nothing. */
async function refusal(from: Schema, to: Schema, target: Db, replace: boolean): Promise<string | null> {
  const missing = from.migrations.filter((m) => !to.migrations.includes(m));
  const extra = to.migrations.filter((m) => !from.migrations.includes(m));
  if (missing.length > 0 || extra.length > 0) {
    return `The two databases are not at the same version (${[...missing.map((m) => `target lacks ${m}`), ...extra.map((m) => `source lacks ${m}`)].join(', ')}): run this version of cal-events on both first.`;
  }
  const targets = new Map(to.tables.map((t) => [t.name, t]));
  const lacking = from.tables.flatMap((t) =>
    targets.has(t.name)
      ? t.columns.filter((c) => !targets.get(t.name)!.columns.includes(c)).map((c) => `${t.name}.${c}`)
      : [t.name],
  );
  if (lacking.length > 0) return `The target has no place for ${lacking.join(', ')}.`;
  const uncopyable = uncopyableVirtualTables(to);
  if (uncopyable.length > 0) return `The target has virtual tables the copy cannot fill: ${uncopyable.join(', ')}.`;
  const held = replace ? null : await holdsData(target, to.tables);
  if (held) return `The target database is not empty (${held} has rows): add --replace to overwrite it.`;
  return null;
}

/** Runs `work` on `source` in one read transaction, so every table is read as of one moment. */
async function snapshot<T>(source: Db, work: (src: Db) => Promise<T>): Promise<T> {
  const transaction = source.transaction();
  return (
    dialectOf(source) === 'postgres'
      ? transaction.setIsolationLevel('repeatable read').setAccessMode('read only')
      : transaction
  ).execute(work);
}

/** Reads a whole table and returns its checksum over `columns`. */
async function tableChecksum(db: Db, table: TableInfo, columns = table.columns): Promise<TableChecksum> {
  const checksum = new TableChecksum(columns);
  for await (const batch of readRows(db, table, 1000, columns)) checksum.add(batch);
  return checksum;
}

export async function copyDatabase(source: Db, target: Db, options: CopyOptions): Promise<CopyReport> {
  const started = performance.now();
  const [from, to] = await Promise.all([readSchema(source), readSchema(target)]);
  const problem = await refusal(from, to, target, options.replace);
  if (problem) throw new CopyError(problem);

  const read = new Map<string, TableChecksum>();
  await snapshot(source, async (src) => {
    const marks = await highWaterMarks(src, from.tables);
    let done = 0;
    const bar: Progress | null = options.progress ? progressBar(await countRows(src, from.tables)) : null;
    await withTriggersOff(target, to, async (trx) => {
      await clearTables(trx, to.tables);
      for (const table of from.tables) {
        const checksum = new TableChecksum(table.columns);
        read.set(table.name, checksum);
        // One INSERT under way while the next batch is read and hashed (on PostgreSQL the server
        // works on one while this process prepares the other).
        let inserting: Promise<unknown> = Promise.resolve();
        for await (const batch of readRows(src, table, batchFor(table))) {
          checksum.add(batch);
          const statement = insertStatement(trx, table.name, table.columns, batch);
          await inserting;
          inserting = sendInsert(trx, statement).catch((error: Error) => {
            throw new CopyError(`Copying ${table.name} failed: ${error.message}`);
          });
          // Awaited at the next batch or below; handled now, so a failure is never "unhandled" meanwhile.
          inserting.catch(() => undefined);
          done += batch.length;
          bar?.update(done, table.name);
        }
        await inserting;
      }
      await continueSequences(trx, to.tables, marks);
    }).finally(() => bar?.stop('Committed; comparing every table on both sides…'));
  });

  const tables: CopyReport['tables'] = [];
  for (const table of from.tables) {
    const written = await tableChecksum(target, table);
    const expected = read.get(table.name)!;
    tables.push({
      table: table.name,
      rows: written.rows,
      checksum: written.value,
      same: written.rows === expected.rows && written.value === expected.value,
    });
  }
  const seconds = (performance.now() - started) / 1000;
  const rows = tables.reduce((n, t) => n + t.rows, 0);
  const report = {
    tables,
    rows,
    seconds: Math.round(seconds * 10) / 10,
    rowsPerSecond: Math.round(rows / Math.max(seconds, 0.001)),
  };
  const different = tables.filter((t) => !t.same).map((t) => t.table);
  if (different.length > 0)
    throw new CopyError(`The copy differs from what was read in ${different.join(', ')}.`, report);
  return report;
}
