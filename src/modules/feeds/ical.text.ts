/**
 * The few lines of RFC 5545 serialization a feed needs (section 3.1 content lines, 3.3.11 TEXT,
 * 3.2 parameters): text escaping, 75-octet folding that never splits a UTF-8 sequence, CRLF ends.
 * Stored dates are `YYYY-MM-DD HH:MM:SS` strings: they are reformatted here, never converted.
 */

export const CRLF = '\r\n';

/** Characters no TEXT or parameter value may hold (controls other than HTAB; RFC 5545 3.1). */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/** A TEXT value: `\` `;` `,` escaped, every line break as `\n` (RFC 5545 3.3.11). */
export function escapeText(value: string): string {
  return value
    .replace(CONTROLS, '')
    .replace(/\r\n?/g, '\n')
    .replace(/[\\;,\n]/g, (c) => (c === '\n' ? '\\n' : `\\${c}`));
}

/**
 * A parameter value (RFC 5545 3.2): quoted when it holds `:`, `;` or `,`; a DQUOTE cannot appear
 * even quoted, so it becomes a single quote, and line breaks become spaces.
 */
export function paramValue(value: string): string {
  const clean = value
    .replace(/[\r\n]+/g, ' ')
    .replace(CONTROLS, '')
    .replace(/"/g, "'");
  return /[:;,]/.test(clean) ? `"${clean}"` : clean;
}

/** Octets of the code point starting at `s[i]` in UTF-8, and its length in UTF-16 units. */
function codePointAt(s: string, i: number): [octets: number, units: number] {
  const c = s.charCodeAt(i);
  if (c < 0x80) return [1, 1];
  if (c < 0x800) return [2, 1];
  // A surrogate pair is one 4-octet code point; a lone surrogate is written as U+FFFD (3 octets).
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
    const next = s.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return [4, 2];
  }
  return [3, 1];
}

/**
 * One content line, folded (RFC 5545 3.1): at most 75 octets per physical line, a continuation
 * line starting with one space. Folds fall between code points, never inside a UTF-8 sequence.
 */
export function contentLine(line: string): string {
  // Most lines are short ASCII: their UTF-16 length is their octet length.
  if (line.length <= 25 || (line.length <= 75 && Buffer.byteLength(line) <= 75)) return line + CRLF;
  let out = '';
  let start = 0;
  let octets = 0;
  // The first line holds 75 octets; continuation lines 74 after their leading space.
  let limit = 75;
  for (let i = 0; i < line.length;) {
    const [size, units] = codePointAt(line, i);
    if (octets + size > limit) {
      out += (start === 0 ? '' : ' ') + line.slice(start, i) + CRLF;
      start = i;
      octets = 0;
      limit = 74;
    }
    octets += size;
    i += units;
  }
  return out + (start === 0 ? '' : ' ') + line.slice(start) + CRLF;
}

/** `NAME;PARAMS:value` as a folded content line; `params` already written (`;TZID=…`). */
export function property(name: string, value: string, params = ''): string {
  return contentLine(`${name}${params}:${value}`);
}

/** A TEXT property. */
export function textProperty(name: string, value: string, params = ''): string {
  return property(name, escapeText(value), params);
}

/** `20270518T093000` of a stored `2027-05-18 09:30:00` (the wall clock as written). */
export function dateTimeValue(stored: string): string {
  return `${stored.slice(0, 4)}${stored.slice(5, 7)}${stored.slice(8, 10)}T${stored.slice(11, 13)}${stored.slice(14, 16)}${stored.slice(17, 19) || '00'}`;
}

/** `20270518T073000Z` of a stored UTC time. */
export function utcValue(storedUtc: string): string {
  return `${dateTimeValue(storedUtc)}Z`;
}

/** `20270518` of a stored date or date-time. */
export function dateValue(stored: string): string {
  return `${stored.slice(0, 4)}${stored.slice(5, 7)}${stored.slice(8, 10)}`;
}

/**
 * Plain text of rendered HTML for DESCRIPTION: paragraphs and line breaks kept as line breaks,
 * list items as dashes, tags dropped by `stripTags` (which also decodes entities).
 */
export function htmlToText(html: string, stripTags: (html: string) => string): string {
  if (html === '') return '';
  // Plain text as rendered (paragraphs and line breaks only, no entity): no HTML parser needed.
  if (!PLAIN_PARAGRAPHS.test(html))
    return tidy(
      html
        .replace(/\r\n?|\n/g, ' ')
        .replace(/<br \/>\s*/g, '\n')
        .replace(/<\/p>\s*/g, '\n\n')
        .replace(/<p>/g, ''),
    );
  const marked = html
    .replace(/\r\n?/g, '\n')
    .replace(/\n/g, ' ')
    .replace(/<br\s*\/?>\s*/gi, '\n')
    .replace(/<li\b[^>]*>\s*/gi, '\n- ')
    .replace(/<\/(p|div|h[1-6]|blockquote|pre|ul|ol|table|tr)>\s*/gi, '\n\n');
  return tidy(stripTags(marked));
}

/** Anything but `<p>`, `</p>`, `<br />` and text without entities. */
const PLAIN_PARAGRAPHS = /&|<(?!\/?p>|br \/>)/;

/** Blanks trimmed per line, at most one empty line in a row. */
function tidy(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
