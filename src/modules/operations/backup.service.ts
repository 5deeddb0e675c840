import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { connect, migrate, MIGRATION_NAMES, SQLITE_FILE, type Storage } from '../../db/connect.js';
import type { Db } from '../../db/database.js';
import { createPrivateFile, privateDirectory } from '../../lib/private-files.js';
import {
  backupInOneStep,
  checkpoint,
  failsForeignKeyCheck,
  integrityCheck,
  kyselyOver,
  lastMigration,
  migrationsRun,
  openSqlite,
  ourTables,
  useRollbackJournal,
  type SqliteFile,
} from './sqlite-file.repository.js';
import { copyDatabase, CopyError } from './copy.service.js';
import { serviceOn } from './operations.pid-file.js';

/**
 * `cal-events backup FILE` and `restore FILE` for the embedded database. A backup is SQLite's
 * online backup (better-sqlite3's `backup()`) taken while the service goes on reading and writing;
 * a restore puts the rows of one in place of the database, with the service stopped, and only from
 * a file that is a sound database of ours. PostgreSQL has pg_dump and pg_restore for both (the
 * commands say which).
 */

export class BackupError extends Error {}

export const POSTGRES_BACKUP = (file: string) =>
  `On PostgreSQL use the server's own tools:\n  pg_dump --format=custom --file=${file} "$DATABASE_URL"\n  pg_restore --clean --if-exists --no-owner --dbname="$DATABASE_URL" ${file}\n`;

/** The files SQLite keeps beside a database while it is open, or after a crash. */
const companions = (file: string) => [`${file}-wal`, `${file}-shm`, `${file}-journal`];
/** Whether anything, a dangling symbolic link included, has that name. */
const taken = (file: string) => fs.lstatSync(file, { throwIfNoEntry: false }) !== undefined;
const takenMeanwhile = (file: string) =>
  new BackupError(`${file} appeared while the backup was made: it was left as it is; choose a new file.`);

/**
 * What is wrong with `file` as a database of ours, or null: SQLite's integrity and foreign-key
 * checks, the service's tables, and the migrations that ran, those of this version in order (a
 * backup made by a later version would not run here).
 */
export async function soundness(file: string): Promise<string | null> {
  let db: SqliteFile;
  try {
    db = await openSqlite(file, { readonly: true });
  } catch (error) {
    return `cannot be opened as SQLite (${(error as Error).message})`;
  }
  try {
    const integrity = integrityCheck(db);
    if (integrity !== 'ok') return `fails SQLite's integrity check (${String(integrity)})`;
    if (failsForeignKeyCheck(db)) return "fails SQLite's foreign-key check";
    if (ourTables(db) !== 3) return 'is not a database of this service';
    const ran = migrationsRun(db);
    const unknown = ran.filter((name) => !MIGRATION_NAMES.includes(name));
    if (unknown.length > 0) return `was made by a later version (migrations ${unknown.join(', ')} are unknown here)`;
    // The migrator runs them in order, each once: any other record was not made by it.
    if (ran.length === 0 || ran.some((name, i) => MIGRATION_NAMES[i] !== name))
      return `has migrations no version of this service ran (${ran.join(', ') || 'none'})`;
    return null;
  } catch (error) {
    return `cannot be read (${(error as Error).message})`;
  } finally {
    db.close();
  }
}

/**
 * Gives the checked copy `partial` its name `file`. link(2) fails when the name exists, where
 * rename(2) would replace whatever appeared there since the first check; the partial name is then
 * removed by the caller. On a file system without hard links (some network shares) the name is
 * checked again and the copy renamed, the one place a file appearing at that instant would be
 * replaced.
 */
function publish(partial: string, file: string): void {
  try {
    fs.linkSync(partial, file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    if (code === 'EEXIST') throw takenMeanwhile(file);
    if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS'].includes(code)) throw error;
    if (taken(file)) throw takenMeanwhile(file);
    fs.renameSync(partial, file);
  }
}

/**
 * Copies the live database of `dataDir` to `file`; returns its size in bytes.
 *
 * All pages in one step (backupInOneStep says why), while the service's writers go on.
 *
 * The copy is written beside `file` under a name of its own, made exclusively and 0600 before
 * SQLite writes into it (SQLite would make it 0644, and a name chosen in advance could be a link
 * someone put there); it is turned into a single self-contained file (rollback journal, not WAL:
 * whoever opens a WAL database, even read-only, leaves `-wal` and `-shm` files beside it), checked,
 * and only then given its name, never over a file. A failed backup leaves nothing behind.
 */
export async function backup(dataDir: string, file: string): Promise<number> {
  const source = path.join(dataDir, SQLITE_FILE);
  if (!fs.existsSync(source)) throw new BackupError(`No database in ${dataDir}.`);
  if (taken(file)) throw new BackupError(`${file} exists: choose a new file.`);
  const partial = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(6).toString('hex')}.partial`);
  createPrivateFile(partial);
  try {
    const db = await openSqlite(source, {});
    try {
      await backupInOneStep(db, partial);
    } finally {
      db.close();
    }
    const copy = await openSqlite(partial, {});
    try {
      useRollbackJournal(copy);
    } finally {
      copy.close();
    }
    const problem = await soundness(partial);
    if (problem) throw new BackupError(`The backup ${problem}.`);
    publish(partial, file);
  } finally {
    // Once published, `partial` is a second name of the backup (or gone after a rename).
    for (const leftover of [partial, ...companions(partial)]) fs.rmSync(leftover, { force: true });
  }
  return fs.statSync(file).size;
}

/**
 * Replaces the database of `dataDir` by the backup `file` (the service must be stopped).
 *
 * The backup's rows, never its schema: a file can pass every check above and still carry triggers,
 * views or altered tables of its own, which would then run inside the service (a trigger that
 * makes every new user an administrator, say). So the database put in place is made by this
 * version's migrations, up to the backup's last one (the service runs the later ones at start-up,
 * as for any earlier database), and the backup's tables are copied into it row by row with
 * `cal-events copy`'s machinery: the columns both have, ids and sequences kept, our triggers off
 * while the rows go in, every table compared afterwards. A table or column the migrations do not
 * make is refused. The backup is copied first and read from that copy, read-only, so the file
 * checked is the file read and the operator's file is never written (opening a WAL database
 * writes `-wal` and `-shm` beside it).
 */
export async function restore(dataDir: string, file: string): Promise<void> {
  const refuseIfRunning = async () => {
    const running = await serviceOn(dataDir);
    if (running) throw new BackupError(`${running}: stop it first, then restore.`);
  };
  await refuseIfRunning();
  const made = fs.mkdirSync(dataDir, { recursive: true });
  privateDirectory(dataDir);
  // In DATA_DIR, so that the database made there is renamed into place on the same file system.
  const work = fs.mkdtempSync(path.join(dataDir, '.restoring-'));
  let restored = false;
  try {
    const rebuilt = await rebuild(file, work);
    await refuseIfRunning();
    const target = path.join(dataDir, SQLITE_FILE);
    // The old database's write-ahead log belongs to it, not to the backup.
    for (const companion of companions(target)) fs.rmSync(companion, { force: true });
    fs.renameSync(rebuilt, target);
    restored = true;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    // "Nothing was changed": not even a DATA_DIR made for a restore that was refused.
    if (!restored && made !== undefined) fs.rmSync(made, { recursive: true, force: true });
  }
}

/** Makes, in the directory `work`, a database of this version holding the rows of the backup `file`; returns its path. */
async function rebuild(file: string, work: string): Promise<string> {
  const staged = path.join(work, 'backup.sqlite');
  try {
    fs.copyFileSync(file, staged, fs.constants.COPYFILE_EXCL);
  } catch (error) {
    throw new BackupError(`${file} cannot be opened (${(error as Error).message}): nothing was changed.`);
  }
  const problem = await soundness(staged);
  if (problem) throw new BackupError(`${file} ${problem}: nothing was changed.`);

  const raw = await openSqlite(staged, { readonly: true });
  const last = lastMigration(raw);
  const source: Db = kyselyOver(raw);
  let fresh: Storage | null = null;
  try {
    fresh = await connect({ dataDir: work });
    await migrate(fresh.db, last);
    await copyDatabase(source, fresh.db, { replace: true, progress: false });
    // Everything into the database file, which alone is renamed into place: what the WAL still
    // held would stay behind in `work`. It stays a WAL database, as the service keeps it.
    const checkpointed = await checkpoint(fresh.db);
    if (checkpointed?.busy !== 0)
      throw new Error(`The restored database could not be checkpointed (${JSON.stringify(checkpointed)}).`);
  } catch (error) {
    if (error instanceof CopyError)
      throw new BackupError(`${file} cannot be restored: ${error.message} Nothing was changed.`);
    throw error;
  } finally {
    await fresh?.close();
    await source.destroy();
  }
  return path.join(work, SQLITE_FILE);
}
