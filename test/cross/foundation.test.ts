import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Validator } from '@seriousme/openapi-schema-validator';
import { backends, createTestApp, type TestApp } from '../helpers/app.js';

for (const backend of backends()) {
  describe(`service foundation [${backend}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(backend);
    });
    after(() => t.close());

    it('should answer the REST index at / and /fr/ with the namespaces and routes', async () => {
      const root = await t.request({ method: 'GET', url: '/' });
      assert.equal(root.statusCode, 200);
      assert.ok(root.data.namespaces.includes('cal/events/v1'));
      assert.deepEqual(root.data.routes['/cal/events/v1/events'].methods, ['GET', 'POST']);
      const fr = await t.request({ method: 'GET', url: '/fr/' });
      assert.equal(fr.statusCode, 200);
      assert.equal(fr.data.language, 'fr');
      assert.equal((await t.request({ method: 'GET', url: '/en/' })).statusCode, 200);
    });

    it('should answer the namespace index with every route, its methods and arguments', async () => {
      const res = await t.request({ method: 'GET', url: '/cal/events/v1' });
      assert.equal(res.statusCode, 200);
      assert.equal(res.data.namespace, 'cal/events/v1');
      const single = res.data.routes['/cal/events/v1/events/(?P<id>\\d+)'];
      assert.deepEqual(single.methods, ['GET', 'DELETE', 'POST', 'PUT', 'PATCH']);
      const update = single.endpoints.find((e: { methods: string[] }) => e.methods.includes('PUT'));
      assert.deepEqual(update.methods, ['POST', 'PUT', 'PATCH']);
      assert.equal(update.args.id.required, true);
      assert.equal(update.args.title.type, 'string');
      assert.deepEqual(res.data._links.up, [{ href: 'http://localhost:80/' }]);
      for (const path of [
        '/cal/events/v1/venues',
        '/cal/events/v1/organizers',
        '/cal/events/v1/categories',
        '/cal/events/v1/tags',
        '/cal/events/v1/doc',
      ]) {
        assert.ok(res.data.routes[path], path);
      }
    });

    it('should serve a valid OpenAPI 3.1 document whose server is the request root', async () => {
      const res = await t.request({ method: 'GET', url: '/fr/cal/events/v1/doc' });
      assert.equal(res.statusCode, 200);
      assert.equal(res.data.openapi, '3.1.0');
      assert.deepEqual(res.data.servers, [{ url: 'http://localhost:80/fr/cal/events/v1/' }]);
      assert.deepEqual(Object.keys(res.data).slice(0, 5), ['openapi', 'info', 'components', 'servers', 'paths']);
      for (const path of [
        '/doc',
        '/events',
        '/events/{id}',
        '/events/by-slug/{slug}',
        '/venues',
        '/organizers/{id}',
        '/categories',
        '/tags/{id}',
      ]) {
        assert.ok(res.data.paths[path], path);
      }
      const result = await new Validator().validate(res.data);
      assert.equal(result.valid, true, JSON.stringify(result.errors));
    });

    it('should list Venue, Organizer and Term as components, referenced from every route that returns them', async () => {
      const doc = (await t.request({ method: 'GET', url: '/cal/events/v1/doc' })).data;
      for (const name of ['Event', 'Venue', 'Organizer', 'Term', 'Error'])
        assert.ok(doc.components.schemas[name], name);
      const ok = (path: string, method: string) =>
        JSON.stringify(doc.paths[path][method].responses[method === 'post' && !path.includes('{') ? '201' : '200']);
      for (const [path, name] of [
        ['/venues/{id}', 'Venue'],
        ['/venues/by-slug/{slug}', 'Venue'],
        ['/organizers/{id}', 'Organizer'],
        ['/categories/{id}', 'Term'],
        ['/tags/{id}', 'Term'],
        ['/events/{id}', 'Event'],
      ]) {
        for (const method of ['get', 'post', 'delete'])
          assert.match(ok(path!, method), new RegExp(`#/components/schemas/${name}"`), `${method} ${path}`);
      }
      for (const [path, name] of [
        ['/venues', 'Venue'],
        ['/organizers', 'Organizer'],
        ['/categories', 'Term'],
        ['/tags', 'Term'],
      ]) {
        assert.match(ok(path!, 'get'), new RegExp(`#/components/schemas/${name}"`), `list ${path}`);
        if (path !== '/categories' && path !== '/tags')
          assert.match(ok(path!, 'post'), new RegExp(`#/components/schemas/${name}"`), `create ${path}`);
      }
      assert.match(JSON.stringify(doc.components.schemas.Event.properties.venue), /#\/components\/schemas\/Venue"/);
      assert.equal(
        Object.keys(doc.paths).some((p) => p.includes('admin') || p.startsWith('/users')),
        false,
        'no admin route in the events document',
      );
      // Conditional writes are documented: the If-Match header and the 412 answer.
      const update = doc.paths['/events/{id}'].post;
      assert.ok(
        update.parameters.some((p: { in: string; name: string }) => p.in === 'header' && p.name === 'if-match'),
      );
      assert.ok(update.responses['412']);
    });

    it('should serve the admin namespace its own valid OpenAPI 3.1 document', async () => {
      const res = await t.request({ method: 'GET', url: '/fr/cal/admin/v1/doc' });
      assert.equal(res.statusCode, 200);
      assert.equal(res.data.openapi, '3.1.0');
      assert.deepEqual(res.data.servers, [{ url: 'http://localhost:80/fr/cal/admin/v1/' }]);
      for (const path of [
        '/doc',
        '/users',
        '/users/{id}',
        '/users/{id}/application-passwords',
        '/users/{id}/application-passwords/{passwordId}',
        '/settings',
      ]) {
        assert.ok(res.data.paths[path], path);
      }
      assert.equal(
        Object.keys(res.data.paths).some((p) => p.startsWith('/events')),
        false,
      );
      assert.deepEqual(Object.keys(res.data.components.schemas), ['Error'], 'only the components its paths use');
      assert.deepEqual(res.data.paths['/users'].get.security, [{ basic: [] }]);
      const result = await new Validator().validate(res.data);
      assert.equal(result.valid, true, JSON.stringify(result.errors));
    });

    it('should declare an access level and response schemas on every route', () => {
      for (const entry of t.app.services.routes.entries) {
        for (const endpoint of entry.endpoints) {
          assert.ok(endpoint.access, `${endpoint.methods} ${entry.url} declares no access`);
          // The public pages answer HTML (and their stylesheet), not the API's JSON: no JSON schemas.
          if (!entry.url.startsWith('/cal/') && entry.url !== '/') continue;
          const response = (endpoint.schema as { response?: Record<string, unknown> } | undefined)?.response ?? {};
          assert.ok(
            Object.keys(response).some((s) => s.startsWith('2')),
            `${endpoint.methods} ${entry.url} has no success schema`,
          );
          assert.ok(response['400'] && response['500'], `${endpoint.methods} ${entry.url} has no error schemas`);
        }
      }
    });

    it('should answer 404 rest_no_route for an unknown route and a non-numeric id', async () => {
      for (const url of ['/cal/events/v1/nope', '/cal/events/v1/events/abc', '/xx/cal/events/v1/events']) {
        const res = await t.request({ method: 'GET', url });
        assert.equal(res.statusCode, 404, url);
        assert.deepEqual(res.data, {
          code: 'rest_no_route',
          message: 'No route was found matching the URL and request method.',
          data: { status: 404 },
        });
      }
    });

    it('should answer 405 with Allow for a known path and the wrong method', async () => {
      const res = await t.request({ method: 'DELETE', url: '/cal/events/v1/events' });
      assert.equal(res.statusCode, 405);
      assert.equal(res.headers['allow'], 'GET, POST');
      assert.equal(res.data.code, 'rest_no_route');
    });

    it('should send Allow with the methods the caller may use, as WordPress does', async () => {
      assert.equal((await t.request({ method: 'GET', url: '/cal/events/v1/events' })).headers['allow'], 'GET');
      const editor = await t.asUser('editor');
      assert.equal(
        (await t.request({ method: 'GET', url: '/cal/events/v1/events', auth: editor.authorization })).headers['allow'],
        'GET, POST',
      );
    });

    it('should answer 400 rest_invalid_param naming each bad parameter', async () => {
      const res = await t.request({ method: 'GET', url: '/cal/events/v1/events?per_page=0&page=foo' });
      assert.equal(res.statusCode, 400);
      assert.equal(res.data.code, 'rest_invalid_param');
      assert.deepEqual(Object.keys(res.data.data.params).sort(), ['page', 'per_page']);
      assert.equal(res.data.data.status, 400);
    });

    it('should answer 400 rest_invalid_param for a language that is not a site language', async () => {
      const res = await t.request({ method: 'GET', url: '/cal/events/v1/events?i18n_language=xx' });
      assert.equal(res.statusCode, 400);
      assert.equal(res.data.code, 'rest_invalid_param');
      assert.ok(res.data.data.params.i18n_language);
    });

    it('should answer 400 rest_missing_callback_param listing the missing fields', async () => {
      const editor = await t.asUser('editor');
      const res = await t.request({
        method: 'POST',
        url: '/cal/events/v1/events',
        auth: editor.authorization,
        payload: {},
      });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.data, {
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): title, start_date, end_date',
        data: { status: 400, params: ['title', 'start_date', 'end_date'] },
      });
    });

    it('should answer 400 rest_invalid_json for a malformed body', async () => {
      const editor = await t.asUser('editor');
      const res = await t.request({
        method: 'POST',
        url: '/cal/events/v1/events',
        auth: editor.authorization,
        headers: { 'content-type': 'application/json' },
        payload: '{"title": ',
      });
      assert.equal(res.statusCode, 400);
      assert.equal(res.data.code, 'rest_invalid_json');
    });

    it('should answer 413 rest_request_too_large for a body over 1 MiB', async () => {
      const editor = await t.asUser('editor');
      const payload = JSON.stringify({ title: 'x'.repeat(1024 * 1024 + 10) });
      const res = await t.request({
        method: 'POST',
        url: '/cal/events/v1/events',
        auth: editor.authorization,
        headers: { 'content-type': 'application/json' },
        payload,
      });
      assert.equal(res.statusCode, 413);
      assert.equal(res.data.code, 'rest_request_too_large');
    });

    it('should answer 401 rest_forbidden to an anonymous write', async () => {
      const res = await t.request({
        method: 'POST',
        url: '/cal/events/v1/events',
        payload: { title: 'x', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00' },
      });
      assert.equal(res.statusCode, 401);
      assert.deepEqual(res.data, {
        code: 'rest_forbidden',
        message: 'Sorry, you are not allowed to do that.',
        data: { status: 401 },
      });
    });

    it('should accept form-encoded bodies as the original does', async () => {
      const editor = await t.asUser('editor');
      const res = await t.request({
        method: 'POST',
        url: '/cal/events/v1/events',
        auth: editor.authorization,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'title=Form+event&start_date=2030-01-01+10%3A00%3A00&end_date=2030-01-01+11%3A00%3A00&all_day=false',
      });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.data.title, 'Form event');
    });

    it('should answer CORS preflights and expose the total headers', async () => {
      const preflight = await t.request({
        method: 'OPTIONS',
        url: '/cal/events/v1/events',
        headers: {
          origin: 'https://app.example.com',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      });
      assert.equal(preflight.statusCode, 204);
      assert.equal(preflight.headers['access-control-allow-origin'], '*');
      assert.match(String(preflight.headers['access-control-allow-headers']), /Authorization/);
      const list = await t.request({
        method: 'GET',
        url: '/cal/events/v1/events',
        headers: { origin: 'https://app.example.com' },
      });
      assert.match(String(list.headers['access-control-expose-headers']), /X-Cal-Total/);
    });

    it('should keep only the _fields asked for', async () => {
      const res = await t.request({ method: 'GET', url: '/cal/events/v1/events?_fields=total,total_pages' });
      assert.equal(res.statusCode, 200);
      assert.deepEqual(Object.keys(res.data).sort(), ['total', 'total_pages']);
    });
  });
}

describe('unexpected failures', () => {
  it('should answer 500 rest_internal_error without leaking the cause', async () => {
    const t = await createTestApp('sqlite');
    await t.storage.db.destroy();
    const res = await t.request({ method: 'GET', url: '/cal/events/v1/events' });
    assert.equal(res.statusCode, 500);
    assert.deepEqual(res.data, {
      code: 'rest_internal_error',
      message: 'An internal error occurred. It has been logged.',
      data: { status: 500 },
    });
    await t.app.close();
  });
});
