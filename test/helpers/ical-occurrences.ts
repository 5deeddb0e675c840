import ICAL from 'ical.js';
import { DateTime } from 'luxon';
import { tzlib_get_ical_block } from 'timezones-ical-library';

/**
 * The occurrences of an iCalendar file within a window, expanded by ical.js's own recurrence
 * expander (`ICAL.Event#iterator`: RRULE, RDATE, EXDATE), with RECURRENCE-ID overrides put in
 * place of the instance they name, as a subscribed calendar shows them. The corpus test expands an
 * original file and the service's export of it with this one function and compares the two: the
 * reference for "nothing lost" is independent of the importer's reading of the file.
 *
 * Choices where RFC 5545 leaves room (each the reading calendar programs make):
 * - of several VEVENTs with one UID and no RECURRENCE-ID, the highest SEQUENCE wins (the last
 *   one on a tie); so for two overrides of the same instance;
 * - an override whose RECURRENCE-ID the rule does not make is an added occurrence (Google writes
 *   these after "this and following" edits);
 * - a cancelled VEVENT or override is no occurrence;
 * - a TZID that is an IANA name is read in the time zone database, another by the file's VTIMEZONE;
 * - a floating time, or one in a TZID that is neither defined in the file nor an IANA name, is
 *   read in `X-WR-TIMEZONE` when the calendar has a valid one, else in `floatingZone`.
 */

export interface Occurrence {
  /** `2027-03-02T14:00:00Z` for a time, `D:2027-03-02` for a date (all-day). */
  start: string;
  /** SUMMARY with its white space collapsed ('' without one). */
  summary: string;
}

export interface Expansion {
  occurrences: Occurrence[];
  /** Number of VEVENT components in the file. */
  vevents: number;
  /** Series ical.js could not expand (left out of `occurrences`), each with its error. */
  problems: string[];
}

export interface ExpandOptions {
  /** Window, UTC ISO dates (`2000-01-01`), start inclusive, end exclusive. */
  from: string;
  to: string;
  /** At most this many instances of one series are walked (before the window's end). */
  maxPerSeries: number;
  /** Zone of floating times without X-WR-TIMEZONE (the service's site zone). */
  floatingZone: string;
}

type Component = InstanceType<typeof ICAL.Component>;
type Time = InstanceType<typeof ICAL.Time>;

const summaryOf = (c: Component): string =>
  String(c.getFirstPropertyValue('summary') ?? '')
    .replace(/\s+/g, ' ')
    .trim();
const cancelled = (c: Component): boolean =>
  String(c.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED';
const sequence = (c: Component): number => Number(c.getFirstPropertyValue('sequence') ?? 0) || 0;

/**
 * The IANA zone a TZID names: itself, or the IANA name it ends with (libical and Evolution write
 * `/freeassociation.sourceforge.net/Europe/Berlin` or `/Europe/Stockholm`); null for others
 * (Windows names, Outlook's "Customized Time Zone").
 */
const ianaNames = new Map<string, string | null>();
function ianaOf(tzid: string | null): string | null {
  if (tzid === null) return null;
  if (ianaNames.has(tzid)) return ianaNames.get(tzid)!;
  const parts = tzid.split('/').filter(Boolean);
  for (let i = 0; i < parts.length; i++) {
    const name = parts.slice(i).join('/');
    if ((i === 0 || name.includes('/')) && DateTime.local().setZone(name).isValid) {
      ianaNames.set(tzid, name);
      return name;
    }
  }
  ianaNames.set(tzid, null);
  return null;
}

/**
 * The instant (or date) of a time as a comparable key; `tzid` is the TZID parameter it was
 * written with. An IANA name is read in the time zone database, as calendar programs do, even
 * when the file's VTIMEZONE says otherwise (exporters often write one that covers only recent
 * years); another TZID by the file's VTIMEZONE, through ical.js.
 */
function keyOf(time: Time, tzid: string | null, floating: string): string {
  if (time.isDate) return `D:${time.toString().slice(0, 10)}`;
  const zone = time.zone;
  const utc = zone === ICAL.Timezone.utcTimezone || zone?.tzid === 'UTC';
  const iana = utc ? null : ianaOf(tzid);
  if (!iana && !utc && zone && zone !== ICAL.Timezone.localTimezone && zone.tzid !== 'floating')
    return `${new Date(time.toUnixTime() * 1000).toISOString().slice(0, 19)}Z`;
  const wall = DateTime.fromObject(
    { year: time.year, month: time.month, day: time.day, hour: time.hour, minute: time.minute, second: time.second },
    { zone: utc ? 'UTC' : (iana ?? floating) },
  );
  return `${wall.toUTC().toISO({ suppressMilliseconds: true, includeOffset: false })}Z`;
}

const tzidOf = (component: Component, name: string): string | null => {
  const value = component.getFirstProperty(name)?.getParameter('tzid');
  return typeof value === 'string' ? value : null;
};

/**
 * Two habits of exporters that ical.js refuses and calendar programs read, made readable: an
 * empty `RRULE:` (no rule) is dropped, and dates written without `VALUE=DATE` (`DTSTART:20190101`,
 * `EXDATE:20200116`: holiday feeds and older exporters) are marked as dates, as python-icalendar
 * and most calendar programs read them.
 */
function tolerated(text: string): string {
  return text
    .replace(/^RRULE:[ \t]*\r?\n/gim, '')
    .replace(
      /^(DTSTART|DTEND|EXDATE|RDATE|RECURRENCE-ID)((?:;[^:\r\n]*)?):(\d{8}(?:,\d{8})*)(?=\r?$)/gim,
      (line, name: string, params: string, value: string) =>
        /;VALUE=/i.test(params) ? line : `${name}${params};VALUE=DATE:${value}`,
    );
}

/**
 * ical.js knows only the zones a file defines: a TZID naming an IANA zone the file does not define
 * would be floating for it, and an EXDATE or UNTIL in UTC would miss its instance. Such zones are
 * lent to ical.js from the time zone database for one expansion; returns the names to take back.
 */
function lendZones(text: string): string[] {
  const lent: string[] = [];
  for (const [, quoted, bare] of text.matchAll(/;TZID=(?:"([^"\r\n]*)"|([^:;\r\n]*))/gi)) {
    const name = quoted ?? bare ?? '';
    const iana = ianaOf(name);
    if (!iana || ICAL.TimezoneService.has(name)) continue;
    const [block] = (tzlib_get_ical_block(iana) as string[] | undefined) ?? [];
    if (!block) continue;
    ICAL.TimezoneService.register(new ICAL.Timezone(new ICAL.Component(ICAL.parse(block))), name);
    lent.push(name);
  }
  return lent;
}

/** The occurrences of `text` in the window; throws what ical.js throws when it cannot read the file. */
export function expandCalendar(text: string, options: ExpandOptions): Expansion {
  const lent = lendZones(text);
  try {
    return expandWith(text, options);
  } finally {
    for (const name of lent) ICAL.TimezoneService.remove(name);
  }
}

function expandWith(text: string, options: ExpandOptions): Expansion {
  const calendar = new ICAL.Component(ICAL.parse(tolerated(text)));
  const xwr = String(calendar.getFirstPropertyValue('x-wr-timezone') ?? '').trim();
  const floating = xwr && DateTime.local().setZone(xwr).isValid ? xwr : options.floatingZone;
  const vevents = calendar.getAllSubcomponents('vevent');
  const inWindow = (key: string) => {
    const day = key.startsWith('D:') ? key.slice(2) : key.slice(0, 10);
    return day >= options.from && day < options.to;
  };
  const masters = new Map<string, Component>();
  const overrides = new Map<string, Map<string, Component>>();
  let anonymous = 0;
  for (const vevent of vevents) {
    if (!(vevent.getFirstPropertyValue('dtstart') instanceof ICAL.Time)) continue;
    const uid = String(vevent.getFirstPropertyValue('uid') ?? '') || `\0${anonymous++}`;
    const rid = vevent.getFirstPropertyValue('recurrence-id');
    if (rid instanceof ICAL.Time) {
      const byRid = overrides.get(uid) ?? new Map<string, Component>();
      const key = keyOf(rid, tzidOf(vevent, 'recurrence-id'), floating);
      const before = byRid.get(key);
      if (!before || sequence(vevent) >= sequence(before)) byRid.set(key, vevent);
      overrides.set(uid, byRid);
    } else {
      const before = masters.get(uid);
      if (!before || sequence(vevent) >= sequence(before)) masters.set(uid, vevent);
    }
  }
  const occurrences: Occurrence[] = [];
  const problems: string[] = [];
  const add = (component: Component) => {
    if (cancelled(component)) return;
    const start = keyOf(component.getFirstPropertyValue('dtstart') as Time, tzidOf(component, 'dtstart'), floating);
    if (inWindow(start)) occurrences.push({ start, summary: summaryOf(component) });
  };
  for (const [uid, master] of masters) {
    const edits = overrides.get(uid) ?? new Map<string, Component>();
    overrides.delete(uid);
    if (cancelled(master)) continue;
    const event = new ICAL.Event(master);
    if (!event.isRecurring()) {
      add(master);
      continue;
    }
    const before = occurrences.length;
    try {
      expandSeries(master, event, edits, { ...options, floating, inWindow, add, occurrences });
    } catch (error) {
      occurrences.length = before;
      problems.push(`${uid}: ${(error as Error).message}`);
    }
  }
  // Overrides without a series in the file: each is an event on its own.
  for (const edits of overrides.values()) for (const edit of edits.values()) add(edit);
  occurrences.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.summary < b.summary ? -1 : 1));
  return { occurrences, vevents: vevents.length, problems };
}

/** The instances of one series in the window, each override in place of the instance it names. */
function expandSeries(
  master: Component,
  event: InstanceType<typeof ICAL.Event>,
  edits: Map<string, Component>,
  context: ExpandOptions & {
    floating: string;
    inWindow: (key: string) => boolean;
    add: (component: Component) => void;
    occurrences: Occurrence[];
  },
): void {
  const { floating, inWindow, add, occurrences } = context;
  const tzid = tzidOf(master, 'dtstart');
  const end = `${context.to}T00:00:00Z`;
  const iterator = event.iterator();
  const used = new Set<string>();
  for (let n = 0; n < context.maxPerSeries; n++) {
    const next = iterator.next() as Time | InstanceType<typeof ICAL.Period> | undefined;
    if (!next) break;
    // ical.js yields an RDATE;VALUE=PERIOD as its period.
    const time = next instanceof ICAL.Period ? next.start : next;
    const key = keyOf(time, tzid, floating);
    if ((key.startsWith('D:') ? `${key.slice(2)}T00:00:00Z` : key) >= end) break;
    const edit = edits.get(key);
    if (edit) {
      used.add(key);
      add(edit);
    } else if (inWindow(key)) occurrences.push({ start: key, summary: summaryOf(master) });
  }
  for (const [key, edit] of edits) if (!used.has(key)) add(edit);
}
