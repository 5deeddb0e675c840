import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql, type SqlBool } from 'kysely';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';
import { random } from '../../helpers/random.js';
import { definitionTotal } from '../../helpers/search-definition.js';
import { WRITE_ORDER_LOCK } from '../../../src/db/dialect.js';
import {
  buildSearchCounts,
  MAX_PHRASES,
  registerCommonSearches,
  registrationPacing,
  searchCountsId,
  type CommonSearchOptions,
} from '../../../src/modules/events/event-counts.service.js';
import type { SearchFilter } from '../../../src/modules/events/event-search.repository.js';
import { addPhrase, countPhraseSlice } from '../../../src/modules/events/event-counts.repository.js';

const EVENTS = '/cal/events/v1/events';

/**
 * Texts whose words no index narrows (one or two characters, accents, LIKE wildcards, quotes), so
 * their searches are registered and counted per day (migration 019).
 */
const PIECES = [
  'ro',
  'RO',
  'Ro',
  'é',
  'É',
  'ü',
  '100%',
  '10',
  'a_b',
  'ab',
  "l'été",
  'L’ÉTÉ',
  'x',
  'xy',
  '"q"',
  'p',
  'at',
  'AT',
  '%',
  '_',
];
const SEARCHES = [
  'ro',
  'RO',
  'é',
  'É',
  'ü',
  '%',
  '_',
  '0%',
  'a_b',
  "l'été",
  'x',
  'xy',
  '"q"',
  'ro é',
  'é ro',
  'at x',
  'p',
  'ÉT',
];

const day = (n: number) => `2031-03-${String(1 + n).padStart(2, '0')}`;

for (const backend of backends()) {
  describe(`search totals from per-day counts [${backend}]`, () => {
    let t: TestApp;
    let editor: string;
    const next = random(backend === 'sqlite' ? 5 : 9);
    const ids: number[] = [];
    const text = () =>
      Array.from({ length: 1 + Math.floor(next() * 4) }, () => PIECES[Math.floor(next() * PIECES.length)]!).join(
        next() < 0.5 ? ' ' : '',
      );

    before(async () => {
      registrationPacing.gapMs = 0;
      t = await createTestApp(backend);
      editor = (await t.asUser('editor')).authorization;
    });
    after(async () => {
      registrationPacing.gapMs = 1000;
      await t.close();
    });

    /** The public total of a search over whole days, through the API. */
    const total = async (search: string, from: string, to: string): Promise<number> => {
      const res = await t.request({
        method: 'GET',
        url: `${EVENTS}?per_page=1&start_date=${from}&end_date=${to}&search=${encodeURIComponent(search)}`,
      });
      if (res.statusCode === 404) return 0;
      assert.equal(res.statusCode, 200, res.body);
      return res.data.total as number;
    };

    /** The definition, over the rows as stored (test/helpers/search-definition.ts). */
    const expected = (search: string, from: string, to: string) => definitionTotal(t.storage.db, search, from, to);

    const write = async (): Promise<void> => {
      const r = next();
      const target = ids[Math.floor(next() * ids.length)];
      const start = Math.floor(next() * 20);
      if (r < 0.4 || target === undefined) {
        const payload = {
          title: text(),
          ...(next() < 0.5 ? { description: text() } : {}),
          ...(next() < 0.3 ? { excerpt: text() } : {}),
          status: next() < 0.8 ? 'publish' : 'draft',
          hide_from_listings: next() < 0.1,
          start_date: `${day(start)} 10:00:00`,
          end_date: `${day(start + Math.floor(next() * 3))} 11:00:00`,
        };
        const res = await t.request({ method: 'POST', url: EVENTS, auth: editor, payload });
        assert.equal(res.statusCode, 201, res.body);
        ids.push(res.data.id);
      } else if (r < 0.65) {
        await t.request({
          method: 'POST',
          url: `${EVENTS}/${target}`,
          auth: editor,
          payload:
            next() < 0.5
              ? { title: text() }
              : { description: text(), start_date: `${day(start)} 09:00:00`, end_date: `${day(start)} 12:00:00` },
        });
      } else if (r < 0.8) {
        await t.request({
          method: 'POST',
          url: `${EVENTS}/${target}`,
          auth: editor,
          payload: next() < 0.5 ? { status: next() < 0.5 ? 'draft' : 'publish' } : { hide_from_listings: next() < 0.5 },
        });
      } else if (r < 0.92) {
        await t.request({ method: 'DELETE', url: `${EVENTS}/${target}`, auth: editor });
      } else {
        // Removed for good, as a purge would: the triggers see every path, not only the API's.
        await t.storage.db.deleteFrom('events').where('id', '=', target).execute();
      }
    };

    it('registers the searches no index narrows and counts them exactly, with the definition’s semantics', async () => {
      for (let i = 0; i < 40; i++) await write();
      // Asked once, a search is counted row by row; asked again, it is registered and summed.
      for (const search of SEARCHES)
        assert.equal(await total(search, day(0), day(30)), await expected(search, day(0), day(30)), search);
      // Only "é ro", the same search as "ro é" (words in any order), and "RO", the same as "ro"
      // (ASCII letters in any case), came back; "É" is not "é" (SQLite tells them apart).
      assert.deepEqual(
        (await t.storage.db.selectFrom('search_phrases').select('phrase').orderBy('phrase').execute()).map(
          (p) => p.phrase,
        ),
        [JSON.stringify(['ro']), JSON.stringify(['é', 'ro'].sort())].sort(),
      );
      for (const search of SEARCHES)
        assert.equal(await total(search, day(1), day(29)), await expected(search, day(1), day(29)), search);
      const phrases = await t.storage.db.selectFrom('search_phrases').select('phrase').execute();
      // Words of one or two characters are never narrowed by an index: all of these are registered.
      for (const search of ['ro', 'é', '%', '_', 'x', 'p', 'ro é'])
        assert.ok(
          phrases.some((p) => p.phrase === JSON.stringify(search.split(' ').sort())),
          search,
        );
      // Their counts are taken in the background, a slice at a time; here all at once, in slices of 7 events.
      await buildSearchCounts(t.storage.db, Number.POSITIVE_INFINITY, 7);
      const complete = await t.storage.db
        .selectFrom('search_phrases')
        .select('id')
        .where('counted_through', 'is', null)
        .execute();
      assert.equal(complete.length, phrases.length);
      for (const search of SEARCHES)
        assert.equal(await total(search, day(2), day(27)), await expected(search, day(2), day(27)), search);
      // A registered search is read from its counts: they hold the window's total.
      const ro = await t.storage.db
        .selectFrom('search_window_counts')
        .innerJoin('search_phrases', 'search_phrases.id', 'search_window_counts.phrase_id')
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'))
        .where('phrase', '=', '["ro"]')
        .where('lang', '=', 'en')
        .executeTakeFirstOrThrow();
      assert.equal(Number(ro.n), await expected('ro', '2000-01-01', '2100-12-31'));
    });

    it('stays exact under concurrent writes, and registrations racing them', async () => {
      // New searches register while the writes go on: each write is counted by the first count or by the trigger, once.
      const racing = ['t', 'ü x', 'AB', 'a', 'o', 'e'];
      for (const search of racing) await total(search, day(0), day(30));
      for (let round = 0; round < 8; round++) {
        await Promise.all([
          ...Array.from({ length: 6 }, write),
          ...(round < racing.length ? [total(racing[round]!, day(0), day(29))] : []),
          // Slices of 3 events, between the writes: each is counted by a slice or by its trigger.
          buildSearchCounts(t.storage.db, 5, 3),
        ]);
      }
      await buildSearchCounts(t.storage.db, Number.POSITIVE_INFINITY);
      for (const search of [...SEARCHES, ...racing]) {
        for (const [from, to] of [
          [day(0), day(30)],
          [day(3), day(9)],
          [day(5), day(5)],
          ['2031-02-27', day(2)],
        ] as const) {
          assert.equal(await total(search, from, to), await expected(search, from, to), `${search} ${from}..${to}`);
        }
      }
    });

    it(
      'gives a slice of counts up, and answers exactly, while a long write holds the write-order lock',
      { skip: backend !== 'postgres' && 'SQLite has no write-order lock: its writers are serial' },
      async () => {
        const phrase = JSON.stringify(['r']);
        const counted = async () =>
          (
            await t.storage.db
              .selectFrom('search_phrases')
              .select('counted_through')
              .where('phrase', '=', phrase)
              .execute()
          ).map((p) => p.counted_through);
        // A write under way (an import, say) holds the lock shared from its first event to its commit.
        let release!: () => void;
        const mayCommit = new Promise<void>((resolve) => (release = resolve));
        let holding!: () => void;
        const holds = new Promise<void>((resolve) => (holding = resolve));
        const longWrite = t.storage.db.transaction().execute(async (trx) => {
          await sql`select pg_advisory_xact_lock_shared(${WRITE_ORDER_LOCK})`.execute(trx);
          holding();
          await mayCommit;
        });
        await holds;
        try {
          // Asked twice, the search registers (no lock needed), each total counted row by row.
          for (const to of [day(30), day(29)])
            assert.equal(await total('r', day(0), to), await expected('r', day(0), to));
          assert.deepEqual(await counted(), [0]);
          // Its counts wait a moment for the lock, give up, and stay to take.
          assert.equal(await buildSearchCounts(t.storage.db, Number.POSITIVE_INFINITY), 0);
          assert.deepEqual(await counted(), [0]);
          // Writers are not held behind the slice that gave up.
          await write();
        } finally {
          release();
          await longWrite;
        }
        // Once the write has committed, its counts are taken, and summed. The app's own background
        // round may take the lock first (the registration woke it): this call then finds the slice
        // busy, or nothing left, and takes no slice itself; so it looks again until they are taken.
        for (let round = 0; round < 20 && (await counted())[0] !== null; round++)
          await buildSearchCounts(t.storage.db, Number.POSITIVE_INFINITY);
        assert.deepEqual(await counted(), [null]);
        for (const to of [day(30), day(28)])
          assert.equal(await total('r', day(0), to), await expected('r', day(0), to));
      },
    );

    it(`keeps at most ${MAX_PHRASES} searches, the least recently used going first`, async () => {
      const before = (await t.storage.db.selectFrom('search_phrases').select('phrase').execute()).length;
      for (let i = 0; i <= MAX_PHRASES - before; i++)
        for (const to of [day(30), day(29)]) await total(`é-${i}`, day(0), to);
      const phrases = (await t.storage.db.selectFrom('search_phrases').select('phrase').execute()).map((p) => p.phrase);
      assert.equal(phrases.length, MAX_PHRASES);
      assert.ok(phrases.includes(JSON.stringify([`é-${MAX_PHRASES - before}`])), 'the newest stays');
      const orphans = await t.storage.db
        .selectFrom('search_window_counts')
        .select('phrase_id')
        .where('phrase_id', 'not in', (eb) => eb.selectFrom('search_phrases').select('id'))
        .execute();
      assert.equal(orphans.length, 0);
      // An evicted search registers again, and counts right.
      for (const to of [day(30), day(29)])
        assert.equal(await total('ro', day(0), to), await expected('ro', day(0), to));
    });

    it('reads whether an index narrows a search once, not at each of its asks, until that is due again', async () => {
      let reads = 0;
      const search: SearchFilter = {
        words: ['narrowed'],
        patterns: ['%narrowed%'],
        shown: sql<SqlBool>`1 = 1`,
        clauses: [],
        narrow: async () => ((reads += 1), true),
      };
      registrationPacing.narrowLookMs = 100;
      try {
        // The first ask only marks it seen; the second reads the index, the later ones do not.
        for (let ask = 0; ask < 5; ask++) assert.equal(await searchCountsId(t.storage.db, search), null);
        assert.equal(reads, 1);
        await new Promise((resolve) => setTimeout(resolve, 120));
        assert.equal(await searchCountsId(t.storage.db, search), null);
        assert.equal(reads, 2, 'read again once due: new events may have made its words common');
      } finally {
        registrationPacing.narrowLookMs = 600_000;
      }
    });
  });

  describe(`common searches counted ahead [${backend}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(backend);
    });
    after(() => t.close());

    const options: CommonSearchOptions = { most: 10, sample: 100, minShare: 0.2, minListed: 1, resampleMs: 3_600_000 };
    /** A round `later` read-again periods from now (the words found are kept that long): the words registered. */
    const registerAt = (later: number, given = options) =>
      registerCommonSearches(t.storage.db, given, Date.now() + later * given.resampleMs);

    it('registers the words most listed events contain that no index narrows, so that their first search is summed', async () => {
      const editor = (await t.asUser('editor')).authorization;
      const create = async (title: string, more: Record<string, unknown> = {}) => {
        const start = `2031-03-${String(10 + Math.floor(Math.random() * 10))}`;
        const payload = {
          title,
          start_date: `${start} 10:00:00`,
          end_date: `${start} 11:00:00`,
          status: 'publish',
          ...more,
        };
        const res = await t.request({ method: 'POST', url: EVENTS, auth: editor, payload });
        assert.equal(res.statusCode, 201, res.body);
      };
      // "ro" and "ab" (two letters: no index narrows them) in most events, "concert" too (an index
      // narrows it), markup in every description, and "qq" only in protected events' descriptions.
      for (let i = 0; i < 24; i++) await create(`Ro concert ${i}`, { description: '<div class="box">Live</div>' });
      for (let i = 0; i < 8; i++) await create(`Ab concert ${i}`, { description: '<div class="box">Live</div>' });
      for (let i = 0; i < 10; i++) await create(`Secret ${i}`, { password: 'pw', description: 'qq' });
      await create('Ro hidden', { hide_from_listings: true });

      // A calendar this small is counted as it is asked.
      assert.deepEqual(await registerAt(0, { ...options, minListed: 1000 }), []);
      assert.deepEqual(await registerAt(1), ['ro', 'ab']);
      await buildSearchCounts(t.storage.db, Number.POSITIVE_INFINITY);
      const phrases = (await t.storage.db.selectFrom('search_phrases').select('phrase').execute()).map((p) => p.phrase);
      assert.deepEqual(phrases.sort(), ['["ab"]', '["ro"]']);

      // A visitor's first search of it, in any case, is summed from its counts: no test of the rows.
      const ask = (search: string) =>
        t.queries.during(() =>
          t.request({
            method: 'GET',
            url: `${EVENTS}?per_page=1&start_date=2031-03-01&end_date=2031-03-31&search=${search}`,
          }),
        );
      const first = await ask('RO');
      assert.equal(first.value.statusCode, 200);
      assert.equal(first.value.data.total, 24, 'listed events only, every case');
      assert.ok(
        first.texts.some((text) => text.includes('search_window_counts')),
        'summed from the counts',
      );
      // Not vacuous: a search not registered is counted from the rows.
      const other = await ask('Li');
      assert.equal(other.value.data.total, 32);
      assert.ok(!other.texts.some((text) => text.includes('search_window_counts')));

      // The counts follow writes, and the words stay registered: read again, they are found known.
      await create('ro again');
      assert.equal((await ask('ro')).value.data.total, 25);
      assert.deepEqual(await registerAt(2), []);
      assert.equal((await t.storage.db.selectFrom('search_phrases').select('id').execute()).length, 2);
      // Every count complete, the next rounds read nothing for a while: no lock for writers to queue
      // behind, nor a read every second.
      const idle = await t.queries.during(() => buildSearchCounts(t.storage.db, 100));
      assert.equal(idle.value, 0);
      assert.deepEqual(idle.texts, []);
    });

    it('finds the words across the calendar, not only in its newest events (a burst of like events)', async () => {
      const editor = (await t.asUser('editor')).authorization;
      for (const title of [
        ...Array.from({ length: 40 }, (_, i) => `Kw older ${i}`),
        ...Array.from({ length: 40 }, (_, i) => `Burst ${i}`),
      ]) {
        const payload = {
          title,
          start_date: '2031-04-02 10:00:00',
          end_date: '2031-04-02 11:00:00',
          status: 'publish',
        };
        assert.equal((await t.request({ method: 'POST', url: EVENTS, auth: editor, payload })).statusCode, 201);
      }
      const sample = { ...options, sample: 20 };
      // The newest events, as many as the sample, are all of the burst.
      const newest = await t.storage.db
        .selectFrom('events')
        .select('title')
        .orderBy('id', 'desc')
        .limit(sample.sample)
        .execute();
      assert.ok(newest.every((event) => event.title.startsWith('Burst')));
      // "kw" (two letters: no index narrows it) is found all the same.
      assert.ok((await registerAt(3, sample)).includes('kw'));
    });
  });

  describe(`the order searches are counted in [${backend}]`, () => {
    let t: TestApp;
    before(async () => {
      // Its own app: the background looks for counts to take only half a minute after start-up,
      // unless the service registers a search, and this test registers through the repository.
      t = await createTestApp(backend);
    });
    after(() => t.close());

    it('counts a search a visitor asked again before the common words registered ahead of it', async () => {
      const editor = (await t.asUser('editor')).authorization;
      for (const title of ['Ro xv one', 'Ro two', 'Xv three', 'Ro Xv four']) {
        const payload = {
          title,
          start_date: '2031-05-02 10:00:00',
          end_date: '2031-05-02 11:00:00',
          status: 'publish',
        };
        assert.equal((await t.request({ method: 'POST', url: EVENTS, auth: editor, payload })).statusCode, 201);
      }
      const { db } = t.storage;
      // "ro", registered ahead (its use recorded long ago) and not counted yet; then "xv", registered now.
      await addPhrase(db, JSON.stringify(['ro']), ['%ro%'], MAX_PHRASES);
      await db.updateTable('search_phrases').set({ used_utc: '2000-01-01 00:00:00' }).execute();
      await addPhrase(db, JSON.stringify(['xv']), ['%xv%'], MAX_PHRASES);
      const counted = async () =>
        Object.fromEntries(
          (await db.selectFrom('search_phrases').select(['phrase', 'counted_through']).execute()).map((p) => [
            p.phrase,
            p.counted_through,
          ]),
        );
      assert.deepEqual(await counted(), { '["ro"]': 0, '["xv"]': 0 });
      // One slice, as large as the calendar: the search asked last is the one taken.
      assert.equal(await countPhraseSlice(db, 1_000_000), 'counted');
      assert.deepEqual(await counted(), { '["ro"]': 0, '["xv"]': null });
      assert.equal(await countPhraseSlice(db, 1_000_000), 'counted');
      assert.deepEqual(await counted(), { '["ro"]': null, '["xv"]': null });
      for (const [search, events] of [
        ['xv', 3],
        ['ro', 3],
      ] as const) {
        const res = await t.request({
          method: 'GET',
          url: `${EVENTS}?per_page=1&start_date=2031-05-01&end_date=2031-05-31&search=${search}`,
        });
        assert.equal(res.data.total, events, search);
      }
    });
  });
}
