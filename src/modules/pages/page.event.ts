import type { EventRow } from '../../db/database.js';
import { displayCost } from '../../lib/cost-reading.js';
import { plainText } from './page-event.jsonld.js';
import { formats, type Messages } from './page.i18n.js';
import type { PagePaths } from './page.links.js';
import type { SeriesOverview } from '../recurrence/recurrence.service.js';

/**
 * What the event page shows, from the API's own event object (toEventObject), so the page and
 * GET /events/{id} never disagree: dates in the event's zone, venue, organizers, terms, and the
 * "Add to calendar" links.
 */

type Obj = Record<string, unknown>;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const isWebAddress = (value: string) => /^https?:\/\//i.test(value);

export interface Linked {
  name: string;
  href: string;
}

/** `20270314T180000Z` from a stored UTC value; `20270314` from a day. */
const compact = (value: string) => value.replace(/[-:]/g, '').replace(' ', 'T');

/** The calendar day after a `YYYY-MM-DD` day (an all-day event's exclusive end). */
function dayAfter(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

/** A Google Calendar "create event" template link (calendar.google.com/calendar/render, action TEMPLATE). */
export function googleCalendarLink(event: Obj, location: string): string {
  const allDay = event['all_day'] === true;
  const start = text(event['utc_start_date']);
  const end = text(event['utc_end_date']);
  const dates = allDay
    ? `${compact(text(event['start_date']).slice(0, 10))}/${compact(dayAfter(text(event['end_date']).slice(0, 10)))}`
    : `${compact(start)}Z/${compact(end)}Z`;
  const params = new URLSearchParams({
    action: 'TEMPLATE',
    text: text(event['title']),
    dates,
    details: text(event['url']),
  });
  if (location !== '') params.set('location', location);
  if (!allDay) params.set('ctz', text(event['timezone']));
  return `https://calendar.google.com/calendar/render?${params.toString()}`;
}

/** One line of a venue's address ("12 Main St, Springfield, 12345, USA"). */
export function addressLine(venue: Obj): string {
  return ['address', 'city', 'stateprovince', 'zip', 'country']
    .map((f) => text(venue[f]).trim())
    .filter(Boolean)
    .join(', ');
}

export function mapLink(query: string): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(query)}`;
}

/** Dates as words, with `<time>` values: ISO UTC instants for timed events, days for all-day ones. */
export function eventDates(event: Obj, lang: string) {
  const allDay = event['all_day'] === true;
  const start = text(event['start_date']);
  const end = text(event['end_date']);
  const iso = (utc: string) => `${utc.replace(' ', 'T')}Z`;
  return {
    text: formats.range(lang, start, end, allDay),
    allDay,
    start: allDay ? start.slice(0, 10) : iso(text(event['utc_start_date'])),
    end: allDay ? end.slice(0, 10) : iso(text(event['utc_end_date'])),
    /** "CET (Europe/Paris)": the zone the times are in; all-day events have none. */
    zone: allDay
      ? ''
      : text(event['timezone_abbr']) === text(event['timezone'])
        ? text(event['timezone'])
        : `${text(event['timezone_abbr'])} (${text(event['timezone'])})`,
  };
}

/**
 * The language of a title whose script says it and differs from the page's, for its element's
 * `lang` (a Japanese title on an English page is read and hyphenated as Japanese): kana is
 * Japanese, hangul Korean. Han characters alone may be Chinese or Japanese, so they are not guessed.
 */
export function titleLang(title: string, pageLang: string): string {
  const head = title.slice(0, 400);
  const lang = /[\p{Script=Hiragana}\p{Script=Katakana}]/u.test(head)
    ? 'ja'
    : /\p{Script=Hangul}/u.test(head)
      ? 'ko'
      : '';
  return lang === pageLang.slice(0, 2) ? '' : lang;
}

/** The cost as the page shows it (the author's words unless it is only a price: cost-reading.ts); '' when protected. */
export function pageCost(row: EventRow, m: Messages): string {
  if (row.password !== '') return '';
  return displayCost(JSON.parse(row.cost) as string[], row.currency_symbol, row.currency_position, m.free);
}

/** Characters of the meta description: what a search result shows. */
const META_DESCRIPTION_CHARS = 155;

/**
 * A page's meta description: the record's excerpt, else its description, as plain text; else the
 * fallback (an event's dates). A password-protected record's text is not shown.
 */
export function metaDescription(
  row: { password: string; excerpt: string; description: string },
  fallback: string | undefined,
): string | undefined {
  if (row.password !== '') return fallback;
  const source = row.excerpt.trim() !== '' ? row.excerpt : row.description;
  return (source === '' ? '' : plainText(source, META_DESCRIPTION_CHARS)) || fallback;
}

const dimension = (value: unknown) => (typeof value === 'number' && value > 0 ? value : undefined);

function terms(list: unknown, href: (slug: string) => string): Linked[] {
  return Array.isArray(list)
    ? (list as Obj[]).map((t) => ({ name: text(t['name']), href: href(text(t['slug'])) }))
    : [];
}

/** The event page's view model. `blank`: a password-protected event, shown without its content. */
export function eventPageView(
  row: EventRow,
  event: Obj,
  paths: PagePaths,
  lang: string,
  m: Messages,
  blank: boolean,
  series: SeriesOverview | null = null,
) {
  const venue =
    event['venue'] && typeof event['venue'] === 'object' && !Array.isArray(event['venue']) && 'id' in event['venue']
      ? (event['venue'] as Obj)
      : null;
  const address = venue ? addressLine(venue) : '';
  const image = event['image'] && typeof event['image'] === 'object' ? (event['image'] as Obj) : null;
  const website = text(event['website']);
  const cost = pageCost(row, m);
  const title = text(event['title']);
  const organizerSites = new Set(
    (Array.isArray(event['organizer']) ? (event['organizer'] as Obj[]) : []).map((o) => text(o['website'])),
  );
  return {
    id: row.id,
    title,
    titleLang: titleLang(title, lang),
    featured: event['featured'] === true,
    dates: eventDates(event, lang),
    image:
      image && isWebAddress(text(image['url']))
        ? { url: text(image['url']), width: dimension(image['width']), height: dimension(image['height']) }
        : null,
    description: blank ? '' : text(event['description']),
    protected: blank,
    cost: cost === '' ? null : cost,
    // The event's own website; not the event's page, nor an organizer's website, shown with the organizer.
    website: isWebAddress(website) && website !== text(event['url']) && !organizerSites.has(website) ? website : null,
    venue: venue
      ? {
          name: text(venue['venue']),
          href: paths.venue(text(venue['slug'])),
          address,
          phone: text(venue['phone']),
          website: isWebAddress(text(venue['website'])) ? text(venue['website']) : '',
          map: event['show_map_link'] === true && address !== '' ? mapLink(address) : null,
        }
      : null,
    organizers: (Array.isArray(event['organizer']) ? (event['organizer'] as Obj[]) : []).map((o) => ({
      name: text(o['organizer']),
      href: paths.organizer(text(o['slug'])),
      phone: text(o['phone']),
      email: text(o['email']),
      website: isWebAddress(text(o['website'])) ? text(o['website']) : '',
    })),
    categories: terms(event['categories'], paths.category),
    tags: terms(event['tags'], paths.tag),
    series: series && {
      summary: series.summary,
      next: series.next.map((o) => ({
        href: paths.event(o.slug),
        dates: eventDates(
          {
            all_day: o.all_day === 1,
            start_date: o.start_local,
            end_date: o.end_local,
            utc_start_date: o.start_utc,
            utc_end_date: o.end_utc,
            timezone: o.timezone,
            timezone_abbr: o.timezone_abbr,
          },
          lang,
        ),
      })),
    },
    ics: paths.api(`events/${row.id}?format=ical`),
    google: googleCalendarLink(event, venue ? [text(venue['venue']), address].filter(Boolean).join(', ') : ''),
    m,
  };
}

export type EventPageView = ReturnType<typeof eventPageView>;

/**
 * One event of a list (list, day, venue, organizer and term pages). `cost`: the page's reading of
 * it (pageCost), where the caller has the row; else the API's.
 */
export function eventSummary(event: Obj, paths: PagePaths, lang: string, cost?: string) {
  const venue =
    event['venue'] && typeof event['venue'] === 'object' && 'id' in (event['venue'] as Obj)
      ? (event['venue'] as Obj)
      : null;
  const image = event['image'] && typeof event['image'] === 'object' ? (event['image'] as Obj) : null;
  const title = text(event['title']);
  return {
    title,
    titleLang: titleLang(title, lang),
    href: paths.event(text(event['slug'])),
    dates: eventDates(event, lang),
    featured: event['featured'] === true,
    venue: venue
      ? { name: text(venue['venue']), href: paths.venue(text(venue['slug'])), address: addressLine(venue) }
      : null,
    excerpt: text(event['excerpt']),
    cost: cost ?? text(event['cost']),
    image: image ? text(image['url']) : '',
    categories: terms(event['categories'], paths.category),
  };
}

export type EventSummary = ReturnType<typeof eventSummary>;
