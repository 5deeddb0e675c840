import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { CACHE_BUDGET } from '../../src/lib/cache-budget.js';
import { encodeBody, windowBits } from '../../src/http/encodings.js';
import { backends, createTestApp, type TestApp } from '../helpers/app.js';

const NS = '/cal/events/v1';
const REVALIDATE = 'public, max-age=0, must-revalidate';

const varyOf = (headers: Record<string, unknown>): string[] =>
  String(headers['vary'] ?? '')
    .split(',')
    .map((v) => v.trim().toLowerCase())
    .filter(Boolean);

for (const backend of backends()) {
  describe(`compression and caching headers [${backend}]`, () => {
    let t: TestApp;
    let admin: string;

    before(async () => {
      t = await createTestApp(backend);
      admin = (await t.asUser('administrator')).authorization;
      for (let i = 1; i <= 10; i += 1) {
        const res = await t.request({
          method: 'POST',
          url: `${NS}/events`,
          auth: admin,
          payload: {
            title: `Concert number ${i}`,
            description: `<p>An evening of jazz, number ${i}, with the town's big band and guests.</p>`,
            start_date: `2027-03-${String(10 + i).padStart(2, '0')} 19:00:00`,
            end_date: `2027-03-${String(10 + i).padStart(2, '0')} 21:00:00`,
            venue: { venue: `Hall ${i}`, city: 'Springfield' },
          },
        });
        assert.equal(res.statusCode, 201, res.body);
      }
    });

    after(() => t.close());

    /** The same address asked for as identity, gzip and brotli: each decoded to the same bytes. */
    async function threeWays(url: string) {
      const plain = await t.app.inject({ method: 'GET', url });
      assert.equal(plain.statusCode, 200, `${url}: ${plain.body.slice(0, 200)}`);
      assert.equal(plain.headers['content-encoding'], undefined, `${url}: nothing asked, nothing encoded`);
      const gzip = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
      assert.equal(gzip.headers['content-encoding'], 'gzip', url);
      assert.equal(gunzipSync(gzip.rawPayload).toString(), plain.body, url);
      const br = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
      assert.equal(br.headers['content-encoding'], 'br', `${url}: brotli preferred`);
      assert.equal(brotliDecompressSync(br.rawPayload).toString(), plain.body, url);
      assert.ok(
        br.rawPayload.length < plain.rawPayload.length / 2,
        `${url}: ${br.rawPayload.length} of ${plain.rawPayload.length}`,
      );
      assert.ok(gzip.rawPayload.length < plain.rawPayload.length / 2, url);
      for (const res of [gzip, br]) {
        const vary = varyOf(res.headers);
        assert.ok(vary.includes('accept-encoding'), `${url}: Vary ${vary}`);
        assert.ok(vary.includes('authorization'), `${url}: Vary keeps Authorization`);
      }
      return { plain, gzip, br };
    }

    it('compresses the API, the pages, the stylesheet and the feeds with brotli or gzip, as asked', async () => {
      await threeWays(`${NS}/events?per_page=10`);
      await threeWays('/events/month/2027-03/');
      await threeWays('/events/list/');
      const { plain } = await threeWays(`${NS}/events?format=ical&start_date=2027-03-01`);
      assert.match(String(plain.headers['content-type']), /^text\/calendar/);
      const page = await t.app.inject({ method: 'GET', url: '/events/' });
      const stylesheet = /<link rel="stylesheet" href="([^"]+)"/.exec(page.body)![1]!;
      await threeWays(stylesheet);
    });

    it('follows the weights of Accept-Encoding, from the cache as afresh', async () => {
      const url = '/events/month/2027-03/';
      const cases: [string, string | undefined][] = [
        ['gzip;q=1, br;q=0.5', 'gzip'],
        ['br;q=0, gzip', 'gzip'],
        ['*', 'br'],
        ['br;q=0, gzip;q=0', undefined],
        ['identity', undefined],
        ['deflate', undefined],
      ];
      for (const [header, expected] of cases) {
        const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': header } });
        assert.equal(res.headers['content-encoding'], expected, header);
      }
    });

    it('keeps Vary’s other names beside Accept-Encoding', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: '/events/list/',
        headers: { 'accept-encoding': 'gzip', cookie: 'theme=dark' },
      });
      assert.equal(res.headers['content-encoding'], 'gzip');
      assert.deepEqual(varyOf(res.headers).sort(), ['accept-encoding', 'authorization', 'cookie']);
    });

    it('leaves small answers as they are', async () => {
      const res = await t.app.inject({
        method: 'GET',
        url: `${NS}/events/999999`,
        headers: { 'accept-encoding': 'br, gzip' },
      });
      assert.equal(res.statusCode, 404);
      assert.ok(res.rawPayload.length < 1024);
      assert.equal(res.headers['content-encoding'], undefined);
    });

    it('answers 304 to a compressed answer’s entity tag, for the API, pages and feeds', async () => {
      for (const url of [`${NS}/events?per_page=10`, '/events/month/2027-03/', `${NS}/events?format=ical`]) {
        const first = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'br' } });
        assert.equal(first.headers['content-encoding'], 'br', url);
        const etag = String(first.headers['etag']);
        assert.match(etag, /^"/, `${url}: a tag`);
        for (const tag of [etag, `W/${etag}`]) {
          const again = await t.app.inject({
            method: 'GET',
            url,
            headers: { 'accept-encoding': 'br', 'if-none-match': tag },
          });
          assert.equal(again.statusCode, 304, `${url} with ${tag}`);
          assert.equal(again.rawPayload.length, 0);
          assert.equal(again.headers['content-encoding'], undefined);
        }
        const plain = await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': etag } });
        assert.equal(plain.statusCode, 304, `${url}: the tag is the representation's, whatever its coding`);
      }
    });

    it('lets a write use the tag of a compressed read as If-Match', async () => {
      const list = await t.request({ method: 'GET', url: `${NS}/events?per_page=1`, auth: admin });
      const id = list.data.events[0].id;
      const read = await t.app.inject({
        method: 'GET',
        url: `${NS}/events/${id}`,
        headers: { authorization: admin, 'accept-encoding': 'gzip' },
      });
      const write = await t.request({
        method: 'POST',
        url: `${NS}/events/${id}`,
        auth: admin,
        headers: { 'if-match': String(read.headers['etag']) },
        payload: { title: 'Concert renamed' },
      });
      assert.equal(write.statusCode, 200, write.body);
    });

    it('says how pages and feeds may be kept: revalidated each time; problems and private answers not kept', async () => {
      for (const url of ['/events/', '/events/list/', `${NS}/events?format=ical`, `${NS}/events?format=jsonld`]) {
        const res = await t.app.inject({ method: 'GET', url });
        assert.equal(res.headers['cache-control'], REVALIDATE, url);
        const revalidated = await t.app.inject({
          method: 'GET',
          url,
          headers: { 'if-none-match': String(res.headers['etag']) },
        });
        assert.equal(revalidated.statusCode, 304, url);
        assert.equal(revalidated.headers['cache-control'], REVALIDATE, `${url}: the 304 says it too`);
      }
      const missing = await t.app.inject({ method: 'GET', url: '/event/no-such-event/' });
      assert.equal(missing.statusCode, 404);
      assert.equal(missing.headers['cache-control'], 'no-store');
      const own = await t.app.inject({
        method: 'GET',
        url: `${NS}/events?format=ical`,
        headers: { authorization: admin },
      });
      assert.equal(own.headers['cache-control'], 'private, no-store');
    });

    it('keeps the coded forms of cached answers and pages beside their bytes, counted in their budgets', async () => {
      const cache = t.app.services.pageCache;
      for (const [url, part] of [
        [`${NS}/events?per_page=10&budget=1`, 'answers'],
        ['/events/month/2027-03/?budget=1', 'pages'],
      ] as const) {
        const plain = await t.app.inject({ method: 'GET', url });
        const before = cache.bytes[part];
        assert.ok(before >= plain.rawPayload.length, `${url}: ${before} bytes counted`);
        const coded = async (coding: string) => {
          const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': coding } });
          assert.equal(res.headers['content-encoding'], coding, url);
          return res.rawPayload.length;
        };
        const gzip = await coded('gzip');
        assert.equal(cache.bytes[part] - before, gzip, `${url}: gzip kept and counted`);
        const br = await coded('br');
        assert.equal(cache.bytes[part] - before, gzip + br, `${url}: br kept and counted too`);
        const again = await t.app.inject({ method: 'GET', url });
        assert.equal(again.body, plain.body, `${url}: the bytes for a client that accepts no coding`);
        assert.equal(again.headers['etag'], plain.headers['etag'], url);
        assert.ok(cache.bytes[part] <= CACHE_BUDGET[part], `${url}: within the budget`);
      }
    });

    it('does not decompress request bodies', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: `${NS}/events`,
        headers: { authorization: admin, 'content-type': 'application/json', 'content-encoding': 'gzip' },
        payload: Buffer.from('{"title":"x"}'),
      });
      assert.ok(res.statusCode >= 400, `${res.statusCode}: a gzip body is not read as JSON`);
    });
  });
}

describe('compression of the admin application’s files', () => {
  let t: TestApp;
  const script = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word ${i}`))};\n`;

  before(async () => {
    // A stand-in for the built admin: its page and two hashed files, a script and a picture.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-admin-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>Admin</title>');
    fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), script);
    fs.writeFileSync(path.join(dir, 'assets', 'logo-abc123.png'), Buffer.alloc(4096, 7));
    t = await createTestApp('sqlite', {}, { adminDir: dir });
  });

  after(() => t.close());

  it('compresses the scripts, never the pictures, and keeps their 304', async () => {
    const js = await t.app.inject({ url: '/admin/assets/index-abc123.js', headers: { 'accept-encoding': 'br' } });
    assert.equal(js.statusCode, 200);
    assert.equal(js.headers['content-encoding'], 'br');
    assert.equal(brotliDecompressSync(js.rawPayload).toString(), script);
    assert.match(String(js.headers['cache-control']), /immutable/);
    const again = await t.app.inject({
      url: '/admin/assets/index-abc123.js',
      headers: { 'accept-encoding': 'br', 'if-none-match': String(js.headers['etag']) },
    });
    assert.equal(again.statusCode, 304);
    const png = await t.app.inject({
      url: '/admin/assets/logo-abc123.png',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    assert.equal(png.statusCode, 200);
    assert.equal(png.headers['content-encoding'], undefined, 'a picture is compressed already');
    assert.equal(png.rawPayload.length, 4096);
  });
});

describe('stored codings', () => {
  it('sizes the brotli window to the body, and every size decodes to its bytes', () => {
    assert.deepEqual([0, 1000, 1008, 1009, 300_000, 50_000_000].map(windowBits), [10, 10, 10, 11, 19, 22]);
    for (const size of [1024, 1009, 65_520, 65_536, 70_000, 300_000]) {
      // Text that repeats at a distance near the body's size: a window too small would still decode, only larger.
      const body = Buffer.from(Array.from({ length: size }, (_, i) => 'abcdefghij'[(i * 7 + (i >> 12)) % 10]).join(''));
      assert.ok(brotliDecompressSync(encodeBody(body, 'br')).equals(body), `${size} bytes`);
      assert.ok(gunzipSync(encodeBody(body, 'gzip')).equals(body), `${size} bytes, gzip`);
    }
  });
});
