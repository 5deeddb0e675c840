import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { buildApp } from './src/app.js';
import { loadConfig } from './src/config.js';
import { migrate } from './src/db/connect.js';
import { isValidTimezone } from './src/lib/dates.js';
import { createUser } from './src/modules/users/user.service.js';

const backend = process.argv[2] ?? 'sqlite';
const captured: { sql: string; parameters: readonly unknown[] }[] = [];
let capture = false;
const log = (e: any) => { if (capture && e.level === 'query') captured.push({ sql: e.query.sql, parameters: e.query.parameters }); };
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'explain-'));
let db: Kysely<any>;
let pgName = '';
if (backend === 'sqlite') {
  db = new Kysely({ dialect: new SqliteDialect({ database: new SQLite(path.join(dataDir, 'x.sqlite')) }), log });
} else {
  pgName = `explain_${process.pid}`;
  const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' }); await admin.connect(); await admin.query(`create database ${pgName}`); await admin.end();
  db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:5432/${pgName}` }) }), log });
}
await migrate(db);
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, isValidTimezone);
const app = await buildApp(config, { storage: { db, dialect: backend as any, close: async () => {} }, logger: false });
const { user, application_password } = await createUser(db, { username: 'ed', role: 'editor' });
const auth = `Basic ${Buffer.from(`${user.username}:${application_password}`).toString('base64')}`;
// seed
const N_LINKED = 2000, N_EVENTS = 100000;
const dialect = backend;
const now = '2024-01-01 00:00:00';
async function bulk(table: string, rows: any[]) { for (let i = 0; i < rows.length; i += 500) await db.insertInto(table).values(rows.slice(i, i + 500)).execute(); }
const postIds = async (type: string, n: number) => { const ids: number[] = []; for (let i = 0; i < n; i += 500) { const r = await db.insertInto('posts').values(Array.from({ length: Math.min(500, n - i) }, () => ({ type }))).returning('id').execute(); ids.push(...r.map((x: any) => x.id)); } return ids; };
const common = (id: number, i: number, kind: string) => ({ id, lang: ['en','fr'][i % 2], trid: id, author: 1, status: i % 10 === 0 ? 'draft' : 'publish', password: '', slug: `${kind}-${i}`, title: `${kind} ${i}`, description: '', excerpt: '', date: now, date_utc: now, modified: now, modified_utc: now, image_id: null });
const venueIds = await postIds('venue', N_LINKED);
await bulk('venues', venueIds.map((id, i) => common(id, i, 'venue')));
const orgIds = await postIds('organizer', N_LINKED);
await bulk('organizers', orgIds.map((id, i) => common(id, i, 'organizer')));
const evIds = await postIds('event', N_EVENTS);
await bulk('events', evIds.map((id, i) => { const s = `20${10 + (i % 20)}-01-01 10:00:00`; return { ...common(id, i, 'event'), start_local: s, end_local: s, start_utc: s, end_utc: s, venue_id: venueIds[i % N_LINKED] }; }));
await bulk('event_organizers', evIds.map((id, i) => ({ event_id: id, organizer_id: orgIds[i % N_LINKED], position: 0 })));
if (dialect === 'sqlite') await db.executeQuery(CompiledQuery.raw('analyze')); else await db.executeQuery(CompiledQuery.raw('analyze'));
for (const table of ['venues', 'organizers']) {
  for (const q of [`event=${evIds[5]}`, 'has_events=true', 'has_events=false', 'only_with_upcoming=true', 'search=venue', '']) {
    captured.length = 0; capture = true;
    const t0 = Date.now();
    const res = await app.inject({ method: 'GET', url: `/cal/events/v1/${table}?${q}`, headers: { authorization: auth } });
    capture = false;
    console.log(`\n=== ${table}?${q} -> ${res.statusCode} total=${res.json().total} ${Date.now() - t0}ms`);
    for (const c of captured.filter((c) => /count\(\*\)|order by/i.test(c.sql) && c.sql.includes(`from "${table}"`))) {
      const plan = await db.executeQuery(CompiledQuery.raw((dialect === 'sqlite' ? 'explain query plan ' : 'explain ') + c.sql, c.parameters as any[]));
      console.log(plan.rows.map((r: any) => r.detail ?? r['QUERY PLAN']).join('\n'));
    }
  }
}
// dedupe
captured.length = 0; capture = true;
await app.inject({ method: 'POST', url: '/cal/events/v1/venues', headers: { authorization: auth }, payload: { venue: 'Venue 7' } });
capture = false;
for (const c of captured.filter((c) => c.sql.includes('lower('))) {
  const plan = await db.executeQuery(CompiledQuery.raw((dialect === 'sqlite' ? 'explain query plan ' : 'explain ') + c.sql, c.parameters as any[]));
  console.log('\n=== dedupe\n' + plan.rows.map((r: any) => r.detail ?? r['QUERY PLAN']).join('\n'));
}
await app.close(); await db.destroy();
if (pgName) { const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' }); await admin.connect(); await admin.query(`drop database ${pgName} with (force)`); await admin.end(); }
fs.rmSync(dataDir, { recursive: true, force: true });
