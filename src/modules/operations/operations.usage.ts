import { Command } from 'commander';
import type { Config } from '../../config.js';

/**
 * `cal-events copy | backup | restore`: the operator's commands on whole databases, their options
 * and help. What they do is in operations.cli.ts, imported when one runs: `--help` and a usage
 * error answer without loading the database layer (a second less per run).
 */

export class OperationsUsageError extends Error {}

export interface CopyFlags {
  from?: string;
  to?: string;
  replace?: boolean;
}

const run = () => import('./operations.cli.js');

/**
 * The commands, for cli.ts. They open the databases they name themselves; `config` is read when one
 * runs (not for --help), and `done` receives its exit status.
 */
export function operationsCommands(
  config: () => Config,
  done: (status: number) => void,
  env: NodeJS.ProcessEnv = process.env,
): Command[] {
  const copyCommand = new Command('copy')
    .summary('copy every table into another database (SQLite or PostgreSQL), then compare them')
    .description(
      'copy every table (ids kept) into another database, then compare them. CAL_COPY_TO and CAL_COPY_FROM ' +
        'may name the databases instead of --to and --from, keeping a password out of the command line, ' +
        'which ps shows to every user',
    )
    .option('--to <location>', 'the database to copy into: a DATA_DIR or postgres://…')
    .option('--from <location>', "the database to copy: a DATA_DIR or postgres://… (default: the service's)")
    .option('--replace', 'overwrite a target that already has rows')
    .action(async (flags: CopyFlags) => {
      const { copy, refusals } = await run();
      done(await refusals('copy', () => copy(flags, config(), env)));
    });
  const fileCommand = (command: 'backup' | 'restore', description: string) =>
    new Command(command)
      .description(description)
      .argument('<file>', command === 'backup' ? 'the backup to write' : 'the backup to read')
      .action(async (file: string) => {
        const { backupOrRestore, refusals } = await run();
        done(await refusals(command, () => backupOrRestore(command, file, config())));
      });
  return [
    copyCommand,
    fileCommand('backup', 'consistent copy of the embedded database, while the service runs'),
    fileCommand('restore', "put a backup's data in place (the service stopped)"),
  ];
}
