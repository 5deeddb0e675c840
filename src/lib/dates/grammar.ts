/**
 * The hand-written grammar for client-sent dates: the forms WordPress clients send, read token by token into an
 * {@link Expr} that natural.ts resolves to an instant with PHP's semantics.
 */
import { FixedOffsetZone } from 'luxon';
import type { Clock } from './convert.js';
import { fixedZone, type Zone } from './zones.js';

/** A time as written: not yet range-checked, maybe on a 12-hour clock. */
export interface RawTime extends Clock {
  meridiem?: 'am' | 'pm';
}

/** What the text says; resolve() in natural.ts turns it into an instant, in PHP's order. */
export interface Expr {
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
export function parseExpr(text: string): Expr | undefined {
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
