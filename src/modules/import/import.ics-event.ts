import ICAL from 'ical.js';
import type { Skipped, SourceRecord } from './import.types.js';
import { excerpt } from '../../lib/redact.js';
import { day, wall, wallIn, type Component, type Time } from './import.ics-zones.js';
import type { IcsReading } from './import.ics.js';

/**
 * One VEVENT's fields as an event record in this service's request shape: title, status, times
 * (wall clock and zone), description (its HTML alternative, else its text as paragraphs), website,
 * image, and the source ids of its venue, organizer and categories. A cancelled VEVENT is a skip
 * with its reason. What other calendar programs tolerate is read as they read it, with a note
 * (reading.zones.notes): no SUMMARY (optional in RFC 5545) gives a title from the description's
 * first line, else "(untitled)"; an end before the start gives no duration.
 */

/** Titles made from a description are at most this long (the service takes longer ones, but a title is a line). */
const TITLE_FROM_DESCRIPTION = 80;

export type { Component };
type Json = Record<string, unknown>;

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Plain text as HTML: blank lines make paragraphs, single newlines breaks. */
function textToHtml(text: string): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((p) => `<p>${escapeHtml(p.trim()).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

/** A text property's value, trimmed; '' when the VEVENT has none. */
export function text(component: Component, name: string): string {
  const value = component.getFirstPropertyValue(name);
  return typeof value === 'string' ? value.trim() : '';
}

/** When the source last changed the VEVENT (LAST-MODIFIED, else DTSTAMP), in UTC. */
export function utcStamp(component: Component): string | null {
  for (const name of ['last-modified', 'dtstamp']) {
    const value = component.getFirstPropertyValue(name);
    if (value instanceof ICAL.Time) return wall(value.convertToZone(ICAL.Timezone.utcTimezone));
  }
  return null;
}

/** The names of a CATEGORIES list (several properties, each a comma list). */
function categoriesOf(component: Component): string[] {
  return component
    .getAllProperties('categories')
    .flatMap((p) => p.getValues().map(String))
    .map((c) => c.trim())
    .filter(Boolean);
}

/** The description: the HTML alternative (Outlook's X-ALT-DESC) if any, else the text as paragraphs. */
function descriptionOf(component: Component): string {
  const html = component
    .getAllProperties('x-alt-desc')
    .find((p) => String(p.getParameter('fmttype') ?? '').toLowerCase() === 'text/html')
    ?.getFirstValue();
  return typeof html === 'string' && html.trim()
    ? html.trim()
    : text(component, 'description')
      ? textToHtml(text(component, 'description'))
      : '';
}

/** The first http(s) IMAGE, or ATTACH that is an image by its type or its name. */
function imageOf(component: Component): string | undefined {
  return [...component.getAllProperties('image'), ...component.getAllProperties('attach')]
    .map((p) => ({
      value: String(p.getFirstValue() ?? ''),
      type: String(p.getParameter('fmttype') ?? ''),
      image: p.name === 'image',
    }))
    .find(
      (a) =>
        /^https?:\/\//i.test(a.value) &&
        (a.image || a.type.startsWith('image/') || /\.(jpe?g|png|gif|webp)(\?|$)/i.test(a.value)),
    )?.value;
}

/** The title of a VEVENT without SUMMARY: its description's first line (shortened), else "(untitled)". */
function untitled(component: Component): string {
  // Only the head of the description is read: a line longer than a title is cut anyway.
  const head = text(component, 'description').slice(0, TITLE_FROM_DESCRIPTION * 4);
  // Some feeds write HTML in DESCRIPTION: its tags are no part of a title.
  const line = head
    .split(/\n|<br\s*\/?>|<\/p>/i)
    .map((l) => l.replace(/<[^<>]{0,200}>/g, '').trim())
    .find(Boolean);
  return line ? excerpt(line, TITLE_FROM_DESCRIPTION) : '(untitled)';
}

/** One event record from a VEVENT, at `start`/`end` (an occurrence of a series, or its own). */
export function eventRecord(
  reading: IcsReading,
  component: Component,
  sourceId: string,
  start: Time,
  end: Time,
  startTzid: string | undefined,
  endTzid: string | undefined,
): SourceRecord | Skipped {
  const { lang, zones, linked } = reading;
  const status = text(component, 'status').toUpperCase();
  if (status === 'CANCELLED') return { kind: 'event', sourceId, lang, reason: 'cancelled in the source' };
  const uid = excerpt(text(component, 'uid') || sourceId, 80);
  let title = text(component, 'summary');
  if (!title) {
    title = untitled(component);
    zones.notes.add(
      'Events without SUMMARY, titled by their description\'s first line or "(untitled)"',
      `${uid}: "${title}"`,
      component,
    );
  }
  const allDay = start.isDate;
  const from = zones.zoned(start, startTzid);
  let until: string;
  if (allDay) {
    // DTEND of a date is exclusive (RFC 5545 3.6.1): the last day is the one before.
    const last = end.clone();
    last.adjust(-1, 0, 0, 0);
    until = day(last);
  } else {
    // The end in the start's zone (DTEND may name another): the service stores both in one.
    until = wallIn(zones, end, endTzid, from.timezone);
  }
  // Other programs show an end before the start as no duration rather than drop the event (a
  // one-day event whose DTEND is its DTSTART, as many write, is no such end).
  if (allDay ? day(end) < from.local : until < from.local)
    zones.notes.add('Events ending before they start, read as ending when they start', uid, component);
  if (until < from.local) until = from.local;
  const confidential = ['PRIVATE', 'CONFIDENTIAL'].includes(text(component, 'class').toUpperCase());
  const payload: Json = {
    title,
    status: status === 'TENTATIVE' ? 'draft' : confidential ? 'private' : 'publish',
    start_date: from.local,
    end_date: until,
  };
  if (allDay) payload['all_day'] = true;
  else if (from.timezone) payload['timezone'] = from.timezone;
  const description = descriptionOf(component);
  if (description) payload['description'] = description;
  const url = text(component, 'url');
  if (/^https?:\/\//i.test(url)) payload['website'] = url;
  const image = imageOf(component);
  if (image) payload['image'] = image;
  const categoryIds = [
    ...categoriesOf(component).map((name) => linked.category(name)),
    ...(reading.options.category ? [linked.category(reading.options.category)] : []),
  ];
  const venueId = linked.venue(component);
  const organizerId = linked.organizer(component);
  return {
    kind: 'event',
    sourceId,
    lang,
    modified: utcStamp(component),
    payload,
    links: {
      ...(venueId ? { venue: venueId } : {}),
      ...(organizerId ? { organizers: [organizerId] } : {}),
      categories: [...new Set(categoryIds)],
    },
  };
}
