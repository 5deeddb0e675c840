import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';
import { byteBoundedCache, CACHE_BUDGET } from '../lib/cache-budget.js';

/**
 * better-sqlite3 as Kysely's SQLite dialect sees it, with two costs taken out of every query:
 * - Kysely prepares every statement anew, and compiling SQL is a large share of a fast query's
 *   cost, so prepared statements are kept by their SQL text (they run synchronously, never
 *   interleaved), up to a budget of the memory they hold (below);
 * - better-sqlite3 builds each result row by setting its properties one by one from C++, about
 *   twice as slow as reading the row as an array and naming its values in JavaScript.
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
  const toRow = (values: unknown[]): Record<string, unknown> => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i += 1) row[names[i]!] = values[i];
    return row;
  };
  return {
    reader: true,
    all(parameters) {
      const rows = raw.all(parameters) as unknown[][];
      // SQLite re-prepares a statement whose tables changed (a migration adding a column to `select *`).
      if (rows.length > 0 && rows[0]!.length !== names.length) names = columnNames();
      return rows.map(toRow);
    },
    run: (parameters) => raw.run(parameters),
    *iterate(parameters) {
      for (const values of raw.iterate(parameters) as IterableIterator<unknown[]>) yield toRow(values);
    },
  };
}
