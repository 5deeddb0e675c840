import fs from 'node:fs';
import path from 'node:path';
import type SQLite from 'better-sqlite3';
import { MIGRATION_NAMES, SQLITE_FILE } from '../../db/connect.js';
import { serviceOn } from './pid-file.js';

/**
 * `cal-events backup FILE` and `restore FILE` for the embedded database. A backup is SQLite's
 * online backup (better-sqlite3's `backup()`) taken while the service goes on reading and writing;
 * a restore puts one in place of the database, with the service stopped, and only a file that is a
 * sound database of ours. PostgreSQL has pg_dump and pg_restore for both (the commands say which).
 */

export class BackupError extends Error {}

export const POSTGRES_BACKUP = (file: string) =>
  `On PostgreSQL use the server's own tools:\n  pg_dump --format=custom --file=${file} "$DATABASE_URL"\n  pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" ${file}\n`;

async function openSqlite(file: string, options: SQLite.Options): Promise<SQLite.Database> {
  const { default: Driver } = await import('better-sqlite3');
  return new Driver(file, { fileMustExist: true, ...options });
}

/**
 * What is wrong with `file` as a database of ours, or null: SQLite's integrity and foreign-key
 * checks, the service's tables, and migrations this version knows (a backup made by a later
 * version would not run here).
 */
export async function soundness(file: string): Promise<string | null> {
  let db: SQLite.Database;
  try {
    db = await openSqlite(file, { readonly: true });
  } catch (error) {
    return `cannot be opened as SQLite (${(error as Error).message})`;
  }
  try {
    const integrity = db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') return `fails SQLite's integrity check (${String(integrity)})`;
    if ((db.pragma('foreign_key_check') as unknown[]).length > 0) return "fails SQLite's foreign-key check";
    const ours = db.prepare("select count(*) as n from sqlite_master where type = 'table' and name in ('kysely_migration', 'events', 'posts')").get() as { n: number };
    if (ours.n !== 3) return 'is not a database of this service';
    const ran = (db.prepare('select name from kysely_migration').all() as { name: string }[]).map((m) => m.name);
    const unknown = ran.filter((name) => !MIGRATION_NAMES.includes(name));
    if (unknown.length > 0) return `was made by a later version (migrations ${unknown.join(', ')} are unknown here)`;
    return null;
  } catch (error) {
    return `cannot be read (${(error as Error).message})`;
  } finally {
    db.close();
  }
}

/**
 * Copies the live database of `dataDir` to `file`; returns its size in bytes.
 *
 * All pages in one step: SQLite starts a backup over whenever another connection (the service)
 * writes between two steps, so in small steps a backup under steady writes takes pass after pass
 * with no bound (1,074 steps of 256 pages for a database of 2,111 pages, measured with one writer).
 * One step reads one snapshot, and in WAL mode the service's writers go on meanwhile. The copy is
 * written beside `file` and renamed once checked, so a failed backup leaves nothing that looks
 * like one.
 */
export async function backup(dataDir: string, file: string): Promise<number> {
  const source = path.join(dataDir, SQLITE_FILE);
  if (!fs.existsSync(source)) throw new BackupError(`No database in ${dataDir}.`);
  if (fs.existsSync(file)) throw new BackupError(`${file} exists: choose a new file.`);
  const partial = `${file}.partial`;
  fs.rmSync(partial, { force: true });
  const db = await openSqlite(source, {});
  try {
    await db.backup(partial, { progress: () => 0x7fffffff });
  } finally {
    db.close();
  }
  const problem = await soundness(partial);
  if (problem) {
    fs.rmSync(partial, { force: true });
    throw new BackupError(`The backup ${problem}.`);
  }
  fs.renameSync(partial, file);
  return fs.statSync(file).size;
}

/** Replaces the database of `dataDir` by the backup `file` (the service must be stopped). */
export async function restore(dataDir: string, file: string): Promise<void> {
  const running = await serviceOn(dataDir);
  if (running) throw new BackupError(`${running}: stop it first, then restore.`);
  const problem = await soundness(file);
  if (problem) throw new BackupError(`${file} ${problem}: nothing was changed.`);
  fs.mkdirSync(dataDir, { recursive: true });
  const target = path.join(dataDir, SQLITE_FILE);
  const staged = `${target}.restoring`;
  fs.copyFileSync(file, staged);
  // The old database's write-ahead log belongs to it, not to the backup.
  for (const suffix of ['-wal', '-shm']) fs.rmSync(`${target}${suffix}`, { force: true });
  fs.renameSync(staged, target);
}
