import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { FastifyInstance } from 'fastify';
import { backends, createTestApp, injector, type TestApp } from '../../helpers/app.js';
import { buildApp } from '../../../src/app.js';
import { connect, type Storage } from '../../../src/db/connect.js';
import { backoffMs, deliverDue, type WebhookDeps } from '../../../src/modules/webhooks/webhook.worker.js';
import { send } from '../../../src/modules/webhooks/webhook.send.js';
import { urlProblem } from '../../../src/modules/webhooks/webhook.address.js';

const ADMIN = '/cal/admin/v1';
const EVENTS = '/cal/events/v1/events';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A real HTTP receiver: records every request and answers what `answer` says. */
async function receiver(): Promise<{
  url: string;
  received: Received[];
  answer: { status: number; body?: string; location?: string };
  close(): Promise<void>;
}> {
  const received: Received[] = [];
  const answer: { status: number; body?: string; location?: string } = { status: 200 };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (c: Buffer) => chunks.push(c));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.writeHead(answer.status, answer.location ? { location: answer.location } : {});
      response.end(answer.body ?? 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    answer,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function until(condition: () => boolean | Promise<boolean>, ms = 8000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('webhook addresses', () => {
  it('should take https: to public addresses only, unless private addresses are allowed', () => {
    assert.equal(urlProblem('https://hooks.example.com/x', false), null);
    assert.match(urlProblem('http://hooks.example.com/x', false)!, /https/);
    assert.match(urlProblem('https://127.0.0.1/x', false)!, /private/);
    assert.match(urlProblem('https://[::1]/x', false)!, /private/);
    assert.match(urlProblem('https://10.1.2.3/x', false)!, /private/);
    assert.match(urlProblem('https://localhost/x', false)!, /private/);
    assert.match(urlProblem('https://user:pw@hooks.example.com/x', false)!, /credentials/);
    assert.equal(urlProblem('http://127.0.0.1:9/x', true), null);
  });

  it('should refuse at delivery time an address that resolves to a private one', async () => {
    const literal = await send('http://127.0.0.1:9/x', '{}', {}, false);
    assert.equal(literal.ok, false);
    assert.match(literal.error!, /loopback or private/);
    const named = await send('http://localhost:9/x', '{}', {}, false);
    assert.match(named.error!, /loopback or private/);
  });

  it('should back off exponentially with jitter, at most an hour', () => {
    assert.equal(
      backoffMs(1, () => 0.5),
      5_000,
    );
    assert.equal(
      backoffMs(3, () => 0.5),
      20_000,
    );
    assert.equal(
      backoffMs(30, () => 0.5),
      3_600_000,
    );
    assert.equal(
      backoffMs(2, () => 0),
      5_000,
    );
    assert.equal(
      backoffMs(2, () => 0.999),
      14_990,
    );
  });
});

for (const backend of backends()) {
  describe(`webhooks [${backend}]`, () => {
    let t: TestApp;
    let admin: { authorization: string };
    let editor: { authorization: string };
    let hook: Awaited<ReturnType<typeof receiver>>;
    let deps: WebhookDeps;

    before(async () => {
      t = await createTestApp(backend, { CAL_WEBHOOKS_ALLOW_PRIVATE: '1' });
      admin = await t.asUser('administrator');
      editor = await t.asUser('editor');
      hook = await receiver();
      deps = { db: t.storage.db, config: t.config, settings: () => t.app.services.settings.get() };
    });
    after(async () => {
      await t.close();
      await hook.close();
    });

    const subscribe = (payload: Record<string, unknown>, auth = admin.authorization) =>
      t.request({ method: 'POST', url: `${ADMIN}/webhooks`, auth, payload });
    const deliveries = async (id: number) =>
      (
        await t.request({
          method: 'GET',
          url: `${ADMIN}/webhooks/${id}/deliveries?per_page=100`,
          auth: admin.authorization,
        })
      ).data as any[];

    it('should manage subscriptions as an administrator only, with the secret shown once', async () => {
      const denied = await subscribe({ url: hook.url, events: ['event.created'] }, editor.authorization);
      assert.equal(denied.statusCode, 403);
      const bad = await subscribe({ url: 'ftp://example.com', events: ['event.exploded', 'party.*'] });
      assert.equal(bad.statusCode, 400);
      assert.ok(bad.data.data.params.url && bad.data.data.params.events);
      const created = await subscribe({ url: hook.url, events: ['venue.*'], languages: ['fr'] });
      assert.equal(created.statusCode, 201, created.body);
      assert.match(created.data.secret, /^whsec_/);
      const listed = await t.request({ method: 'GET', url: `${ADMIN}/webhooks`, auth: admin.authorization });
      assert.equal(listed.data[0].secret, undefined);
      const paused = await t.request({
        method: 'PATCH',
        url: `${ADMIN}/webhooks/${created.data.id}`,
        auth: admin.authorization,
        payload: { active: false, events: ['venue.created'] },
      });
      assert.deepEqual([paused.data.active, paused.data.events], [false, ['venue.created']]);
      const removed = await t.request({
        method: 'DELETE',
        url: `${ADMIN}/webhooks/${created.data.id}`,
        auth: admin.authorization,
      });
      assert.equal(removed.data.deleted, true);
      assert.equal(
        (await t.request({ method: 'GET', url: `${ADMIN}/webhooks/${created.data.id}`, auth: admin.authorization }))
          .statusCode,
        404,
      );
    });

    it('should deliver a signed change-feed entry for a public change, and nothing for a draft or a rolled-back write', async () => {
      const sub = await subscribe({ url: hook.url, events: ['event.created', 'event.updated'], languages: ['en'] });
      const { secret, id } = sub.data;
      const before = hook.received.length;
      const draft = await t.request({
        method: 'POST',
        url: EVENTS,
        auth: editor.authorization,
        payload: {
          title: 'Hook draft',
          status: 'draft',
          start_date: '2031-01-01 10:00:00',
          end_date: '2031-01-01 11:00:00',
        },
      });
      const event = await t.request({
        method: 'POST',
        url: EVENTS,
        auth: editor.authorization,
        payload: {
          title: 'Hook public',
          status: 'publish',
          start_date: '2031-01-02 10:00:00',
          end_date: '2031-01-02 11:00:00',
        },
      });
      await until(() => hook.received.length > before);
      const message = hook.received.at(-1)!;
      const entry = new Webhook(secret).verify(message.body, message.headers as Record<string, string>) as any;
      assert.deepEqual(
        [entry.kind, entry.id, entry.change, entry.record.title],
        ['event', event.data.id, 'created', 'Hook public'],
      );
      assert.match(String(message.headers['webhook-id']), /^msg_\d+$/);
      // A tampered body does not verify.
      assert.throws(() =>
        new Webhook(secret).verify(
          message.body.replace('Hook public', 'Hook forged'),
          message.headers as Record<string, string>,
        ),
      );
      // The draft: no delivery at all.
      assert.ok(!(await deliveries(id)).some((d) => d.record_id === draft.data.id));
      // A write that fails its precondition is rolled back: no delivery either.
      const count = (await deliveries(id)).length;
      const refused = await t.request({
        method: 'PATCH',
        url: `${EVENTS}/${event.data.id}`,
        auth: editor.authorization,
        headers: { 'if-match': '"stale"' },
        payload: { title: 'Never' },
      });
      assert.equal(refused.statusCode, 412);
      assert.equal((await deliveries(id)).length, count);
      await t.request({ method: 'DELETE', url: `${ADMIN}/webhooks/${id}`, auth: admin.authorization });
    });

    it('should retry with backoff keeping the message id, in order per record, then mark the subscription failing and redeliver on re-enable', async () => {
      const sub = await subscribe({ url: hook.url, events: ['organizer.*'] });
      const id = sub.data.id;
      hook.answer.status = 500;
      const organizer = await t.request({
        method: 'POST',
        url: '/cal/events/v1/organizers',
        auth: editor.authorization,
        payload: { organizer: 'Retry org', status: 'publish' },
      });
      await t.request({
        method: 'POST',
        url: `/cal/events/v1/organizers/${organizer.data.id}`,
        auth: editor.authorization,
        payload: { phone: '555' },
      });
      const start = Date.now();
      await until(async () => (await deliveries(id)).some((d) => d.last_status !== null));
      // Later rounds, the clock moved past each backoff: the update waits behind the create.
      for (let hour = 1; hour <= 3; hour += 1) await deliverDue(deps, new Date(start + hour * 3_600_000));
      let log = await deliveries(id);
      const [update, create] = log;
      assert.equal(update.attempts, 0, 'the second change of the record waits for the first');
      assert.ok(create.attempts >= 3);
      assert.equal(create.last_status, 500);
      const ids = new Set(
        hook.received.filter((r) => r.body.includes('Retry org')).map((r) => r.headers['webhook-id']),
      );
      assert.equal(ids.size, 1, 'every retry carries the same webhook-id');
      // A day later it gives up and the subscription is failing.
      await deliverDue(deps, new Date(start + 25 * 3_600_000));
      log = await deliveries(id);
      assert.equal(log.at(-1).status, 'failed');
      const failing = await t.request({ method: 'GET', url: `${ADMIN}/webhooks/${id}`, auth: admin.authorization });
      assert.equal(failing.data.status, 'failing');
      // Re-enabled with a working receiver: what it missed arrives, in order.
      hook.answer.status = 204;
      const at = hook.received.length;
      await t.request({
        method: 'PATCH',
        url: `${ADMIN}/webhooks/${id}`,
        auth: admin.authorization,
        payload: { active: true },
      });
      await until(async () => (await deliveries(id)).every((d) => d.status === 'delivered'));
      const changes = hook.received.slice(at).map((r) => JSON.parse(r.body).change);
      assert.deepEqual(changes, ['created', 'updated']);
      hook.answer.status = 200;
      await t.request({ method: 'DELETE', url: `${ADMIN}/webhooks/${id}`, auth: admin.authorization });
    });

    it('should not follow redirects, keep at most 1 KB of an answer, and ping on demand', async () => {
      const sub = await subscribe({ url: hook.url, events: ['tag.created'] });
      Object.assign(hook.answer, { status: 302, location: 'http://127.0.0.1:9/elsewhere', body: 'x'.repeat(5000) });
      try {
        await t.request({
          method: 'POST',
          url: '/cal/events/v1/tags',
          auth: editor.authorization,
          payload: { name: 'redirected-tag' },
        });
        await until(async () => (await deliveries(sub.data.id)).some((d) => d.last_status !== null));
        const [delivery] = await deliveries(sub.data.id);
        assert.equal(delivery.last_status, 302);
        assert.equal(delivery.status, 'pending', 'a redirect is a failed attempt, retried later');
        const stored = await t.storage.db
          .selectFrom('webhook_deliveries')
          .select('last_response')
          .where('id', '=', delivery.id)
          .executeTakeFirstOrThrow();
        assert.equal(stored.last_response!.length, 1024);
      } finally {
        Object.assign(hook.answer, { status: 200, location: undefined, body: undefined });
      }
      const ping = await t.request({
        method: 'POST',
        url: `${ADMIN}/webhooks/${sub.data.id}/test`,
        auth: admin.authorization,
      });
      assert.equal(ping.data.delivered, true);
      const last = hook.received.at(-1)!;
      assert.equal(JSON.parse(last.body).type, 'ping');
      new Webhook(sub.data.secret).verify(last.body, last.headers as Record<string, string>);
      await t.request({ method: 'DELETE', url: `${ADMIN}/webhooks/${sub.data.id}`, auth: admin.authorization });
    });

    it('should deliver every change of a record once and in the order of the change log, with writers and workers on two instances', async () => {
      // PostgreSQL: a second instance on the same database, with its own background worker. A
      // venue's change is logged as an update of every event at the venue without locking those
      // events, so an event's own update and its venue's can commit in the other order than
      // their positions: the race the claim must not let through.
      let other: { app: FastifyInstance; storage: Storage } | null = null;
      if (backend === 'postgres') {
        const storage = await connect({ dataDir: t.config.dataDir, databaseUrl: t.config.databaseUrl });
        other = { app: await buildApp(t.config, { storage, logger: false }), storage };
        await other.app.ready();
      }
      try {
        const instances = [
          { request: t.request, deps },
          other
            ? {
                request: injector(other.app),
                deps: { db: other.storage.db, config: t.config, settings: () => other.app.services.settings.get() },
              }
            : { request: t.request, deps },
        ];
        const venue = await t.request({
          method: 'POST',
          url: '/cal/events/v1/venues',
          auth: editor.authorization,
          payload: { venue: 'Ordered venue', status: 'publish' },
        });
        const sub = await subscribe({ url: hook.url, events: ['event.*'] });
        const ids: number[] = [];
        for (let i = 0; i < 4; i += 1) {
          const created = await t.request({
            method: 'POST',
            url: EVENTS,
            auth: editor.authorization,
            payload: {
              title: `Ordered ${i}`,
              status: 'publish',
              start_date: '2031-05-0' + (i + 1) + ' 10:00:00',
              end_date: '2031-05-0' + (i + 1) + ' 11:00:00',
              venue: venue.data.id,
              categories: [`Ordered cat ${i % 2}`],
            },
          });
          ids.push(created.data.id);
        }
        let writing = true;
        const writers = Promise.all(
          [0, 1, 2, 3, 4, 5].map(async (writer) => {
            const { request } = instances[writer % 2]!;
            for (let step = 0; step < 12; step += 1) {
              const res =
                writer < 4
                  ? await request({
                      method: 'POST',
                      url: `${EVENTS}/${ids[(writer + step) % ids.length]}`,
                      auth: editor.authorization,
                      payload: { title: `Ordered by ${writer} at ${step}`, categories: [`Ordered cat ${step % 3}`] },
                    })
                  : await request({
                      method: 'POST',
                      url: `/cal/events/v1/venues/${venue.data.id}`,
                      auth: editor.authorization,
                      payload: { city: `City ${writer} ${step}` },
                    });
              assert.equal(res.statusCode, 200, res.body);
            }
          }),
        ).finally(() => (writing = false));
        // Workers on both instances claim as fast as they can while the writes go on.
        const workers = instances.map(async ({ deps: d }) => {
          while (writing) if ((await deliverDue(d)) === 0) await new Promise((resolve) => setTimeout(resolve, 1));
        });
        await Promise.all([writers, ...workers]);
        const stored = async () =>
          t.storage.db
            .selectFrom('webhook_deliveries')
            .select(['id', 'record_id', 'position', 'status'])
            .where('webhook_id', '=', sub.data.id)
            .execute();
        await until(async () => {
          await Promise.all(instances.map(({ deps: d }) => deliverDue(d)));
          return (await stored()).every((d) => d.status === 'delivered');
        }, 20_000);
        const rows = await stored();
        // One delivery for each logged change of the events (all made after the subscription).
        const logged = await t.storage.db
          .selectFrom('change_log')
          .select(['record_id', 'position'])
          .where('kind', '=', 'event')
          .where('record_id', 'in', ids)
          .execute();
        assert.deepEqual(
          rows.map((r) => `${r.record_id}@${r.position}`).sort(),
          logged.map((r) => `${r.record_id}@${r.position}`).sort(),
        );
        assert.ok(rows.length > 4 * 12, `venue changes logged for every event (${rows.length})`);
        const byId = new Map(rows.map((r) => [`msg_${r.id}`, r]));
        const sent = hook.received.map((r) => byId.get(String(r.headers['webhook-id']))).filter((r) => r !== undefined);
        assert.equal(sent.length, rows.length, 'each delivered once');
        assert.equal(new Set(sent.map((r) => r.id)).size, rows.length);
        for (const id of ids) {
          const positions = sent.filter((r) => r.record_id === id).map((r) => Number(r.position));
          assert.deepEqual(
            positions,
            [...positions].sort((a, b) => a - b),
            `event ${id}: its changes arrived in the order of their positions`,
          );
        }
        await t.request({ method: 'DELETE', url: `${ADMIN}/webhooks/${sub.data.id}`, auth: admin.authorization });
      } finally {
        await other?.app.close();
        await other?.storage.close();
      }
    });

    it('should deliver each change once when several workers run at the same time', async () => {
      const sub = await subscribe({ url: hook.url, events: ['venue.created'] });
      for (let i = 0; i < 12; i += 1)
        await t.request({
          method: 'POST',
          url: '/cal/events/v1/venues',
          auth: editor.authorization,
          payload: { venue: `Claimed venue ${i}`, status: 'publish' },
        });
      await Promise.all([deliverDue(deps), deliverDue(deps), deliverDue(deps), deliverDue(deps)]);
      await until(async () => (await deliveries(sub.data.id)).filter((d) => d.status === 'delivered').length === 12);
      const ids = hook.received.filter((r) => r.body.includes('Claimed venue')).map((r) => r.headers['webhook-id']);
      assert.equal(ids.length, 12);
      assert.equal(new Set(ids).size, 12, 'no delivery sent twice');
    });
  });
}
