import ICAL from 'ical.js';
import { IANAZone } from 'luxon';
import { isValidTimezone, localToUtc, utcToLocal, zoneOrUtc } from '../../lib/dates.js';
import { excerpt } from '../../lib/redact.js';
import { IcsNotes } from './import.ics-text.js';
import { WINDOWS_IANA_ZONES, windowsZone } from './import.ics-windows-zones.js';

/**
 * The times of an iCalendar feed as this service stores them: a wall clock and an IANA zone.
 *
 * A TZID is an IANA name, a Windows zone (Outlook's id or display name), a vendor path ending in
 * an IANA name, or a name only the feed's VTIMEZONE defines (Outlook's "Customized Time Zone").
 * The feed's VTIMEZONE has the last word (RFC 5545 3.6.5): a zone named like an IANA zone but
 * defined otherwise, or named like none, is the IANA zone whose offsets equal the VTIMEZONE's
 * over the years around its first use, if one does; only when none does are its times converted
 * to UTC through the VTIMEZONE (and a series in it cannot be kept in UTC: see `Zoned.feedZone`).
 * A time with no zone (floating) is in the calendar's zone (X-WR-TIMEZONE, as Google and Apple
 * write it), else the site's, with a warning.
 */

export type Component = InstanceType<typeof ICAL.Component>;
export type Time = InstanceType<typeof ICAL.Time>;
export type Property = InstanceType<typeof ICAL.Property>;
type VTimezone = InstanceType<typeof ICAL.Timezone>;

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
/** A date of the feed as `YYYY-MM-DD`. */
export const day = (t: Time) => `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}`;
/** A time of the feed as its wall clock, `YYYY-MM-DD HH:MM:SS`. */
export const wall = (t: Time) => `${day(t)} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;
/** A time as in an iCalendar value (`20250102T100000`), for the source ids of occurrences. */
export const compact = (t: Time) =>
  t.isDate ? day(t).replace(/-/g, '') : wall(t).replace(/[-:]/g, '').replace(' ', 'T');

/** IANA names by their letters alone, lower case (`europeberlin`), for TZIDs such as `Europe_Berlin` or `IndianReunion`. */
let byLetters: Map<string, string> | undefined;
const letters = (name: string) => name.toLowerCase().replace(/[^a-z]/g, '');

/**
 * The IANA zone a TZID names: itself, a Windows id or display name, the tail of a vendor path
 * (`/citadel.org/20190101_1/Europe/Paris`, `custom_America/New_York`), or an IANA name spelled
 * with other separators (`Europe_Berlin`).
 */
export function ianaZone(tzid: string): string | null {
  const name = tzid.trim().replace(/^"|"$/g, '');
  if (name.length > 200) return null;
  // The service's own check: Intl alone takes spellings (`+05:00` on newer Nodes) an event may not have.
  if (isValidTimezone(name)) return name;
  const windows = windowsZone(name);
  if (windows) return windows;
  const tail = /([A-Z][A-Za-z_-]*\/[A-Z][A-Za-z_-]*(?:\/[A-Z][A-Za-z_-]*)?)$/.exec(name)?.[1];
  if (tail && isValidTimezone(tail)) return tail;
  byLetters ??= new Map([...Intl.supportedValuesOf('timeZone'), ...WINDOWS_IANA_ZONES].map((z) => [letters(z), z]));
  return byLetters.get(letters(name)) ?? null;
}

/** VTIMEZONEs of one feed compared with the IANA zones (some 30 ms each); real feeds have one to five. */
const MAX_COMPARED_ZONES = 30;

/** Days compared when matching a VTIMEZONE with IANA zones: noon of each, over three years. */
const MATCH_YEARS = 3;

/**
 * The IANA zones to try for a VTIMEZONE: the Windows zones' first (the zones people mostly mean,
 * and what Outlook's "Customized Time Zone" usually is), then the fixed offsets (Etc/GMT-3 says
 * "+03:00 all year" better than a city that happens to keep it), then every other.
 */
let candidates: string[] | undefined;
function candidateZones(): string[] {
  if (!candidates) {
    const all = Intl.supportedValuesOf('timeZone');
    // Etc/GMT-3 is UTC+03:00 (POSIX signs); Intl lists none of them.
    const fixed = Array.from({ length: 27 }, (_, i) => i - 12)
      .filter((h) => h !== 0)
      .map((h) => `Etc/GMT${h > 0 ? '-' : '+'}${Math.abs(h)}`);
    candidates = [...new Set([...WINDOWS_IANA_ZONES, ...fixed, ...all])].filter((z) => IANAZone.isValidZone(z));
  }
  return candidates;
}

/** `UTC+5:17`: a fixed offset as the service names one no IANA zone has (WordPress' form). */
function offsetZone(minutes: number): string {
  const abs = Math.abs(minutes);
  const rest = abs % 60;
  return `UTC${minutes < 0 ? '-' : '+'}${Math.trunc(abs / 60)}${rest ? `:${String(rest).padStart(2, '0')}` : ''}`;
}

/**
 * The zone whose offsets equal a VTIMEZONE's at noon of every day of the three years around
 * `year`: `hint` (the zone its name suggests) if it does, else the first IANA zone that does, else
 * a fixed offset if the VTIMEZONE keeps one; null when none does. Noon of each day finds every
 * change of offset to the day (the hour of a change is not compared).
 */
function matchingZone(vtimezone: VTimezone, year: number, hint: string | null): string | null {
  const first = firstOnset(vtimezone.component);
  const noons: { utc: number; offset: number }[] = [];
  const from = Date.UTC(year - 1, 0, 1, 12);
  for (let i = 0; i < 366 * MATCH_YEARS; i += 1) {
    const date = new Date(from + i * 86_400_000);
    // Only the days the VTIMEZONE speaks for (khal writes only the changes around its events).
    if (date.getTime() < first) continue;
    const local = ICAL.Time.fromData({
      year: date.getUTCFullYear(),
      month: date.getUTCMonth() + 1,
      day: date.getUTCDate(),
      hour: 12,
    });
    const offset = vtimezone.utcOffset(local);
    noons.push({ utc: date.getTime() - offset * 1000, offset: offset / 60 });
  }
  if (noons.length === 0) return hint;
  // Two days half a year apart first, which leave a few zones of some 400; then every day for those.
  const probes = [noons[Math.trunc(noons.length / 4)]!, noons[Math.trunc((noons.length * 3) / 4)]!, ...noons];
  const agrees = (name: string) => {
    const zone = IANAZone.create(name);
    return probes.every((n) => zone.offset(n.utc) === n.offset);
  };
  if (hint && agrees(hint)) return hint;
  const matched = candidateZones().find(agrees);
  if (matched) return matched;
  return noons.every((n) => n.offset === noons[0]!.offset) ? offsetZone(noons[0]!.offset) : null;
}

/** The first onset of a VTIMEZONE's observances (midnight UTC of its day, in ms): before it, the VTIMEZONE says nothing. */
function firstOnset(vtimezone: Component): number {
  let first = Infinity;
  for (const observance of [
    ...vtimezone.getAllSubcomponents('standard'),
    ...vtimezone.getAllSubcomponents('daylight'),
  ]) {
    const start = observance.getFirstPropertyValue('dtstart');
    if (start instanceof ICAL.Time) first = Math.min(first, Date.UTC(start.year, start.month - 1, start.day));
  }
  return first;
}

/** At most this many observances (STANDARD, DAYLIGHT) and RDATEs in one VTIMEZONE: the longest history of a zone has some 200 changes. */
const MAX_OBSERVANCES = 100;
const MAX_RDATES = 2000;

/** Why a VTIMEZONE would cost unbounded work (a rule more often than yearly, thousands of changes), or null. */
function unbounded(vtimezone: Component): string | null {
  const observances = [...vtimezone.getAllSubcomponents('standard'), ...vtimezone.getAllSubcomponents('daylight')];
  if (observances.length > MAX_OBSERVANCES) return `${observances.length} observances`;
  let rdates = 0;
  for (const observance of observances) {
    const rule = observance.getFirstPropertyValue('rrule');
    if (rule instanceof ICAL.Recur && rule.freq !== 'YEARLY') return `FREQ=${excerpt(String(rule.freq), 20)}`;
    for (const rdate of observance.getAllProperties('rdate')) rdates += rdate.getValues().length;
  }
  return rdates > MAX_RDATES ? `${rdates} RDATEs` : null;
}

/**
 * A VTIMEZONE made readable by ical.js. ical.js leaves out the DTSTART of an observance that has
 * RDATEs (its first onset, RFC 5545 3.6.5), reading a year of khal's or python-icalendar's zones
 * at the wrong offset: the DTSTART is added to the RDATEs. And it runs every rule for ever, where
 * a zone defined in eras (an old rule, then the rule of today from its DTSTART, as US zones since
 * 2007) means each rule to end where the next of its kind begins: each is given that UNTIL.
 */
function readable(vtimezone: Component): Component {
  for (const kind of ['standard', 'daylight']) {
    const observances = vtimezone
      .getAllSubcomponents(kind)
      .map((observance) => ({ observance, start: observance.getFirstPropertyValue('dtstart') }))
      .filter((o): o is { observance: Component; start: Time } => o.start instanceof ICAL.Time)
      .sort((a, b) => a.start.compare(b.start));
    observances.forEach(({ observance, start }, i) => {
      if (observance.hasProperty('rdate') && !observance.hasProperty('rrule'))
        observance.addPropertyWithValue('rdate', start.clone());
      const rule = observance.getFirstPropertyValue('rrule');
      const next = observances[i + 1]?.start;
      if (rule instanceof ICAL.Recur && next && !rule.until && !rule.count) {
        const until = next.clone();
        until.adjust(-1, 0, 0, 0);
        rule.until = until;
      }
    });
  }
  return vtimezone;
}

export interface Zoned {
  /** Wall clock in `timezone` (or in the site's zone when timezone is undefined: a floating time). */
  local: string;
  timezone: string | undefined;
  /**
   * The TZID of the zone the time was written in when only the feed defines it (its VTIMEZONE
   * matches no IANA zone): `local` is then its time in UTC, right for this one time; a series
   * written in that zone cannot be kept as a rule in UTC (its occurrences would move by an hour
   * at each change of that zone's offset) and must be expanded in that zone's wall time.
   */
  feedZone?: string;
}

/** How a TZID of the feed is read. */
type Reading = { iana: string } | { vtimezone: VTimezone } | { unknown: true };

/** Reads the feed's times into wall clocks and IANA zones (see the module's comment). */
export class FeedZones {
  private readonly vtimezones = new Map<string, VTimezone>();
  private readonly readings = new Map<string, Reading>();
  /** The calendar's zone for floating times (X-WR-TIMEZONE), once read. */
  private readonly calendarTzid: string | undefined;
  readonly unknown = new Set<string>();
  private floating = false;
  /** VTIMEZONEs compared with IANA zones so far (MAX_COMPARED_ZONES). */
  private compared = 0;

  /** `notes` collects what was repaired or guessed while reading the feed (text, times, fields): see warnings(). */
  constructor(
    calendar: Component,
    readonly notes = new IcsNotes(),
  ) {
    for (const vtimezone of calendar.getAllSubcomponents('vtimezone')) {
      const tzid = String(vtimezone.getFirstPropertyValue('tzid') ?? '');
      const problem = unbounded(vtimezone);
      if (problem) {
        // ical.js would walk such a zone's changes from its start to every time read in it, for
        // every event: taken out of the calendar, its TZID is read by its name alone, if any.
        calendar.removeSubcomponent(vtimezone);
        this.notes.add(
          'Time zones defined with more changes than a zone has, ignored',
          `"${excerpt(tzid, 60)}" (${problem})`,
        );
        continue;
      }
      if (tzid) this.vtimezones.set(tzid, new ICAL.Timezone({ component: readable(vtimezone), tzid }));
    }
    const calendarZone = calendar.getFirstPropertyValue('x-wr-timezone');
    this.calendarTzid = typeof calendarZone === 'string' && calendarZone.trim() ? calendarZone.trim() : undefined;
  }

  /** How `tzid` is read; the first time read in it (`time`) sets the years its VTIMEZONE is compared over. */
  private reading(tzid: string, time: Time): Reading {
    let reading = this.readings.get(tzid);
    if (!reading) {
      reading = this.read(tzid, time.year);
      this.readings.set(tzid, reading);
    }
    return reading;
  }

  private read(tzid: string, year: number): Reading {
    const named = ianaZone(tzid);
    const vtimezone = this.vtimezones.get(tzid);
    // An IANA name is that zone, whatever the VTIMEZONE beside it says (often an old copy of it).
    if (!vtimezone || (named && named === tzid.trim())) {
      if (named) return { iana: named };
      this.unknown.add(tzid);
      return { unknown: true };
    }
    // Each comparison walks three years of days: a feed gets a few dozen, then names alone.
    if (this.compared >= MAX_COMPARED_ZONES) {
      this.notes.add(
        'Time zones defined in the file beyond the first 30, read by their names or through their definitions',
        `"${excerpt(tzid, 60)}"`,
      );
      return named ? { iana: named } : { vtimezone };
    }
    this.compared += 1;
    try {
      const matched = matchingZone(vtimezone, Math.min(Math.max(year, 1971), 2200), named);
      if (matched) {
        if (matched !== named)
          this.notes.add(
            'Time zones defined in the file with the rules of a known zone, read as that zone',
            `"${excerpt(tzid, 60)}" as ${matched}`,
          );
        return { iana: matched };
      }
      this.notes.add(
        'Time zones defined in the file whose rules no IANA zone has, read through their definition (times stored in UTC)',
        `"${excerpt(tzid, 60)}"`,
      );
      return { vtimezone };
    } catch {
      // ical.js could not read the VTIMEZONE's rules: the name alone, if it says something.
      if (named) return { iana: named };
      this.unknown.add(tzid);
      return { unknown: true };
    }
  }

  /** A time of the feed as wall clock and zone; `tzid` is its TZID parameter, if any. */
  zoned(time: Time, tzid: string | undefined): Zoned {
    if (time.isDate) return { local: day(time), timezone: undefined };
    if (time.zone === ICAL.Timezone.utcTimezone) return { local: wall(time), timezone: 'UTC' };
    const zone = tzid ?? this.calendarTzid;
    if (zone === undefined) {
      this.floating = true;
      return { local: wall(time), timezone: undefined };
    }
    const reading = this.reading(zone, time);
    if ('iana' in reading) return { local: wall(time), timezone: reading.iana };
    if ('unknown' in reading) return { local: wall(time), timezone: undefined };
    const utc = time.clone();
    utc.adjust(0, 0, 0, -reading.vtimezone.utcOffset(time));
    return { local: wall(utc), timezone: 'UTC', feedZone: zone };
  }

  /** What the reading of the feed repaired or guessed, and the zones it could not read, as warnings. */
  warnings(): string[] {
    const warnings = this.notes.warnings();
    if (this.floating)
      warnings.push(
        "Times without a time zone, in a calendar that names none (X-WR-TIMEZONE), were read in the site's time zone.",
      );
    if (this.unknown.size > 0) {
      const names = [...this.unknown].slice(0, 3).map((tzid) => `"${excerpt(tzid, 60)}"`);
      warnings.push(
        `Time zones neither IANA, Windows or Outlook names nor defined in the file, their times read in the site's time zone: ${this.unknown.size} (${names.join('; ')}${this.unknown.size > 3 ? '; …' : ''}).`,
      );
    }
    return warnings;
  }
}

/** The TZID parameter of a property (DTSTART, DTEND, RECURRENCE-ID…), if it has one. */
export const tzidOf = (prop: Property | null): string | undefined => {
  const value = prop?.getParameter('tzid');
  return typeof value === 'string' ? value : undefined;
};

/** A time of the feed as a wall time in `timezone` (the series' zone, an event's start's), whatever zone it was written in. */
export function wallIn(zones: FeedZones, time: Time, tzid: string | undefined, timezone: string | undefined): string {
  const zoned = zones.zoned(time, tzid);
  if (time.isDate || zoned.timezone === timezone || zoned.timezone === undefined || timezone === undefined)
    return zoned.local;
  return utcToLocal(localToUtc(zoned.local, zoneOrUtc(zoned.timezone)), zoneOrUtc(timezone));
}

/** A RECURRENCE-ID (or RDATE, EXDATE) as the wall time of an occurrence of a series starting at `startLocal` in `timezone`. */
export function occurrenceWall(
  zones: FeedZones,
  time: Time,
  tzid: string | undefined,
  timezone: string | undefined,
  startLocal: string,
): string {
  const local = wallIn(zones, time, tzid, timezone);
  return local.length === 10 ? `${local} ${startLocal.slice(11)}` : local;
}
