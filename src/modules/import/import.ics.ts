import { createHash } from 'node:crypto';
import ICAL from 'ical.js';
import type { Skipped, SourceRecord } from './import.types.js';
import { SourceError } from './import.source-http.js';
import { excerpt } from '../../lib/redact.js';
import type { RecurrencePolicy } from '../recurrence/recurrence.input.js';
import { compact, FeedZones, tzidOf, type Component } from './import.ics-zones.js';
import { eventRecord, text } from './import.ics-event.js';
import { LinkedRecords } from './import.ics-linked.js';
import { readSeries } from './import.ics-series.js';
import { IcsNotes, tolerantIcs } from './import.ics-text.js';

/**
 * An iCalendar feed (RFC 5545, as Google, Apple, Outlook and others write them) read as import
 * records: each VEVENT an event, LOCATION a venue, ORGANIZER an organizer, CATEGORIES categories.
 * Parsed by ical.js; times keep their wall clock and their zone (the service stores both), so
 * nothing is converted unless the zone is one only the feed knows (then through its VTIMEZONE, to
 * UTC). A series (RRULE) is one record with its `recurrence`, and each RECURRENCE-ID override one
 * record naming the occurrence it edits (or cancels); a series this service would refuse is
 * expanded by ical.js into its occurrences for the next year instead.
 *
 * The calendar is parsed once, here; the reading of it is shared by the functions of
 * import.ics-zones.ts (times and zones), import.ics-event.ts (one VEVENT's fields),
 * import.ics-linked.ts (its venue, organizer and categories) and import.ics-series.ts (a series
 * and its overrides, or its occurrences).
 */

export interface IcsOptions {
  lang: string;
  /** A category every event gets (its name). */
  category?: string | undefined;
  /** Overrides the feed's own name. */
  calendarName?: string | undefined;
  now?: Date;
  /** How far ahead a series this service would refuse is expanded into occurrences (days). */
  horizonDays?: number;
  /** At most this many occurrences of such a series. */
  maxOccurrences?: number;
  /** The service's own limits on a series (CAL_RECURRENCE_MAX, CAL_RECURRENCE_HORIZON_DAYS). */
  recurrence?: Pick<RecurrencePolicy, 'max' | 'horizonDays'>;
}

export interface IcsRead {
  records: SourceRecord[];
  skipped: Skipped[];
  warnings: string[];
  calendarName: string | null;
}

/** One feed being read: its parsed calendar, the options, and what was read so far. */
export interface IcsReading {
  readonly options: IcsOptions;
  readonly lang: string;
  readonly now: Date;
  readonly horizonDays: number;
  readonly maxOccurrences: number;
  readonly zones: FeedZones;
  /** The overrides (VEVENTs with a RECURRENCE-ID) of each UID. */
  readonly overrides: Map<string, Component[]>;
  readonly linked: LinkedRecords;
  readonly events: SourceRecord[];
  readonly skipped: Skipped[];
  readonly warnings: string[];
  /** An event record to the events, a skip to the skipped. */
  add(record: SourceRecord | Skipped): void;
}

/** The VCALENDAR of a feed (its text repaired as other readers take it: import.ics-text.ts), or a SourceError saying in one line why it is not one. */
function parseCalendar(input: string, notes: IcsNotes): Component {
  const head = input.replace(/^\uFEFF/, '').trimStart();
  if (!/^BEGIN:VCALENDAR/i.test(head))
    throw new SourceError(`Not an iCalendar file: it starts with "${excerpt(head, 30)}".`);
  try {
    return new ICAL.Component(ICAL.parse(tolerantIcs(head, notes)));
  } catch (error) {
    // ical.js quotes the offending line, which may be anything up to the whole feed.
    throw new SourceError(`The iCalendar file does not parse: ${excerpt((error as Error).message)}.`);
  }
}

/** The records of a feed, what was skipped and why, and warnings; throws SourceError when it is not a calendar. */
export function readIcs(input: string, options: IcsOptions): IcsRead {
  const notes = new IcsNotes();
  const calendar = parseCalendar(input, notes);
  const vevents = calendar.getAllSubcomponents('vevent');
  const overrides = new Map<string, Component[]>();
  for (const vevent of vevents) {
    if (vevent.hasProperty('recurrence-id') && vevent.hasProperty('uid'))
      overrides.set(text(vevent, 'uid'), [...(overrides.get(text(vevent, 'uid')) ?? []), vevent]);
  }
  const events: SourceRecord[] = [];
  const skipped: Skipped[] = [];
  const reading: IcsReading = {
    options,
    lang: options.lang,
    now: options.now ?? new Date(),
    horizonDays: options.horizonDays ?? 365,
    maxOccurrences: options.maxOccurrences ?? 1000,
    zones: new FeedZones(calendar, notes),
    overrides,
    linked: new LinkedRecords(options.lang),
    events,
    skipped,
    warnings: [],
    add: (record) => ('reason' in record ? skipped.push(record) : events.push(record)),
  };
  for (const vevent of vevents) readVevent(reading, vevents, vevent);
  reading.warnings.push(...reading.zones.warnings());
  const name = options.calendarName ?? (text(calendar, 'x-wr-calname') || text(calendar, 'name') || null);
  return {
    records: [...reading.linked.records(), ...events],
    skipped,
    warnings: reading.warnings,
    calendarName: name,
  };
}

/** One VEVENT of the feed: an event, a series, or an override (read with its series, if the feed has it). */
function readVevent(reading: IcsReading, vevents: Component[], vevent: Component): void {
  const { lang } = reading;
  let uid = text(vevent, 'uid');
  const start = vevent.getFirstPropertyValue('dtstart');
  if (!(start instanceof ICAL.Time)) {
    reading.skipped.push({ kind: 'event', sourceId: uid || '?', lang, reason: 'no readable DTSTART' });
    return;
  }
  if (!uid) {
    uid = `nouid-${createHash('sha256')
      .update(`${start.toString()}\n${text(vevent, 'summary')}`)
      .digest('hex')
      .slice(0, 16)}`;
    reading.warnings.push(`An event without UID ("${excerpt(text(vevent, 'summary'), 100)}") was given the id ${uid}.`);
  }
  const startTzid = tzidOf(vevent.getFirstProperty('dtstart'));
  const endTzid = tzidOf(vevent.getFirstProperty('dtend')) ?? startTzid;
  // An override of a series is written with its occurrence; alone (no series here), as itself.
  if (vevent.hasProperty('recurrence-id')) {
    const event = new ICAL.Event(vevent);
    const master = vevents.some((v) => v !== vevent && text(v, 'uid') === uid && !v.hasProperty('recurrence-id'));
    if (!master)
      reading.add(
        eventRecord(
          reading,
          vevent,
          `${uid}@${compact(event.recurrenceId)}`,
          event.startDate,
          event.endDate,
          startTzid,
          endTzid,
        ),
      );
    return;
  }
  const event = new ICAL.Event(vevent);
  if (!event.isRecurring()) {
    reading.add(eventRecord(reading, vevent, uid, event.startDate, event.endDate, startTzid, endTzid));
    return;
  }
  readSeries(reading, vevent, event, uid, { start: startTzid, end: endTzid });
}
