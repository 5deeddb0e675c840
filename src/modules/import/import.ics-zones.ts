import ICAL from 'ical.js';
import { IANAZone } from 'luxon';
import { localToUtc, utcToLocal, zoneOrUtc } from '../../lib/dates.js';

/**
 * The times of an iCalendar feed as this service stores them: a wall clock and a zone. A TZID is
 * an IANA name, a Windows name (Outlook) or a vendor path ending in one; a zone only the feed
 * knows is read through its VTIMEZONE, to UTC; a time with no zone is floating (the site's).
 */

export type Component = InstanceType<typeof ICAL.Component>;
export type Time = InstanceType<typeof ICAL.Time>;
export type Property = InstanceType<typeof ICAL.Property>;

/**
 * Outlook's Windows zone names (CLDR windowsZones, the common ones) to IANA names.
 */
const WINDOWS_ZONES: Record<string, string> = {
  'W. Europe Standard Time': 'Europe/Berlin',
  'Romance Standard Time': 'Europe/Paris',
  'Central Europe Standard Time': 'Europe/Budapest',
  'Central European Standard Time': 'Europe/Warsaw',
  'GMT Standard Time': 'Europe/London',
  'Greenwich Standard Time': 'Atlantic/Reykjavik',
  'E. Europe Standard Time': 'Europe/Chisinau',
  'FLE Standard Time': 'Europe/Kiev',
  'GTB Standard Time': 'Europe/Bucharest',
  'Russian Standard Time': 'Europe/Moscow',
  'Eastern Standard Time': 'America/New_York',
  'Central Standard Time': 'America/Chicago',
  'Mountain Standard Time': 'America/Denver',
  'US Mountain Standard Time': 'America/Phoenix',
  'Pacific Standard Time': 'America/Los_Angeles',
  'Alaskan Standard Time': 'America/Anchorage',
  'Hawaiian Standard Time': 'Pacific/Honolulu',
  'Atlantic Standard Time': 'America/Halifax',
  'Canada Central Standard Time': 'America/Regina',
  'SA Pacific Standard Time': 'America/Bogota',
  'E. South America Standard Time': 'America/Sao_Paulo',
  'Argentina Standard Time': 'America/Buenos_Aires',
  'Tokyo Standard Time': 'Asia/Tokyo',
  'China Standard Time': 'Asia/Shanghai',
  'India Standard Time': 'Asia/Calcutta',
  'Singapore Standard Time': 'Asia/Singapore',
  'AUS Eastern Standard Time': 'Australia/Sydney',
  'New Zealand Standard Time': 'Pacific/Auckland',
  'South Africa Standard Time': 'Africa/Johannesburg',
  'Arabian Standard Time': 'Asia/Dubai',
  'Israel Standard Time': 'Asia/Jerusalem',
  'Turkey Standard Time': 'Europe/Istanbul',
  UTC: 'UTC',
  'Coordinated Universal Time': 'UTC',
};

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
/** A date of the feed as `YYYY-MM-DD`. */
export const day = (t: Time) => `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}`;
/** A time of the feed as its wall clock, `YYYY-MM-DD HH:MM:SS`. */
export const wall = (t: Time) => `${day(t)} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;
/** A time as in an iCalendar value (`20250102T100000`), for the source ids of occurrences. */
export const compact = (t: Time) =>
  t.isDate ? day(t).replace(/-/g, '') : wall(t).replace(/[-:]/g, '').replace(' ', 'T');

/** The IANA zone a TZID names: itself, a Windows name, or the tail of a `/vendor/…/Europe/Paris` path. */
export function ianaZone(tzid: string): string | null {
  if (IANAZone.isValidZone(tzid)) return tzid;
  const windows = WINDOWS_ZONES[tzid.trim()];
  if (windows) return windows;
  const tail = /([A-Za-z_]+\/[A-Za-z_]+(?:\/[A-Za-z_]+)?)$/.exec(tzid)?.[1];
  return tail && IANAZone.isValidZone(tail) ? tail : null;
}

export interface Zoned {
  /** Wall clock in `timezone` (or in the site's zone when timezone is undefined: a floating time). */
  local: string;
  timezone: string | undefined;
}

/** Reads feed-local zones (a TZID no IANA name matches) through the feed's VTIMEZONE. */
export class FeedZones {
  private readonly zones = new Map<string, InstanceType<typeof ICAL.Timezone>>();
  readonly unknown = new Set<string>();

  constructor(calendar: Component) {
    for (const vtimezone of calendar.getAllSubcomponents('vtimezone')) {
      const tzid = String(vtimezone.getFirstPropertyValue('tzid') ?? '');
      if (tzid) this.zones.set(tzid, new ICAL.Timezone({ component: vtimezone, tzid }));
    }
  }

  /** A time of the feed as wall clock and zone; `tzid` is its TZID parameter, if any. */
  zoned(time: Time, tzid: string | undefined): Zoned {
    if (time.isDate) return { local: day(time), timezone: undefined };
    if (time.zone === ICAL.Timezone.utcTimezone) return { local: wall(time), timezone: 'UTC' };
    if (tzid === undefined) return { local: wall(time), timezone: undefined };
    const iana = ianaZone(tzid);
    if (iana) return { local: wall(time), timezone: iana };
    const zone = this.zones.get(tzid);
    if (!zone) {
      this.unknown.add(tzid);
      return { local: wall(time), timezone: undefined };
    }
    const utc = time.clone();
    utc.adjust(0, 0, 0, -zone.utcOffset(time));
    return { local: wall(utc), timezone: 'UTC' };
  }
}

/** The TZID parameter of a property (DTSTART, DTEND, RECURRENCE-ID…), if it has one. */
export const tzidOf = (prop: Property | null): string | undefined => {
  const value = prop?.getParameter('tzid');
  return typeof value === 'string' ? value : undefined;
};

/** A time of the feed as a wall time in `timezone` (the series' zone), whatever zone it was written in. */
function wallIn(zones: FeedZones, time: Time, tzid: string | undefined, timezone: string | undefined): string {
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
