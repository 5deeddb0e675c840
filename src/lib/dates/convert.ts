/**
 * Stored strings: wall-clock `YYYY-MM-DD HH:MM:SS` in a zone or in UTC, and the conversions between them.
 *
 * The wall-millisecond helpers (storedWall, formatWall, instantOf, offsetAt, …) are exported for the other files of
 * src/lib/dates/ only; modules call the public functions, which src/lib/dates.ts re-exports.
 */
import { DateTime } from 'luxon';
import type { Zone } from './zones.js';
import { byteBoundedCache, CACHE_BUDGET, stringBytes } from '../cache-budget.js';

const SQL_FORMAT = 'yyyy-MM-dd HH:mm:ss';

/**
 * A stored wall-clock time (`Y-m-d H:i:s`) moved by whole days, as text: calendar arithmetic on
 * the digits, with no zone involved.
 */
export function shiftDays(local: string, days: number): string {
  return formatSql(DateTime.fromSQL(local, { zone: 'utc' }).plus({ days }));
}

export function formatSql(dt: DateTime): string {
  return formatWall(dt.toMillis() + Math.round(dt.offset * MINUTE));
}

/*
 * Stored strings are converted on every write and every read, so they skip Luxon's parsing and
 * formatting (tens of microseconds each) and work on epoch milliseconds with the zone's offsets.
 * "Wall" milliseconds are a wall-clock time counted as if it were UTC.
 */

export const MINUTE = 60_000;
export const DAY = 86_400_000;
const STORED = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/;

/** Wall milliseconds of a stored `YYYY-MM-DD[ HH:MM:SS]`; stored values are trusted, so a bad one is a bug and throws. */
export function storedWall(s: string): number {
  const m = STORED.exec(s);
  const wall = m
    ? wallFromFields(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0))
    : null;
  if (wall === null) throw new RangeError(`Invalid date string: ${JSON.stringify(s)}`);
  return wall;
}

/** Wall milliseconds of a calendar date and clock time; null when they do not exist (Feb 30, 24:00). */
export function wallFromFields(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
): number | null {
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return null;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  return date.getUTCDate() === day ? date.getTime() : null;
}

/** `YYYY-MM-DD HH:MM:SS` of wall milliseconds. */
export function formatWall(wall: number): string {
  const iso = new Date(wall).toISOString();
  // Years outside 0-9999 are written with a sign and six digits by toISOString.
  return iso.length === 24
    ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}`
    : DateTime.fromMillis(wall, { zone: 'utc' }).toFormat(SQL_FORMAT);
}

/** Hours, minutes and seconds of a time of day. */
export interface Clock {
  hour: number;
  minute: number;
  second: number;
}

/** A DateTime in `zone` at the instant a wall-clock time has there ({@link instantOf}); null for a date that does not exist. */
export function atWallClock(year: number, month: number, day: number, clock: Clock, zone: Zone): DateTime | null {
  const wall = wallFromFields(year, month, day, clock.hour, clock.minute, clock.second);
  return wall === null ? null : DateTime.fromMillis(instantOf(wall, zone), { zone });
}

/**
 * Pins a wall-clock time read in a zone to one instant, as Luxon's own reading followed by its
 * getPossibleOffsets()[0] does: a time repeated by a fall-back change is its first occurrence (the
 * earlier instant, with the pre-change offset); a time skipped by a spring-forward gap is moved
 * forward by the gap (Paris 02:30 on the change day is 03:30 CEST). Around a few historical
 * changes Luxon's answer depends on today's offset; this one does not.
 */
export function instantOf(wall: number, zone: Zone): number {
  const before = offsetAt(zone, wall - DAY);
  const after = offsetAt(zone, wall + DAY);
  // The offset a time has if read with the offsets in force a day before and a day after.
  const early = offsetAt(zone, wall - before);
  const late = before === after ? early : offsetAt(zone, wall - after);
  if (early === late) return wall - early;
  const holds = (offset: number): boolean => offsetAt(zone, wall - offset) === offset;
  if (holds(early) && holds(late)) return wall - Math.max(early, late);
  if (holds(early)) return wall - early;
  if (holds(late)) return wall - late;
  return wall - Math.min(early, late);
}

/** The wall clock of an instant in a zone. */
export function wallOf(instant: number, zone: Zone): number {
  return instant + offsetAt(zone, instant);
}

/**
 * A zone's offset at an instant, in whole milliseconds (local mean times before standard time
 * have offsets in seconds). Intl answers it in microseconds, and one write asks for the same few
 * instants several times (reading, converting and naming its dates), so answers are remembered:
 * they never change while the process runs.
 */
export function offsetAt(zone: Zone, instant: number): number {
  if (zone.isUniversal) return Math.round(zone.offset(instant) * MINUTE);
  const key = `${zone.name}|${instant}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    offset = Math.round(zone.offset(instant) * MINUTE);
    offsets.set(key, offset);
  }
  return offset;
}
const offsets = byteBoundedCache<string, number>(CACHE_BUDGET.offsets, (_offset, key) => stringBytes(key));

/** Wall clock in `zone` → UTC; gaps and overlaps as {@link instantOf} says. */
export function localToUtc(local: string, zone: Zone): string {
  return formatWall(instantOf(storedWall(local), zone));
}

export function utcToLocal(utc: string, zone: Zone): string {
  return formatWall(wallOf(storedWall(utc), zone));
}

/** ISO 8601 with offset for a local time in a zone: '2027-05-18T09:30:00+02:00' (UTC too gets '+00:00', like PHP). */
export function toIsoWithOffset(local: string, zone: Zone): string {
  const instant = instantOf(storedWall(local), zone);
  const offset = offsetAt(zone, instant);
  // Hours and minutes, dropping the seconds of local mean times, as Luxon's ZZ does.
  const minutes = Math.trunc(Math.abs(offset) / MINUTE);
  const sign = offset < 0 ? '-' : '+';
  return `${formatWall(instant + offset).replace(' ', 'T')}${sign}${pad2(Math.trunc(minutes / 60))}:${pad2(minutes % 60)}`;
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** {year, month, day, hour, minutes, seconds} as zero-padded strings, by splitting the string only. */
export function dateDetails(s: string): {
  year: string;
  month: string;
  day: string;
  hour: string;
  minutes: string;
  seconds: string;
} {
  const [year = '', month = '', day = '', hour = '00', minutes = '00', seconds = '00'] = s.trim().split(/[-:T\s]+/);
  return { year, month, day, hour, minutes, seconds };
}
