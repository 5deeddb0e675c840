import { queryString } from './page.links.js';

/**
 * What the layout computes around every page (given to the templates through @fastify/view's
 * defaultContext): the Subscribe menu's links of the page's iCalendar feed, and an embedded page's
 * links sorted between the frame and the window holding it. No SQL, no HTTP.
 */

/** Characters of a feed path or page address read at most: they are the site's own, this only bounds them. */
const MAX_URL = 4096;

export interface SubscribeLinks {
  google: string;
  outlook: string;
  webcal: string;
  ics: string;
}

/**
 * The Subscribe menu of a page whose events are `feed` (a path with its query, the view's filters):
 * Google Calendar and Outlook add the calendar by its URL and keep reading it (Google takes the
 * webcal:// address as `cid`, as the original's "Google Calendar" link does), webcal:// opens the
 * system's calendar (Apple Calendar and the like), and the https:// address downloads the .ics.
 * Absolute URLs are made on the page's own origin, the one its canonical URL names.
 */
export function subscribeLinks(canonical: string, feed: string, name: string): SubscribeLinks | null {
  if (feed === '' || canonical === '') return null;
  let ics: string;
  try {
    ics = new URL(feed.slice(0, MAX_URL), new URL(canonical.slice(0, MAX_URL)).origin).toString();
  } catch {
    return null;
  }
  const webcal = ics.replace(/^https?:/, 'webcal:');
  return {
    google: `https://calendar.google.com/calendar/r?${new URLSearchParams({ cid: webcal }).toString()}`,
    outlook: `https://outlook.live.com/calendar/0/addfromweb?${new URLSearchParams({ url: ics, name }).toString()}`,
    webcal,
    ics,
  };
}

/** An `<a …>` start tag and its href (the templates write attributes double-quoted). */
const LINK = /<a\s([^<>]*?)href="([^"<>]*)"([^<>]*)>/g;

/**
 * An embedded page's body with each link told where it opens: links that carry `embed=1` (the
 * views' own navigation, which the routes build from the view's parameters) stay in the frame;
 * every other one (an event, a venue, the site's own pages) opens in the window holding the frame,
 * since a whole page inside a small frame is no use. The body is the page's own rendered HTML.
 */
export function embedLinks(body: string): string {
  return body.replace(LINK, (tag: string, before: string, href: string, after: string) => {
    if (/\starget=/.test(` ${before} ${after}`)) return tag;
    return /[?&;]embed=1(?:&|$|#)/.test(href.replace(/&amp;/g, '&'))
      ? tag
      : `<a ${before}href="${href}"${after} target="_top">`;
  });
}

/** The views a frame may show (the snippet page offers these). */
export const EMBED_VIEWS = ['month', 'week', 'list', 'photo', 'map'] as const;

/** The snippet page's address for the page's view and filters (the month's when the page is no such view). */
export function embedHref(
  page: string,
  view: unknown,
  filters: Record<string, string | undefined> | undefined,
): string {
  const values: Record<string, string | undefined> = {
    view: EMBED_VIEWS.find((v) => v === view),
    category: filters?.['category'],
    tag: filters?.['tag'],
    venue: filters?.['venue'],
  };
  return page + queryString(values);
}

/** The functions the templates call (pages.routes.ts hands them to @fastify/view). */
export const VIEW_HELPERS = { subscribeLinks, embedLinks, embedHref };
