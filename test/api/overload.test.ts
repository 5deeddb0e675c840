import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { backends, createTestApp, type TestApp } from '../helpers/app.js';

/** Keeps the event loop busy, as a burst of expensive requests would. */
function blockEventLoop(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // busy on purpose
  }
}

for (const backend of backends()) {
  describe(`overload guard [${backend}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(backend, { CAL_MAX_EVENT_LOOP_DELAY_MS: '20' });
    });
    after(() => t.close());

    it('should answer 503 rest_service_unavailable with Retry-After while the event loop lags, then recover', async () => {
      assert.equal((await t.request({ method: 'GET', url: '/cal/events/v1/events' })).statusCode, 200);
      let refused;
      for (let i = 0; i < 20 && !refused; i++) {
        blockEventLoop(300);
        await sleep(50);
        const res = await t.request({ method: 'GET', url: '/cal/events/v1/events' });
        if (res.statusCode === 503) refused = res;
        else assert.equal(res.statusCode, 200);
      }
      assert.ok(refused, 'a lagging event loop is refused within a few samples');
      assert.deepEqual(refused.data, { code: 'rest_service_unavailable', message: refused.data.message, data: { status: 503 } });
      assert.equal(refused.headers['retry-after'], '2');
      // Writes are refused too, before authentication: no credentials are checked while overloaded.
      const write = await t.request({ method: 'POST', url: '/cal/events/v1/events', auth: 'Basic bm9ib2R5Om5vdGhpbmc=', payload: { title: 'x' } });
      if (write.statusCode !== 503) assert.equal(write.statusCode, 401, 'the sample may already have recovered');

      let recovered = false;
      for (let i = 0; i < 40 && !recovered; i++) {
        await sleep(100);
        recovered = (await t.request({ method: 'GET', url: '/cal/events/v1/events' })).statusCode === 200;
      }
      assert.ok(recovered, 'answers again once the loop is idle');
    });
  });
}
