import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { connect, migrate } from '../../src/db/connect.js';
import { isValidTimezone } from '../../src/lib/dates.js';
import { backup, restore, BackupError } from '../../src/modules/operations/backup.js';
import { copyDatabase, CopyError } from '../../src/modules/operations/copy.js';
import { maskedConfiguration } from '../../src/modules/operations/configuration.js';
import { holdPidFile } from '../../src/modules/operations/pid-file.js';
import { backends, createTestApp, injector, type TestApp } from '../helpers/app.js';
import { createScratchDatabase } from '../helpers/scratch-postgres.js';

const API = '/cal/events/v1';
const tmp = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));

/** A strict check of the Prometheus text format: HELP/TYPE comments and `name{labels} value` samples. */
function parsePrometheus(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('#')) {
      assert.match(line, /^# (HELP|TYPE) [a-zA-Z_:][a-zA-Z0-9_:]* .+$/, line);
      continue;
    }
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*"(?:,[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*")*)?\})?) (-?(?:\d+(?:\.\d+)?(?:e[+-]?\d+)?|nan|\+inf|-inf))$/i.exec(line);
    assert.ok(match, `not a Prometheus sample line: ${line}`);
    samples.set(match[1]!, Number(match[2]));
  }
  return samples;
}

for (const backend of backends()) {
  describe(`health [${backend}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(backend);
    });
    after(() => t.close());

    it('should answer live and ready without credentials, and not ready while draining', async () => {
      assert.deepEqual((await t.request({ method: 'GET', url: '/health/live' })).data, { status: 'ok' });
      const ready = await t.request({ method: 'GET', url: '/health/ready' });
      assert.equal(ready.statusCode, 200);
      assert.deepEqual(ready.data.checks, { draining: 'no', database: 'ok', migrations: 'done' });
      t.app.services.lifecycle.draining = true;
      const draining = await t.request({ method: 'GET', url: '/health/ready' });
      assert.equal(draining.statusCode, 503);
      assert.equal(draining.data.code, 'rest_service_unavailable');
      assert.equal(draining.data.data.status, 503);
      assert.equal((await t.request({ method: 'GET', url: '/health/live' })).statusCode, 200);
      t.app.services.lifecycle.draining = false;
    });
  });
}

describe('health with the database gone', () => {
  it('should answer 503 when PostgreSQL does not answer (a closed port)', async () => {
    const config = loadConfig({ DATA_DIR: tmp('cal-health-'), LOG_LEVEL: 'silent', CAL_MAX_EVENT_LOOP_DELAY_MS: '0', DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere' }, isValidTimezone);
    const storage = await connect({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
    const app = await buildApp(config, { storage, logger: false });
    await app.ready();
    const res = await app.inject({ method: 'GET', url: '/health/ready' });
    assert.equal(res.statusCode, 503);
    const body = JSON.parse(res.body);
    assert.equal(body.code, 'rest_service_unavailable');
    assert.match(body.data.checks.database, /error|no answer/);
    assert.equal((await app.inject({ method: 'GET', url: '/health/live' })).statusCode, 200);
    await app.close();
    await storage.close();
  });

  it('should answer 503 when the embedded database is closed under it', async () => {
    const t = await createTestApp('sqlite');
    await t.storage.db.destroy();
    const res = await t.request({ method: 'GET', url: '/health/ready' });
    assert.equal(res.statusCode, 503);
    await t.app.close();
  });
});

describe('metrics and logs', () => {
  it('should serve no /metrics unless CAL_METRICS=1', async () => {
    const t = await createTestApp('sqlite');
    assert.equal((await t.request({ method: 'GET', url: '/metrics' })).statusCode, 404);
    await t.close();
  });

  it('should count requests by route pattern and status class, page-cache hits, statements and the process', async () => {
    const t = await createTestApp('sqlite', { CAL_METRICS: '1' });
    const editor = await t.asUser('editor');
    const event = await t.request({ method: 'POST', url: `${API}/events`, auth: editor.authorization, payload: { title: 'Metered', status: 'publish', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00' } });
    for (let i = 0; i < 3; i += 1) await t.request({ method: 'GET', url: `${API}/events/${event.data.id}` });
    await t.request({ method: 'GET', url: `${API}/events/999999` });
    const res = await t.request({ method: 'GET', url: '/metrics' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    const samples = parsePrometheus(res.body);
    const single = [...samples.keys()].find((k) => k.startsWith('cal_http_requests_total{') && k.includes('method="GET"') && k.includes('status="2xx"') && k.includes('/events/:id'));
    assert.ok(single, 'requests by route pattern');
    assert.equal(samples.get(single!), 3);
    assert.ok([...samples.keys()].some((k) => k.startsWith('cal_http_requests_total{') && k.includes('status="4xx"')));
    assert.ok(![...samples.keys()].some((k) => k.includes(`/events/${event.data.id}`)), 'never a raw URL');
    assert.ok((samples.get('cal_page_cache_hits_total') ?? 0) >= 2);
    assert.ok((samples.get('cal_page_cache_misses_total') ?? 0) >= 1);
    assert.ok((samples.get('cal_db_query_duration_seconds_count') ?? 0) > 0);
    assert.ok(samples.has('nodejs_eventloop_lag_seconds'));
    assert.ok(samples.has('nodejs_heap_size_used_bytes'));
    assert.ok(samples.has('cal_imports_running'));
    await t.close();
  });

  it('should serve metrics on their own port when CAL_METRICS_PORT is set', async () => {
    const t = await createTestApp('sqlite', { CAL_METRICS: '1', CAL_METRICS_PORT: '0' });
    await t.close();
    const port = 19_000 + Math.floor(Math.random() * 1000);
    const config = loadConfig({ DATA_DIR: tmp('cal-metrics-'), LOG_LEVEL: 'silent', CAL_MAX_EVENT_LOOP_DELAY_MS: '0', CAL_METRICS: '1', CAL_METRICS_PORT: String(port) }, isValidTimezone);
    const storage = await connect({ dataDir: config.dataDir });
    await migrate(storage.db);
    const app = await buildApp(config, { storage, logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    assert.ok(parsePrometheus(text).size > 10);
    assert.equal((await app.inject({ method: 'GET', url: '/metrics' })).statusCode, 404, 'not on the public port');
    await app.close();
    await storage.close();
  });

  it('should log each request with its route pattern and user, never the password or the Authorization header', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const config = loadConfig({ DATA_DIR: tmp('cal-log-'), LOG_LEVEL: 'info', CAL_MAX_EVENT_LOOP_DELAY_MS: '0' }, isValidTimezone);
    const storage = await connect({ dataDir: config.dataDir });
    await migrate(storage.db);
    const app = await buildApp(config, { storage, logger: { level: 'info', stream } });
    await app.ready();
    const { createUser } = await import('../../src/modules/users/user.service.js');
    const { user, application_password } = await createUser(storage.db, { username: 'logged', role: 'editor' });
    const authorization = `Basic ${Buffer.from(`logged:${application_password}`).toString('base64')}`;
    await app.inject({ method: 'POST', url: `${API}/events`, headers: { authorization }, payload: { title: 'Logged', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00', password: 'event-secret' } });
    await app.inject({ method: 'GET', url: '/health/ready' });
    const all = lines.join('');
    assert.ok(!all.includes(application_password), 'no application password');
    assert.ok(!all.includes(authorization.slice(6)), 'no Authorization header');
    assert.ok(!all.includes('event-secret'));
    const completed = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request completed');
    assert.equal(completed.length, 1, 'a successful probe is not logged at info');
    assert.equal(completed[0].route, '/cal/events/v1/events');
    assert.equal(completed[0].user, user.id);
    await app.close();
    await storage.close();
  });

  it('should state the configuration with its secrets masked', () => {
    const config = loadConfig({ DATA_DIR: '/tmp/x', CAL_ADMIN_PASSWORD: 'very-secret', DATABASE_URL: 'postgres://cal:dbsecret@db.example:5432/cal' }, isValidTimezone);
    const shown = JSON.stringify(maskedConfiguration(config));
    assert.ok(!shown.includes('very-secret') && !shown.includes('dbsecret'));
    assert.match(shown, /postgres:\/\/cal:\*\*\*@db\.example:5432\/cal/);
  });
});

describe('backup and restore (SQLite)', () => {
  it('should take a consistent backup while writes go on, refuse to restore under a running service, and restore it', async () => {
    const t = await createTestApp('sqlite');
    const editor = await t.asUser('editor');
    let writing = true;
    let written = 0;
    const writes = (async () => {
      while (writing) {
        const res = await t.request({ method: 'POST', url: `${API}/events`, auth: editor.authorization, payload: { title: `During backup ${written}`, status: 'publish', start_date: '2030-02-01 10:00:00', end_date: '2030-02-01 11:00:00', categories: ['Backups'] } });
        assert.equal(res.statusCode, 201);
        written += 1;
      }
    })();
    while (written < 20) await new Promise((resolve) => setTimeout(resolve, 10));
    const file = path.join(tmp('cal-backup-'), 'calendar.backup');
    await backup(t.config.dataDir, file);
    writing = false;
    await writes;
    assert.ok(written > 20);
    // The backup opens, and what one transaction wrote is all there or not at all.
    const copyDir = tmp('cal-restored-');
    const pidDir = tmp('cal-running-');
    holdPidFile(pidDir);
    await assert.rejects(restore(pidDir, file), (error: Error) => error instanceof BackupError && /running/.test(error.message));
    await assert.rejects(restore(copyDir, path.join(os.tmpdir(), 'no-such-backup')), BackupError);
    await restore(copyDir, file);
    const restored = await connect({ dataDir: copyDir });
    const events = Number((await restored.db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const posts = Number((await restored.db.selectFrom('posts').select((eb) => eb.fn.countAll<number>().as('n')).where('type', '=', 'event').executeTakeFirstOrThrow()).n);
    const category = await restored.db.selectFrom('terms').select('count').where('name', '=', 'Backups').executeTakeFirst();
    assert.equal(events, posts);
    assert.equal(category?.count ?? 0, events);
    assert.ok(events >= 20 && events <= written);
    await restored.close();
    await t.close();
  });
});

describe('copy between databases', () => {
  let source: TestApp;

  /** Fills a database with every kind of record. */
  async function fill(t: TestApp): Promise<void> {
    const admin = await t.asUser('administrator', 'copyadmin');
    const auth = admin.authorization;
    const venue = await t.request({ method: 'POST', url: `${API}/venues`, auth, payload: { venue: 'Copy hall', city: 'Lyon', status: 'publish' } });
    const organizer = await t.request({ method: 'POST', url: `${API}/organizers`, auth, payload: { organizer: 'Copy org', email: 'org@example.com', status: 'publish' } });
    const event = await t.request({
      method: 'POST',
      url: `${API}/events`,
      auth,
      payload: { title: 'Copied concert', status: 'publish', start_date: '2030-03-01 20:00:00', end_date: '2030-03-01 22:00:00', timezone: 'Europe/Paris', venue: venue.data.id, organizer: [organizer.data.id], categories: ['Music'], tags: ['copy'], image: 'https://example.com/poster.jpg', cost: 12 },
    });
    await t.request({ method: 'POST', url: `/fr${API}/events`, auth, payload: { title: 'Concert copié', status: 'publish', start_date: '2030-03-01 20:00:00', end_date: '2030-03-01 22:00:00', timezone: 'Europe/Paris', translation_of: event.data.id } });
    await t.request({ method: 'POST', url: `${API}/events`, auth, payload: { title: 'Copied series', status: 'publish', start_date: '2030-04-01 18:00:00', end_date: '2030-04-01 19:00:00', recurrence: { rrule: 'FREQ=WEEKLY;COUNT=4' } } });
    await t.request({ method: 'POST', url: `${API}/events`, auth, payload: { title: 'Draft copy', status: 'draft', start_date: '2030-05-01 18:00:00', end_date: '2030-05-01 19:00:00' } });
    const gone = await t.request({ method: 'POST', url: `${API}/events`, auth, payload: { title: 'Trashed copy', status: 'publish', start_date: '2030-05-02 18:00:00', end_date: '2030-05-02 19:00:00' } });
    await t.request({ method: 'DELETE', url: `${API}/events/${gone.data.id}`, auth });
    await t.request({ method: 'PATCH', url: '/cal/admin/v1/settings', auth, payload: { timezone: 'Europe/Paris' } });
    await t.request({ method: 'POST', url: '/cal/admin/v1/webhooks', auth, payload: { url: 'https://hooks.example.com/copy', events: ['*'] } });
  }

  /** Every answer of a scripted walk, as an anonymous reader and as the administrator. */
  async function walk(t: TestApp, auth: string): Promise<Record<string, unknown>> {
    const urls = [
      `${API}/events?start_date=2000-01-01&end_date=2100-01-01`,
      `/fr${API}/events?start_date=2000-01-01&end_date=2100-01-01`,
      `${API}/venues`,
      `${API}/organizers`,
      `${API}/categories`,
      `${API}/tags`,
      `${API}/changes?per_page=1000`,
      `${API}/events?start_date=2000-01-01&end_date=2100-01-01&format=ical`,
      '/events/month/2030-03/',
    ];
    const answers: Record<string, unknown> = {};
    for (const [who, header] of [
      ['anonymous', undefined],
      ['admin', auth],
    ] as const) {
      for (const url of urls) {
        const res = await t.request({ method: 'GET', url, auth: header });
        answers[`${who} ${url}`] = url.includes('format=ical') ? res.body.replace(/^DTSTAMP.*$/gm, '') : (res.data ?? res.body);
      }
      const list = await t.request({ method: 'GET', url: `${API}/events?start_date=2000-01-01&end_date=2100-01-01&status=publish,draft,trash`, auth: header });
      for (const e of list.data?.events ?? []) answers[`${who} event ${e.id}`] = (await t.request({ method: 'GET', url: `${API}/events/${e.id}`, auth: header })).data;
      answers[`${who} users`] = (await t.request({ method: 'GET', url: '/cal/admin/v1/users', auth: header })).data;
      answers[`${who} webhooks`] = (await t.request({ method: 'GET', url: '/cal/admin/v1/webhooks', auth: header })).data;
    }
    return answers;
  }

  before(async () => {
    source = await createTestApp('sqlite');
    await fill(source);
  });
  after(() => source.close());

  it('should copy SQLite to PostgreSQL and back with every answer unchanged, ids continuing, and refuse a non-empty target', async () => {
    // The administrator's credentials work on every copy (the password hashes are copied).
    const { addApplicationPassword } = await import('../../src/modules/users/user.service.js');
    const adminId = (await source.storage.db.selectFrom('users').select('id').where('username', '=', 'copyadmin').executeTakeFirstOrThrow()).id;
    const password = await addApplicationPassword(source.storage.db, adminId, 'copy');
    const basic = `Basic ${Buffer.from(`copyadmin:${password}`).toString('base64')}`;
    const before = await walk(source, basic);

    const pg = process.env['TEST_DATABASE_URL'] ? await createScratchDatabase(process.env['TEST_DATABASE_URL'], 'cal_copy') : null;
    const middleDir = tmp('cal-copy-middle-');
    const middle = await connect(pg ? { dataDir: middleDir, databaseUrl: pg.url } : { dataDir: middleDir });
    await migrate(middle.db);
    const there = await copyDatabase(source.storage.db, middle.db, { replace: false, progress: false });
    assert.ok(there.tables.every((table) => table.same));
    assert.ok(there.tables.some((table) => table.table === 'change_log' && table.rows > 0));
    await assert.rejects(copyDatabase(source.storage.db, middle.db, { replace: false, progress: false }), (error: Error) => error instanceof CopyError && /not empty/.test(error.message));

    const backDir = tmp('cal-copy-back-');
    const back = await connect({ dataDir: backDir });
    await migrate(back.db);
    const again = await copyDatabase(middle.db, back.db, { replace: false, progress: false });
    assert.ok(again.tables.every((table) => table.same));
    await middle.close();
    await back.close();

    for (const [label, env] of [
      ['the PostgreSQL copy', pg ? { DATABASE_URL: pg.url } : { DATA_DIR: middleDir }],
      ['the copy back', { DATA_DIR: backDir }],
    ] as const) {
      const copy = await createTestAppOn(env);
      assert.deepEqual(await walk(copy.t, basic), before, label);
      const next = await copy.t.request({ method: 'POST', url: `${API}/events`, auth: basic, payload: { title: 'After the copy', start_date: '2031-01-01 10:00:00', end_date: '2031-01-01 11:00:00' } });
      assert.equal(next.statusCode, 201);
      const highest = Number((await source.storage.db.selectFrom('posts').select((eb) => eb.fn.max('id').as('m')).executeTakeFirstOrThrow()).m);
      assert.ok(next.data.id > highest, `${label}: new ids continue after the copied ones`);
      await copy.close();
    }
    await pg?.drop();
  });
});

/** An app on an existing, filled database (the copies): migrated already, so only opened. */
async function createTestAppOn(env: Record<string, string>): Promise<{ t: TestApp; close(): Promise<void> }> {
  const config = loadConfig({ DATA_DIR: tmp('cal-unused-'), LOG_LEVEL: 'silent', CAL_MAX_EVENT_LOOP_DELAY_MS: '0', ...env }, isValidTimezone);
  const storage = await connect({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  await migrate(storage.db);
  const app = await buildApp(config, { storage, logger: false });
  await app.ready();
  const t = {
    app,
    storage,
    config,
    backend: config.databaseUrl ? 'postgres' : 'sqlite',
    queries: { count: 0 },
    asUser: () => Promise.reject(new Error('not here')),
    request: injector(app),
    close: async () => undefined,
  } as unknown as TestApp;
  return {
    t,
    async close() {
      await app.close();
      await storage.close();
    },
  };
}
