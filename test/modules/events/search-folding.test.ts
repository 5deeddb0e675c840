import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { random } from '../../helpers/random.js';
import { definitionTotal } from '../../helpers/search-definition.js';
import { CAPITAL_I_DOT, KELVIN_SIGN } from '../../../src/db/dialect.js';
import { buildSearchCounts, registrationPacing } from '../../../src/modules/events/event-counts.service.js';
import { searchIndexLimits } from '../../../src/modules/events/event-search.repository.js';

const EVENTS = '/cal/events/v1/events';

/**
 * SQLite tests a search word with its own LIKE where that matches as lower() on both sides does
 * (dialect.ts, likeFolding), in the lists, the per-day counts' slices and their triggers (032).
 * These texts hold the characters where the two part: the Kelvin sign, whose lower case is "k",
 * and the capital I with a dot above, whose lower case is "i" and a combining dot. The test of
 * one text against one pattern: test/db/like-folding.test.ts.
 */
const PIECES = [
  'park',
  `PAR${KELVIN_SIGN}`,
  `${KELVIN_SIGN}i`,
  'taxi',
  `TAX${CAPITAL_I_DOT}`,
  `${CAPITAL_I_DOT}x`,
  'i\u0307',
  'ki',
  'KI',
  'jazz',
  'JAZZ',
  'été',
  'ÉTÉ',
  'ß',
  'a_b',
  '100%',
  'x',
];
const SEARCHES = ['park', 'PARK', 'k', 'ki', 'taxi', 'TAXI', 'i', 'ix', 'jazz', 'été', 'a_b', '0%', 'park taxi', 'k i'];

describe('search totals where LIKE and lower() part [sqlite]', () => {
  let t: TestApp;
  let editor: string;
  const next = random(23);
  const ids: number[] = [];
  const day = (n: number) => `2031-04-${String(1 + n).padStart(2, '0')}`;
  const text = () =>
    Array.from({ length: 1 + Math.floor(next() * 3) }, () => PIECES[Math.floor(next() * PIECES.length)]!).join(
      next() < 0.5 ? ' ' : '',
    );

  before(async () => {
    registrationPacing.gapMs = 0;
    // "PARK" asked while the index narrowed "park" must not keep it from registering later.
    registrationPacing.narrowLookMs = 0;
    t = await createTestApp('sqlite');
    editor = (await t.asUser('editor')).authorization;
  });
  after(async () => {
    registrationPacing.gapMs = 1000;
    registrationPacing.narrowLookMs = 600_000;
    searchIndexLimits.maxHits = 5000;
    await t.close();
  });

  /**
   * The public total over the days `round` to 25 - `round`: each round another window, so that
   * no total comes from the cache of a round before.
   */
  const total = async (search: string, round: number): Promise<number> => {
    const res = await t.request({
      method: 'GET',
      url: `${EVENTS}?per_page=1&start_date=${day(round)}&end_date=${day(25 - round)}&search=${encodeURIComponent(search)}`,
    });
    if (res.statusCode === 404) return 0;
    assert.equal(res.statusCode, 200, res.body);
    return res.data.total as number;
  };

  /** The definition, over the rows as stored (test/helpers/search-definition.ts). */
  const expected = (search: string, round: number) =>
    definitionTotal(t.storage.db, search, day(round), day(25 - round));

  const create = async () => {
    const start = Math.floor(next() * 20);
    const res = await t.request({
      method: 'POST',
      url: EVENTS,
      auth: editor,
      payload: {
        title: text(),
        ...(next() < 0.6 ? { description: text() } : {}),
        ...(next() < 0.3 ? { excerpt: text() } : {}),
        start_date: `${day(start)} 10:00:00`,
        end_date: `${day(start)} 11:00:00`,
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    ids.push(res.data.id);
  };

  it('counts row by row, through the index, from per-day counts and their triggers, as lower() does', async () => {
    for (let i = 0; i < 60; i++) await create();
    const check = async (round: number, label: string) => {
      for (const search of SEARCHES)
        assert.equal(await total(search, round), await expected(search, round), `${label} ${search}`);
    };
    // Rare enough for the index to narrow them: "taxi" must find "TAXİ" there too.
    await check(0, 'narrowed');
    // No index narrows them now: counted row by row (asked again: registered), then summed.
    searchIndexLimits.maxHits = 0;
    await check(1, 'row by row');
    await check(2, 'row by row');
    await buildSearchCounts(t.storage.db, Number.POSITIVE_INFINITY, 9);
    const registered = await t.storage.db.selectFrom('search_phrase_words').select(['pattern', 'watch']).execute();
    assert.ok(registered.some((w) => w.pattern === '%park%' && w.watch === KELVIN_SIGN));
    assert.ok(registered.some((w) => w.pattern === '%jazz%' && w.watch === ''));
    assert.ok(registered.some((w) => w.pattern === '%été%' && w.watch === null));
    assert.equal(
      (await t.storage.db.selectFrom('search_phrases').select('id').where('counted_through', 'is not', null).execute())
        .length,
      0,
    );
    await check(3, 'summed');
    // The triggers: new texts, changed texts and removed events.
    for (let i = 0; i < 20; i++) await create();
    for (const id of ids.slice(0, 25)) {
      const res = await t.request({ method: 'POST', url: `${EVENTS}/${id}`, auth: editor, payload: { title: text() } });
      assert.equal(res.statusCode, 200, `${res.statusCode} ${JSON.stringify(res.data)}`);
    }
    for (const id of ids.slice(25, 35)) await t.request({ method: 'DELETE', url: `${EVENTS}/${id}`, auth: editor });
    await check(4, 'after writes');
  });
});
