import { createHash } from 'node:crypto';
import ICAL from 'ical.js';
import type { Skipped, SourceRecord } from './import.types.js';
import { SourceError } from './import.source-http.js';
import { excerpt } from '../../lib/redact.js';
import type { RecurrencePolicy } from '../recurrence/recurrence.input.js';
import { compact, FeedZones, tzidOf, type Component } from './import.ics-zones.js';
import { eventRecord, text } from './import.ics-event.js';
import { LinkedRecords } from './import.ics-linked.js';
import { ExpansionBudget, readAlone, readSeries } from './import.ics-series.js';
import { blockText, latestRevisions, scanCalendar, type VeventBlock } from './import.ics-scan.js';
import { IcsNotes, tolerantIcs } from './import.ics-text.js';

/**
 * An iCalendar feed (RFC 5545, as Google, Apple, Outlook and others write them) read as import
 * records: each VEVENT an event, LOCATION a venue, ORGANIZER an organizer, CATEGORIES categories.
 * Parsed by ical.js; times keep their wall clock and their zone (the service stores both), so
 * nothing is converted unless the zone is one only the feed knows (then through its VTIMEZONE, to
 * UTC). A series (RRULE) is one record with its `recurrence`, and each RECURRENCE-ID override one
 * record naming the occurrence it edits (or cancels); a series this service would refuse is
 * expanded by ical.js into its occurrences instead, within bounds.
 *
 * The text is cut into the calendar and its VEVENTs first (import.ics-scan.ts): the calendar is
 * parsed once, each VEVENT on its own, in its own try (an event ical.js cannot read is a skip with
 * its UID and line), and of several revisions of one event only the latest is read. The reading
 * is shared by the functions of import.ics-zones.ts (times and zones), import.ics-event.ts (one
 * VEVENT's fields), import.ics-linked.ts (its venue, organizer and categories) and
 * import.ics-series.ts (a series and its overrides, or its occurrences).
 */

export interface IcsOptions {
  lang: string;
  /** A category every event gets (its name). */
  category?: string | undefined;
  /** Overrides the feed's own name. */
  calendarName?: string | undefined;
  now?: Date;
  /** How far ahead a series this service would refuse is expanded into occurrences (days); default: `recurrence.horizonDays`. */
  horizonDays?: number;
  /** At most this many occurrences of such a series (the latest ones). */
  maxOccurrences?: number;
  /**
   * The service's own limits on a series (CAL_RECURRENCE_MAX, CAL_RECURRENCE_HORIZON_DAYS) and the
   * import's `since`: a series without an end keeps its occurrences from that day on (in the
   * service, or expanded here when the service cannot hold it); one with an end is kept whole.
   */
  recurrence?: Pick<RecurrencePolicy, 'max' | 'horizonDays' | 'since'>;
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
  readonly linked: LinkedRecords;
  readonly warnings: string[];
  /** How much expanding series into occurrences may still walk in this feed. */
  readonly budget: ExpansionBudget;
  /** The overrides (VEVENTs with a RECURRENCE-ID) of a UID whose series is in the feed, parsed now. */
  overridesOf(uid: string): Component[];
  /** The line of the feed a VEVENT starts on. */
  lineOf(component: Component): number | undefined;
  /** An event record, or a skip, of the VEVENT being read (kept only if all of it reads). */
  add(record: SourceRecord | Skipped): void;
}

/** A feed's text as ical.js reads it, or a SourceError saying in one line why it is not a calendar. */
function prepareText(input: string): string {
  const head = input.replace(/^\uFEFF/, '').trimStart();
  if (!/^BEGIN:VCALENDAR/i.test(head))
    throw new SourceError(`Not an iCalendar file: it starts with "${excerpt(head, 30)}".`);
  return head;
}

/** The VCALENDAR without its VEVENTs (its properties and VTIMEZONEs), or a SourceError saying why not. */
function parseCalendar(calendarText: string, notes: IcsNotes): Component {
  try {
    const parsed = ICAL.parse(tolerantIcs(calendarText, notes)) as unknown[];
    // Several VCALENDARs in one file (concatenated feeds): the first one's properties, everyone's zones.
    if (!Array.isArray(parsed[0])) return new ICAL.Component(parsed as never);
    const [first, ...rest] = (parsed as unknown[][]).map((c) => new ICAL.Component(c as never));
    for (const other of rest) for (const zone of other.getAllSubcomponents('vtimezone')) first!.addSubcomponent(zone);
    return first!;
  } catch (error) {
    // ical.js quotes the offending line, which may be anything up to the whole feed.
    throw new SourceError(`The iCalendar file does not parse: ${excerpt((error as Error).message)}.`);
  }
}

/** One VEVENT parsed on its own, under the calendar (so its TZIDs find the calendar's VTIMEZONEs). */
function parseVevent(text: string, block: VeventBlock, calendar: Component, notes: IcsNotes): Component {
  // Repaired as other readers take it (import.ics-text.ts), each repair noted with its line.
  const parsed = ICAL.parse(tolerantIcs(blockText(text, block), notes, block.line)) as unknown[];
  const jcal = Array.isArray(parsed[0]) ? parsed[0] : parsed;
  if (jcal[0] !== 'vevent') throw new Error('not one VEVENT');
  return new ICAL.Component(jcal as never, calendar);
}

/** Why a VEVENT could not be read, in one line (ical.js may quote the whole line it failed on). */
const failure = (error: unknown) => `unreadable: ${excerpt(error instanceof Error ? error.message : String(error))}`;

/** The part of a feed read between two writes: the linked records it met first, then its events. */
export interface IcsChunk {
  records: SourceRecord[];
  skipped: Skipped[];
}

/** What is known of a feed once all of it is read. */
export interface IcsEnd {
  warnings: string[];
  calendarName: string | null;
}

/** A feed scanned and ready to be read a chunk at a time. */
export interface IcsStream {
  /** The VEVENTs that will be read (the latest revision of each, overrides included). */
  readonly vevents: number;
  /** The records, VEVENTS_PER_CHUNK VEVENTs at a time; then what is known of the whole feed. */
  chunks(): Generator<IcsChunk, IcsEnd>;
}

/** VEVENTs read into one chunk: records held at once, and the event loop's turn between two. */
const VEVENTS_PER_CHUNK = 250;

/**
 * The records of a feed in chunks, for an import that writes each chunk before reading the next:
 * the records of a 50,000-event feed are never all held at once (memory stays flat as the feed
 * grows, but for its text), and the event loop turns between chunks. Every linked record (venue,
 * organizer, category) is in the chunk of the first event naming it, before that event; an
 * override is in its series' chunk, after it. Throws SourceError at once when it is not a calendar.
 */
export function streamIcs(input: string, options: IcsOptions): IcsStream {
  const prepared = prepareText(input);
  const scanned = scanCalendar(prepared);
  const notes = new IcsNotes();
  const calendar = parseCalendar(scanned.calendarText, notes);
  const { kept, dropped } = latestRevisions(scanned.blocks);
  return { vevents: kept.length, chunks: () => readChunks(prepared, calendar, notes, kept, dropped, options) };
}

/** The records of a feed, what was skipped and why, and warnings; throws SourceError when it is not a calendar. */
export function readIcs(input: string, options: IcsOptions): IcsRead {
  const chunks = streamIcs(input, options).chunks();
  const linked: SourceRecord[] = [];
  const events: SourceRecord[] = [];
  const skipped: Skipped[] = [];
  for (;;) {
    const step = chunks.next();
    if (step.done) {
      // Linked records first, by kind (categories, venues, organizers), each in the order first met.
      const order = ['category', 'venue', 'organizer'];
      linked.sort((a, b) => order.indexOf(a.kind) - order.indexOf(b.kind));
      return { records: [...linked, ...events], skipped, ...step.value };
    }
    for (const record of step.value.records) (record.kind === 'event' ? events : linked).push(record);
    skipped.push(...step.value.skipped);
  }
}

function* readChunks(
  prepared: string,
  calendar: Component,
  notes: IcsNotes,
  kept: VeventBlock[],
  dropped: number,
  options: IcsOptions,
): Generator<IcsChunk, IcsEnd> {
  // Which UIDs have their series here, and the overrides of each (read with it).
  const masters = new Set(kept.filter((b) => b.uid && !b.recurrenceId).map((b) => b.uid));
  const overrideBlocks = new Map<string, VeventBlock[]>();
  for (const block of kept) {
    if (!block.recurrenceId || !masters.has(block.uid)) continue;
    const list = overrideBlocks.get(block.uid);
    if (list) list.push(block);
    else overrideBlocks.set(block.uid, [block]);
  }

  // The chunk being read: its skips (its records are the linked ones made and `events`).
  let skipped: Skipped[] = [];
  // Source ids of the events read so far: two records under one id would be written over each
  // other on every run, never unchanged, so the first is kept.
  const eventIds = new Set<string>();
  let repeated = 0;
  const lines = new WeakMap<Component, number>();
  let batch: (SourceRecord | Skipped)[] = [];
  const parse = (block: VeventBlock): Component => {
    const component = parseVevent(prepared, block, calendar, notes);
    lines.set(component, block.line);
    return component;
  };
  const skip = (block: VeventBlock, reason: string): void => {
    skipped.push({ kind: 'event', sourceId: block.uid || '?', lang: options.lang, reason, line: block.line });
  };
  // A skip says on which line its VEVENT starts (an override's own, else its series').
  const withLine = (record: Skipped, line: number): Skipped => ({ ...record, line: record.line ?? line });
  const reading: IcsReading = {
    options,
    lang: options.lang,
    now: options.now ?? new Date(),
    horizonDays: options.horizonDays ?? options.recurrence?.horizonDays ?? 365,
    // More than a series of the service may have (CAL_RECURRENCE_MAX): a finished series refused
    // for its length is imported whole as events; the bound keeps a rule's expansion finite.
    maxOccurrences: options.maxOccurrences ?? 5000,
    zones: new FeedZones(calendar, notes),
    linked: new LinkedRecords(options.lang),
    warnings: [],
    budget: new ExpansionBudget(),
    overridesOf: (uid) =>
      (overrideBlocks.get(uid) ?? []).flatMap((block) => {
        try {
          return [parse(block)];
        } catch (error) {
          skip(block, `override of ${excerpt(uid, 100)}: ${failure(error)}`);
          return [];
        }
      }),
    lineOf: (component) => lines.get(component),
    add: (record) => batch.push(record),
  };
  const events: SourceRecord[] = [];
  for (const [index, block] of kept.entries()) {
    if (index % VEVENTS_PER_CHUNK === 0 && index > 0) {
      yield { records: [...reading.linked.fresh(), ...events.splice(0)], skipped };
      skipped = [];
    }
    if (block.recurrenceId && masters.has(block.uid)) continue; // read with its series
    batch = [];
    try {
      readVevent(reading, parse(block), masters);
    } catch (error) {
      // One VEVENT ical.js cannot read (a malformed value, a rule it throws on) costs that event.
      skip(block, failure(error));
      continue;
    }
    for (const record of batch) {
      if ('reason' in record) skipped.push(withLine(record, block.line));
      else if (eventIds.has(record.sourceId)) repeated += 1;
      else {
        eventIds.add(record.sourceId);
        events.push(record);
      }
    }
  }
  yield { records: [...reading.linked.fresh(), ...events.splice(0)], skipped };
  if (repeated > 0) reading.warnings.push(`${repeated} event(s) named an occurrence already read: read once.`);
  if (dropped > 0)
    reading.warnings.push(
      `${dropped} VEVENT(s) were earlier revisions of another with the same UID (lower SEQUENCE, or older): only the latest of each was read.`,
    );
  reading.warnings.push(...reading.zones.warnings());
  const name = options.calendarName ?? (text(calendar, 'x-wr-calname') || text(calendar, 'name') || null);
  return { warnings: reading.warnings, calendarName: name };
}

/** One VEVENT of the feed: an event, a series, or an override (read with its series, if the feed has it). */
function readVevent(reading: IcsReading, vevent: Component, masters: Set<string>): void {
  let uid = text(vevent, 'uid');
  const start = vevent.getFirstPropertyValue('dtstart');
  if (!(start instanceof ICAL.Time)) {
    reading.add({ kind: 'event', sourceId: uid || '?', lang: reading.lang, reason: 'no readable DTSTART' });
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
  // An override whose series is not in the feed is imported as itself.
  if (vevent.hasProperty('recurrence-id') && !masters.has(uid)) {
    readAlone(reading, vevent, uid);
    return;
  }
  const event = new ICAL.Event(vevent);
  if (!event.isRecurring()) {
    // Overrides of an event that does not repeat (or no longer): the one naming its start is its
    // later edit, read in its place; the occurrences the others moved are events of their own.
    const overrides = reading.overridesOf(uid);
    const own = overrides.find((o) => compact(new ICAL.Event(o).recurrenceId) === compact(event.startDate));
    if (own) readAlone(reading, own, uid, undefined, uid);
    else reading.add(eventRecord(reading, vevent, uid, event.startDate, event.endDate, startTzid, endTzid));
    for (const override of overrides) if (override !== own) readAlone(reading, override, uid);
    return;
  }
  readSeries(reading, vevent, event, uid, { start: startTzid, end: endTzid });
}
