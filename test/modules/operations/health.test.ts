import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import { buildApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { connect, migrate } from '../../../src/db/connect.js';
import { isValidTimezone } from '../../../src/lib/dates.js';
import { shutdown } from '../../../src/modules/operations/operations.shutdown.js';
import { backends } from '../../helpers/app.js';
import { createScratchDatabase } from '../../helpers/scratch-postgres.js';
import { tmpDir } from '../../helpers/ops.js';

/** A kept-alive connection: requests written on it as they come, its raw bytes once the server closes it. */
async function connection(port: number): Promise<{ send(path: string): void; closed: Promise<string> }> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let raw = '';
  socket.on('data', (chunk) => (raw += chunk.toString()));
  return {
    send: (path) => socket.write(`GET ${path} HTTP/1.1\r\nHost: test\r\n\r\n`),
    closed: new Promise((resolve) => socket.on('close', () => resolve(raw))),
  };
}

/** The responses in the raw bytes of a connection: status, headers, body (bodies have a Content-Length). */
function responsesIn(raw: string): { status: number; headers: Record<string, string>; body: string }[] {
  const out = [];
  let rest = raw;
  while (rest.startsWith('HTTP/1.1 ')) {
    const end = rest.indexOf('\r\n\r\n');
    const [statusLine, ...headerLines] = rest.slice(0, end).split('\r\n');
    const headers = Object.fromEntries(
      headerLines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
    );
    const length = Number(headers['content-length']);
    out.push({ status: Number(statusLine!.split(' ')[1]), headers, body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
  return out;
}

for (const backend of backends()) {
  describe(`shutting down [${backend}]`, () => {
    it('should turn not ready, answer what still arrives with 503 in the contract body, finish the requests in flight, then close', async () => {
      const pg =
        backend === 'postgres' ? await createScratchDatabase(process.env['TEST_DATABASE_URL']!, 'cal_drain') : null;
      const config = loadConfig(
        {
          DATA_DIR: tmpDir('cal-drain-'),
          LOG_LEVEL: 'silent',
          CAL_MAX_EVENT_LOOP_DELAY_MS: '0',
          ...(pg ? { DATABASE_URL: pg.url } : {}),
        },
        isValidTimezone,
      );
      const storage = await connect({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
      await migrate(storage.db);
      const app = await buildApp(config, { storage, logger: false });
      // A request that is still being answered when SIGTERM comes.
      let entered = 0;
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      app.get('/test/slow', { config: { access: 'public' } }, async () => {
        entered += 1;
        await gate;
        return { slow: 'done' };
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;
      assert.equal((await fetch(`http://127.0.0.1:${port}/health/ready`)).status, 200);

      // Two connections, each busy with a slow request when shutdown starts; what they send next
      // arrives while the instance drains.
      const probe = await connection(port);
      const work = await connection(port);
      probe.send('/test/slow');
      work.send('/test/slow');
      while (entered < 2) await new Promise((resolve) => setTimeout(resolve, 5));
      const stopped = shutdown(app, storage);
      // No new connection is taken.
      let refused = false;
      for (let i = 0; i < 100 && !refused; i += 1) {
        refused = await fetch(`http://127.0.0.1:${port}/health/live`).then(
          () => false,
          () => true,
        );
      }
      assert.ok(refused, 'new connections are refused');
      probe.send('/health/ready');
      work.send('/cal/events/v1/events');
      release();

      const [slow, ready] = responsesIn(await probe.closed);
      assert.equal(slow!.status, 200, 'the request in flight is finished');
      assert.deepEqual(JSON.parse(slow!.body), { slow: 'done' });
      assert.equal(ready!.status, 503);
      assert.equal(ready!.headers['connection'], 'close');
      const body = JSON.parse(ready!.body);
      assert.equal(body.code, 'rest_service_unavailable');
      assert.equal(body.data.status, 503);
      assert.equal(body.data.checks.draining, 'yes');

      const [, refusedWork] = responsesIn(await work.closed);
      assert.equal(refusedWork!.status, 503);
      assert.equal(refusedWork!.headers['connection'], 'close');
      assert.equal(refusedWork!.headers['retry-after'], '2');
      assert.deepEqual(Object.keys(JSON.parse(refusedWork!.body)), ['code', 'message', 'data']);

      await stopped;
      await pg?.drop();
    });
  });
}

/** A PostgreSQL that is not there: a closed port, or a server that takes connections and never answers. */
async function deadDatabase(kind: 'closed' | 'silent'): Promise<{ url: string; close(): void }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => sockets.add(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `postgres://cal:not-shown@127.0.0.1:${port}/calendar`;
  if (kind === 'closed') {
    await new Promise((resolve) => server.close(resolve));
    return { url, close: () => undefined };
  }
  return {
    url,
    close() {
      for (const socket of sockets) socket.destroy();
      server.close();
    },
  };
}

describe('readiness with the database unreachable', () => {
  for (const [kind, expected] of [
    ['closed', 'error'],
    ['silent', 'no answer within 1000 ms'],
  ] as const) {
    it(`should answer 503 within about a second when PostgreSQL is ${kind === 'closed' ? 'on a closed port' : 'silent'}, stay live, and keep serving metrics`, async () => {
      const database = await deadDatabase(kind);
      const lines: string[] = [];
      const stream = new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(chunk.toString());
          done();
        },
      });
      const config = loadConfig(
        {
          DATA_DIR: tmpDir('cal-dead-'),
          LOG_LEVEL: 'info',
          CAL_MAX_EVENT_LOOP_DELAY_MS: '0',
          CAL_METRICS: '1',
          DATABASE_URL: database.url,
        },
        isValidTimezone,
      );
      const storage = await connect({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
      const app = await buildApp(config, { storage, logger: { level: 'info', stream } });
      await app.ready();
      try {
        const started = performance.now();
        const ready = await app.inject({ method: 'GET', url: '/health/ready' });
        const elapsed = performance.now() - started;
        assert.equal(ready.statusCode, 503);
        assert.ok(elapsed < 2500, `answered in ${Math.round(elapsed)} ms`);
        assert.equal(ready.headers['retry-after'], '5');
        const body = JSON.parse(ready.body);
        assert.equal(body.code, 'rest_service_unavailable');
        assert.deepEqual(body.data.checks, { draining: 'no', database: expected, migrations: 'unknown' });
        assert.ok(
          !ready.body.includes(String(new URL(database.url).port)),
          'the database address is not shown to the caller',
        );
        assert.equal((await app.inject({ method: 'GET', url: '/health/live' })).statusCode, 200);

        const metrics = await app.inject({ method: 'GET', url: '/metrics' });
        assert.equal(metrics.statusCode, 200, 'metrics need no database');
        assert.match(metrics.body, /^cal_http_requests_total\{route="\/health\/ready",method="GET",status="5xx"\} 1$/m);

        const logged = lines.map((l) => JSON.parse(l));
        assert.ok(
          logged.some((l) => l.level === 40 && /^not ready: database/.test(l.msg)),
          'a failed probe is a warning',
        );
        assert.ok(!logged.some((l) => /under pressure/.test(l.msg)), 'not mistaken for the overload guard');
        assert.ok(!lines.join('').includes('not-shown'), 'no password in the log');
      } finally {
        database.close();
        await app.close();
        await storage.close();
      }
    });
  }
});
