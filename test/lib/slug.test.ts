import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { slugCandidate, slugify } from '../../src/lib/slug.js';

describe('slugify', () => {
  const cases: [string, string][] = [
    ['Golden Event gmwr4dah0', 'golden-event-gmwr4dah0'],
    ['Fête de la Musique!', 'fete-de-la-musique'],
    ['A & B', 'a-b'],
    ['Straße Æsir Øl Œuvre Đakovo Łódź', 'strasse-aesir-ol-oeuvre-dakovo-lodz'],
    ["Don't stop", 'dont-stop'],
    ['v1.2/beta – final', 'v1-2-beta-final'],
    ['<b>Bold</b> &amp; brave', 'bold-brave'],
    ['  --already-a_slug--  ', 'already-a_slug'],
    ['日本', '日本'],
    ['Привет Мир', 'привет-мир'],
    ['!!!', ''],
    ['', ''],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(slugify(input), expected);
    });
  }

  it('limits the length to 200 characters', () => {
    assert.equal(slugify('a'.repeat(250)), 'a'.repeat(200));
    assert.equal(slugify(`${'a'.repeat(199)} b`), 'a'.repeat(199));
  });
});

describe('slugCandidate', () => {
  it('numbers taken slugs from 2', () => {
    assert.equal(slugCandidate('party', 1), 'party');
    assert.equal(slugCandidate('party', 2), 'party-2');
    assert.equal(slugCandidate('party', 13), 'party-13');
  });

  it('keeps candidates within 200 characters', () => {
    assert.equal(slugCandidate('a'.repeat(200), 2), `${'a'.repeat(198)}-2`);
  });
});
