import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';
import { searchIndexLimits } from '../../../src/modules/events/event-search.repository.js';

const EVENTS = '/cal/events/v1/events';

/**
 * `search` against its definition (every word in the title, description or excerpt, any case),
 * computed here, over texts that exercise the SQLite trigram index that narrows searches: short
 * and long words, quotes, LIKE wildcards, non-ASCII letters, and the index following updates,
 * trash and deletes.
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

    before(async () => {
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
    after(() => t.close());

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
  });
}
