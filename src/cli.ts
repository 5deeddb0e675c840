#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { loadConfig } from './config.js';
import { connect, migrate } from './db/connect.js';
import type { Db, UserRow } from './db/database.js';
import { ApiError } from './http/errors.js';
import { isValidTimezone } from './lib/dates.js';
import { isRole, ROLES } from './auth/roles.js';
import {
  addApplicationPassword,
  createUser,
  findUserByName,
  listUsers,
  removeUser,
  setLoginPassword,
} from './modules/users/user.service.js';
import { IMPORT_USAGE, UsageError } from './modules/import/import.usage.js';
import { SourceError } from './modules/import/import.source-http.js';
import { OPERATIONS_USAGE, OperationsUsageError } from './modules/operations/operations.cli.js';

/**
 * `cal-events user add|list|remove|password`: user administration for operators, on the same
 * database and through the same service functions as the admin routes. Secrets go to stdout
 * alone (so `$(cal-events user password bob)` works); messages go to stderr.
 */

const USAGE = `Usage:
  cal-events user add <name> --role <role> [--email <address>]   create a user; prints its application password
      [--login-password]                                          also set a login password (for signing in to /admin/):
                                                                  asked on a terminal (not shown), else read from stdin
      [--login-password-stdin]                                    the same, always read from stdin (one line)
  cal-events user list                                            list users
  cal-events user remove <name> [--reassign <name>]               delete a user; records go to --reassign or the first other administrator
  cal-events user password <name> [--label <label>]               add an application password; prints it
  cal-events user password <name> --login                         reset the login password (asked on a terminal, else one
                                                                  line from stdin); ends the user's sessions; prints nothing
${IMPORT_USAGE}
${OPERATIONS_USAGE}
Roles: ${ROLES.join(', ')}. Configuration comes from the environment (DATA_DIR, DATABASE_URL), as for the server.`;

/** A mistake of the operator's: printed without a stack trace, exit status 1 (2 for usage). */
class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

type Options = {
  role?: string | undefined;
  email?: string | undefined;
  reassign?: string | undefined;
  label?: string | undefined;
  'login-password'?: boolean | undefined;
  'login-password-stdin'?: boolean | undefined;
  login?: boolean | undefined;
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
  const user = await findUserByName(db, name);
  if (!user) throw new CliError(`No user named "${name}".`);
  return user;
}

async function add(db: Db, name: string, options: Options): Promise<void> {
  if (options.role === undefined) throw new CliError('user add needs --role <role>.', 2);
  if (!isRole(options.role)) throw new CliError(`Unknown role "${options.role}": use one of ${ROLES.join(', ')}.`);
  // Without a flag nothing is asked, even on a terminal: scripts that add users keep working.
  const wantsLogin = options['login-password'] === true || options['login-password-stdin'] === true;
  const loginPassword = wantsLogin ? await newLoginPassword(options['login-password-stdin'] === true) : undefined;
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
  const rows = await listUsers(db);
  if (rows.length === 0) process.stderr.write('No users yet.\n');
  for (const u of rows) process.stdout.write(`${u.id}\t${u.username}\t${u.role}\t${u.email || '-'}\t${u.registered}\n`);
}

async function remove(db: Db, name: string, options: Options): Promise<void> {
  const user = await userByName(db, name);
  const reassign = options.reassign === undefined ? undefined : (await userByName(db, options.reassign)).id;
  await removeUser(db, user.id, { reassign });
  process.stderr.write(`Removed "${user.username}" (id ${user.id}); their records were reassigned.\n`);
}

async function password(db: Db, name: string, options: Options): Promise<void> {
  const user = await userByName(db, name);
  if (options.login === true) {
    await setLoginPassword(db, user.id, await newLoginPassword(false));
    process.stderr.write(`Login password of "${user.username}" changed; their sessions have ended.\n`);
    return;
  }
  const created = await addApplicationPassword(db, user.id, options.label ?? 'cli');
  process.stderr.write(`New application password for "${user.username}", shown only this once:\n`);
  process.stdout.write(`${created}\n`);
}

async function run(db: Db, command: string, name: string | undefined, options: Options): Promise<void> {
  if (command === 'list') return list(db);
  if (name === undefined) throw new CliError(`user ${command} needs a user name.\n${USAGE}`, 2);
  if (command === 'add') return add(db, name, options);
  if (command === 'remove') return remove(db, name, options);
  if (command === 'password') return password(db, name, options);
  throw new CliError(`Unknown command "user ${command}".\n${USAGE}`, 2);
}

function parse(argv: string[]): { command: string; name: string | undefined; options: Options } {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      role: { type: 'string', short: 'r' },
      email: { type: 'string' },
      reassign: { type: 'string' },
      label: { type: 'string' },
      'login-password': { type: 'boolean' },
      'login-password-stdin': { type: 'boolean' },
      login: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) throw new CliError(USAGE, 0);
  const [group, command, name, ...extra] = positionals;
  if (group !== 'user' || command === undefined || extra.length > 0) throw new CliError(USAGE, 2);
  return { command, name, options: values };
}

async function main(argv: string[]): Promise<number> {
  // copy, backup and restore open the databases they name themselves (operations.cli.ts).
  if (['copy', 'backup', 'restore'].includes(argv[0] ?? '')) {
    try {
      const { operationsCommand } = await import('./modules/operations/operations.cli.js');
      return await operationsCommand(argv, loadConfig(process.env, isValidTimezone));
    } catch (error) {
      return report(error instanceof OperationsUsageError ? new CliError(`${error.message}\n${USAGE}`, 2) : error);
    }
  }
  // `import` has its own options (import.cli.ts); it runs on the same database as `user`.
  const importing = argv[0] === 'import';
  let parsed;
  let config;
  try {
    parsed = importing ? null : parse(argv);
    config = loadConfig(process.env, isValidTimezone);
  } catch (error) {
    return report(error);
  }
  const storage = await connect({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  try {
    await migrate(storage.db);
    if (parsed === null) {
      // Loaded only for imports: it builds the whole app, which `user` commands do not need.
      const { importCommand } = await import('./modules/import/import.cli.js');
      return await importCommand(argv.slice(1), config, storage);
    }
    await run(storage.db, parsed.command, parsed.name, parsed.options);
    return 0;
  } catch (error) {
    return report(error instanceof UsageError ? new CliError(error.message, 2) : error);
  } finally {
    await storage.close();
  }
}

/**
 * Prints what went wrong in one line, never a stack: the service's errors carry the reasons the
 * API gives, parseArgs' TypeErrors (ERR_PARSE_ARGS_*) are usage mistakes, anything else (an
 * unreachable database) is reported with its cause.
 */
function report(error: unknown): number {
  if (error instanceof CliError && error.exitCode === 0) {
    process.stdout.write(`${error.message}\n`);
    return 0;
  }
  const exitCode = error instanceof CliError ? error.exitCode : error instanceof TypeError ? 2 : 1;
  if (error instanceof SourceError) {
    process.stderr.write(`cal-events import: ${error.message}\n`);
    return 1;
  }
  process.stderr.write(`cal-events: ${describe(error)}\n`);
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
