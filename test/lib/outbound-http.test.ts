import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { backends, createTestApp, type TestApp } from '../helpers/app.js';
import { runImport } from '../../src/modules/import/import.service.js';
import { SourceError } from '../../src/modules/import/import.source-http.js';
import { send } from '../../src/modules/webhooks/webhook.send.js';

/**
 * Issue 25, findings 4 and 7 (webhooks): what the importer and the webhook sender may reach, how
 * much they read, and what they store and show of a source. Every server here is a real one on
 * 127.0.0.1, which is a private address: the "strict" service has the defaults, the "lenient" one
 * allows private addresses (so its limits can be shown on a local source).
 */

const ADMIN = '/cal/admin/v1';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PAGE_CAP = 1024 * 1024;
const ICS_CAP = 64 * 1024;
const ICS = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//outbound test//EN',
  'BEGIN:VEVENT',
  'UID:outbound-1@example.org',
  'DTSTAMP:20270101T000000Z',
  'DTSTART:20270301T100000Z',
  'DTEND:20270301T110000Z',
  'SUMMARY:Outbound test',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

interface Source {
  base: string;
  port: number;
  /** Every request received: path with query, and the Authorization header. */
  requests: { url: string; authorization: string | undefined }[];
  /** Bytes the streaming answer had sent when the client went away. */
  streamed: number;
  close(): Promise<void>;
}

/** A source with a small calendar site at /cal/ and the misbehaviours each test needs. */
async function source(): Promise<Source> {
  const state: Source = { base: '', port: 0, requests: [], streamed: 0, close: async () => undefined };
  const json = (res: http.ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  const server = http.createServer((req, res) => {
    state.requests.push({ url: req.url!, authorization: req.headers.authorization });
    const url = new URL(req.url!, 'http://x');
    if (url.pathname === '/cal/')
      return json(res, 200, { namespaces: ['cal/events/v1'], language: 'en', languages: ['en'] });
    const list = /^\/cal\/cal\/events\/v1\/(\w+)$/.exec(url.pathname);
    if (list) return json(res, 200, { [list[1]!]: [], total: 0, total_pages: 1 });
    if (url.pathname === '/feed.ics') return res.writeHead(200, { 'content-type': 'text/calendar' }).end(ICS);
    if (url.pathname === '/big.ics')
      return res.writeHead(200, { 'content-type': 'text/calendar' }).end(`${ICS}X-PAD:${'a'.repeat(4 * ICS_CAP)}\r\n`);
    if (url.pathname === '/to-metadata/')
      return res
        .writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/' })
        .end();
    // The attack of the issue: an index of 30 MB of namespaces, streamed for as long as it is read.
    if (url.pathname === '/huge/') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"namespaces":[');
      const chunk = Buffer.from(`${'"ns-0000000000000/v1",'.repeat(47_662)}`);
      state.streamed = 0;
      const more = () => {
        while (state.streamed < 30 * 1024 * 1024 && !res.destroyed) {
          state.streamed += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end('"last/v1"]}');
      };
      return more();
    }
    if (url.pathname === '/many/')
      return json(res, 200, { namespaces: Array.from({ length: 5000 }, (_, i) => `namespace-${i}/v1`) });
    if (url.pathname === '/loud/')
      return json(res, 418, { code: 'x'.repeat(100_000), message: `<script>${'y'.repeat(100_000)}` });
    json(res, 404, { code: 'rest_no_route', message: 'No route.', data: { status: 404 } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as AddressInfo).port;
  state.base = `http://127.0.0.1:${state.port}`;
  state.close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return state;
}

/** `cal-events import …` as an operator runs it, on the database of `t`. */
function cli(t: TestApp, env: Record<string, string>, ...args: string[]): Promise<{ code: number; stderr: string }> {
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    LOG_LEVEL: 'silent',
    ...(t.config.databaseUrl ? { DATABASE_URL: t.config.databaseUrl } : { DATA_DIR: t.config.dataDir }),
    ...env,
  };
  if (!t.config.databaseUrl) delete childEnv['DATABASE_URL'];
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli.ts', 'import', ...args],
      { cwd: ROOT, env: childEnv },
      (error, _stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stderr }),
    );
  });
}

for (const backend of backends()) {
  describe(`outbound requests [${backend}]`, () => {
    let strict: TestApp;
    let lenient: TestApp;
    let strictAdmin: { id: number; authorization: string };
    let lenientAdmin: { id: number; authorization: string };
    let src: Source;

    before(async () => {
      strict = await createTestApp(backend);
      lenient = await createTestApp(backend, {
        CAL_IMPORT_ALLOW_PRIVATE: '1',
        CAL_WEBHOOKS_ALLOW_PRIVATE: '1',
        CAL_IMPORT_MAX_PAGE_BYTES: String(PAGE_CAP),
        CAL_IMPORT_MAX_ICS_BYTES: String(ICS_CAP),
      });
      strictAdmin = await strict.asUser('administrator', 'strictadmin');
      lenientAdmin = await lenient.asUser('administrator', 'lenientadmin');
      src = await source();
    });
    after(async () => {
      await strict.close();
      await lenient.close();
      await src.close();
    });

    /** Starts an import through the route and waits for its end; the finished job. */
    async function imported(payload: Record<string, unknown>): Promise<any> {
      const started = await lenient.request({
        method: 'POST',
        url: `${ADMIN}/imports`,
        payload,
        auth: lenientAdmin.authorization,
      });
      assert.equal(started.statusCode, 202, started.body);
      let job = started.data;
      for (let i = 0; i < 300 && job.status === 'running'; i += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        job = (
          await lenient.request({ method: 'GET', url: `${ADMIN}/imports/${job.id}`, auth: lenientAdmin.authorization })
        ).data;
      }
      assert.notEqual(job.status, 'running', 'the import ended');
      return job;
    }

    it('refuses to import from loopback, private and metadata addresses: 400 at the route, an error in the importer and the CLI', async () => {
      const before = src.requests.length;
      const refused = async (app: TestApp, auth: string, payload: Record<string, string>, pattern: RegExp) => {
        const res = await app.request({ method: 'POST', url: `${ADMIN}/imports`, payload, auth });
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.data.code, 'rest_invalid_param');
        assert.equal(res.data.data.status, 400);
        const [name] = Object.keys(payload);
        assert.match(res.data.data.params[name!], pattern);
      };
      await refused(
        strict,
        strictAdmin.authorization,
        { from: `${src.base}/cal/` },
        /127\.0\.0\.1 is a loopback or private address \(CAL_IMPORT_ALLOW_PRIVATE=1 allows/,
      );
      await refused(
        strict,
        strictAdmin.authorization,
        { ics: `http://[::ffff:7f00:1]:${src.port}/feed.ics` },
        /loopback or private/,
      );
      await refused(
        strict,
        strictAdmin.authorization,
        { from: `http://LOCALHOST.:${src.port}/cal/` },
        /localhost names a loopback or private host/,
      );
      await refused(strict, strictAdmin.authorization, { from: 'ftp://example.org/' }, /http\(s\) URL/);
      // Allowing private addresses never allows the cloud metadata service.
      await refused(lenient, lenientAdmin.authorization, { from: 'http://169.254.169.254/latest/' }, /cloud metadata/);
      await refused(lenient, lenientAdmin.authorization, { ics: 'http://[::ffff:a9fe:a9fe]/x.ics' }, /cloud metadata/);
      assert.equal(
        (await strict.request({ method: 'GET', url: `${ADMIN}/imports`, auth: strictAdmin.authorization })).data.length,
        0,
        'nothing started',
      );

      // The importer itself (what `cal-events import` runs) refuses too.
      const actor = { id: strictAdmin.id, username: 'strictadmin', role: 'administrator' as const };
      await assert.rejects(
        runImport({ app: strict.app, actor, author: null }, { from: `${src.base}/cal/` }),
        (e: Error) =>
          e instanceof SourceError &&
          /loopback or private address/.test(e.message) &&
          /CAL_IMPORT_ALLOW_PRIVATE/.test(e.message),
      );
      await assert.rejects(
        runImport({ app: strict.app, actor, author: null }, { ics: `${src.base}/feed.ics` }),
        (e: Error) => e instanceof SourceError && /loopback or private address/.test(e.message),
      );
      const run = await cli(strict, {}, '--from', `${src.base}/cal/`);
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /cal-events import: .*127\.0\.0\.1 is a loopback or private address/);
      assert.equal(src.requests.length, before, 'the source never got a request');
    });

    it('re-checks every redirect: one to the cloud metadata address is refused even with private addresses allowed', async () => {
      const job = await imported({ from: `${src.base}/to-metadata/` });
      assert.equal(job.status, 'failed');
      assert.match(job.error, /169\.254\.169\.254 is a cloud metadata or link-local address, which is never reached/);
    });

    it('aborts an answer over CAL_IMPORT_MAX_PAGE_BYTES while it streams, with a clear stored error', async () => {
      const job = await imported({ from: `${src.base}/huge/` });
      assert.equal(job.status, 'failed');
      assert.match(
        job.error,
        new RegExp(`answered more than the ${PAGE_CAP} bytes allowed: raise CAL_IMPORT_MAX_PAGE_BYTES`),
      );
      assert.ok(job.error.length < 300, job.error);
      // The download stopped near the cap instead of reading the 30 MB.
      assert.ok(src.streamed < 10 * 1024 * 1024, `${src.streamed} bytes sent`);
      const ics = await imported({ ics: `${src.base}/big.ics` });
      assert.equal(ics.status, 'failed');
      assert.match(ics.error, new RegExp(`more than the ${ICS_CAP} bytes allowed: raise CAL_IMPORT_MAX_ICS_BYTES`));
    });

    it('stores and shows only an excerpt of what a source said', async () => {
      const many = await imported({ from: `${src.base}/many/` });
      assert.match(
        many.error,
        /has no calendar API: its REST index lists namespace-0\/v1, namespace-1\/v1, .*…, neither/,
      );
      assert.ok(many.error.length < 400, `${many.error.length} characters`);
      assert.ok(!many.error.includes('namespace-4999'));
      const loud = await imported({ from: `${src.base}/loud/` });
      assert.match(loud.error, /answered 418: x+…\./);
      assert.ok(loud.error.length < 400, `${loud.error.length} characters`);
      const listed = await lenient.request({
        method: 'GET',
        url: `${ADMIN}/imports`,
        auth: lenientAdmin.authorization,
      });
      assert.ok(listed.body.length < 10_000, `GET /imports answers ${listed.body.length} bytes`);
    });

    it('stores and shows source URLs without credentials or tokens, and still sends them to the source', async () => {
      const from = `http://importer:pa55word@127.0.0.1:${src.port}/cal/?token=t0ken-value&lang=en`;
      const rest = await imported({ from });
      assert.equal(rest.status, 'done', rest.error);
      assert.equal(rest.options.from, `http://127.0.0.1:${src.port}/cal/?token=REDACTED&lang=en`);
      const index = src.requests.find((r) => r.url === '/cal/' && r.authorization !== undefined);
      assert.equal(
        index?.authorization,
        `Basic ${Buffer.from('importer:pa55word').toString('base64')}`,
        'the credentials of the URL were used',
      );

      const ics = await imported({ ics: `${src.base}/feed.ics?access_token=feed-s3cret&lang=en` });
      assert.equal(ics.status, 'done', ics.error);
      assert.ok(
        src.requests.some((r) => r.url === '/feed.ics?access_token=feed-s3cret&lang=en'),
        'the feed was fetched with its token',
      );
      assert.equal(ics.options.ics, `${src.base}/feed.ics?access_token=REDACTED&lang=en`);
      assert.equal(ics.report.source, `${src.base}/feed.ics?access_token=REDACTED&lang=en`);

      for (const url of [`${ADMIN}/imports`, `${ADMIN}/imports/${rest.id}`, `${ADMIN}/imports/${ics.id}`]) {
        const shown = await lenient.request({ method: 'GET', url, auth: lenientAdmin.authorization });
        for (const secret of ['pa55word', 't0ken-value', 'feed-s3cret', 'importer:'])
          assert.ok(!shown.body.includes(secret), `${url} shows ${secret}`);
      }
    });

    it('refuses webhook addresses with an IPv4 inside IPv6, loopback names, and the metadata address even when private ones are allowed', async () => {
      const subscribe = (app: TestApp, auth: string, url: string) =>
        app.request({ method: 'POST', url: `${ADMIN}/webhooks`, auth, payload: { url, events: ['event.created'] } });
      for (const url of [
        'https://[::127.0.0.1]/hook',
        'https://[::ffff:7f00:1]/hook',
        'https://[0:0:0:0:0:ffff:127.0.0.1]/hook',
        'https://[64:ff9b::7f00:1]/hook',
        'https://[2002:7f00:1::]/hook',
        'https://foo.localhost/hook',
        'https://LOCALHOST./hook',
      ]) {
        const res = await subscribe(strict, strictAdmin.authorization, url);
        assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
        assert.equal(res.data.code, 'rest_invalid_param');
        assert.match(res.data.data.params.url, /loopback or private/, url);
      }
      for (const url of [
        'http://169.254.169.254/latest/meta-data/',
        'http://[::ffff:169.254.169.254]/',
        'http://[fd00:ec2::254]/',
        'http://[64:ff9b::a9fe:a9fe]/',
        'http://metadata.google.internal/',
      ]) {
        const res = await subscribe(lenient, lenientAdmin.authorization, url);
        assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
        assert.match(res.data.data.params.url, /cloud metadata/, url);
      }
      const hook = await subscribe(lenient, lenientAdmin.authorization, `${src.base}/hook`);
      assert.equal(hook.statusCode, 201, hook.body);
      const moved = await lenient.request({
        method: 'PATCH',
        url: `${ADMIN}/webhooks/${hook.data.id}`,
        auth: lenientAdmin.authorization,
        payload: { url: 'http://169.254.169.254/' },
      });
      assert.equal(moved.statusCode, 400);
      // And at delivery time, should such an address be stored some other way.
      const delivery = await send('http://[::ffff:169.254.169.254]/', '{}', {}, true);
      assert.equal(delivery.ok, false);
      assert.match(delivery.error!, /cloud metadata/);
    });
  });
}
