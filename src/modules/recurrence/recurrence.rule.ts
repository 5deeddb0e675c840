import rrulePackage, { type Frequency as FrequencyEnum, type Options, type RRule as RRuleType } from 'rrule';
import { localToUtc, utcToLocal, type Zone } from '../../lib/dates.js';
import { byteBoundedCache, CACHE_BUDGET, stringBytes } from '../../lib/cache-budget.js';
import { nowUtc } from '../../lib/clock.js';

/**
 * The one door to the RRULE library (`rrule`). Every rule is expanded in *wall-clock* time: the
 * series' local start is handed to the library as if it were UTC, so the library never sees a
 * daylight-saving change and "every Tuesday at 19:00" stays at 19:00 local time all year. Each
 * wall time is then pinned to an instant in the event's zone by `localToUtc`, which follows RFC
 * 5545 §3.3.5 for gaps (02:30 on a spring-forward day is read with the offset before the gap, i.e.
 * 03:30 summer time) and overlaps (the first of the two 01:30s).
 */

// `rrule` ships CommonJS for Node's resolver: its named exports come through the default one.
const { RRule, Frequency } = rrulePackage as unknown as { RRule: typeof RRuleType; Frequency: typeof FrequencyEnum };

/** A series' recurrence, normalized: the rule without its `RRULE:` prefix, dates as local wall times. */
export interface Recurrence {
  rrule: string;
  rdates: string[];
  exdates: string[];
  /**
   * Occurrences before this wall time are not made (an import's `since`); the rule stays whole.
   * Travels from a write to its expansion only: the stored series is its rule and dates.
   */
  since?: string;
}

/** The exclusive `afterLocal` of `expand` that makes `since` (inclusive) the first wall time made. */
export function afterSince(since: string | undefined): string | null {
  return since === undefined ? null : fromFloating(new Date(toFloating(since).getTime() - 1000));
}

/** A parsed rule ready to expand from one local start. */
export interface Rule {
  readonly options: Partial<Options>;
  /** The rule's end as a local wall time (UNTIL read in the series' zone), or null. */
  readonly untilLocal: string | null;
  /** The date UNTIL names as written (UTC for a UTC UNTIL), for the summary. */
  readonly untilDate: string | null;
  readonly count: number | null;
}

const REFUSED_FREQUENCIES = new Set([Frequency.SECONDLY, Frequency.MINUTELY, Frequency.HOURLY]);

/** Wall time 'YYYY-MM-DD HH:MM:SS' ↔ the Date the library works with (that wall time read as UTC). */
const toFloating = (local: string): Date => new Date(`${local.replace(' ', 'T')}Z`);
const fromFloating = (date: Date): string => nowUtc(date);

/**
 * Reads `FREQ=…;…` (or a full `RRULE:` line). Returns a message naming the problem instead when the
 * rule cannot be used. `zone` reads a UTC `UNTIL` (RFC 5545 requires UTC with a zoned DTSTART).
 */
export function parseRule(text: string, zone: Zone): Rule | string {
  // Pages and lists read the same few rules again and again; a parse walks the library's probe.
  const key = `${zone.name}|${text}`;
  let parsed = parsedRules.get(key);
  if (parsed === undefined) parsedRules.set(key, (parsed = readRule(text, zone)));
  return parsed;
}

/** A parsed rule's options (a dozen fields, a few short arrays) or a message, as the budget counts it. */
const RULE_BYTES = 512;
const parsedRules = byteBoundedCache<string, Rule | string>(
  CACHE_BUDGET.rules,
  (rule, key) => stringBytes(key) + (typeof rule === 'string' ? stringBytes(rule) : RULE_BYTES),
);

function readRule(text: string, zone: Zone): Rule | string {
  const body = text.trim().replace(/^RRULE:/i, '');
  if (body === '' || /[\r\n]/.test(body)) return 'recurrence.rrule must be one RRULE line.';
  const freq = /(?:^|;)FREQ=([^;]*)/i.exec(body)?.[1]?.toUpperCase();
  if (freq === undefined) return 'recurrence.rrule has no FREQ.';
  if (!['SECONDLY', 'MINUTELY', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'].includes(freq))
    return `recurrence.rrule: FREQ=${freq} is not a frequency (DAILY, WEEKLY, MONTHLY or YEARLY).`;
  let options: Partial<Options>;
  try {
    options = RRule.parseString(body);
  } catch (error) {
    return `recurrence.rrule cannot be read: ${(error as Error).message}.`;
  }
  if (options.freq === undefined || options.freq === null) return 'recurrence.rrule has no FREQ.';
  if (REFUSED_FREQUENCIES.has(options.freq))
    return 'recurrence.rrule: FREQ=SECONDLY, MINUTELY and HOURLY are not supported; use DAILY with BYHOUR.';
  if (options.dtstart || options.tzid)
    return "recurrence.rrule must not hold DTSTART or TZID: the event's start and time zone are used.";
  if (options.count !== undefined && options.count !== null && options.until)
    return 'recurrence.rrule must not have both COUNT and UNTIL.';
  if (options.interval !== undefined && (options.interval < 1 || !Number.isInteger(options.interval)))
    return 'recurrence.rrule: INTERVAL must be a positive integer.';
  const until = /(?:^|;)UNTIL=(\d{8})(T\d{6})?(Z?)/i.exec(body);
  let untilLocal: string | null = null;
  let untilDate: string | null = null;
  if (until) {
    const [, day, time, utc] = until as unknown as [string, string, string | undefined, string];
    const wall = `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6, 8)} ${time ? `${time.slice(1, 3)}:${time.slice(3, 5)}:${time.slice(5, 7)}` : '23:59:59'}`;
    untilLocal = utc ? utcToLocal(wall, zone) : wall;
    untilDate = wall.slice(0, 10);
  }
  // The library walks a rule period by period and checks its end only when a date matches: a rule
  // that matches nothing (`FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30`, `BYDAY=6MO`) is walked to the year
  // 9999, seconds of blocked event loop. One walk over the library's last 28 years (a whole cycle of
  // weekdays and leap years) finds whether the rule matches anything, and what parseString lets
  // through (BYDAY=XX); every rule kept matches at least once in 28 years, so later walks stop soon
  // after their bound.
  try {
    const probe = new RRule({
      ...options,
      dtstart: toFloating('9971-01-01 00:00:00'),
      until: null,
      count: 1,
      interval: 1,
    }).all();
    if (probe.length === 0) return 'recurrence.rrule matches no date (none in 28 years).';
  } catch {
    return 'recurrence.rrule has a part that cannot be read.';
  }
  return { options, untilLocal, untilDate, count: options.count ?? null };
}

/** The rule's parts without its end (UNTIL or COUNT), for giving it another. */
function withoutEnd(rrule: string): string[] {
  return rrule
    .replace(/^RRULE:/i, '')
    .split(';')
    .filter((part) => part !== '' && !/^(UNTIL|COUNT)=/i.test(part));
}

/** The rule's text with UNTIL replaced (a split series ends where the next one starts), COUNT removed. */
export function withUntil(rrule: string, untilUtc: string): string {
  return [...withoutEnd(rrule), `UNTIL=${untilUtc.replace(/[-:]/g, '').replace(' ', 'T')}Z`].join(';');
}

/** The rule's text with COUNT set (the second half of a split COUNT rule). */
export function withCount(rrule: string, count: number): string {
  return [...withoutEnd(rrule), `COUNT=${count}`].join(';');
}

function libraryRule(rule: Rule, startLocal: string): RRuleType {
  return new RRule({
    ...rule.options,
    dtstart: toFloating(startLocal),
    until: rule.untilLocal ? toFloating(rule.untilLocal) : null,
    tzid: null,
  });
}

export interface Expansion {
  /** Occurrence start wall times (the recurrence ids), sorted, through `throughLocal`. */
  starts: string[];
  /** Nothing of the rule or the extra dates lies after `throughLocal`. */
  complete: boolean;
  /** Rule instances (before EXDATEs) up to `throughLocal`; for splitting a COUNT rule. */
  ruleInstances: string[];
}

/**
 * How far after its start a series reaches. The library walks a rule period by period until its
 * end: a rule that matches nothing (`FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30`) would be walked to the
 * year 9999, seconds of blocked event loop; bounding the walk keeps any rule under ~50 ms.
 */
export const SPAN_YEARS = 20;

/**
 * The occurrences of a series starting at `startLocal` (the first one, always an occurrence unless
 * excluded, as in RFC 5545) after `afterLocal` (exclusive; null: from the start) up to
 * `throughLocal` inclusive (and never beyond SPAN_YEARS after the start or `afterLocal`), at most `limit` + 1 of
 * them (the caller refuses more than `limit`). The rule is walked from its start either way, so
 * COUNT and INTERVAL keep their phase.
 */
export function expand(
  rule: Rule,
  recurrence: Recurrence,
  startLocal: string,
  throughLocal: string,
  limit: number,
  afterLocal: string | null = null,
): Expansion {
  // The span runs from where the window opens: a series of 2003 made from 2024 on still reaches ahead.
  const origin = afterLocal !== null && afterLocal > startLocal ? afterLocal : startLocal;
  const span = `${String(Number(origin.slice(0, 4)) + SPAN_YEARS).padStart(4, '0')}${origin.slice(4)}`;
  const boundLocal = [throughLocal, span, rule.untilLocal ?? throughLocal].sort()[0]!;
  const library = new RRule({
    ...rule.options,
    dtstart: toFloating(startLocal),
    until: toFloating(boundLocal),
    count: rule.count,
    tzid: null,
  });
  const after = afterLocal === null ? null : toFloating(afterLocal);
  const ruleInstances: string[] = [];
  // RFC 5545: DTSTART always counts as the first occurrence, so when it is not itself an instance
  // of the rule a COUNT rule yields one instance fewer (the library counts only its own).
  let budget = rule.count ?? Infinity;
  let walked = 0;
  library.all((date) => {
    if (walked === 0 && rule.count !== null && fromFloating(date) !== startLocal) budget -= 1;
    walked += 1;
    if (ruleInstances.length > limit || walked > budget) return false;
    if (after === null || date > after) ruleInstances.push(fromFloating(date));
    return true;
  });
  const excluded = new Set(recurrence.exdates);
  const inWindow = (d: string): boolean => d <= boundLocal && (afterLocal === null || d > afterLocal);
  const all = new Set([
    ...(inWindow(startLocal) ? [startLocal] : []),
    ...ruleInstances,
    ...recurrence.rdates.filter((d) => d >= startLocal && inWindow(d)),
  ]);
  const starts = [...all].filter((d) => !excluded.has(d)).sort();
  // Finished: the rule's end (UNTIL, COUNT or the span) is behind the window, and no extra date is ahead.
  const ruleDone =
    (rule.untilLocal !== null && rule.untilLocal <= throughLocal) ||
    walked > budget ||
    (rule.count !== null && walked >= budget) ||
    span <= throughLocal;
  const complete = ruleDone && !recurrence.rdates.some((d) => d > boundLocal);
  return { starts, complete, ruleInstances };
}

/** The instant of an occurrence's wall time, and the wall time it really shows (moved out of a gap). */
export function pinWallTime(wall: string, zone: Zone): { utc: string; local: string } {
  const utc = localToUtc(wall, zone);
  return { utc, local: utcToLocal(utc, zone) };
}

/** `wall` moved by `ms` of wall-clock time (an occurrence's end keeps the series' local duration). */
export function addWall(wall: string, ms: number): string {
  return fromFloating(new Date(toFloating(wall).getTime() + ms));
}

export function wallDuration(fromLocal: string, toLocal: string): number {
  return toFloating(toLocal).getTime() - toFloating(fromLocal).getTime();
}

/** The library's English text of the rule, for rules the summary catalogue does not cover. */
export function libraryText(rule: Rule, startLocal: string): string {
  return libraryRule(rule, startLocal).toText();
}

export { Frequency };
