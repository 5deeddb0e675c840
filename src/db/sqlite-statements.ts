import type SQLite from 'better-sqlite3';
import { LRUCache } from 'lru-cache';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/**
 * better-sqlite3 as Kysely's SQLite dialect sees it, with two costs taken out of every query:
 * - Kysely prepares every statement anew, and compiling SQL is a large share of a fast query's
 *   cost, so prepared statements are kept by their SQL text (they run synchronously, never
 *   interleaved);
 * - better-sqlite3 builds each result row by setting its properties one by one from C++, about
 *   twice as slow as reading the row as an array and naming its values in JavaScript.
 */
export function sqliteDatabase(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new LRUCache<string, SqliteStatement>({ max: 1000 });
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
