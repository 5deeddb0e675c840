import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { createScratchDatabase } from '../helpers/scratch-postgres.js';
import { connect, migrate } from '../../src/db/connect.js';
import { refreshStaleStatistics } from '../../src/db/pg-statistics.js';

const adminUrl = process.env['TEST_DATABASE_URL'];

/** Runs `statements` on a connection of its own, then closes it (a backend reports its activity as it ends). */
async function run(url: string, ...statements: string[]): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

async function rowsPlanned(url: string, table: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `select reltuples::int as n from pg_class where relname = $1 and relnamespace = current_schema()::regnamespace`,
      [table],
    );
    return rows[0]!.n;
  } finally {
    await client.end();
  }
}

const insertPosts = (n: number) => `insert into posts (type) select 'event' from generate_series(1, ${n})`;

describe('PostgreSQL statistics kept fresh (pg-statistics.ts)', { skip: !adminUrl }, () => {
  it('should analyze exactly the tables changed past the threshold, one instance at a time', async () => {
    const scratch = await createScratchDatabase(adminUrl!, 'cal_stats');
    const storage = await connect({ dataDir: os.tmpdir(), databaseUrl: scratch.url, statisticsIntervalMs: 0 });
    // Closed at once: its connections' activity is reported as they end, not later during the checks.
    await migrate(storage.db).finally(() => storage.close());
    const pool = new pg.Pool({ connectionString: scratch.url, max: 2 });
    try {
      await refreshStaleStatistics(pool);
      await run(scratch.url, insertPosts(1000));
      const first = await refreshStaleStatistics(pool);
      assert.ok(first.includes('posts'), first.join());
      assert.ok(!first.includes('event_recurrence'), 'a table nothing wrote is left alone');
      assert.equal(await rowsPlanned(scratch.url, 'posts'), 1000);
      assert.deepEqual(await refreshStaleStatistics(pool), [], 'nothing changed since');

      // Another instance checking at the same moment finds the lock taken and leaves it.
      await run(scratch.url, insertPosts(4000));
      const holder = new pg.Client({ connectionString: scratch.url });
      await holder.connect();
      await holder.query(`begin; select pg_advisory_xact_lock(hashtext('cal:statistics'))`);
      assert.deepEqual(await refreshStaleStatistics(pool), []);
      await holder.query('commit');
      await holder.end();
      assert.deepEqual(await refreshStaleStatistics(pool), ['posts']);
      assert.equal(await rowsPlanned(scratch.url, 'posts'), 5000);
    } finally {
      await pool.end();
      await scratch.drop();
    }
  });

  it('should refresh them by itself as a connected service writes', async () => {
    const scratch = await createScratchDatabase(adminUrl!, 'cal_stats');
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-stats-'));
    const storage = await connect({ dataDir, databaseUrl: scratch.url, statisticsIntervalMs: 50 });
    try {
      await migrate(storage.db);
      await run(scratch.url, insertPosts(3000));
      const deadline = Date.now() + 10_000;
      while ((await rowsPlanned(scratch.url, 'posts')) !== 3000 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.equal(await rowsPlanned(scratch.url, 'posts'), 3000);
    } finally {
      await storage.close();
      await scratch.drop();
    }
  });
});
