import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';

// The list's extensions the admin's events screen reads: `author`, `orderby` and `order`, and the
// per-status totals its tabs show (X-Cal-Total of a one-row page).

const EVENTS = '/cal/events/v1/events';
/** A relative bound: no default window, every event from then on. */
const ALL = 'starts_after=1900-01-01';

for (const backend of backends()) {
  describe(`GET /cal/events/v1/events: author, orderby, order [${backend}]`, () => {
    let t: TestApp;
    let editor: { id: number; authorization: string };
    let contributor: { id: number; authorization: string };
    let author: { id: number; authorization: string };
    const ids: Record<string, number> = {};

    const create = async (key: string, payload: Record<string, unknown>, auth: string) => {
      const res = await t.request({ method: 'POST', url: EVENTS, auth, payload });
      assert.equal(res.statusCode, 201, res.body);
      ids[key] = res.data.id;
    };
    const list = (query: string, auth?: string) => t.request({ method: 'GET', url: `${EVENTS}?${query}`, auth });
    const titles = (res: { data: { events: { title: string }[] } }) => res.data.events.map((e) => e.title);

    before(async () => {
      t = await createTestApp(backend);
      editor = await t.asUser('editor');
      contributor = await t.asUser('contributor');
      author = await t.asUser('author');
      // Published (date) order differs from start order: B is published first, starts last.
      await create(
        'b',
        { title: 'B', start_date: '2031-03-01 10:00', end_date: '2031-03-01 11:00', date: '2020-01-01 00:00:00' },
        editor.authorization,
      );
      await create(
        'a',
        { title: 'A', start_date: '2031-01-01 10:00', end_date: '2031-01-01 11:00', date: '2020-02-01 00:00:00' },
        editor.authorization,
      );
      await create(
        'c',
        { title: 'C', start_date: '2031-02-01 10:00', end_date: '2031-02-01 11:00', date: '2020-03-01 00:00:00' },
        author.authorization,
      );
      await create(
        'old',
        { title: 'Old', start_date: '2001-02-01 10:00', end_date: '2001-02-01 11:00', date: '2000-03-01 00:00:00' },
        author.authorization,
      );
      await create(
        'mine',
        { title: 'Mine', status: 'draft', start_date: '2031-04-01 10:00', end_date: '2031-04-01 11:00' },
        contributor.authorization,
      );
      await create(
        'theirs',
        { title: 'Theirs', status: 'draft', start_date: '2031-05-01 10:00', end_date: '2031-05-01 11:00' },
        editor.authorization,
      );
      await create(
        'gone',
        { title: 'Gone', start_date: '2031-06-01 10:00', end_date: '2031-06-01 11:00' },
        editor.authorization,
      );
      const trashed = await t.request({
        method: 'DELETE',
        url: `${EVENTS}/${ids['gone']}`,
        auth: editor.authorization,
      });
      assert.equal(trashed.statusCode, 200, trashed.body);
    });
    after(() => t.close());

    it('sorts by start, ascending by default and descending on request', async () => {
      const asc = await list(`${ALL}&status=publish`);
      assert.deepEqual(titles(asc), ['Old', 'A', 'C', 'B']);
      const desc = await list(`${ALL}&status=publish&orderby=start_date&order=desc`);
      assert.deepEqual(titles(desc), ['B', 'C', 'A', 'Old']);
    });

    it('sorts by publication date', async () => {
      const res = await list(`${ALL}&status=publish&orderby=date&order=desc`);
      assert.deepEqual(titles(res), ['C', 'A', 'B', 'Old']);
    });

    it('keeps the order in the next page and the rest_url', async () => {
      const first = await list(`${ALL}&status=publish&orderby=start_date&order=desc&per_page=2`);
      assert.deepEqual(titles(first), ['B', 'C']);
      const next = new URL(first.data.next_rest_url as string);
      assert.equal(next.searchParams.get('orderby'), 'start_date');
      assert.equal(next.searchParams.get('order'), 'desc');
      const second = await list(next.searchParams.toString());
      assert.deepEqual(titles(second), ['A', 'Old']);
      assert.equal(new URL(first.data.rest_url as string).searchParams.get('order'), 'desc');
    });

    it('refuses an orderby or order it does not know, with the contract error body', async () => {
      for (const query of ['orderby=title', 'order=up']) {
        const res = await list(`${ALL}&${query}`);
        assert.equal(res.statusCode, 400, res.body);
        assert.equal(res.data.code, 'rest_invalid_param');
      }
    });

    it('filters by author, a list of ids, and echoes it', async () => {
      const res = await list(`${ALL}&author=${author.id}`);
      assert.deepEqual(titles(res), ['Old', 'C']);
      assert.equal(res.headers['x-cal-total'], '2');
      assert.equal(new URL(res.data.rest_url as string).searchParams.get('author'), String(author.id));
      const both = await list(`${ALL}&author=${author.id},${editor.id}&status=publish`);
      assert.deepEqual(titles(both), ['Old', 'A', 'C', 'B']);
      const bad = await list(`${ALL}&author=me`);
      assert.equal(bad.statusCode, 400, bad.body);
    });

    it("gives a contributor their own events in every status, never another's drafts", async () => {
      const own = await list(`${ALL}&context=edit&author=${contributor.id}`, contributor.authorization);
      assert.deepEqual(titles(own), ['Mine']);
      const others = await list(`${ALL}&context=edit&author=${editor.id}`, contributor.authorization);
      assert.deepEqual(titles(others), ['A', 'B'], 'published ones only');
      const drafts = await list(`${ALL}&status=draft`, contributor.authorization);
      assert.deepEqual(titles(drafts), ['Mine']);
      const editorDrafts = await list(`${ALL}&status=draft`, editor.authorization);
      assert.deepEqual(titles(editorDrafts), ['Mine', 'Theirs']);
    });

    it('counts each status with a one-row page (the tabs of the admin)', async () => {
      const total = async (status: string | null, auth: string) => {
        const res = await list(`${ALL}&per_page=1&_fields=id${status ? `&status=${status}` : ''}`, auth);
        assert.equal(res.statusCode, 200, res.body);
        return Number(res.headers['x-cal-total']);
      };
      assert.deepEqual(
        await Promise.all([null, 'publish', 'draft', 'trash'].map((s) => total(s, editor.authorization))),
        [6, 4, 2, 1],
      );
      assert.deepEqual(
        await Promise.all([null, 'draft', 'trash'].map((s) => total(s, contributor.authorization))),
        [5, 1, 0],
      );
    });
  });
}
