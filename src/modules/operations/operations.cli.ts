import path from 'node:path';
import type { Config } from '../../config.js';
import { connect, migrate, type Storage } from '../../db/connect.js';
import { backup, BackupError, POSTGRES_BACKUP, restore } from './backup.service.js';
import { copyDatabase, CopyError, type CopyReport } from './copy.service.js';
import { serviceOn } from './operations.pid-file.js';
import { maskUrl } from './operations.configuration.js';
import { OperationsUsageError, type CopyFlags } from './operations.usage.js';

/**
 * What `cal-events copy | backup | restore` do (operations.usage.ts defines their options): loaded
 * only when one of them runs, as it brings the database layer, which --help does not need.
 */

const isUrl = (location: string) => /^postgres(ql)?:\/\//.test(location);
const storageAt = (location: string) =>
  connect(isUrl(location) ? { dataDir: '', databaseUrl: location } : { dataDir: location });
const where = (location: string) => (isUrl(location) ? maskUrl(location) : location);
/** A location as one database has one name: a DATA_DIR as an absolute path. */
const canonical = (location: string) => (isUrl(location) ? location.replace(/\/+$/, '') : path.resolve(location));

/** The per-table summary: rows and checksum, the same on both sides (else the copy failed). */
function printReport(report: CopyReport): void {
  const width = Math.max(5, ...report.tables.map((t) => t.table.length));
  process.stdout.write(`${'table'.padEnd(width)}  ${'rows'.padStart(9)}  ${'checksum'.padEnd(32)}  check\n`);
  for (const t of report.tables)
    process.stdout.write(
      `${t.table.padEnd(width)}  ${String(t.rows).padStart(9)}  ${t.checksum}  ${t.same ? 'same' : 'DIFFERENT'}\n`,
    );
  process.stdout.write(
    `${'total'.padEnd(width)}  ${String(report.rows).padStart(9)}  in ${report.seconds} s (${report.rowsPerSecond} rows/s)\n`,
  );
}

/** Whether `location` is a URL with a password in it. */
const hasPassword = (location: string) =>
  isUrl(location) && URL.canParse(location) && new URL(location).password !== '';

export async function copy(values: CopyFlags, config: Config, env: NodeJS.ProcessEnv): Promise<number> {
  // The environment, unlike the arguments, is not shown by `ps` to other users of the machine.
  const to = values.to ?? env['CAL_COPY_TO'];
  if (!to) throw new OperationsUsageError('copy needs --to <DATA_DIR or postgres://…> (or CAL_COPY_TO).');
  const from = values.from ?? env['CAL_COPY_FROM'] ?? config.databaseUrl ?? config.dataDir;
  for (const [option, location] of [
    ['--to', values.to],
    ['--from', values.from],
  ] as const) {
    if (location !== undefined && hasPassword(location))
      process.stderr.write(
        `Note: the password in ${option} is visible to other users (ps); set CAL_COPY_${option.slice(2).toUpperCase()} instead.\n`,
      );
  }
  if (canonical(from) === canonical(to)) throw new OperationsUsageError('--from and --to name the same database.');
  const running = isUrl(to) ? null : await serviceOn(to);
  if (running) throw new BackupError(`${running}: stop it before copying into it.`);
  let source: Storage | null = null;
  let target: Storage | null = null;
  try {
    source = await storageAt(from);
    target = await storageAt(to);
    // As every cal-events command does, each database is brought to this version first; the copy
    // then checks that both ran the same migrations.
    await migrate(source.db);
    await migrate(target.db);
    process.stderr.write(`Copying ${where(from)} → ${where(to)}\n`);
    const report = await copyDatabase(source.db, target.db, {
      replace: values.replace === true,
      progress: process.stderr.isTTY === true,
    });
    printReport(report);
    process.stderr.write(`Every table has the same rows and checksum on both sides.\n`);
    return 0;
  } catch (error) {
    if (error instanceof CopyError) {
      if (error.report) printReport(error.report);
      // A report comes once the copy has committed: the target holds it, with the differences shown.
      process.stderr.write(`cal-events copy: ${error.message}${error.report ? '' : ' Nothing was written.'}\n`);
      return 1;
    }
    throw error;
  } finally {
    await source?.close();
    await target?.close();
  }
}

/** backup and restore, on the embedded database; on PostgreSQL they print pg_dump's and pg_restore's commands. */
export async function backupOrRestore(command: 'backup' | 'restore', file: string, config: Config): Promise<number> {
  if (config.databaseUrl) {
    process.stderr.write(POSTGRES_BACKUP(file));
    return 2;
  }
  if (command === 'backup') {
    const bytes = await backup(config.dataDir, file);
    process.stderr.write(
      `Backed up ${config.dataDir} to ${file} (${bytes} bytes); the copy passed SQLite's integrity and foreign-key checks.\n`,
    );
    return 0;
  }
  await restore(config.dataDir, file);
  process.stderr.write(`Restored ${file} into ${config.dataDir}; start the service.\n`);
  return 0;
}

/** A refusal of the backup service is the operator's to fix: its message, exit status 1. */
export async function refusals(command: string, run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof BackupError) {
      process.stderr.write(`cal-events ${command}: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
