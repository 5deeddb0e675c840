import { autop, escapeHtml } from '../../lib/html.js';

/**
 * A submitter's description is plain text (decided: no rich text from the public): blank lines
 * part paragraphs, single newlines break lines, and web addresses become links marked
 * `nofollow ugc` (search engines give them no weight, so spamming links earns nothing). The text
 * reaching here is already bounded (submission.input.ts); the result still goes through the
 * events' sanitizer like any description.
 */

/** http(s) addresses in running text; the length bound keeps the scan linear on any input. */
const WEB_ADDRESS = /\bhttps?:\/\/[^\s<>"'`]{1,2000}/gi;
/** Punctuation that ends a sentence rather than the address. */
const TRAILING = /[.,;:!?)\]}]+$/;

function addresses(text: string): { start: number; end: number; url: string }[] {
  const found: { start: number; end: number; url: string }[] = [];
  for (const match of text.matchAll(WEB_ADDRESS)) {
    const url = match[0].replace(TRAILING, '');
    found.push({ start: match.index, end: match.index + url.length, url });
  }
  return found;
}

/** How many web addresses a text holds (the cap on links). */
export function countLinks(text: string): number {
  return addresses(text).length;
}

export function descriptionHtml(text: string): string {
  let html = '';
  let at = 0;
  for (const { start, end, url } of addresses(text)) {
    html += escapeHtml(text.slice(at, start));
    html += `<a href="${escapeHtml(url)}" rel="nofollow ugc">${escapeHtml(url)}</a>`;
    at = end;
  }
  html += escapeHtml(text.slice(at));
  return autop(html);
}
