/**
 * Dates and time zones the way The Events Calendar (WordPress/PHP) handles them.
 *
 * Stored and returned dates are wall-clock strings `YYYY-MM-DD HH:MM:SS` (no `T`, no offset), either in the
 * event's zone ("local") or in UTC. Client-sent dates are read like PHP's `strtotime()`: a hand-written grammar
 * covers the forms WordPress clients send, with PHP's semantics; chrono-node reads the rest.
 */
// English only: the other locales cost ~15 MB of memory and clients send English or numeric dates.
import * as chrono from 'chrono-node/en';
import type { ParsedComponents } from 'chrono-node';
import { LRUCache } from 'lru-cache';
import { DateTime, FixedOffsetZone, IANAZone } from 'luxon';
import type { Zone as LuxonZone } from 'luxon';

export type Zone = LuxonZone;

const SQL_FORMAT = 'yyyy-MM-dd HH:mm:ss';

// ---------------------------------------------------------------------------------------------------------------
// Time zones

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
function fixedZone(sign: string, hours: number, minutes: number): Zone | null {
  const total = hours * 60 + minutes;
  if (minutes > 59 || total > MAX_OFFSET_MINUTES) return null;
  return FixedOffsetZone.instance(sign === '-' ? -total : total);
}

// ---------------------------------------------------------------------------------------------------------------
// Stored strings

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

const MINUTE = 60_000;
const DAY = 86_400_000;
const STORED = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/;

/** Wall milliseconds of a stored `YYYY-MM-DD[ HH:MM:SS]`; stored values are trusted, so a bad one is a bug and throws. */
function storedWall(s: string): number {
  const m = STORED.exec(s);
  const wall = m
    ? wallFromFields(Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0), Number(m[6] ?? 0))
    : null;
  if (wall === null) throw new RangeError(`Invalid date string: ${JSON.stringify(s)}`);
  return wall;
}

/** Wall milliseconds of a calendar date and clock time; null when they do not exist (Feb 30, 24:00). */
function wallFromFields(
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
function formatWall(wall: number): string {
  const iso = new Date(wall).toISOString();
  // Years outside 0-9999 are written with a sign and six digits by toISOString.
  return iso.length === 24
    ? `${iso.slice(0, 10)} ${iso.slice(11, 19)}`
    : DateTime.fromMillis(wall, { zone: 'utc' }).toFormat(SQL_FORMAT);
}

/** A DateTime in `zone` at the instant a wall-clock time has there ({@link instantOf}); null for a date that does not exist. */
function atWallClock(year: number, month: number, day: number, clock: Clock, zone: Zone): DateTime | null {
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
function instantOf(wall: number, zone: Zone): number {
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
function wallOf(instant: number, zone: Zone): number {
  return instant + offsetAt(zone, instant);
}

/**
 * A zone's offset at an instant, in whole milliseconds (local mean times before standard time
 * have offsets in seconds). Intl answers it in microseconds, and one write asks for the same few
 * instants several times (reading, converting and naming its dates), so answers are remembered:
 * they never change while the process runs.
 */
function offsetAt(zone: Zone, instant: number): number {
  if (zone.isUniversal) return Math.round(zone.offset(instant) * MINUTE);
  const key = `${zone.name}|${instant}`;
  let offset = offsets.get(key);
  if (offset === undefined) {
    offset = Math.round(zone.offset(instant) * MINUTE);
    offsets.set(key, offset);
  }
  return offset;
}
const offsets = new LRUCache<string, number>({ max: 10_000 });

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

// ---------------------------------------------------------------------------------------------------------------
// Zone abbreviations

/**
 * ICU has no tz-database abbreviations: it names a zone only in the locales where that name is in common use
 * ('CET' in en-GB, 'EST' in en-US, 'JST' in ja) and says 'GMT+1' elsewhere. So ask a few locales, in order, and
 * keep the first real abbreviation.
 */
const ABBR_LOCALES = ['en-US', 'en-CA', 'en-GB', 'en-IE', 'en-AU', 'en-NZ', 'en-IN', 'en-ZA', 'en-SG', 'en-HK', 'ja'];
const GMT_STYLE = /^(GMT|UTC)[+-]/;
const formatters = new Map<string, Intl.DateTimeFormat>();
const abbreviations = new LRUCache<string, string>({ max: 1000 });

function zoneNameIn(locale: string, ianaName: string, millis: number): string {
  const key = `${locale}|${ianaName}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { timeZone: ianaName, timeZoneName: 'short' });
    formatters.set(key, formatter);
  }
  return formatter.formatToParts(millis).find((part) => part.type === 'timeZoneName')?.value ?? '';
}

function firstAbbreviation(ianaName: string, millis: number): string {
  for (const locale of ABBR_LOCALES) {
    const name = zoneNameIn(locale, ianaName, millis);
    if (!GMT_STYLE.test(name)) return name;
  }
  return zoneNameIn(ABBR_LOCALES[0]!, ianaName, millis);
}

/**
 * Abbreviation of the zone at that local time, DST-aware: 'CET'/'CEST', 'EST'/'EDT', 'UTC'. Fixed offsets are
 * named as the caller wrote them (`tzName`, e.g. 'UTC+2'). Zones without a common abbreviation get ICU's
 * 'GMT+5:45' style.
 */
export function timezoneAbbr(local: string, zone: Zone, tzName: string): string {
  if (zone.type !== 'iana') return tzName.trim() || zone.name;
  const millis = instantOf(storedWall(local), zone);
  // Asking ICU takes a few locales at several microseconds each. A zone's name changes with its
  // offset, and sometimes without (Metlakatla's PST and AKDT in 2019), but never within a day.
  const key = `${zone.name}|${offsetAt(zone, millis)}|${Math.floor(millis / DAY)}`;
  let abbr = abbreviations.get(key);
  if (abbr === undefined) {
    abbr = firstAbbreviation(zone.name, millis);
    abbreviations.set(key, abbr);
  }
  return abbr;
}

// ---------------------------------------------------------------------------------------------------------------
// Client input

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

// --- Grammar ----------------------------------------------------------------------------------------------------

interface Clock {
  hour: number;
  minute: number;
  second: number;
}

/** A time as written: not yet range-checked, maybe on a 12-hour clock. */
interface RawTime extends Clock {
  meridiem?: 'am' | 'pm';
}

/** What the text says; {@link resolve} turns it into an instant, in PHP's order. */
interface Expr {
  date?: { year?: number; month: number; day: number };
  time?: RawTime;
  /** An offset written in the text (`Z`, `+02:00`, `UTC`): the wall clock is read in it instead of the zone. */
  offset?: Zone;
  /** `today`, `tomorrow`, `yesterday`, `midnight` and weekday names reset the clock to 00:00:00. */
  midnight: boolean;
  weekday?: { day: number; mode: 'this' | 'next' | 'last' };
  dayOf?: 'first' | 'last';
  /** Calendar offsets are applied to the date fields; `seconds` (from hours/minutes/seconds) is elapsed time. */
  rel: { months: number; days: number; seconds: number };
}

const MONTH =
  'jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?';
const WEEKDAY =
  'mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?';
const UNIT = 'sec(?:ond)?s?|min(?:ute)?s?|hours?|days?|weeks?|fortnights?|months?|years?';
const MERIDIEM = '[ap]\\.?m\\.?';
const OFFSET = 'z|[+-]\\d{2}(?::?\\d{2})?';
const ORDINAL = '(?:st|nd|rd|th)?';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** Luxon numbering: Monday = 1 … Sunday = 7. */
const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

const monthNumber = (name: string): number => MONTHS.indexOf(name.slice(0, 3)) + 1;
const weekdayNumber = (name: string): number => WEEKDAYS.indexOf(name.slice(0, 3)) + 1;

type Apply = (m: RegExpExecArray, expr: Expr) => boolean;

interface Rule {
  re: RegExp;
  /** Records the token; false when it clashes with what was already read (two dates, two times). */
  apply: Apply;
}

/** Every token must end at a blank, a comma or the end, so 'mon' never matches the start of 'month'. */
const rule = (source: string, apply: Apply): Rule => ({ re: new RegExp(`(?:${source})(?=[\\s,]|$)`, 'y'), apply });

function setDate(expr: Expr, year: string | undefined, month: number, day: string | undefined): boolean {
  if (expr.date) return false;
  expr.date = { year: year === undefined ? undefined : Number(year), month, day: day === undefined ? 1 : Number(day) };
  return true;
}

function setTime(expr: Expr, time: RawTime): boolean {
  if (expr.time) return false;
  expr.time = time;
  return true;
}

function setOffset(expr: Expr, text: string): boolean {
  const offset = offsetZone(text);
  if (expr.offset || !offset) return false;
  expr.offset = offset;
  return true;
}

/** `z`, `utc`, `gmt`, `+02`, `+0200`, `+02:00`. */
function offsetZone(text: string): Zone | null {
  const m = /^([+-])(\d{2}):?(\d{2})?$/.exec(text);
  return m ? fixedZone(m[1], Number(m[2]), Number(m[3] ?? 0)) : FixedOffsetZone.utcInstance;
}

function addUnits(expr: Expr, amount: number, unit: string): void {
  const { rel } = expr;
  if (unit.startsWith('sec')) rel.seconds += amount;
  else if (unit.startsWith('min')) rel.seconds += amount * 60;
  else if (unit.startsWith('hour')) rel.seconds += amount * 3600;
  else if (unit.startsWith('day')) rel.days += amount;
  else if (unit.startsWith('week')) rel.days += amount * 7;
  else if (unit.startsWith('fortnight')) rel.days += amount * 14;
  else if (unit.startsWith('month')) rel.months += amount;
  else rel.months += amount * 12;
}

const meridiemOf = (text: string | undefined): RawTime['meridiem'] =>
  text === undefined ? undefined : text.startsWith('a') ? 'am' : 'pm';

/** Tried in order at each position; the more specific forms come first ('last day of' before 'last day'). */
const RULES: Rule[] = [
  rule('(\\d{4})-(\\d{1,2})-(\\d{1,2})', (m, e) => setDate(e, m[1], Number(m[2]), m[3])),
  rule(`(${MONTH})\\.? (\\d{1,2})${ORDINAL}(?:,? (\\d{4}))?`, (m, e) => setDate(e, m[3], monthNumber(m[1]), m[2])),
  rule(`(${MONTH})\\.?,? (\\d{4})`, (m, e) => setDate(e, m[2], monthNumber(m[1]), undefined)),
  rule(`(\\d{1,2})${ORDINAL} (${MONTH})\\.?(?:,? (\\d{4}))?`, (m, e) => setDate(e, m[3], monthNumber(m[2]), m[1])),
  rule(`(\\d{1,2}):(\\d{2})(?::(\\d{2})(?:[.,]\\d+)?)?(?: ?(${MERIDIEM}))?(${OFFSET})?`, (m, e) => {
    const time = { hour: Number(m[1]), minute: Number(m[2]), second: Number(m[3] ?? 0), meridiem: meridiemOf(m[4]) };
    return setTime(e, time) && (m[5] === undefined || setOffset(e, m[5]));
  }),
  rule(`(\\d{1,2}) ?(${MERIDIEM})`, (m, e) =>
    setTime(e, { hour: Number(m[1]), minute: 0, second: 0, meridiem: meridiemOf(m[2]) }),
  ),
  rule('noon', (_m, e) => setTime(e, { hour: 12, minute: 0, second: 0 })),
  rule('now', () => true),
  rule('today|midnight', (_m, e) => {
    e.midnight = true;
    return true;
  }),
  rule('tomorrow|yesterday', (m, e) => {
    e.midnight = true;
    e.rel.days += m[0] === 'tomorrow' ? 1 : -1;
    return true;
  }),
  rule('(first|last) day of', (m, e) => {
    if (e.dayOf) return false;
    e.dayOf = m[1] === 'first' ? 'first' : 'last';
    return true;
  }),
  rule(`(next|last|previous|this) (${UNIT})`, (m, e) => {
    addUnits(e, m[1] === 'next' ? 1 : m[1] === 'this' ? 0 : -1, m[2]);
    return true;
  }),
  rule(`(?:(next|last|previous|this) )?(${WEEKDAY})\\.?`, (m, e) => {
    if (e.weekday) return false;
    e.weekday = {
      day: weekdayNumber(m[2]),
      mode: m[1] === 'next' ? 'next' : m[1] === undefined || m[1] === 'this' ? 'this' : 'last',
    };
    e.midnight = true;
    return true;
  }),
  rule(`(?:in )?([+-]?) ?(\\d+) ?(${UNIT})`, (m, e) => {
    addUnits(e, m[1] === '-' ? -Number(m[2]) : Number(m[2]), m[3]);
    return true;
  }),
  // PHP's 'ago' negates every relative amount read so far ('2 days 3 hours ago').
  rule('ago', (_m, e) => {
    e.rel = { months: -e.rel.months, days: -e.rel.days, seconds: -e.rel.seconds };
    return true;
  }),
  rule(`utc|gmt|${OFFSET}`, (m, e) => setOffset(e, m[0])),
  rule('at', () => true),
];

const SEPARATORS = /[\s,]*/y;

/** Reads the whole text with {@link RULES}; undefined when some part is not understood (chrono gets a try). */
function parseExpr(text: string): Expr | undefined {
  const expr: Expr = { midnight: false, rel: { months: 0, days: 0, seconds: 0 } };
  let pos = 0;
  while (pos < text.length) {
    SEPARATORS.lastIndex = pos;
    SEPARATORS.exec(text);
    pos = SEPARATORS.lastIndex;
    if (pos === text.length) break;
    const next = matchRule(text, pos, expr);
    if (next === undefined) return undefined;
    pos = next;
  }
  return expr;
}

function matchRule(text: string, pos: number, expr: Expr): number | undefined {
  for (const { re, apply } of RULES) {
    re.lastIndex = pos;
    const m = re.exec(text);
    if (m) return apply(m, expr) ? re.lastIndex : undefined;
  }
  return undefined;
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
 * Forms outside the grammar ('1/5/2027', '2027/01/05', '1/5/2027 3pm EST', 'tomorrow evening').
 * chrono computes in the process's time zone unless given a reference offset, and then only a fixed one; so it
 * gets the zone's offset at `now`, and we read back its wall-clock components and place them in the real zone
 * ourselves (DST-correct), except when the text carries its own offset.
 */
function parseWithChrono(text: string, zone: Zone, now: Date): DateTime | null {
  const results = chrono.parse(text, { instant: now, timezone: zone.offset(now.getTime()) });
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
function coversWholeText(text: string, result: chrono.ParsedResult): boolean {
  const rest = text.slice(0, result.index) + text.slice(result.index + result.text.length);
  return /^[\s,.]*$/.test(rest);
}
