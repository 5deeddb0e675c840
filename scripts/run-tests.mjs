#!/usr/bin/env node
// Runs every test file under test/ with node's test runner (Node 20's --test does not expand globs).
// PostgreSQL tests run when TEST_DATABASE_URL (or DATABASE_URL) is set; each test file makes its own database.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

function find(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? find(full) : full.endsWith('.test.ts') ? [full] : [];
  });
}

const filters = process.argv.slice(2);
const files = find('test')
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort();
// CAL_VERIFY_PREPARED: every prepared query is also built afresh and compared (src/db/prepared.ts);
// CAL_VERIFY_COUNTS: every list total read from the per-day counts is also counted row by row.
const env = {
  ...process.env,
  TEST_DATABASE_URL: process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? '',
  CAL_VERIFY_PREPARED: '1',
  CAL_VERIFY_COUNTS: '1',
  // Names this run's PostgreSQL template databases (test/helpers/scratch-postgres.ts), dropped below.
  CAL_TEST_RUN: `${process.pid}_${randomBytes(3).toString('hex')}`,
};
delete env.DATABASE_URL;
const result = spawnSync(
  process.execPath,
  [
    '--import',
    'tsx',
    '--test',
    // Three files at a time on CI's two cores: the browser suites wait on Chromium and the
    // PostgreSQL suites on the server much of their time. The whole suite took 639 s with two,
    // 564 s with three (the files' own times summed 1,042 s and 1,374 s).
    '--test-concurrency=3',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    // The slowest files, printed at the end: where CI's time goes.
    `--test-reporter=${path.resolve('scripts/file-times-reporter.mjs')}`,
    '--test-reporter-destination=stdout',
    ...files,
  ],
  { stdio: 'inherit', env },
);
if (env.TEST_DATABASE_URL) await dropTemplates(env.TEST_DATABASE_URL, env.CAL_TEST_RUN);
process.exit(result.status ?? 1);

// The databases the run's test processes filled once and copied for each test app.
async function dropTemplates(url, run) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query("SELECT datname FROM pg_database WHERE datname LIKE $1 ESCAPE '!'", [
      `cal!_template!_${run}!_%`,
    ]);
    for (const { datname } of rows) await client.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
  } finally {
    await client.end();
  }
}
