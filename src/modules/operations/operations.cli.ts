import { parseArgs } from 'node:util';
import type { Config } from '../../config.js';
import { connect, migrate, type Storage } from '../../db/connect.js';
import { backup, BackupError, POSTGRES_BACKUP, restore } from './backup.js';
import { copyDatabase, CopyError, type CopyReport } from './copy.js';

/** `cal-events copy | backup | restore`: the operator's commands on whole databases. */
export const OPERATIONS_USAGE = `  cal-events copy --to <DATA_DIR or postgres://…> [--from <DATA_DIR or postgres://…>] [--replace]
                                                                  copy every table (ids kept) into another database, then compare them
  cal-events backup <file>                                        consistent copy of the embedded database, while the service runs
  cal-events restore <file>                                       put a backup in place (the service stopped)`;

export class OperationsUsageError extends Error {}

const isUrl = (location: string) => /^postgres(ql)?:\/\//.test(location);
const storageAt = (location: string) => connect(isUrl(location) ? { dataDir: '', databaseUrl: location } : { dataDir: location });
const where = (location: string) => (isUrl(location) ? location.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@') : location);

function printReport(report: CopyReport): void {
  const width = Math.max(...report.tables.map((t) => t.table.length));
  for (const t of report.tables) process.stderr.write(`  ${t.table.padEnd(width)}  ${String(t.rows).padStart(9)} rows  ${t.same ? 'same' : 'DIFFERENT'}  ${t.checksum}\n`);
  process.stderr.write(`${report.rows} rows in ${report.tables.length} tables, ${report.seconds} s (${report.rowsPerSecond} rows/s); every table has the same rows and checksum on both sides.\n`);
}

async function copy(argv: string[], config: Config): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { from: { type: 'string' }, to: { type: 'string' }, replace: { type: 'boolean' } } });
  if (!values.to) throw new OperationsUsageError('copy needs --to <DATA_DIR or postgres://…>.');
  const from = values.from ?? config.databaseUrl ?? config.dataDir;
  if (from === values.to) throw new OperationsUsageError('--from and --to name the same database.');
  let source: Storage | null = null;
  let target: Storage | null = null;
  try {
    source = await storageAt(from);
    target = await storageAt(values.to);
    // Both at this version's schema: the same tables, so every table has a place to go.
    await migrate(source.db);
    await migrate(target.db);
    process.stderr.write(`Copying ${where(from)} → ${where(values.to)}\n`);
    const report = await copyDatabase(source.db, target.db, { replace: values.replace === true, progress: process.stderr.isTTY === true });
    printReport(report);
    return 0;
  } catch (error) {
    if (error instanceof CopyError) {
      const partial = (error as CopyError & { report?: CopyReport }).report;
      if (partial) printReport(partial);
      process.stderr.write(`cal-events copy: ${error.message}\n`);
      return 1;
    }
    throw error;
  } finally {
    await source?.close();
    await target?.close();
  }
}

export async function operationsCommand(argv: string[], config: Config): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === 'copy') return await copy(rest, config);
    const file = rest[0];
    if (file === undefined || rest.length > 1) throw new OperationsUsageError(`${command} needs one file.`);
    if (config.databaseUrl) {
      process.stderr.write(POSTGRES_BACKUP(file));
      return 2;
    }
    if (command === 'backup') {
      const bytes = await backup(config.dataDir, file, (done, total) => process.stderr.isTTY && process.stderr.write(`\rbackup: ${done}/${total} pages`));
      process.stderr.write(`${process.stderr.isTTY ? '\n' : ''}Backed up ${config.dataDir} to ${file} (${bytes} bytes); the copy passed SQLite's integrity check.\n`);
      return 0;
    }
    await restore(config.dataDir, file);
    process.stderr.write(`Restored ${file} into ${config.dataDir}; start the service.\n`);
    return 0;
  } catch (error) {
    if (error instanceof BackupError) {
      process.stderr.write(`cal-events ${command}: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
