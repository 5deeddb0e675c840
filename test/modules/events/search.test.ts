import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';
import { sql } from 'kysely';
import { indexQueued, searchIndexLimits } from '../../../src/modules/events/event-search.repository.js';
import { searchIndexing } from '../../../src/modules/events/event-search.service.js';

const EVENTS = '/cal/events/v1/events';

/**
 * `search` against its definition (every word in the title, description or excerpt, any case),
 * computed here, over texts that exercise the SQLite trigram index that narrows searches: short
 * and long words, quotes, LIKE wildcards, non-ASCII letters, and the index following updates,
 * trash and deletes. On SQLite a written event waits in the index's queue (migration 033) until
 * the background indexes it: the background is off here, and the tests take the queue themselves
 * where they need the index.
 */
for (const backend of backends()) {
  describe(`event search [${backend}]`, () => {
    let t: TestApp;
    let editor: string;
    const texts = new Map<number, { title: string; description: string; excerpt: string }>();

    const create = async (title: string, description = '', excerpt = '') => {
      const res = await t.request({
        method: 'POST',
        url: EVENTS,
        auth: editor,
        payload: {
          title,
          ...(description ? { description } : {}),
          ...(excerpt ? { excerpt } : {}),
          start_date: '2031-05-01 10:00:00',
          end_date: '2031-05-01 11:00:00',
        },
      });
      assert.equal(res.statusCode, 201, res.body);
      texts.set(res.data.id, { title, description: res.data.description, excerpt: res.data.excerpt });
      return res.data.id as number;
    };

    /** The ids the definition gives: every word a case-insensitive substring of one of the fields. */
    const expected = (search: string) =>
      [...texts]
        .filter(([, x]) =>
          search
            .split(/\s+/)
            .filter(Boolean)
            .every((w) => [x.title, x.description, x.excerpt].some((f) => f.toLowerCase().includes(w.toLowerCase()))),
        )
        .map(([id]) => id)
        .sort((a, b) => a - b);

    const found = async (search: string) => {
      const res = await t.request({
        method: 'GET',
        url: `${EVENTS}?per_page=50&start_date=2031-01-01&end_date=2031-12-31&status=publish,draft&search=${encodeURIComponent(search)}`,
        auth: editor,
      });
      if (res.statusCode === 404 || (res.statusCode === 200 && res.data.total === 0)) return [];
      assert.equal(res.statusCode, 200, res.body);
      return (res.data.events as { id: number }[]).map((e) => e.id).sort((a, b) => a - b);
    };

    const SEARCHES = [
      'robotics',
      'ROBOTICS',
      'bot',
      'ro',
      'zzzunlikely',
      'robotics workshop',
      'workshop robotics',
      'café',
      'CAFÉ',
      '100%',
      'a_b',
      '"quoted"',
      "l'été",
      'Straße',
      'ünïcödé',
      'evening',
      'html',
      'p',
    ];

    const everyMs = searchIndexing.everyMs;
    /** The events waiting in SQLite's queue. */
    const queued = async () =>
      (await sql<{ id: number }>`select id from events_search_pending order by id`.execute(t.storage.db)).rows.map(
        (r) => r.id,
      );
    /** Indexes the whole queue, two events a batch (several batches, as a long queue is taken). */
    const indexAll = async () => {
      while ((await indexQueued(t.storage.db, 2)) > 0) {
        /* the next batch */
      }
      assert.deepEqual(await queued(), []);
    };

    before(async () => {
      searchIndexing.everyMs = 3_600_000;
      t = await createTestApp(backend);
      editor = (await t.asUser('editor')).authorization;
      await create('Robotics workshop', '<p>Build a robot</p>');
      await create('Intro to ROBOTICS');
      await create('Garden party', '<p>An evening in the garden</p>', '<p>Robotics-free</p>');
      await create('Café concert', '<p>Music at the CAFÉ</p>');
      await create('Sale: 100% off', '<p>a_b testing and "quoted" words</p>');
      await create("Fête de l'été", '<p>Straße party, ünïcödé text</p>');
      await create('Plain event');
    });
    after(async () => {
      searchIndexing.everyMs = everyMs;
      await t.close();
    });

    it('finds exactly what the definition finds', async () => {
      for (const search of SEARCHES) assert.deepEqual(await found(search), expected(search), search);
    });

    it('follows updates, trash and deletes', async () => {
      const [first, second] = [...texts.keys()];
      const updated = await t.request({
        method: 'POST',
        url: `${EVENTS}/${first}`,
        auth: editor,
        payload: { title: 'Knitting circle', description: '<p>Wool and needles</p>' },
      });
      assert.equal(updated.statusCode, 200);
      texts.set(first!, {
        title: 'Knitting circle',
        description: updated.data.description,
        excerpt: updated.data.excerpt,
      });
      assert.equal((await t.request({ method: 'DELETE', url: `${EVENTS}/${second}`, auth: editor })).statusCode, 200);
      texts.delete(second!);
      await create('Robotics league', '<p>Teams of robots</p>');
      for (const search of [...SEARCHES, 'knitting', 'wool', 'needles'])
        assert.deepEqual(await found(search), expected(search), search);
    });

    it(
      'reads a word too common for the index to narrow once, not at each ask, and still finds what the definition finds',
      { skip: backend === 'sqlite' ? false : 'the index read is SQLite’s' },
      async () => {
        let ask = 0;
        // Each ask another URL, so that no cached answer stands for it.
        const indexReads = async (search: string) =>
          (
            await t.queries.during(() =>
              t.request({
                method: 'GET',
                url: `${EVENTS}?start_date=2031-01-01&end_date=2031-12-31&search=${encodeURIComponent(search)}&ask=${ask++}`,
              }),
            )
          ).texts.filter((text) => text.includes('events_search match')).length;
        // "party" names two events, "robot" two: with a limit of one, both are too common to narrow.
        // Indexed first: queued events are not the index's answer (next test).
        await indexAll();
        searchIndexLimits.maxHits = 1;
        searchIndexLimits.commonWordMs = 150;
        try {
          // "party" is read; in "robot party", only "robot", "party" being known.
          for (const search of ['party', 'robot party']) {
            assert.equal(await indexReads(search), 1, `${search}: read`);
            assert.equal(await indexReads(search), 0, `${search}: known common`);
            assert.deepEqual(await found(search), expected(search), search);
          }
          // "concert" names one event, few enough: read at every ask, it narrows the list.
          assert.equal(await indexReads('concert'), 1);
          assert.equal(await indexReads('concert'), 1);
          await new Promise((resolve) => setTimeout(resolve, 200));
          // Due again: a word may have become rare enough (removed events) to narrow.
          assert.equal(await indexReads('party'), 1);
          assert.deepEqual(await found('party'), expected('party'), 'party');
        } finally {
          searchIndexLimits.maxHits = 5000;
          searchIndexLimits.commonWordMs = 600_000;
        }
      },
    );

    it(
      'finds an event while it waits in the queue, and leaves the index exactly the events’ text once it is taken',
      { skip: backend === 'sqlite' ? false : 'the queue is SQLite’s' },
      async () => {
        const all = [...SEARCHES, 'knitting', 'wool', 'needles', 'league', 'queued', 'twice'];
        const agrees = async (when: string) => {
          for (const search of all) assert.deepEqual(await found(search), expected(search), `${when}: ${search}`);
        };
        await indexAll();
        await agrees('all indexed');
        // Indexed events edited and deleted; new ones queued, one edited twice and one deleted while queued.
        const [indexedEdit, indexedDelete] = [...texts.keys()];
        const edit = async (id: number, title: string, description: string) => {
          const res = await t.request({
            method: 'POST',
            url: `${EVENTS}/${id}`,
            auth: editor,
            payload: { title, description },
          });
          assert.equal(res.statusCode, 200, res.body);
          texts.set(id, { title, description: res.data.description, excerpt: res.data.excerpt });
        };
        // The API trashes (a status, not the text); rows go when a series is cut short (recurrence).
        const remove = async (id: number) => {
          await sql`delete from events where id = ${id}`.execute(t.storage.db);
          texts.delete(id);
        };
        await edit(indexedEdit!, 'Queued knitting', '<p>Robotics league, twice</p>');
        await remove(indexedDelete!);
        const twice = await create('Queued once', '<p>Wool</p>');
        const gone = await create('Queued and gone', '<p>Robotics</p>');
        const cafe = await create('Robot café queued');
        await edit(twice, 'Queued twice', '<p>Needles</p>');
        await edit(twice, 'Queued twice again', '<p>Straße</p>');
        await remove(gone);
        assert.deepEqual(
          await queued(),
          [indexedEdit, twice, cafe].sort((a, b) => a - b),
        );
        await agrees('queued');
        await indexAll();
        await agrees('indexed again');
        // With rank 1 the check compares the index with the events' text itself: nothing stale, nothing twice.
        await sql`insert into events_search(events_search, rank) values ('integrity-check', 1)`.execute(t.storage.db);
      },
    );
  });
}

describe('the search index’s background [sqlite]', () => {
  it('indexes the queue in batches, none left, the index exactly the events’ text', async () => {
    const saved = { ...searchIndexing };
    Object.assign(searchIndexing, { batch: 2, everyMs: 50 });
    const t = await createTestApp('sqlite');
    try {
      const editor = (await t.asUser('editor')).authorization;
      const ids: number[] = [];
      for (const title of ['Harbour tour', 'Harbour lights', 'Night market', 'Tide pools', 'Harbour swim']) {
        const res = await t.request({
          method: 'POST',
          url: EVENTS,
          auth: editor,
          payload: { title, start_date: '2031-05-01 10:00:00', end_date: '2031-05-01 11:00:00' },
        });
        assert.equal(res.statusCode, 201, res.body);
        ids.push(res.data.id);
      }
      const waiting = async () =>
        (await sql<{ n: number }>`select count(*) as n from events_search_pending`.execute(t.storage.db)).rows[0]!.n;
      for (let tries = 0; (await waiting()) > 0; tries++) {
        assert.ok(tries < 100, 'the background took the queue within 5 s');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const indexed = await sql<{
        id: number;
      }>`select rowid as id from events_search where events_search match 'harbour'`.execute(t.storage.db);
      assert.deepEqual(
        indexed.rows.map((r) => r.id).sort((a, b) => a - b),
        [ids[0], ids[1], ids[4]],
      );
      await sql`insert into events_search(events_search, rank) values ('integrity-check', 1)`.execute(t.storage.db);
    } finally {
      await t.close();
      Object.assign(searchIndexing, saved);
    }
  });
});
