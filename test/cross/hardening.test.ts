import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { backends, createTestApp, type TestApp } from '../helpers/app.js';
import { RouteTable } from '../../src/http/route-table.js';

const EVENTS = '/cal/events/v1/events';
/** Values that are not numbers a client means: each must be a 400, never a 500. */
const NOT_NUMBERS = ['1e999', '-1e999', 'Infinity', 'NaN', '123456789012345678901234567890'];

interface SchemaNode {
  type?: unknown;
  properties?: Record<string, SchemaNode>;
  anyOf?: SchemaNode[];
  items?: SchemaNode;
}

/** Whether a parameter's schema accepts only numbers (possibly in a list): a string branch would take any text. */
function onlyNumeric(schema: SchemaNode): boolean {
  const branches = schema.anyOf ?? [schema];
  const types = branches.flatMap((b) =>
    b.type === 'array' && b.items ? (b.items.anyOf ?? [b.items]).map((i) => i.type) : [b.type],
  );
  return types.length > 0 && types.every((t) => t === 'integer' || t === 'number' || t === 'null');
}

/**
 * Sends each chunk of raw bytes to a listening server, the next one once an answer to the previous
 * arrived, and reads everything until the server closes the connection.
 */
function rawExchange(port: number, ...chunks: string[]): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let text = '';
    let next = 0;
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closed: false });
    }, 3000);
    socket.on('data', (chunk) => {
      text += chunk.toString('utf8');
      if (next < chunks.length) socket.write(chunks[next++]!);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
    socket.on('error', reject);
    socket.write(chunks[next++]!);
  });
}

function parseRaw(text: string): { status: number; headers: Record<string, string>; body: any } {
  const [head, ...rest] = text.split('\r\n\r\n');
  const [statusLine, ...lines] = head!.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
  );
  return { status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(rest.join('\r\n\r\n')) };
}

for (const backend of backends()) {
  describe(`hardening [${backend}]`, () => {
    let t: TestApp;
    let admin: { id: number; authorization: string };
    before(async () => {
      t = await createTestApp(backend);
      admin = await t.asUser('administrator');
    });
    after(() => t.close());

    it('should answer 400 for every numeric query parameter of every GET route given a value that is not a number', async () => {
      const routes = t.app.services.routes.entries;
      let checked = 0;
      for (const entry of routes) {
        for (const endpoint of entry.endpoints.filter((e) => e.methods.includes('GET'))) {
          const query = RouteTable.part(endpoint, 'querystring') as SchemaNode | undefined;
          const url = entry.url
            .replace(/:id(\([^)]*\))?/, '1')
            .replace(':slug', 'some-slug')
            .replace(':passwordId', '1');
          for (const [name, schema] of Object.entries(query?.properties ?? {})) {
            if (!onlyNumeric(schema)) continue;
            for (const value of NOT_NUMBERS) {
              const res = await t.request({
                method: 'GET',
                url: `${url}?${name}=${encodeURIComponent(value)}`,
                auth: admin.authorization,
              });
              assert.equal(res.statusCode, 400, `${url}?${name}=${value}: ${res.body}`);
              assert.equal(res.data.code, 'rest_invalid_param');
              assert.ok(name in res.data.data.params, `${name} is named`);
              checked += 1;
            }
          }
        }
      }
      assert.ok(checked > 50, `checked ${checked} combinations`);
    });

    it('should answer 400 for numbers that are not numbers in JSON bodies (1e999 parses as Infinity)', async () => {
      for (const [url, body] of [
        [EVENTS, '{"title":"x","start_date":"2030-01-01 10:00:00","end_date":"2030-01-01 11:00:00","author":1e999}'],
        [EVENTS, '{"title":"x","start_date":1e999,"end_date":"2030-01-01 11:00:00"}'],
        [EVENTS, '{"title":"x","start_date":"2030-01-01 10:00:00","end_date":"2030-01-01 11:00:00","venue":1e999}'],
        ['/cal/events/v1/categories', '{"name":"x","parent":1e999}'],
        ['/cal/admin/v1/settings', '{"geoloc_radius":1e999}'],
      ] as const) {
        const res = await t.request({
          method: url.includes('settings') ? 'PATCH' : 'POST',
          url,
          auth: admin.authorization,
          headers: { 'content-type': 'application/json' },
          payload: body,
        });
        assert.equal(res.statusCode, 400, `${url} ${body}: ${res.body}`);
        assert.equal(res.data.data.status, 400);
      }
    });

    it('should read -0 and 1e-999 as the numbers they are (0), refused where 0 is not allowed', async () => {
      for (const value of ['-0', '1e-999']) {
        const res = await t.request({ method: 'GET', url: `${EVENTS}?page=${value}` });
        assert.equal(res.statusCode, 400, value);
        assert.ok('page' in res.data.data.params);
      }
      assert.equal((await t.request({ method: 'GET', url: '/cal/events/v1/categories?parent=-0' })).statusCode, 200);
    });

    it('should treat an empty body as no body whatever its content type', async () => {
      const created = await t.request({
        method: 'POST',
        url: EVENTS,
        auth: admin.authorization,
        payload: { title: 'Empty bodies', start_date: '2030-02-01 10:00:00', end_date: '2030-02-01 11:00:00' },
      });
      assert.equal(created.statusCode, 201);
      for (const type of [
        'application/json',
        'application/json; charset=utf-8',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
      ]) {
        const read = await t.request({
          method: 'GET',
          url: `${EVENTS}/${created.data.id}`,
          headers: { 'content-type': type },
        });
        assert.equal(read.statusCode, 200, `GET with ${type}`);
        const update = await t.request({
          method: 'POST',
          url: `${EVENTS}/${created.data.id}?title=Still%20fine`,
          auth: admin.authorization,
          headers: { 'content-type': type },
          payload: '',
        });
        assert.equal(update.statusCode, 200, `POST with ${type}: ${update.body}`);
      }
      const blank = await t.request({
        method: 'POST',
        url: `${EVENTS}/${created.data.id}`,
        auth: admin.authorization,
        headers: { 'content-type': 'application/json' },
        payload: ' \r\n ',
      });
      assert.equal(blank.statusCode, 200, 'a blank JSON body is no body');
      const trashed = await t.request({
        method: 'DELETE',
        url: `${EVENTS}/${created.data.id}`,
        auth: admin.authorization,
        headers: { 'content-type': 'application/json' },
      });
      assert.equal(trashed.statusCode, 200, trashed.body);
      assert.equal(trashed.data.status, 'trash');
      const broken = await t.request({
        method: 'POST',
        url: EVENTS,
        auth: admin.authorization,
        headers: { 'content-type': 'application/json' },
        payload: '{"title":',
      });
      assert.equal(broken.statusCode, 400);
      assert.equal(broken.data.code, 'rest_invalid_json');
    });

    it('should answer an undecodable path 404 rest_no_route and an over-long path segment 414 in the contract body', async () => {
      const bad = await t.request({ method: 'GET', url: `${EVENTS}/%E0%A4%A` });
      assert.equal(bad.statusCode, 404);
      assert.deepEqual(bad.data, { code: 'rest_no_route', message: bad.data.message, data: { status: 404 } });
      const long = await t.request({ method: 'GET', url: `${EVENTS}/by-slug/${'a'.repeat(2401)}` });
      assert.equal(long.statusCode, 414);
      assert.deepEqual(long.data, { code: 'rest_uri_too_long', message: long.data.message, data: { status: 414 } });
    });

    it('should answer other methods and media types in the contract body', async () => {
      const propfind = await t.request({ method: 'PROPFIND' as 'GET', url: EVENTS });
      assert.ok([404, 405].includes(propfind.statusCode), propfind.body);
      assert.equal(typeof propfind.data.code, 'string');
      const text = await t.request({
        method: 'POST',
        url: EVENTS,
        auth: admin.authorization,
        headers: { 'content-type': 'text/plain' },
        payload: 'hello',
      });
      assert.equal(text.statusCode, 400, 'a text body is not the object the route takes');
      assert.equal(text.data.data.status, 400);
      const xml = await t.request({
        method: 'POST',
        url: EVENTS,
        auth: admin.authorization,
        headers: { 'content-type': 'application/xml' },
        payload: '<a/>',
      });
      assert.equal(xml.statusCode, 415);
      assert.deepEqual(xml.data, {
        code: 'rest_unsupported_media_type',
        message: xml.data.message,
        data: { status: 415 },
      });
    });

    describe('errors of the HTTP parser, on a real socket', () => {
      let port: number;
      before(async () => {
        await t.app.listen({ port: 0, host: '127.0.0.1' });
        port = (t.app.server.address() as net.AddressInfo).port;
      });

      it('should answer headers over 16 KB with 431 rest_headers_too_large and close the connection', async () => {
        const { text, closed } = await rawExchange(
          port,
          `GET ${EVENTS} HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
        );
        const res = parseRaw(text);
        assert.equal(res.status, 431);
        assert.deepEqual(res.body, {
          code: 'rest_headers_too_large',
          message: res.body.message,
          data: { status: 431 },
        });
        assert.equal(res.headers['connection'], 'close');
        assert.ok(closed, 'the server closes the connection');
      });

      it('should answer a malformed request line with 400 in the contract body, after a good keep-alive request', async () => {
        const { text, closed } = await rawExchange(
          port,
          `GET ${EVENTS} HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n`,
          'NOT A REQUEST\r\n\r\n',
        );
        const second = text.slice(text.indexOf('HTTP/1.1', 10));
        assert.match(text, /^HTTP\/1\.1 200 /);
        const res = parseRaw(second);
        assert.equal(res.status, 400);
        assert.deepEqual(res.body, { code: 'rest_invalid_request', message: res.body.message, data: { status: 400 } });
        assert.ok(closed, 'the server closes the connection');
      });
    });
  });
}
