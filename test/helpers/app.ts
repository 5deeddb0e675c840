import assert from 'node:assert/strict';
import { AsyncLocalStorage } from 'node:async_hooks';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { connect, migrate, SQLITE_FILE, type Storage } from '../../src/db/connect.js';
import { isValidTimezone } from '../../src/lib/dates.js';
import { createUser } from '../../src/modules/users/user.service.js';
import type { Role } from '../../src/auth/roles.js';
import { createScratchDatabase, runTemplate } from './scratch-postgres.js';
import { observeQuery } from '../../src/modules/operations/metrics.service.js';

export type Backend = 'sqlite' | 'postgres';

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (CI sets it). */
export function backends(): Backend[] {
  return process.env['TEST_DATABASE_URL'] ? ['sqlite', 'postgres'] : ['sqlite'];
}

/**
 * The databases the long browser suites (the admin, moderation, the public pages, the grids) run
 * on: SQLite, the embedded default. Their screens are the same on both; each request they make is
 * one the API's own suites run on both databases, and the shorter browser suites (embeds,
 * security) still drive PostgreSQL. Run on both, they took a third of CI's browser time.
 */
export function browserBackends(): Backend[] {
  return ['sqlite'];
}

/** The statements a piece of work ran, and what it answered. */
export interface Statements<T> {
  value: T;
  texts: string[];
}

export interface QueryCounter {
  /** Every statement the app ran, its background jobs' included. */
  count: number;
  /**
   * The statements `work` runs, and only those: each statement is told apart by the asynchronous
   * context it runs in, so a background job's (the webhook and mail workers' rounds, every second;
   * the horizon step, five seconds after start-up) is never counted in, however the two interleave.
   */
  during<T>(work: () => Promise<T>): Promise<Statements<T>>;
  /** Called by the storage's query log. */
  observe(text: string): void;
}

export function queryCounter(): QueryCounter {
  const scope = new AsyncLocalStorage<string[]>();
  return {
    count: 0,
    async during(work) {
      const texts: string[] = [];
      const value = await scope.run(texts, work);
      return { value, texts };
    },
    observe(text) {
      this.count += 1;
      scope.getStore()?.push(text);
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  storage: Storage;
  config: Config;
  backend: Backend;
  /** Counts SQL statements, for the constant-queries assertions. */
  queries: QueryCounter;
  /** Basic header of a new user with that role. */
  asUser(role: Role, username?: string): Promise<{ id: number; authorization: string }>;
  request(
    options: InjectOptions & { auth?: string | undefined },
  ): Promise<LightMyRequestResponse & { body: string; data: any }>;
  close(): Promise<void>;
}

/** `request` of a TestApp for any app: credentials as `auth`, the body parsed as JSON when it is. */
export function injector(app: FastifyInstance): TestApp['request'] {
  return async (options) => {
    const { auth, ...rest } = options;
    const headers = { ...(rest.headers ?? {}), ...(auth ? { authorization: auth } : {}) };
    const response = await app.inject({ ...rest, headers });
    let data: unknown;
    try {
      data = response.body === '' ? undefined : JSON.parse(response.body);
    } catch {
      data = undefined;
    }
    return Object.assign(response, { data });
  };
}

let sqliteTemplate: Promise<string> | undefined;

/**
 * A migrated SQLite database, made once per process (each test file is one) and copied into each
 * test app's data directory, as PostgreSQL's apps copy a template database: migrating afresh took
 * a third of building an app, and every file builds several.
 */
function migratedSqlite(): Promise<string> {
  sqliteTemplate ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-template-'));
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    const storage = await connect({ dataDir: dir, statisticsIntervalMs: 0 });
    try {
      await migrate(storage.db);
    } finally {
      // The last connection to close checkpoints the write-ahead log into the file and removes it.
      await storage.close();
    }
    const file = path.join(dir, SQLITE_FILE);
    assert.ok(!fs.existsSync(`${file}-wal`), 'the migrated template is whole in its file');
    return file;
  })();
  return sqliteTemplate;
}

/** A new database, copied from the run's migrated template when there is one (helpers/scratch-postgres.ts). */
async function scratchDatabase(adminUrl: string, dataDir: string) {
  const template = await runTemplate(adminUrl, 'migrated', async (url) => {
    const storage = await connect({ dataDir, databaseUrl: url, statisticsIntervalMs: 0 });
    try {
      await migrate(storage.db);
    } finally {
      await storage.close();
    }
  });
  return createScratchDatabase(adminUrl, 'cal_test', { durable: false, template });
}

export interface TestAppOptions {
  /** A built admin to serve at /admin/ (test/helpers/admin-browser.ts builds one); dist/admin otherwise. */
  adminDir?: string;
}

/** A service on its own fresh database (a temp dir for SQLite, a new database for PostgreSQL). */
export async function createTestApp(
  backend: Backend,
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-test-'));
  const pgDb = backend === 'postgres' ? await scratchDatabase(process.env['TEST_DATABASE_URL']!, dataDir) : null;
  if (backend === 'sqlite') fs.copyFileSync(await migratedSqlite(), path.join(dataDir, SQLITE_FILE));
  // The overload guard is off unless a test turns it on: a busy CI machine must not answer 503 to tests.
  const config = loadConfig(
    {
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      CAL_MAX_EVENT_LOOP_DELAY_MS: '0',
      ...(pgDb ? { DATABASE_URL: pgDb.url } : {}),
      ...env,
    },
    isValidTimezone,
  );
  const queries = queryCounter();
  const storage = await connect({
    dataDir: config.dataDir,
    databaseUrl: config.databaseUrl,
    // No statistics refreshed in the background (test/db/pg-statistics.test.ts tests it): a test's
    // plans stay those of its own statements, not of when a check happened to run.
    statisticsIntervalMs: 0,
    // No reader threads unless a test asks for them (CAL_SQLITE_READERS): a read that happens to
    // take 50 ms on a busy machine would start them (test/db/sqlite-readers.test.ts tests them).
    sqliteReaders: 'CAL_SQLITE_READERS' in env ? config.sqliteReaders : 0,
    onQuery: (text, ms) => {
      queries.observe(text);
      observeQuery(ms);
    },
  });
  await migrate(storage.db);
  const app = await buildApp(config, { storage, logger: false, adminDir: options.adminDir });
  await app.ready();
  let userCounter = 0;
  return {
    app,
    storage,
    config,
    backend,
    queries,
    async asUser(role, username) {
      userCounter += 1;
      const { user, application_password } = await createUser(storage.db, {
        username: username ?? `${role}${userCounter}`,
        role,
      });
      return {
        id: user.id,
        authorization: `Basic ${Buffer.from(`${user.username}:${application_password}`).toString('base64')}`,
      };
    },
    request: injector(app),
    async close() {
      await app.close();
      await storage.close();
      await pgDb?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
