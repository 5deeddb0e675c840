import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { connect, migrate } from '../src/db/connect.js';
import type { Db } from '../src/db/database.js';
import { dialectOf } from '../src/db/dialect.js';
import { createUser } from '../src/modules/users/user.service.js';
import { seed } from './seed.js';

/** A statement the service ran, with its time and parameters, for EXPLAIN. */
export interface Captured {
  sql: string;
  ms: number;
  parameters: readonly unknown[];
}

/**
 * What the explain scripts share: the database (seeded with `events` events when empty), the
 * service on it answering in process, and every statement it runs from then on in `captured`.
 */
export async function explainHarness(options: { dataDir?: string; databaseUrl?: string; events: number }): Promise<{
  db: Db;
  app: FastifyInstance;
  postgres: boolean;
  captured: Captured[];
  /** Closes the app and the storage. */
  close: () => Promise<void>;
}> {
  const captured: Captured[] = [];
  // Statements are kept from the first request on (not those of seeding).
  let capturing = false;
  const dataDir = options.dataDir ?? './data';
  const storage = await connect({
    dataDir,
    databaseUrl: options.databaseUrl,
    onQuery: (text, ms, parameters) => void (capturing && captured.push({ sql: text, ms, parameters })),
  });
  const db = storage.db;
  await migrate(db);
  if (!(await db.selectFrom('events').select('id').limit(1).executeTakeFirst())) {
    const author = (await createUser(db, { username: 'explain', role: 'administrator' })).user.id;
    await seed(db, options.events, author);
  }
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    CAL_MAX_EVENT_LOOP_DELAY_MS: '0',
    ...(options.databaseUrl ? { DATABASE_URL: options.databaseUrl } : {}),
  });
  const app = await buildApp(config, { storage, logger: false });
  await app.ready();
  capturing = true;
  // The storage is the harness's own (the app closes only what it opened): closed with the app,
  // or PostgreSQL's pool would keep the script running once it has printed everything.
  const close = async () => {
    await app.close();
    await storage.close();
  };
  return { db, app, postgres: dialectOf(db) === 'postgres', captured, close };
}

/**
 * Asks `url` once and prints its status and time, then every statement it ran (but the settings
 * and data-version reads every request makes) with its time and plan: `EXPLAIN QUERY PLAN` on
 * SQLite, `EXPLAIN (ANALYZE)` on PostgreSQL.
 */
export async function explainRequest(
  harness: { db: Db; app: FastifyInstance; postgres: boolean; captured: Captured[] },
  name: string,
  url: string,
): Promise<void> {
  const { app, captured } = harness;
  captured.length = 0;
  const started = performance.now();
  const res = await app.inject({ url });
  const ms = performance.now() - started;
  const statements = captured
    .splice(0)
    .filter((q) => /^\s*(select|with)\b/i.test(q.sql) && !/from "settings"|data_version/.test(q.sql));
  console.log(`\n## ${name}: ${res.statusCode}, ${ms.toFixed(1)} ms (${url})`);
  for (const q of statements) await explainStatement(harness, q, 160);
}

/** A captured statement with its parameters written in, its time and its plan. */
export async function explainStatement(
  harness: { db: Db; postgres: boolean },
  q: Captured,
  width: number,
): Promise<void> {
  let placeholder = 0;
  const text = q.sql
    .replace(/\$(\d+)/g, (_, n: string) => literal(q.parameters[Number(n) - 1]))
    .replace(/\?/g, () => literal(q.parameters[placeholder++]));
  const plan = await sql
    .raw(harness.postgres ? `explain (analyze, costs off) ${text}` : `explain query plan ${text}`)
    .execute(harness.db);
  console.log(`- ${q.ms.toFixed(2)} ms: ${text.replace(/\s+/g, ' ').slice(0, width)}`);
  for (const line of plan.rows as Record<string, unknown>[])
    console.log(`    ${String(line['QUERY PLAN'] ?? line['detail'])}`);
}

function literal(value: unknown): string {
  return typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
}
