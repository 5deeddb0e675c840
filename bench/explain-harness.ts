import type { FastifyInstance } from 'fastify';
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
  return { db, app, postgres: dialectOf(db) === 'postgres', captured };
}
