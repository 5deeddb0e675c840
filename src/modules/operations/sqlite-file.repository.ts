import fs from 'node:fs';
import type SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { addSqliteFunctions } from '../../db/connect.js';
import type { Database, Db } from '../../db/database.js';

/**
 * What the operator's commands ask of an embedded database file (backup.service.ts and
 * operations.pid-file.ts decide what the answers mean): SQLite's own checks, the service's tables and
 * migrations, its online backup and journal mode, whether another connection holds it.
 */

export type SqliteFile = SQLite.Database;

export async function openSqlite(file: string, options: SQLite.Options): Promise<SqliteFile> {
  const { default: Driver } = await import('better-sqlite3');
  const db = new Driver(file, { fileMustExist: true, ...options });
  // The service's lower(), which its expression indexes were built with: the integrity check
  // recomputes their keys, and with SQLite's own (ASCII-only) lower() a term named "ÉTÉ" would
  // fail it.
  addSqliteFunctions(db);
  return db;
}

/**
 * Whether another connection has the database open: an exclusive lock is refused while any other
 * connection, idle or not, holds the file in WAL mode (each keeps a shared lock on it).
 */
export async function databaseInUse(file: string): Promise<boolean> {
  if (!fs.existsSync(file)) return false;
  const { default: SQLite } = await import('better-sqlite3');
  const db = new SQLite(file, { timeout: 0 });
  try {
    db.pragma('locking_mode = exclusive');
    db.exec('begin exclusive; commit');
    return false;
  } catch {
    return true;
  } finally {
    db.close();
  }
}

/** A Kysely over an open file, for the copy to read it. */
export const kyselyOver = (db: SqliteFile): Db =>
  new Kysely<Database>({ dialect: new SqliteDialect({ database: db }) });

/** SQLite's integrity check: 'ok', or what it found. */
export const integrityCheck = (db: SqliteFile): unknown => db.pragma('integrity_check', { simple: true });

export const failsForeignKeyCheck = (db: SqliteFile): boolean =>
  (db.pragma('foreign_key_check') as unknown[]).length > 0;

/** How many of the service's landmark tables the file has (3 when it is a database of ours). */
export function ourTables(db: SqliteFile): number {
  return (
    db
      .prepare(
        "select count(*) as n from sqlite_master where type = 'table' and name in ('kysely_migration', 'events', 'posts')",
      )
      .get() as { n: number }
  ).n;
}

/** The migrations that ran, by name. */
export function migrationsRun(db: SqliteFile): string[] {
  return (db.prepare('select name from kysely_migration order by name').all() as { name: string }[]).map((m) => m.name);
}

export function lastMigration(db: SqliteFile): string {
  return (db.prepare('select max(name) as last from kysely_migration').get() as { last: string }).last;
}

/**
 * All pages in one step: SQLite starts a backup over whenever another connection (the service)
 * writes between two steps, so in small steps a backup under steady writes takes pass after pass
 * with no bound (1,074 steps of 256 pages for a database of 2,111 pages, measured with one writer).
 * One step reads one snapshot, and in WAL mode the service's writers go on meanwhile.
 */
export async function backupInOneStep(db: SqliteFile, file: string): Promise<void> {
  await db.backup(file, { progress: () => 0x7fffffff });
}

/** Makes the file self-contained: a rollback journal rather than WAL (backup.service.ts says why). */
export function useRollbackJournal(db: SqliteFile): void {
  db.pragma('journal_mode = DELETE');
}

/** Writes everything the WAL holds into the database file; returns the pragma's answer (busy 0 when done). */
export async function checkpoint(db: Db): Promise<{ busy: number } | undefined> {
  return (await sql<{ busy: number }>`pragma wal_checkpoint(truncate)`.execute(db)).rows[0];
}
