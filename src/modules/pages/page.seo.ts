import { fill, messagesOf, type Messages } from './page.i18n.js';
import type { PageHead, PageScope } from './page.render.js';

/**
 * What the pages tell search engines and link previews besides their content: the canonical
 * address, the meta description and the Open Graph and Twitter card tags. No SQL, no HTTP.
 */

/** Characters of an address's query read at most: longer ones are nobody's link worth keeping. */
const MAX_QUERY = 2048;

/**
 * Query parameters that never make another page: the embed switch (an embed is the same page in
 * another frame) and the tracking tags links carry (utm_*, click ids of ad networks and mailers).
 */
const NOISE = /^(?:embed|utm_\w*|fbclid|gclid|dclid|gbraid|wbraid|msclkid|yclid|mc_cid|mc_eid|_ga|_gl)$/i;

/**
 * An address (path and query) without noise: what the canonical link and the alternates name.
 * Filters and `page` stay (a filtered view says noindex itself; a list's later pages are pages of
 * their own). A query too long to be a link anyone shares is dropped whole.
 */
export function canonicalPath(address: string): string {
  const mark = address.indexOf('?');
  if (mark < 0) return address;
  const path = address.slice(0, mark);
  const query = address.slice(mark + 1);
  if (query.length > MAX_QUERY) return path;
  const params = new URLSearchParams(query);
  for (const name of new Set(params.keys())) if (NOISE.test(name)) params.delete(name);
  const kept = params.toString();
  return kept === '' ? path : `${path}?${kept}`;
}

/** Characters of a meta description: what search engines show, cut between words. */
const DESCRIPTION_MAX = 200;

function clip(text: string): string {
  const flat = text
    .slice(0, DESCRIPTION_MAX * 4)
    .replace(/\s+/g, ' ')
    .trim();
  if (flat.length <= DESCRIPTION_MAX) return flat;
  const cut = flat.slice(0, DESCRIPTION_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > DESCRIPTION_MAX / 2 ? cut.slice(0, space) : cut).replace(/[\s,.;:–—-]+$/, '')}…`;
}

/**
 * The page's meta description: its own (an event's, a venue's), or one made from the view and what
 * its title names before the site's name ("December 2026 · Events" → "Events in December 2026…").
 */
export function describe(m: Messages, head: PageHead, view: unknown): string {
  if (head.description !== undefined && head.description.trim() !== '') return clip(head.description);
  const suffix = ` · ${m.siteName}`;
  const subject = head.title.endsWith(suffix) ? head.title.slice(0, -suffix.length) : head.title;
  const message = view === 'month' ? m.seoMonth : view === 'week' ? m.seoWeek : m.seoView;
  return clip(fill(message, { subject, site: m.siteName }));
}

export interface OpenGraph {
  type: 'website' | 'article';
  title: string;
  description: string;
  url: string;
  siteName: string;
  locale: string;
  /** The other languages the page exists in. */
  alternateLocales: string[];
  image: PageHead['image'] | null;
  /** Twitter's card: the large one when there is a picture to show. */
  card: 'summary' | 'summary_large_image';
}

/** Open Graph's `language_TERRITORY` of a page language (its own word when the catalogue has none). */
function localeOf(m: Messages, lang: string): string {
  return m.seoLocale === 'en_US' && lang !== 'en' ? lang : m.seoLocale;
}

/**
 * The Open Graph and Twitter card of a page. An event's page is an `article`: `event` is not one
 * of the Open Graph protocol's types (ogp.me), and previewers treat unknown types as `website`
 * at best; every view and list is a `website`. The picture must be an absolute http(s) URL.
 */
export function openGraph(
  scope: PageScope,
  head: PageHead,
  view: unknown,
  description: string,
  url: string,
  alternates: ReadonlyArray<{ lang: string }>,
): OpenGraph {
  const image = head.image && /^https?:\/\//.test(head.image.url) ? head.image : null;
  return {
    type: view === 'event' ? 'article' : 'website',
    title: head.title,
    description,
    url,
    siteName: scope.m.siteName,
    locale: localeOf(scope.m, scope.lang),
    alternateLocales: alternates
      .filter((alt) => alt.lang !== scope.lang)
      .map((alt) => localeOf(messagesOf(alt.lang), alt.lang)),
    image,
    card: image ? 'summary_large_image' : 'summary',
  };
}
