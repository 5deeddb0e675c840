import type BetterSqlite3 from 'better-sqlite3';

/**
 * SQLite's lower() folds ASCII only; case-insensitive search and matching must fold "Été" as
 * PostgreSQL does. Registered before migrations, so expression indexes use it too, and on every
 * connection that reads those indexes (the readers' threads; SQLite's integrity check recomputes
 * their keys). In a file of its own so a reader thread loads it without the migrations.
 */
export function addSqliteFunctions(sqlite: BetterSqlite3.Database): void {
  sqlite.function('lower', { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? text.toLowerCase() : text,
  );
}
