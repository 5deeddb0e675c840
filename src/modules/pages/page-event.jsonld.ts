import type { EventRow } from '../../db/database.js';
import { costOffer, currencyCode } from '../../lib/cost-reading.js';
import { toIsoWithOffset, zoneOrUtc } from '../../lib/dates.js';
import { stripTags } from '../../lib/html.js';
import { isEmailAddress } from '../../lib/url.js';

/**
 * The schema.org JSON-LD of the public pages (an event, a venue, an organizer), per schema.org and
 * Google's event rich results. The API's `json_ld` stays the original's (event.jsonld.ts: `http:`
 * context, `performer: "Organization"`, organizers as `Person`, empty strings); search engines read
 * the pages, so the pages say it properly: absolute URLs, no empty value (a missing field is left
 * out), currencies as ISO codes, all-day events as dates.
 */

type Obj = Record<string, unknown>;

const CONTEXT = 'https://schema.org';
/** Characters of plain text a description keeps: a search result's snippet, and then some. */
const DESCRIPTION_CHARS = 300;
/** Characters of stored HTML read to make it: the HTML parser never reads a whole long description. */
const DESCRIPTION_READ = 4000;

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');
const webAddress = (value: unknown): string => (/^https?:\/\//i.test(text(value)) ? text(value) : '');

/** Plain text of stored HTML, white space as single spaces, cut at a word with an ellipsis past `max`. */
export function plainText(html: string, max: number): string {
  const plain = stripTags(html.slice(0, DESCRIPTION_READ)).replace(/\s+/gu, ' ').trim();
  if (plain.length <= max) return plain;
  const cut = plain.slice(0, max - 1);
  const word = cut.replace(/\s+\S*$/u, '');
  return `${word.length > max / 2 ? word : cut}…`;
}

/** The value without its empty parts: '', null, undefined, [] and objects left with nothing but their @type. */
function compact(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(compact).filter((item) => item !== undefined);
    return items.length === 0 ? undefined : items;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Obj)
      .map(([key, item]) => [key, compact(item)] as const)
      .filter(([, item]) => item !== undefined);
    return entries.every(([key]) => key.startsWith('@')) ? undefined : Object.fromEntries(entries);
  }
  return value === '' || value === null || value === undefined ? undefined : value;
}

/** A venue as a schema.org Place: its address as a PostalAddress, its coordinates as GeoCoordinates. */
export function placeLd(venue: Obj, url: string): Obj {
  const lat = Number(venue['geo_lat']);
  const lng = Number(venue['geo_lng']);
  const located = venue['geo_lat'] != null && venue['geo_lng'] != null && Number.isFinite(lat) && Number.isFinite(lng);
  return {
    '@type': 'Place',
    name: text(venue['venue'] ?? venue['title']),
    url,
    address: {
      '@type': 'PostalAddress',
      streetAddress: text(venue['address']),
      addressLocality: text(venue['city']),
      addressRegion: text(venue['stateprovince']) || text(venue['state']) || text(venue['province']),
      postalCode: text(venue['zip']),
      addressCountry: text(venue['country']),
    },
    geo: located && !(lat === 0 && lng === 0) ? { '@type': 'GeoCoordinates', latitude: lat, longitude: lng } : null,
    telephone: text(venue['phone']),
    sameAs: webAddress(venue['website']),
  };
}

/**
 * An organizer as a schema.org Organization. Records do not say whether an organizer is a person or
 * a body, and the calendar's organizers are the associations, venues and companies that run
 * events: Organization fits them, and Google accepts it for any organizer, where calling a company
 * a Person is wrong. Its `url` is its own website, else its page here.
 */
export function organizationLd(organizer: Obj, page: string): Obj {
  const email = text(organizer['email']);
  return {
    '@type': 'Organization',
    name: text(organizer['organizer'] ?? organizer['title']),
    url: webAddress(organizer['website']) || page,
    email: isEmailAddress(email) ? email : '',
    telephone: text(organizer['phone']),
  };
}

/** The offer of the event's cost, or null: no certain price, or a price in a currency not known (Google requires one). */
function offerLd(row: EventRow, url: string): Obj | null {
  const offer = costOffer(JSON.parse(row.cost) as string[], row.currency_symbol, row.currency_code);
  if (!offer) return null;
  const common = { url, availability: 'https://schema.org/InStock', validFrom: `${row.date_utc.replace(' ', 'T')}Z` };
  // A free event is price 0; a zero needs no currency, so one is given only when the event names it.
  if (offer.free) return { '@type': 'Offer', price: 0, priceCurrency: offerCurrency(row), ...common };
  if (offer.currency === '') return null;
  return offer.low === offer.high
    ? { '@type': 'Offer', price: offer.low, priceCurrency: offer.currency, ...common }
    : {
        '@type': 'AggregateOffer',
        lowPrice: offer.low,
        highPrice: offer.high,
        priceCurrency: offer.currency,
        ...common,
      };
}

const offerCurrency = (row: EventRow) => currencyCode(row.currency_code) || currencyCode(row.currency_symbol);

export interface EventLdInput {
  row: EventRow;
  /** The API's event object (toEventObject), blanked when the event is password-protected. */
  event: Obj;
  blank: boolean;
}

/**
 * The event page's Event. Attendance: a venue is a place to go to (Offline); an event with no venue
 * but a website of its own is attended there (Online, the website as its VirtualLocation); with
 * neither the mode is not known and is left out. The status is EventScheduled: a trashed event's page is gone
 * (410) and there is no postponed state. No `performer`: records do not name one.
 */
export function eventPageLd({ row, event, blank }: EventLdInput): Obj {
  const allDay = event['all_day'] === true;
  const zone = zoneOrUtc(text(event['timezone']));
  const date = (local: string) => (allDay ? local.slice(0, 10) : toIsoWithOffset(local, zone));
  const url = text(event['url']);
  const venue = event['venue'] && !Array.isArray(event['venue']) ? (event['venue'] as Obj) : null;
  const website = webAddress(event['website']);
  const image = event['image'] && typeof event['image'] === 'object' ? webAddress((event['image'] as Obj)['url']) : '';
  const people = Array.isArray(event['organizer']) ? (event['organizer'] as Obj[]) : [];
  const organizers = people.map((o) => organizationLd(o, text(o['url'])));
  // The event's own website, not its page here nor an organizer's site (which says who, not where).
  const online = !venue && website !== '' && website !== url && !people.some((o) => text(o['website']) === website);
  const source = blank ? '' : text(row.excerpt) !== '' ? row.excerpt : row.description;
  const ld = {
    '@context': CONTEXT,
    '@type': 'Event',
    name: stripTags(text(event['title'])),
    description: source === '' ? '' : plainText(source, DESCRIPTION_CHARS),
    url,
    image: image ? [image] : null,
    startDate: date(text(event['start_date'])),
    endDate: date(text(event['end_date'])),
    eventStatus: 'https://schema.org/EventScheduled',
    eventAttendanceMode: venue
      ? 'https://schema.org/OfflineEventAttendanceMode'
      : online
        ? 'https://schema.org/OnlineEventAttendanceMode'
        : '',
    location: venue ? placeLd(venue, text(venue['url'])) : online ? { '@type': 'VirtualLocation', url: website } : null,
    organizer: organizers.length === 1 ? organizers[0] : organizers,
    offers: blank ? null : offerLd(row, url),
  };
  return compact(ld) as Obj;
}

/** A venue's or organizer's own page: its Place or Organization, with the context. */
export function linkedPageLd(kind: 'venue' | 'organizer', record: Obj, url: string): Obj {
  const description = text(record['excerpt']) || text(record['description']);
  const ld = kind === 'venue' ? placeLd(record, url) : organizationLd(record, url);
  return compact({
    '@context': CONTEXT,
    ...ld,
    url: kind === 'venue' ? url : ld['url'],
    description: description === '' ? '' : plainText(description, DESCRIPTION_CHARS),
  }) as Obj;
}
