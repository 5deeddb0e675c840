import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { SLUG_MAX_ENCODED_LENGTH, slugCandidate, slugify } from '../../src/lib/slug.js';

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
    // Latin diacritics are transliterated in every Latin language; other scripts keep their marks.
    ['Grüße aus Köln', 'grusse-aus-koln'],
    ['Tiếng Việt có dấu, Đà Nẵng', 'tieng-viet-co-dau-da-nang'],
    ['東京ジャズ・ナイト', '東京ジャズナイト'],
    ['서울 재즈 페스티벌', '서울-재즈-페스티벌'],
    ['مهرجان الموسيقى العربية', 'مهرجان-الموسيقى-العربية'],
    ['हिन्दी संगीत', 'हिन्दी-संगीत'],
    ['Καλημέρα κόσμε', 'καλημέρα-κόσμε'],
    ['Ｆｕｌｌ-width ﬁne', 'full-width-fine'],
    ['🎉🎶', ''],
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
    assert.equal(slugify('ジ'.repeat(250)), 'ジ'.repeat(200));
  });

  it('keeps every slug in NFC, Korean composed and Japanese voicing marks on their letters', () => {
    for (const input of ['서울', 'ジャズ', '\u1109\u1165\u110b\u116e\u11af', '\u30b7\u3099']) {
      const slug = slugify(input);
      assert.equal(slug, slug.normalize('NFC'));
      // No conjoining jamo, no lone voicing mark.
      assert.ok(!/\p{Script=Hangul}/u.test(slug.replace(/[\uac00-\ud7a3]/g, '')), slug);
      assert.ok(!slug.includes('\u3099'), slug);
    }
    assert.equal(slugify('\u1109\u1165\u110b\u116e\u11af'), '서울');
  });

  it('cuts between graphemes, never between a letter and its mark', () => {
    assert.equal(slugify(`${'a'.repeat(199)}क्ष`), 'a'.repeat(199));
  });

  it('drops a mark left without its letter', () => {
    assert.equal(slugify('a-\u0301b !\u3099'), 'a-b');
  });

  it('reads at most the first 10,000 characters of a title', () => {
    assert.equal(slugify(`${' '.repeat(10_000)}late`), '');
  });

  it('makes slugs whose percent-encoded form fits the router (4 UTF-8 bytes of 3 characters each)', () => {
    for (const letter of ['a', 'é', 'ジ', '\u{20000}']) {
      const slug = slugify(letter.repeat(300));
      assert.ok(encodeURIComponent(slug).length <= SLUG_MAX_ENCODED_LENGTH, letter);
    }
    assert.equal(encodeURIComponent(slugify('\u{20000}'.repeat(300))).length, SLUG_MAX_ENCODED_LENGTH);
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
    assert.equal(slugCandidate('서'.repeat(200), 10), `${'서'.repeat(197)}-10`);
  });
});
