/**
 * Client-sent dates, read like PHP's `strtotime()`: plain `Y-m-d H:i[:s]` directly, the forms WordPress clients send
 * by the grammar (grammar.ts) with PHP's semantics, the rest by chrono-node.
 */
import { createRequire } from 'node:module';
import type { ParsedComponents } from 'chrono-node';
import type * as Chrono from 'chrono-node/en';
import { DateTime } from 'luxon';
import { atWallClock, formatSql, formatWall, instantOf, wallFromFields, wallOf, type Clock } from './convert.js';
import { parseExpr, type Expr, type RawTime } from './grammar.js';
import type { Zone } from './zones.js';

/** Reads a client-sent date in `zone`, strtotime-like. Returns local wall-clock 'YYYY-MM-DD HH:MM:SS' in that zone, or null if unparseable. `now` is the reference instant (default: new Date()). */
export function parseDateInput(input: unknown, zone: Zone, now: Date = new Date()): string | null {
  if (typeof input === 'string' && input.length > DATE_MAX_LENGTH) return null;
  const plain = typeof input === 'string' ? plainWall(input) : undefined;
  if (plain !== undefined) return plain === null ? null : formatWall(wallOf(instantOf(plain, zone), zone));
  const dt = parseDateTime(input, zone, now);
  return dt ? formatSql(dt) : null;
}

/**
 * Same but returns the instant (luxon DateTime in `zone`, whole seconds), or null.
 *
 * - A number or a string of digits is a UNIX timestamp in seconds.
 * - Dates and times without an offset are wall-clock in `zone`; an explicit offset (`Z`, `+02:00`) is honoured
 *   and the instant converted into `zone`.
 * - Relative forms follow PHP, computed on the wall clock of `now` in `zone` (see {@link resolve}).
 */
export function parseDateTime(input: unknown, zone: Zone, now: Date = new Date()): DateTime | null {
  const dt =
    typeof input === 'number'
      ? fromTimestamp(input, zone)
      : typeof input === 'string'
        ? parseText(input, zone, now)
        : null;
  return dt?.isValid ? dt.set({ millisecond: 0 }) : null;
}

function fromTimestamp(seconds: number, zone: Zone): DateTime | null {
  return Number.isFinite(seconds) ? DateTime.fromSeconds(Math.trunc(seconds), { zone }) : null;
}

/** `Y-m-d H:i[:s]`, what most clients send: read directly, as the grammar would, without its cost. */
const PLAIN = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;

/** Wall milliseconds of a plain `Y-m-d H:i[:s]`; null when it names no real time (24:00, Feb 30, as in the grammar); undefined for other forms. */
function plainWall(input: string): number | null | undefined {
  const plain = PLAIN.exec(input);
  if (!plain) return undefined;
  const [year, month, day, hour, minute, second] = plain.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  return wallFromFields(year, month, day, hour, minute, second);
}

/**
 * Longest date text read: the longest form a client writes ("next Wednesday 10:30pm Europe/London",
 * an ISO date-time with fractions and offset) fits with room to spare, and chrono-node's time grows
 * faster than the text (12 KB took a second), so nothing longer reaches a parser.
 */
export const DATE_MAX_LENGTH = 64;

function parseText(input: string, zone: Zone, now: Date): DateTime | null {
  if (input.length > DATE_MAX_LENGTH) return null;
  const plain = plainWall(input);
  if (plain !== undefined) return plain === null ? null : DateTime.fromMillis(instantOf(plain, zone), { zone });
  const text = normalize(input);
  if (text === '') return null;
  if (/^-?\d+$/.test(text)) return fromTimestamp(Number(text), zone);
  const expr = parseExpr(text);
  // Once the grammar has read the whole text its verdict is final: an invalid date such as 2023-02-30 must not be
  // "rescued" by chrono's looser reading.
  return expr ? resolve(expr, zone, now) : parseWithChrono(text, zone, now);
}

/** Lower-cases, collapses blanks, and turns ISO's `T` separator into a space so one grammar rule reads both. */
function normalize(input: string): string {
  return input
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/^(\d{4}-\d{1,2}-\d{1,2})t(?=\d)/, '$1 ');
}

// --- Resolution -------------------------------------------------------------------------------------------------

const MIDNIGHT: Clock = { hour: 0, minute: 0, second: 0 };

const clockOf = ({ hour, minute, second }: DateTime): Clock => ({ hour, minute, second });

/** A valid 24-hour clock time, or null (hour 25, 13pm, minute 60). */
function clockTime({ hour, minute, second, meridiem }: RawTime): Clock | null {
  if (minute > 59 || second > 59) return null;
  if (meridiem === undefined) return hour > 23 ? null : { hour, minute, second };
  if (hour < 1 || hour > 12) return null;
  return { hour: (hour % 12) + (meridiem === 'pm' ? 12 : 0), minute, second };
}

/** Days to move from weekday `from` to `to`: 'this' may stay on today, 'next'/'last' never do. */
function weekdayDelta(from: number, to: number, mode: 'this' | 'next' | 'last'): number {
  const ahead = (to - from + 7) % 7;
  if (mode === 'this') return ahead;
  if (mode === 'next') return ahead || 7;
  return -((from - to + 7) % 7 || 7);
}

/**
 * Computes the instant the way PHP's timelib does:
 * 1. Start from `now` on the wall clock of the zone (or of the offset written in the text).
 * 2. An explicit date replaces the date; an explicit time replaces the time. With a date, a day word (`today`,
 *    `tomorrow`, …) or a weekday but no time, the time is 00:00:00; otherwise the current time is kept
 *    (`+5 days`, `next month`, `first day of next month` keep it). An explicit time wins wherever it is written.
 * 3. Move to the weekday, if any (`next wednesday` is strictly after today, bare `wednesday` may be today).
 * 4. Add months and days to the date fields, letting overflow roll over as PHP does (Jan 31 +1 month = Mar 3),
 *    unless `first/last day of` pins the day within the resulting month.
 * 5. Add hours/minutes/seconds as elapsed time, so `+2 hours` is two real hours even across a DST change.
 * The wall-clock result is pinned to an instant by {@link instantOf}.
 */
function resolve(expr: Expr, zone: Zone, nowInstant: Date): DateTime | null {
  const workZone = expr.offset ?? zone;
  const now = DateTime.fromJSDate(nowInstant, { zone: workZone });
  const keepsClock = !expr.date && !expr.midnight;
  const time = expr.time ? clockTime(expr.time) : keepsClock ? clockOf(now) : MIDNIGHT;
  // Calendar arithmetic happens on a zone-less (UTC) date, so no DST change can disturb it.
  let date = expr.date
    ? DateTime.utc(expr.date.year ?? now.year, expr.date.month, expr.date.day)
    : DateTime.utc(now.year, now.month, now.day);
  if (!time || !date.isValid) return null;

  if (expr.weekday) date = date.plus({ days: weekdayDelta(date.weekday, expr.weekday.day, expr.weekday.mode) });
  const month = date.startOf('month').plus({ months: expr.rel.months });
  if (expr.dayOf === 'first') date = month;
  else if (expr.dayOf === 'last') date = month.endOf('month').startOf('day');
  else date = month.plus({ days: date.day - 1 + expr.rel.days });

  const local = atWallClock(date.year, date.month, date.day, time, workZone);
  return local && local.plus({ seconds: expr.rel.seconds }).setZone(zone);
}

// --- chrono-node fallback ---------------------------------------------------------------------------------------

/**
 * chrono's English parser, loaded the first time a date outside the grammar comes: most services
 * never see one, and it is 62 files (issue 30: with prom-client's, 1.1 MB less heap after start).
 * English only: the other locales cost ~15 MB and clients send English or numeric dates. Loaded by
 * require (its CommonJS build) so that parsing stays synchronous.
 */
let loaded: typeof Chrono | undefined;
function chrono(): typeof Chrono {
  return (loaded ??= createRequire(import.meta.url)('chrono-node/en') as typeof Chrono);
}

/**
 * Forms outside the grammar ('1/5/2027', '2027/01/05', '1/5/2027 3pm EST', 'tomorrow evening').
 * chrono computes in the process's time zone unless given a reference offset, and then only a fixed one; so it
 * gets the zone's offset at `now`, and we read back its wall-clock components and place them in the real zone
 * ourselves (DST-correct), except when the text carries its own offset.
 */
function parseWithChrono(text: string, zone: Zone, now: Date): DateTime | null {
  const results = chrono().parse(text, { instant: now, timezone: zone.offset(now.getTime()) });
  if (results.length !== 1 || !coversWholeText(text, results[0])) return null;
  const c = results[0].start;
  if (c.isCertain('timezoneOffset')) return DateTime.fromJSDate(c.date(), { zone });

  const today = DateTime.fromJSDate(now, { zone });
  return atWallClock(
    c.get('year') ?? today.year,
    c.get('month') ?? today.month,
    c.get('day') ?? today.day,
    chronoClock(c, today),
    zone,
  );
}

/**
 * The time of a chrono result without an offset. chrono fills in 12:00 for a bare date where PHP says midnight,
 * and its reference time for relative dates ('in 3 days'), which it computes in the process's zone; so only a
 * time it read from the text (3pm, evening) is taken from it.
 */
function chronoClock(c: ParsedComponents, now: DateTime): Clock {
  const tags = c.tags();
  if (c.isCertain('hour') || tags.has('parser/ENCasualTimeParser')) {
    return { hour: c.get('hour') ?? 0, minute: c.get('minute') ?? 0, second: c.get('second') ?? 0 };
  }
  return tags.has('result/relativeDate') ? clockOf(now) : MIDNIGHT;
}

/** chrono happily finds a date inside garbage ('foo tomorrow bar'); only a reading of (nearly) all the text counts. */
function coversWholeText(text: string, result: Chrono.ParsedResult): boolean {
  const rest = text.slice(0, result.index) + text.slice(result.index + result.text.length);
  return /^[\s,.]*$/.test(rest);
}
