import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { buildApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { connect, migrate } from '../../../src/db/connect.js';
import { isValidTimezone } from '../../../src/lib/dates.js';
import { maskedConfiguration } from '../../../src/modules/operations/operations.configuration.js';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';

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
    const match =
      /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{(?:[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*"(?:,[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\]|\\.)*")*)?\})?) (-?(?:\d+(?:\.\d+)?(?:e[+-]?\d+)?|nan|\+inf|-inf))$/i.exec(
        line,
      );
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
    const config = loadConfig(
      {
        DATA_DIR: tmp('cal-health-'),
        LOG_LEVEL: 'silent',
        CAL_MAX_EVENT_LOOP_DELAY_MS: '0',
        DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere',
      },
      isValidTimezone,
    );
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
    const event = await t.request({
      method: 'POST',
      url: `${API}/events`,
      auth: editor.authorization,
      payload: {
        title: 'Metered',
        status: 'publish',
        start_date: '2030-01-01 10:00:00',
        end_date: '2030-01-01 11:00:00',
      },
    });
    for (let i = 0; i < 3; i += 1) await t.request({ method: 'GET', url: `${API}/events/${event.data.id}` });
    await t.request({ method: 'GET', url: `${API}/events/999999` });
    const res = await t.request({ method: 'GET', url: '/metrics' });
    assert.equal(res.statusCode, 200);
    assert.match(String(res.headers['content-type']), /^text\/plain; version=0\.0\.4/);
    const samples = parsePrometheus(res.body);
    const single = [...samples.keys()].find(
      (k) =>
        k.startsWith('cal_http_requests_total{') &&
        k.includes('method="GET"') &&
        k.includes('status="2xx"') &&
        k.includes('/events/:id'),
    );
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

  it("should count SQLite's reader threads and their reads where the storage may start them, and only there", async () => {
    for (const backend of backends()) {
      const t = await createTestApp(backend, { CAL_METRICS: '1', CAL_SQLITE_READERS: '2' });
      await t.request({ method: 'GET', url: `${API}/events` });
      const samples = parsePrometheus((await t.request({ method: 'GET', url: '/metrics' })).body);
      if (backend === 'sqlite') {
        // No thread yet: none starts until a read was slow (test/db/sqlite-readers.test.ts).
        assert.equal(samples.get('cal_sqlite_reader_threads'), 0);
        assert.equal(samples.get('cal_sqlite_reads_total{outcome="refused"}'), 0);
      } else {
        // PostgreSQL has its pool of connections: CAL_SQLITE_READERS is not its setting.
        assert.equal(t.storage.readers, undefined);
        assert.ok(![...samples.keys()].some((k) => k.startsWith('cal_sqlite_')), backend);
      }
      await t.close();
    }
    const none = await createTestApp('sqlite', { CAL_METRICS: '1', CAL_SQLITE_READERS: '0' });
    const samples = parsePrometheus((await none.request({ method: 'GET', url: '/metrics' })).body);
    assert.ok(![...samples.keys()].some((k) => k.startsWith('cal_sqlite_')), 'none with CAL_SQLITE_READERS=0');
    await none.close();
  });

  it('should serve metrics on their own port when CAL_METRICS_PORT is set', async () => {
    const t = await createTestApp('sqlite', { CAL_METRICS: '1', CAL_METRICS_PORT: '0' });
    await t.close();
    const port = 19_000 + Math.floor(Math.random() * 1000);
    const config = loadConfig(
      {
        DATA_DIR: tmp('cal-metrics-'),
        LOG_LEVEL: 'silent',
        CAL_MAX_EVENT_LOOP_DELAY_MS: '0',
        CAL_METRICS: '1',
        CAL_METRICS_PORT: String(port),
      },
      isValidTimezone,
    );
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
    const config = loadConfig(
      { DATA_DIR: tmp('cal-log-'), LOG_LEVEL: 'info', CAL_MAX_EVENT_LOOP_DELAY_MS: '0' },
      isValidTimezone,
    );
    const storage = await connect({ dataDir: config.dataDir });
    await migrate(storage.db);
    const app = await buildApp(config, { storage, logger: { level: 'info', stream } });
    await app.ready();
    const { createUser } = await import('../../../src/modules/users/user.service.js');
    const { user, application_password } = await createUser(storage.db, { username: 'logged', role: 'editor' });
    const authorization = `Basic ${Buffer.from(`logged:${application_password}`).toString('base64')}`;
    await app.inject({
      method: 'POST',
      url: `${API}/events`,
      headers: { authorization },
      payload: {
        title: 'Logged',
        start_date: '2030-01-01 10:00:00',
        end_date: '2030-01-01 11:00:00',
        password: 'event-secret',
      },
    });
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
    const config = loadConfig(
      {
        DATA_DIR: '/tmp/x',
        CAL_ADMIN_PASSWORD: 'very-secret',
        DATABASE_URL: 'postgres://cal:dbsecret@db.example:5432/cal',
      },
      isValidTimezone,
    );
    const shown = JSON.stringify(maskedConfiguration(config));
    assert.ok(!shown.includes('very-secret') && !shown.includes('dbsecret'));
    assert.match(shown, /postgres:\/\/cal:\*\*\*@db\.example:5432\/cal/);
  });
});
