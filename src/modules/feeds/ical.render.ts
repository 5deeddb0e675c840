import type { EventRow } from '../../db/database.js';
import { shiftDays } from '../../lib/dates.js';
import { stripTags } from '../../lib/html.js';
import { icalZone } from './ical.timezones.js';
import {
  CRLF,
  dateTimeValue,
  dateValue,
  escapeText,
  htmlToText,
  paramValue,
  property,
  textProperty,
  utcValue,
} from './ical.text.js';

/**
 * iCalendar (RFC 5545, RFC 7986) of events: the calendar's head and tail, and one VEVENT per
 * event, built from the stored row (dates, zone, status) and the event object the JSON API shows
 * the same caller (texts, venue, organizers, terms, image: blanked as the list blanks them).
 */

export const PRODUCT_ID = '-//cal-events//Event Calendar cal/events/v1//EN';
/** How often subscribers are asked to poll (RFC 7986 REFRESH-INTERVAL, X-PUBLISHED-TTL). */
export const REFRESH_INTERVAL = 'PT1H';

export interface CalendarHead {
  /** NAME and X-WR-CALNAME. */
  name: string;
  description?: string;
  /** Site time zone, for X-WR-TIMEZONE (IANA names and UTC only). */
  timezone: string;
  /** The feed's own address (RFC 7986 SOURCE). */
  source: string;
  /** The site (RFC 7986 URL). */
  url: string;
  /** VTIMEZONE components, already serialized. */
  timezones: string;
}

export function calendarHead(head: CalendarHead): string {
  const zone = icalZone(head.timezone);
  const wrZone = zone.tzid ?? (/^UTC$/i.test(head.timezone) ? 'UTC' : null);
  return (
    `BEGIN:VCALENDAR${CRLF}` +
    `VERSION:2.0${CRLF}` +
    property('PRODID', PRODUCT_ID) +
    `CALSCALE:GREGORIAN${CRLF}` +
    `METHOD:PUBLISH${CRLF}` +
    textProperty('NAME', head.name) +
    textProperty('X-WR-CALNAME', head.name) +
    (head.description
      ? textProperty('DESCRIPTION', head.description) + textProperty('X-WR-CALDESC', head.description)
      : '') +
    (wrZone ? textProperty('X-WR-TIMEZONE', wrZone) : '') +
    property('REFRESH-INTERVAL', REFRESH_INTERVAL, ';VALUE=DURATION') +
    property('X-PUBLISHED-TTL', REFRESH_INTERVAL) +
    property('SOURCE', uri(head.source), ';VALUE=URI') +
    property('URL', uri(head.url), ';VALUE=URI') +
    head.timezones
  );
}

export const CALENDAR_TAIL = `END:VCALENDAR${CRLF}`;

/** A URI value: no escaping in iCalendar, but a line break or control character must not get in. */
function uri(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u001F\u007F]/g, '');
}

/** DTSTART and DTEND: VALUE=DATE for all-day events (DTEND the day after the last), else TZID or UTC form. */
function eventDates(row: EventRow): string {
  if (row.all_day === 1) {
    // The last day is the one the event ends on; an end at midnight sharp ends the day before.
    const lastDay =
      row.end_local.slice(11) === '00:00:00' && row.end_local > row.start_local
        ? shiftDays(row.end_local, -1)
        : row.end_local;
    const endDay = shiftDays(`${lastDay.slice(0, 10)} 00:00:00`, 1);
    return (
      property('DTSTART', dateValue(row.start_local), ';VALUE=DATE') +
      property('DTEND', dateValue(endDay), ';VALUE=DATE')
    );
  }
  const { tzid } = icalZone(row.timezone);
  if (tzid === null) return property('DTSTART', utcValue(row.start_utc)) + property('DTEND', utcValue(row.end_utc));
  const param = `;TZID=${paramValue(tzid)}`;
  return (
    property('DTSTART', dateTimeValue(row.start_local), param) + property('DTEND', dateTimeValue(row.end_local), param)
  );
}

/**
 * SEQUENCE: the event's `revision`, which every write bumps (the conditional writes' column);
 * 0 while the database has no such column.
 */
function sequenceOf(row: EventRow): number {
  const revision = Number((row as unknown as { revision?: unknown }).revision ?? 0);
  return Number.isSafeInteger(revision) && revision >= 0 ? revision : 0;
}

const MAILTO = /^[^\s@:;,<>"()[\]\\]+@[^\s@:;,<>"()[\]\\]+\.[^\s@:;,<>"()[\]\\]+$/;

/** `LOCATION`: the venue's name and address, comma separated. */
function locationOf(venue: Record<string, unknown>): string {
  const parts = [
    venue['venue'],
    venue['address'],
    venue['city'],
    venue['stateprovince'] || venue['state'] || venue['province'],
    venue['zip'],
    venue['country'],
  ];
  return parts
    .filter((p): p is string => typeof p === 'string' && p.trim() !== '')
    .map((p) => p.trim())
    .join(', ');
}

/** The image's media type from its extension, for ATTACH;FMTTYPE. */
const IMAGE_TYPES: Record<string, string> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  avif: 'image/avif',
};

/** What makes a VEVENT part of a series (ical.series.ts): the series' UID, and RRULE… or RECURRENCE-ID lines. */
export interface SeriesLines {
  uid: string;
  lines: string;
}

/**
 * The VEVENT of a readable event. `event` is the JSON object of the event for this caller: for a
 * password-protected event not unlocked it is blanked, so the VEVENT has no description, venue,
 * organizers, categories or image.
 */
export function renderEvent(row: EventRow, event: Record<string, unknown>, series?: SeriesLines): string {
  const globalId = series?.uid ?? String(event['global_id']);
  let out =
    `BEGIN:VEVENT${CRLF}` +
    textProperty('UID', globalId) +
    property('DTSTAMP', utcValue(row.modified_utc)) +
    eventDates(row) +
    (series?.lines ?? '');
  out += textProperty('SUMMARY', row.title);
  const html = typeof event['description'] === 'string' ? event['description'] : '';
  if (html !== '') {
    out += textProperty('DESCRIPTION', htmlToText(html, stripTags));
    out += textProperty('X-ALT-DESC', html, ';FMTTYPE=text/html');
  }
  out += property('URL', uri(String(event['url'])), ';VALUE=URI');
  const venue = event['venue'];
  if (venue && !Array.isArray(venue) && typeof venue === 'object') {
    const v = venue as Record<string, unknown>;
    const location = locationOf(v);
    if (location !== '') out += textProperty('LOCATION', location);
    if (typeof v['geo_lat'] === 'number' && typeof v['geo_lng'] === 'number')
      out += property('GEO', `${v['geo_lat']};${v['geo_lng']}`);
  }
  const organizers = Array.isArray(event['organizer']) ? (event['organizer'] as Record<string, unknown>[]) : [];
  // RFC 5545 allows one ORGANIZER; the others are listed as contacts.
  organizers.forEach((organizer, index) => {
    const name = String(organizer['organizer'] ?? '');
    const email = typeof organizer['email'] === 'string' ? organizer['email'].trim() : '';
    const address = MAILTO.test(email)
      ? `mailto:${email}`
      : uri(String(organizer['website'] || organizer['url'] || ''));
    if (index === 0 && address !== '')
      out += property('ORGANIZER', address, name === '' ? '' : `;CN=${paramValue(name)}`);
    else if (name !== '') out += textProperty('CONTACT', email !== '' ? `${name} <${email}>` : name);
  });
  const categories = Array.isArray(event['categories'])
    ? (event['categories'] as { name?: unknown }[]).map((c) => String(c.name ?? '')).filter(Boolean)
    : [];
  if (categories.length > 0) out += property('CATEGORIES', categories.map(escapeText).join(','));
  out += property('CREATED', utcValue(row.date_utc)) + property('LAST-MODIFIED', utcValue(row.modified_utc));
  out += property('SEQUENCE', String(sequenceOf(row)));
  // Only editors and the author see unpublished events in their feeds: marked so, not confirmed.
  out += property('STATUS', row.status === 'publish' ? 'CONFIRMED' : 'TENTATIVE');
  out += property('CLASS', row.status === 'private' ? 'PRIVATE' : 'PUBLIC');
  const image = event['image'];
  if (image && typeof image === 'object' && typeof (image as { url?: unknown }).url === 'string') {
    const { url, extension } = image as { url: string; extension?: string };
    const type = IMAGE_TYPES[String(extension ?? '').toLowerCase()];
    out += property('ATTACH', uri(url), type ? `;FMTTYPE=${type}` : '');
    out += property('IMAGE', uri(url), `;VALUE=URI;DISPLAY=BADGE${type ? `;FMTTYPE=${type}` : ''}`);
  }
  return out + `END:VEVENT${CRLF}`;
}

export { eventDates };

/**
 * The VEVENT of an event trashed after it was published, still in the feed's window: only what
 * was public, so subscribers drop it (UID, dates, title, STATUS:CANCELLED, a higher SEQUENCE).
 * A series is given its UID and its rule lines (or its RECURRENCE-ID): every instance is cancelled.
 */
export function renderCancelled(row: EventRow, globalId: string, seriesLines = ''): string {
  return (
    `BEGIN:VEVENT${CRLF}` +
    textProperty('UID', globalId) +
    property('DTSTAMP', utcValue(row.modified_utc)) +
    eventDates(row) +
    seriesLines +
    textProperty('SUMMARY', row.title) +
    property('SEQUENCE', String(sequenceOf(row))) +
    `STATUS:CANCELLED${CRLF}` +
    `END:VEVENT${CRLF}`
  );
}
