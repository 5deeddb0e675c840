/**
 * Time-zone names: IANA names, `UTC` and the `UTC+2` / `UTC-5:30` / `UTC+5.5` offsets WordPress offers, read into
 * Luxon zones once and remembered.
 */
import { LRUCache } from 'lru-cache';
import { FixedOffsetZone, IANAZone } from 'luxon';
import type { Zone as LuxonZone } from 'luxon';

export type Zone = LuxonZone;

/** WordPress offers offsets from UTC-12 to UTC+14. */
const MAX_OFFSET_MINUTES = 14 * 60;

/** `UTC+2`, `UTC-5:30`, `UTC+5.5` (WordPress writes half hours as decimals), `UTC+0`. */
const UTC_OFFSET = /^UTC([+-])(\d{1,2})(?::(\d{2})|\.(\d+))?$/i;

/** Restricts IANA names to their shape, so Intl's extra spellings (`+05:00`) don't sneak in as "IANA". */
const IANA_NAME = /^[A-Za-z][A-Za-z0-9_+\-/]*$/;

/** Parsed zones by name: asking Intl whether a name is valid costs tens of microseconds each time. */
const zones = new LRUCache<string, Zone>({ max: 1000 });

/** Parses an event/site time-zone string: IANA name, 'UTC', or 'UTC+2' / 'UTC-5:30' / 'UTC+5.5' offsets. null when invalid. */
export function parseZone(tz: string): Zone | null {
  const cached = zones.get(tz);
  if (cached) return cached;
  const zone = readZone(tz.trim());
  // Only valid names are kept, so untrusted garbage cannot fill the cache with misses.
  if (zone) zones.set(tz, zone);
  return zone;
}

function readZone(name: string): Zone | null {
  if (/^UTC$/i.test(name)) return FixedOffsetZone.utcInstance;
  const offset = UTC_OFFSET.exec(name);
  if (offset) {
    const [, sign, hours, minutes, fraction] = offset;
    const extra =
      minutes !== undefined ? Number(minutes) : fraction !== undefined ? Math.round(Number(`0.${fraction}`) * 60) : 0;
    return fixedZone(sign, Number(hours), extra);
  }
  return IANA_NAME.test(name) && IANAZone.isValidZone(name) ? IANAZone.create(name) : null;
}

/** A zone that is known good (stored settings and events), falling back to UTC rather than failing a read. */
export function zoneOrUtc(tz: string): Zone {
  return parseZone(tz) ?? FixedOffsetZone.utcInstance;
}

export function isValidTimezone(tz: string): boolean {
  return parseZone(tz) !== null;
}

/** A fixed-offset zone; null beyond the offsets in use on Earth (±14:00) or with minutes over 59. */
export function fixedZone(sign: string, hours: number, minutes: number): Zone | null {
  const total = hours * 60 + minutes;
  if (minutes > 59 || total > MAX_OFFSET_MINUTES) return null;
  return FixedOffsetZone.instance(sign === '-' ? -total : total);
}
