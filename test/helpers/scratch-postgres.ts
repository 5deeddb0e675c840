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
  { durable = true }: { durable?: boolean } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE ${name}`);
  if (!durable) await run(`ALTER DATABASE ${name} SET synchronous_commit = off`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}
