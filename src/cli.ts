#!/usr/bin/env node
import { Command, CommanderError } from 'commander';
import { loadConfig, type Config } from './config.js';
import type { Storage } from './db/connect.js';
import type { Db, UserRow } from './db/database.js';
import { ApiError } from './http/errors.js';
import { isValidTimezone } from './lib/dates/zones.js';
import { isRole, ROLES } from './auth/roles.js';
import { importDefinition, importRequest, UsageError, type ImportFlags } from './modules/import/import.usage.js';
import { operationsCommands, OperationsUsageError } from './modules/operations/operations.usage.js';

/**
 * `cal-events`: the operator's commands, on the same database and through the same service
 * functions as the admin routes. `user add|list|remove|password` administer users; `import`
 * (import.usage.ts) and `copy`, `backup`, `restore` (operations.usage.ts) bring their own options.
 * Secrets go to stdout alone (so `$(cal-events user password bob)` works); messages go to stderr.
 * Every command answers --help (and `cal-events help COMMAND`) with its options.
 *
 * What a command needs beyond its options (the database layer, the user service, an import's
 * whole app) is imported when it runs: `--help` and usage errors answer in half a second instead
 * of one and a half.
 */
const users = () => import('./modules/users/user.service.js');

/** The exit statuses, documented in `cal-events --help` and the README. */
const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

const EXIT_HELP = `
Exit status: 0 done; 1 an operator's or runtime error (the message on stderr); 2 a usage error (unknown
command or option, missing argument); 3 import finished with skips (the report lists them); 130 stopped
by Ctrl-C. Configuration comes from the environment (DATA_DIR, DATABASE_URL), as for the server.`;

/** A mistake of the operator's: printed without a stack trace, exit status 1 (2 for usage). */
class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failed,
  ) {
    super(message);
  }
}

type Options = {
  role?: string;
  email?: string;
  reassign?: string;
  label?: string;
  loginPassword?: boolean;
  loginPasswordStdin?: boolean;
  login?: boolean;
};

/** More than any login password may have (1024 characters, up to 4 bytes each): the rest is not read. */
const STDIN_MAX_BYTES = 4096 + 2;

/** The first line of stdin (a script's `printf '%s\n' "$pw" |`), without its line ending. */
async function readStdinLine(): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > STDIN_MAX_BYTES || chunk.includes(0x0a)) break;
  }
  const line = Buffer.concat(chunks).toString('utf8').split('\n')[0]!.replace(/\r$/, '');
  if (line === '') throw new CliError('No login password on stdin.');
  return line;
}

/** Asks on the terminal without echoing what is typed. */
function promptHidden(question: string): Promise<string> {
  const stdin = process.stdin;
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = () => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write('\n');
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n' || ch === '\u0004') {
          finish();
          return resolve(value);
        }
        if (ch === '\u0003') {
          finish();
          return reject(new CliError('Cancelled.', 130));
        }
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else if (value.length < STDIN_MAX_BYTES) value += ch;
      }
    };
    process.stderr.write(question);
    stdin.setEncoding('utf8');
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}

/** A new login password: asked twice on a terminal, else one line of stdin. */
async function newLoginPassword(forceStdin: boolean): Promise<string> {
  if (forceStdin || !process.stdin.isTTY) return readStdinLine();
  const first = await promptHidden('New login password: ');
  const again = await promptHidden('Again: ');
  if (first !== again) throw new CliError('The two passwords differ; nothing was changed.');
  return first;
}

async function userByName(db: Db, name: string): Promise<UserRow> {
  const user = await (await users()).findUserByName(db, name);
  if (!user) throw new CliError(`No user named "${name}".`);
  return user;
}

async function add(db: Db, name: string, options: Options & { role: string }): Promise<void> {
  if (!isRole(options.role)) throw new CliError(`Unknown role "${options.role}": use one of ${ROLES.join(', ')}.`);
  // Without a flag nothing is asked, even on a terminal: scripts that add users keep working.
  const wantsLogin = options.loginPassword === true || options.loginPasswordStdin === true;
  const loginPassword = wantsLogin ? await newLoginPassword(options.loginPasswordStdin === true) : undefined;
  const { createUser } = await users();
  const { user, application_password } = await createUser(db, {
    username: name,
    role: options.role,
    email: options.email,
    password: loginPassword,
  });
  process.stderr.write(
    `Created ${user.role} "${user.username}" (id ${user.id}). Application password, shown only this once:\n`,
  );
  process.stdout.write(`${application_password}\n`);
}

async function list(db: Db): Promise<void> {
  const rows = await (await users()).listUsers(db);
  if (rows.length === 0) process.stderr.write('No users yet.\n');
  for (const u of rows) process.stdout.write(`${u.id}\t${u.username}\t${u.role}\t${u.email || '-'}\t${u.registered}\n`);
}

async function remove(db: Db, name: string, options: Options): Promise<void> {
  const user = await userByName(db, name);
  const reassign = options.reassign === undefined ? undefined : (await userByName(db, options.reassign)).id;
  await (await users()).removeUser(db, user.id, { reassign });
  process.stderr.write(`Removed "${user.username}" (id ${user.id}); their records were reassigned.\n`);
}

async function password(db: Db, name: string, options: Options): Promise<void> {
  const user = await userByName(db, name);
  if (options.login === true) {
    await (await users()).setLoginPassword(db, user.id, await newLoginPassword(false));
    process.stderr.write(`Login password of "${user.username}" changed; their sessions have ended.\n`);
    return;
  }
  const created = await (await users()).addApplicationPassword(db, user.id, options.label ?? 'cli');
  process.stderr.write(`New application password for "${user.username}", shown only this once:\n`);
  process.stdout.write(`${created}\n`);
}

/** Loads the configuration, opens and migrates the database, runs `work` on it, closes it. */
async function withDatabase(work: (config: Config, storage: Storage) => Promise<number | void>): Promise<number> {
  const config = loadConfig(process.env, isValidTimezone);
  const { connect, migrate } = await import('./db/connect.js');
  const storage = await connect({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    await migrate(storage.db);
    return (await work(config, storage)) ?? EXIT.ok;
  } finally {
    await storage.close();
  }
}

function userCommand(done: (status: number) => void): Command {
  const onDb = (work: (db: Db) => Promise<void>) => async () =>
    done(await withDatabase((_, storage) => work(storage.db)));
  const user = new Command('user').description('user administration: add, list, remove, password');
  user
    .command('add')
    .description('create a user; prints its application password')
    .argument('<name>', 'user name')
    .requiredOption('-r, --role <role>', `the role: ${ROLES.join(', ')}`)
    .option('--email <address>', 'e-mail address')
    .option(
      '--login-password',
      'also set a login password (for signing in to /admin/): asked on a terminal (not shown), else read from stdin',
    )
    .option('--login-password-stdin', 'the same, always read from stdin (one line)')
    .action((name: string, options: Options & { role: string }) => onDb((db) => add(db, name, options))());
  user
    .command('list')
    .description('list users: id, name, role, e-mail, registered')
    .action(() => onDb(list)());
  user
    .command('remove')
    .description('delete a user; their records go to --reassign or the first other administrator')
    .argument('<name>', 'user name')
    .option('--reassign <name>', 'the user who gets their records')
    .action((name: string, options: Options) => onDb((db) => remove(db, name, options))());
  user
    .command('password')
    .description('add an application password and print it; with --login, reset the login password instead')
    .argument('<name>', 'user name')
    .option('--label <label>', "the application password's label", 'cli')
    .option(
      '--login',
      "reset the login password (asked on a terminal, else one line from stdin); ends the user's sessions; prints nothing",
    )
    .action((name: string, options: Options) => onDb((db) => password(db, name, options))());
  return user;
}

/** The whole command line; `done` receives the exit status of the command that ran. */
function program(done: (status: number) => void): Command {
  const config = () => loadConfig(process.env, isValidTimezone);
  const importing = importDefinition().action(async (flags: ImportFlags) => {
    const request = importRequest(flags);
    done(
      await withDatabase(async (config, storage) => {
        // Loaded only for imports: it builds the whole app, which the other commands do not need.
        const { importCommand } = await import('./modules/import/import.cli.js');
        return importCommand(request, config, storage);
      }),
    );
  });
  const root = new Command('cal-events')
    .description('Operator commands of the cal-events service.')
    .addCommand(userCommand(done))
    .addCommand(importing);
  for (const command of operationsCommands(config, done)) root.addCommand(command);
  // Commander's own help command looks one level deep; this one takes a whole path (`help user add`).
  root.helpCommand(false).addCommand(
    new Command('help')
      .description('show the options of a command, as `COMMAND --help` does')
      .argument('[command...]', 'a command, as `user add`')
      .action((names: string[]) => {
        let command = root;
        for (const name of names) {
          const sub = command.commands.find((c) => c.name() === name);
          if (!sub) throw new CliError(`unknown command '${commandPath(command)} ${name}'`, EXIT.usage);
          command = sub;
        }
        command.outputHelp();
      }),
  );
  root.addHelpText('after', EXIT_HELP);
  configure(root, 'cal-events');
  return root;
}

/**
 * The same conduct for every command, as commander copies it only to commands made with
 * .command(): errors name the command and are followed by its help; nothing exits the process
 * (main maps commander's outcomes to the documented statuses).
 */
function configure(command: Command, path: string): void {
  command
    .exitOverride()
    .showHelpAfterError()
    .configureOutput({ outputError: (message, write) => write(message.replace(/^error: /, `${path}: `)) });
  for (const sub of command.commands) configure(sub, `${path} ${sub.name()}`);
}

/** The command being run, as the operator typed it: what error messages name. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

async function main(argv: string[]): Promise<number> {
  let status: number = EXIT.ok;
  let running = 'cal-events';
  const root = program((code) => (status = code));
  root.hook('preAction', (_root, action) => void (running = commandPath(action)));
  try {
    await root.parseAsync(argv, { from: 'user' });
    return status;
  } catch (error) {
    // Help asked for is a success; any other outcome of commander's is a usage error, already printed.
    if (error instanceof CommanderError) return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    return report(running, error);
  }
}

/**
 * Prints what went wrong in one line naming the command, never a stack: the service's errors carry
 * the reasons the API gives, anything else (an unreachable database) is reported with its cause.
 */
function report(command: string, error: unknown): number {
  const usage = error instanceof UsageError || error instanceof OperationsUsageError;
  const exitCode = error instanceof CliError ? error.exitCode : usage ? EXIT.usage : EXIT.failed;
  process.stderr.write(`${command}: ${describe(error)}\n`);
  if (usage) process.stderr.write(`(${command} --help lists its options)\n`);
  return exitCode;
}

function describe(error: unknown): string {
  if (error instanceof ApiError) {
    const params = Object.values((error.data['params'] ?? {}) as Record<string, string>);
    return params.length > 0 ? params.join(' ') : error.message;
  }
  if (!(error instanceof Error)) return String(error);
  return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
}

process.exitCode = await main(process.argv.slice(2));
