import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { byteBoundedCache, CACHE_BUDGET } from '../lib/cache-budget.js';

/**
 * better-sqlite3 as Kysely's SQLite dialect sees it, with two costs taken out of every query:
 * - Kysely prepares every statement anew, and compiling SQL is a large share of a fast query's
 *   cost, so prepared statements are kept by their SQL text (they run synchronously, never
 *   interleaved), up to a budget of the memory they hold (below);
 * - better-sqlite3 builds each result row by setting its properties one by one from C++, about
 *   twice as slow as reading the row as an array and naming its values in JavaScript; and a row
 *   named value by value (`row[name] = value`) past a dozen columns is an object in V8's
 *   dictionary mode: a hash table, slower to read and larger to keep. Each statement's rows are
 *   built instead by one object literal of its columns (rowMaker), compiled once per statement:
 *   an event row of 40 columns in a third of the time, with its properties in the object.
 */
export function sqliteDatabase(sqlite: SQLite.Database, budget: number = CACHE_BUDGET.statements): SqliteDatabase {
  const statements = byteBoundedCache<string, SqliteStatement>(budget, (_statement, sql) => statementBytes(sql));
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = fastRows(sqlite.prepare(sql));
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

/**
 * What a prepared statement holds, mostly SQLite's compiled program outside the JavaScript heap,
 * which no API reports. Measured by preparing the statements of a mix of lists and pages many
 * times over: about 3 KB plus 10–20 bytes per character of SQL (a list's 4 KB of SQL, 45–95 KB).
 */
export const statementBytes = (sql: string): number => 3072 + 20 * sql.length;

function fastRows(statement: SQLite.Statement): SqliteStatement {
  if (!statement.reader) return statement;
  const raw = statement.raw(true);
  const columnNames = (): string[] => raw.columns().map((column) => column.name);
  let names = columnNames();
  let toRow = rowMaker(names);
  return {
    reader: true,
    all(parameters) {
      const rows = raw.all(parameters) as unknown[][];
      // SQLite re-prepares a statement whose tables changed (a migration adding a column to `select *`).
      if (rows.length > 0 && rows[0]!.length !== names.length) toRow = rowMaker((names = columnNames()));
      return rows.map(toRow);
    },
    run: (parameters) => raw.run(parameters),
    *iterate(parameters) {
      for (const values of raw.iterate(parameters) as IterableIterator<unknown[]>) yield toRow(values);
    },
  };
}

type RowMaker = (values: unknown[]) => Record<string, unknown>;

/**
 * `(values) => ({ "id": values[0], "title": values[1], … })` for these column names: V8 gives
 * every row the literal's shape at once. The names are SQLite's (our statements' columns and
 * aliases), each written as a JSON string, so no name can be read as code; a later column of the
 * same name wins, as it did when set in turn. A name that the literal would read as the
 * prototype (`__proto__`) is set in turn instead.
 */
function rowMaker(names: readonly string[]): RowMaker {
  if (names.includes('__proto__')) {
    return (values) => {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < names.length; i += 1) Object.defineProperty(row, names[i]!, { value: values[i], ...OWN });
      return row;
    };
  }
  const fields = names.map((name, i) => `${JSON.stringify(name)}: values[${i}]`).join(', ');
  return new Function('values', `return { ${fields} };`) as RowMaker;
}

const OWN = { enumerable: true, writable: true, configurable: true } as const;
