import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { backends, createTestApp, type TestApp } from '../helpers/app.js';

for (const backend of backends()) {
  describe(`service foundation [${backend}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(backend);
    });
    after(() => t.close());

    it('should answer the REST index at / and /fr/', async () => {
      const root = await t.request({ method: 'GET', url: '/' });
      assert.equal(root.statusCode, 200);
      assert.ok(root.data.namespaces.includes('cal/events/v1'));
      const fr = await t.request({ method: 'GET', url: '/fr/' });
      assert.equal(fr.statusCode, 200);
      assert.equal(fr.data.language, 'fr');
    });

    it('should answer 404 rest_no_route for an unknown route', async () => {
      const res = await t.request({ method: 'GET', url: '/cal/events/v1/nope' });
      assert.equal(res.statusCode, 404);
      assert.deepEqual(res.data, { code: 'rest_no_route', message: 'No route was found matching the URL and request method.', data: { status: 404 } });
    });
  });
}
