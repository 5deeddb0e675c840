import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A new, empty database on the server of `adminUrl`, for one test file or one benchmark run.
 * `durable: false` (tests): its commits do not wait for the disk (`synchronous_commit = off`): it
 * is dropped at the end, and a crash of the server, the only case this gives up, loses nothing a
 * test keeps; a commit then costs a fifth of the time. Benchmarks keep a server's default.
 */
export async function createScratchDatabase(
  adminUrl: string,
  prefix: string,
  { durable = true, template }: { durable?: boolean; template?: string } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const run = async (statement: string) => {
    await withClient(adminUrl, (client) => client.query(statement));
  };
  await run(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`);
  if (!durable) await run(`ALTER DATABASE ${name} SET synchronous_commit = off`);
  return { url: databaseUrl(adminUrl, name), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

/**
 * The name of a database that `fill` has filled once for this test run (`scripts/run-tests.mjs` names
 * the run in CAL_TEST_RUN and drops its templates at the end), for `createScratchDatabase` to copy:
 * every test app starts from the migrated schema, and copying it costs a third of migrating afresh.
 * The first test process to ask fills it, under a lock the others wait on. Undefined outside such
 * a run (a test file run on its own): each database is then migrated afresh.
 */
export async function runTemplate(
  adminUrl: string,
  kind: string,
  fill: (url: string) => Promise<void>,
): Promise<string | undefined> {
  const run = process.env['CAL_TEST_RUN'];
  if (!run || !/^[a-z0-9_]+$/.test(run)) return undefined;
  const name = `${TEMPLATE_PREFIX}${run}_${kind}`;
  let ready = templatesReady.get(name);
  if (!ready) templatesReady.set(name, (ready = fillOnce(adminUrl, name, fill)));
  await ready;
  return name;
}

const templatesReady = new Map<string, Promise<void>>();

async function fillOnce(adminUrl: string, name: string, fill: (url: string) => Promise<void>): Promise<void> {
  await withClient(adminUrl, async (client) => {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [name]);
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount) return;
    await client.query(`DROP DATABASE IF EXISTS ${name}_filling WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}_filling`);
    await fill(databaseUrl(adminUrl, `${name}_filling`));
    // Filled under another name, so that a process that dies while filling leaves no half template.
    await client.query(`ALTER DATABASE ${name}_filling RENAME TO ${name}`);
  });
}

// scripts/run-tests.mjs drops the run's templates by this prefix.
const TEMPLATE_PREFIX = 'cal_template_';

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    // Ending the session also releases its advisory lock.
    await client.end();
  }
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
