/**
 * WordPress-style slugs (sanitize_title with the "save" context).
 *
 * Unlike WordPress, which percent-encodes non-Latin letters ("%e6%97%a5"), letters, marks and digits
 * of any script are kept as lowercase Unicode in NFC ("日本" → "日本", "東京ジャズ・ナイト" →
 * "東京ジャズナイト", Korean composed); only the diacritics of Latin letters are removed, as
 * WordPress's remove_accents does (é → e, ß → ss). A slug is at most 200 characters, so its
 * percent-encoded path segment is at most 200 × 4 UTF-8 bytes × 3 = 2400 characters: the router's
 * limit (app.ts, maxParamLength) is that, so every slug the service makes, old or new, is reachable.
 */

export const SLUG_MAX_LENGTH = 200;

/** Longest percent-encoded slug: each of its characters is at most 4 UTF-8 bytes of 3 characters each. */
export const SLUG_MAX_ENCODED_LENGTH = SLUG_MAX_LENGTH * 4 * 3;

/**
 * Most characters of a title read: far more than a 200-character slug needs even when tags and
 * entities are stripped first, and a bound on what every pattern below reads.
 */
const INPUT_LIMIT = 10_000;

// Letters that a decomposition does not turn into a base letter plus combining marks.
const LIGATURES: Record<string, string> = { ß: 'ss', æ: 'ae', ø: 'o', œ: 'oe', đ: 'd', ł: 'l' };

const graphemes = new Intl.Segmenter('und', { granularity: 'grapheme' });

export function slugify(text: string): string {
  const slug = text
    .slice(0, INPUT_LIMIT)
    // WordPress strips tags and entities before anything else. `[^<>]`, not `[^>]`: a run of `<`
    // without `>` made each `<` read to the end of the text (20,000 took 0.36 s, a title of 1 MB hours).
    .replace(/<[^<>]*>/g, '')
    .replace(/&[^\s&;]+;/g, '')
    .toLowerCase()
    .replace(/[ßæøœđł]/g, (letter) => LIGATURES[letter])
    // Compatibility forms folded as before (ﬁ → fi, full-width Ａ → a), every letter decomposed so a
    // Latin letter's accents can be told from the marks of other scripts, which are part of the word
    // (the voicing mark of ジ, a Devanagari vowel sign); NFC then puts those back together.
    .normalize('NFKD')
    .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
    .normalize('NFC')
    // Separators become dashes; other punctuation ("don't", "Q&A", "!") is dropped, as in WordPress.
    .replace(/[\s./\u2013\u2014]+/g, '-')
    .replace(/[^\p{L}\p{M}\p{N}_-]+/gu, '')
    // A mark left with no letter under it (its letter was punctuation) means nothing on its own.
    .replace(/(?<![\p{L}\p{M}\p{N}])\p{M}+/gu, '')
    .replace(/-+/g, '-');
  return trimDashes(truncate(trimDashes(slug), SLUG_MAX_LENGTH));
}

/** Next candidate for a taken slug: base for n < 2, else base-n, kept within the length limit. */
export function slugCandidate(base: string, n: number): string {
  if (n < 2) return base;
  return `${slugStem(base, String(n).length)}-${n}`;
}

/** What a candidate keeps of `base` before a suffix of `digits` digits (base-n within the length limit). */
export function slugStem(base: string, digits: number): string {
  return trimDashes(truncate(base, SLUG_MAX_LENGTH - digits - 1));
}

/**
 * At most `length` code points (so a character outside the BMP is never cut in half), cut between
 * graphemes, so a letter never loses the mark that follows it (ジ stays ジ, क् keeps its virama).
 */
function truncate(text: string, length: number): string {
  if (Array.from(text).length <= length) return text;
  let kept = '';
  let count = 0;
  for (const { segment } of graphemes.segment(text)) {
    const size = Array.from(segment).length;
    if (count + size > length) break;
    kept += segment;
    count += size;
  }
  return kept;
}

function trimDashes(text: string): string {
  return text.replace(/^-+|-+$/g, '');
}
