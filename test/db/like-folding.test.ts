import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { random } from '../helpers/random.js';
import {
  CAPITAL_I_DOT,
  containsInsensitive,
  KELVIN_SIGN,
  likeEscape,
  likeFolding,
  LOWERS_TO_ASCII,
} from '../../src/db/dialect.js';

/**
 * SQLite tests a case-insensitive match with its own LIKE where that matches as lower() on both
 * sides does (dialect.ts, likeFolding). Here with the running Node.js's Unicode data (CI runs this
 * folder on each Node.js it proves), and against lower() itself over random texts and patterns
 * made of the characters where the two could part.
 */
describe('SQLite LIKE in place of lower() on both sides', () => {
  it('knows every character whose lower case holds ASCII without being ASCII', () => {
    const found: string[] = [];
    for (let c = 0x80; c <= 0x10ffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      // eslint-disable-next-line no-control-regex
      if (/[\x00-\x7f]/.test(String.fromCodePoint(c).toLowerCase())) found.push(String.fromCodePoint(c));
    }
    assert.deepEqual(found, [...LOWERS_TO_ASCII].sort());
  });

  it('says which patterns its own LIKE tests, and which characters it must watch for', () => {
    assert.deepEqual(likeFolding('%jazz%'), []);
    assert.deepEqual(likeFolding('%event%'), []);
    assert.deepEqual(likeFolding('%Market%'), [KELVIN_SIGN]);
    assert.deepEqual(likeFolding('%taxi%'), [CAPITAL_I_DOT]);
    assert.deepEqual(likeFolding('%ki%'), [KELVIN_SIGN, CAPITAL_I_DOT]);
    // An "i" before a literal is not followed by a combining dot in any text's lower case.
    assert.deepEqual(likeFolding('%ix%'), []);
    assert.deepEqual(likeFolding(`%${likeEscape('a_b%')}%`), []);
    assert.equal(likeFolding('%été%'), null);
    assert.equal(likeFolding('%a_b%'), null);
  });

  describe('against lower() on both sides, in SQLite', () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp('sqlite');
    });
    after(async () => t.close());

    it('matches every text lower() matches, and no other, for any pattern', async () => {
      const next = random(11);
      const textAlphabet = [
        'a',
        'i',
        'I',
        'k',
        'K',
        KELVIN_SIGN,
        CAPITAL_I_DOT,
        '\u0307',
        'x',
        'é',
        'É',
        'ß',
        '%',
        '_',
      ];
      const patternAlphabet = ['a', 'i', 'I', 'k', 'K', 'x', '%', '_', '\\%', '\\_', 'é'];
      const pick = (alphabet: string[], most: number) =>
        Array.from(
          { length: 1 + Math.floor(next() * most) },
          () => alphabet[Math.floor(next() * alphabet.length)],
        ).join('');
      let compared = 0;
      for (let p = 0; p < 150; p++) {
        const pattern = next() < 0.5 ? `%${pick(patternAlphabet, 3)}%` : pick(patternAlphabet, 4);
        const texts = Array.from({ length: 40 }, () => pick(textAlphabet, 6));
        const values = sql.join(texts.map((text) => sql`(${text})`));
        const { rows } = await sql<{ ours: number; lowered: number }>`select ${containsInsensitive(
          'sqlite',
          sql.ref('v.column1'),
          pattern,
        )} as ours, lower(v.column1) like lower(${pattern}) escape '\\' as lowered from (values ${values}) v`.execute(
          t.storage.db,
        );
        rows.forEach((row, i) => assert.equal(row.ours, row.lowered, `${JSON.stringify(texts[i])} like ${pattern}`));
        compared += rows.length;
      }
      assert.equal(compared, 6000);
    });
  });
});
