import fs from 'node:fs';
import path from 'node:path';
import { runningService } from './pid-file.js';

/**
 * `cal-events backup FILE` and `restore FILE` for the embedded database. A backup is SQLite's
 * online backup (better-sqlite3's `backup()`): a consistent copy taken page by page while the
 * service goes on reading and writing. A restore puts a backup in place of the database, with the
 * service stopped (it refuses while a service runs on DATA_DIR) and only a file that is a sound
 * database of ours. PostgreSQL has pg_dump and pg_restore for both (the commands say which).
 */

export class BackupError extends Error {}

const DATABASE = 'calendar.sqlite';

export const POSTGRES_BACKUP = (file: string) =>
  `On PostgreSQL use the server's own tools:\n  pg_dump --format=custom --file=${file} "$DATABASE_URL"\n  pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" ${file}\n`;

async function openSqlite(file: string, readonly: boolean) {
  const { default: SQLite } = await import('better-sqlite3');
  return new SQLite(file, { readonly, fileMustExist: true });
}

/** What is wrong with `file` as a database of ours, or null: integrity and the migrator's table. */
async function soundness(file: string): Promise<string | null> {
  let db;
  try {
    db = await openSqlite(file, true);
  } catch (error) {
    return `cannot be opened as SQLite (${(error as Error).message})`;
  }
  try {
    const integrity = db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') return `fails its integrity check (${String(integrity)})`;
    const ours = db.prepare("select count(*) as n from sqlite_master where type = 'table' and name in ('kysely_migration', 'events', 'posts')").get() as { n: number };
    if (ours.n !== 3) return 'is not a database of this service';
    return null;
  } catch (error) {
    return `cannot be read (${(error as Error).message})`;
  } finally {
    db.close();
  }
}

/** Copies the live database of `dataDir` to `file`; returns its size in bytes. */
export async function backup(dataDir: string, file: string, onProgress?: (done: number, total: number) => void): Promise<number> {
  const source = path.join(dataDir, DATABASE);
  if (!fs.existsSync(source)) throw new BackupError(`No database in ${dataDir}.`);
  if (fs.existsSync(file)) throw new BackupError(`${file} exists: choose a new file.`);
  const db = await openSqlite(source, false);
  try {
    await db.backup(file, {
      progress: ({ totalPages, remainingPages }) => {
        onProgress?.(totalPages - remainingPages, totalPages);
        // Pages per step: small enough to let the service's writers in between steps.
        return 256;
      },
    });
  } finally {
    db.close();
  }
  const problem = await soundness(file);
  if (problem) throw new BackupError(`The backup ${problem}.`);
  return fs.statSync(file).size;
}

/** Replaces the database of `dataDir` by the backup `file` (the service must be stopped). */
export async function restore(dataDir: string, file: string): Promise<void> {
  const pid = runningService(dataDir);
  if (pid !== null) throw new BackupError(`A service (pid ${pid}) is running on ${dataDir}: stop it first, then restore.`);
  const problem = await soundness(file);
  if (problem) throw new BackupError(`${file} ${problem}: nothing was changed.`);
  fs.mkdirSync(dataDir, { recursive: true });
  const target = path.join(dataDir, DATABASE);
  const staged = `${target}.restoring`;
  fs.copyFileSync(file, staged);
  // The old database's write-ahead log belongs to it, not to the backup.
  for (const suffix of ['-wal', '-shm']) fs.rmSync(`${target}${suffix}`, { force: true });
  fs.renameSync(staged, target);
}
