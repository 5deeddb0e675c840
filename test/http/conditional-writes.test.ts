import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { backends, createTestApp, type TestApp } from '../helpers/app.js';
import { readDataVersion } from '../../src/db/data-version.js';

const V1 = '/cal/events/v1';

/** One record kind: how to create one, and a field to change. */
const KINDS = [
  {
    name: 'event',
    base: `${V1}/events`,
    payload: { title: 'Conditional', start_date: '2031-05-01 10:00:00', end_date: '2031-05-01 11:00:00' },
    change: (v: string) => ({ title: v }),
    trashes: true,
  },
  {
    name: 'venue',
    base: `${V1}/venues`,
    payload: { venue: 'Conditional hall' },
    change: (v: string) => ({ venue: v }),
    trashes: true,
  },
  {
    name: 'organizer',
    base: `${V1}/organizers`,
    payload: { organizer: 'Conditional org' },
    change: (v: string) => ({ organizer: v }),
    trashes: true,
  },
  {
    name: 'category',
    base: `${V1}/categories`,
    payload: { name: 'Conditional cat' },
    change: (v: string) => ({ name: v }),
    trashes: false,
  },
  {
    name: 'tag',
    base: `${V1}/tags`,
    payload: { name: 'Conditional tag' },
    change: (v: string) => ({ name: v }),
    trashes: false,
  },
] as const;

let counter = 0;
const unique = (text: string) => `${text} ${++counter}`;

for (const backend of backends()) {
  describe(`conditional writes (If-Match) [${backend}]`, () => {
    let t: TestApp;
    let editor: string;
    before(async () => {
      t = await createTestApp(backend);
      editor = (await t.asUser('editor')).authorization;
    });
    after(() => t.close());

    const send = (method: string, url: string, payload?: object, headers: Record<string, string> = {}) =>
      t.request({ method: method as 'POST', url, auth: editor, payload: payload as never, headers });
    const create = async (kind: (typeof KINDS)[number]) => {
      const payload =
        'title' in kind.payload
          ? kind.payload
          : { ...kind.payload, ...kind.change(unique(Object.values(kind.payload)[0] as string)) };
      const res = await send('POST', kind.base, payload);
      assert.equal(res.statusCode, 201, res.body);
      return res;
    };

    for (const kind of KINDS) {
      describe(kind.name, () => {
        it('should answer a write with the ETag a following GET carries, and accept it as If-Match', async () => {
          const created = await create(kind);
          const url = `${kind.base}/${created.data.id}`;
          const read = await send('GET', url);
          assert.equal(
            created.headers['etag'],
            read.headers['etag'],
            'the create answers the tag of the record as read',
          );
          const updated = await send('POST', url, kind.change(unique('Renamed')), {
            'if-match': String(read.headers['etag']),
          });
          assert.equal(updated.statusCode, 200, updated.body);
          const after = await send('GET', url);
          assert.equal(updated.headers['etag'], after.headers['etag']);
          assert.notEqual(updated.headers['etag'], read.headers['etag']);
          // Chained: the write's tag is good for the next write.
          const chained = await send('PATCH', url, kind.change(unique('Again')), {
            'if-match': String(updated.headers['etag']),
          });
          assert.equal(chained.statusCode, 200, chained.body);
        });

        it('should answer 412 rest_precondition_failed for a stale tag and change nothing', async () => {
          const created = await create(kind);
          const url = `${kind.base}/${created.data.id}`;
          const stale = String((await send('GET', url)).headers['etag']);
          assert.equal((await send('POST', url, kind.change(unique('First writer')))).statusCode, 200);
          const before = await send('GET', url);
          const version = await readDataVersion(t.storage.db);
          for (const method of ['POST', 'PUT', 'PATCH']) {
            const lost = await send(method, url, kind.change(unique('Second writer')), { 'if-match': stale });
            assert.equal(lost.statusCode, 412, `${method}: ${lost.body}`);
            assert.deepEqual(lost.data, {
              code: 'rest_precondition_failed',
              message: lost.data.message,
              data: { status: 412 },
            });
          }
          const removed = await send('DELETE', url, undefined, { 'if-match': stale });
          assert.equal(removed.statusCode, 412);
          const unchanged = await send('GET', url);
          assert.equal(unchanged.body, before.body);
          assert.equal(await readDataVersion(t.storage.db), version, 'nothing was written');
        });

        it('should take *, lists of tags, and never a weak tag', async () => {
          const created = await create(kind);
          const url = `${kind.base}/${created.data.id}`;
          const tag = String((await send('GET', url)).headers['etag']);
          assert.equal(
            (await send('PATCH', url, kind.change(unique('Weak')), { 'if-match': `W/${tag}` })).statusCode,
            412,
          );
          const listed = await send('PATCH', url, kind.change(unique('Listed')), { 'if-match': `"nope", ${tag}` });
          assert.equal(listed.statusCode, 200, listed.body);
          assert.equal((await send('PATCH', url, kind.change(unique('Star')), { 'if-match': '*' })).statusCode, 200);
          const gone = await send('DELETE', url, undefined, {
            'if-match': String((await send('GET', url)).headers['etag']),
          });
          assert.equal(gone.statusCode, 200, gone.body);
          if (kind.trashes) assert.equal(gone.data.status, 'trash');
        });

        it('should keep 404 and permission answers ahead of the precondition', async () => {
          const missing = await send('PATCH', `${kind.base}/99999999`, kind.change('x'), { 'if-match': '"stale"' });
          assert.equal(missing.statusCode, 404);
          const created = await create(kind);
          const anonymous = await t.request({
            method: 'PATCH',
            url: `${kind.base}/${created.data.id}`,
            payload: kind.change('x'),
            headers: { 'if-match': '"stale"' },
          });
          assert.equal(anonymous.statusCode, 401);
        });

        it('should let exactly one of two concurrent writers with the same tag succeed', async () => {
          const created = await create(kind);
          const url = `${kind.base}/${created.data.id}`;
          const tag = String((await send('GET', url)).headers['etag']);
          const results = await Promise.all(
            [1, 2, 3].map((n) => send('PATCH', url, kind.change(unique(`Racer ${n}`)), { 'if-match': tag })),
          );
          assert.deepEqual(
            results.map((r) => r.statusCode).sort(),
            [200, 412, 412],
            results.map((r) => r.body).join('\n'),
          );
        });
      });
    }

    it('should see a change of an embedded venue as a change of the event', async () => {
      const venue = await send('POST', `${V1}/venues`, { venue: unique('Embedded hall') });
      const event = await send('POST', `${V1}/events`, {
        title: 'With venue',
        start_date: '2031-06-01 10:00:00',
        end_date: '2031-06-01 11:00:00',
        venue: venue.data.id,
      });
      const tag = String(event.headers['etag']);
      await send('POST', `${V1}/venues/${venue.data.id}`, { venue: unique('Renamed hall') });
      const res = await send('PATCH', `${V1}/events/${event.data.id}`, { title: 'Mine' }, { 'if-match': tag });
      assert.equal(res.statusCode, 412, 'the representation the client read has changed');
    });

    it('should ignore If-Match on a create (its target is the collection)', async () => {
      const res = await send('POST', `${V1}/tags`, { name: unique('Created') }, { 'if-match': '"whatever"' });
      assert.equal(res.statusCode, 201);
    });
  });
}
