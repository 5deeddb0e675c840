import type { Problems } from '../../http/problems.js';
import { parseDateInput, utcToLocal, type Zone } from '../../lib/dates.js';
import { addWall, afterSince, expand, parseRule, type Recurrence, type Rule } from './recurrence.rule.js';
import { nowUtc } from '../../lib/clock.js';

/** How far and how many occurrences a series may have (CAL_RECURRENCE_HORIZON_DAYS, CAL_RECURRENCE_MAX). */
export interface RecurrencePolicy {
  max: number;
  horizonDays: number;
  /**
   * The day (YYYY-MM-DD) before which a series' occurrences are not made unless its payload names
   * another (`recurrence.since`): an import's, so that a series running for years keeps its recent
   * past without its whole history counting against `max`.
   */
  since?: string | undefined;
  /** The clock the horizon is measured from (tests move it). */
  now(): Date;
}

/** A checked `recurrence`: the normalized fields and the parsed rule. */
export interface CheckedRecurrence {
  recurrence: Recurrence;
  rule: Rule;
}

/** The local wall time up to which a series starting now is materialized. */
export function horizonLocal(policy: RecurrencePolicy, zone: Zone, at: Date = policy.now()): string {
  const utc = nowUtc(new Date(at.getTime() + policy.horizonDays * 86_400_000));
  return utcToLocal(utc, zone);
}

/** Past every date a rule can make (expansion stops at the rule's own end or SPAN_YEARS first). */
const WHOLE = '9999-12-31 23:59:59';

/**
 * The local wall time up to which a series is materialized. A rule with an end (COUNT, UNTIL) is
 * made whole: it is bounded by `max` already, and a festival a year beyond the horizon must show
 * all its days, not its first. A rule without one reaches the horizon, counted from today or, for
 * a series starting beyond today's horizon, from its own start (else it would be its first date
 * alone until the clock caught up).
 */
export function materializedThrough(
  policy: RecurrencePolicy,
  rule: Rule,
  zone: Zone,
  startLocal: string,
  at: Date = policy.now(),
): string {
  if (rule.untilLocal !== null || rule.count !== null) return WHOLE;
  const fromToday = horizonLocal(policy, zone, at);
  const fromStart = addWall(startLocal, policy.horizonDays * 86_400_000);
  return fromStart > fromToday ? fromStart : fromToday;
}

/** A day `YYYY-MM-DD` as the first wall time of that day, or null. */
function sinceWall(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value.trim());
  if (!day || Number.isNaN(Date.parse(`${day[0]}T00:00:00Z`))) return null;
  return `${day[0]} 00:00:00`;
}

const DATE_ONLY = /^(\d{4})-?(\d{2})-?(\d{2})$/;
const WALL = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;
const ICAL = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(Z?)$/;

/**
 * One RDATE or EXDATE as the local wall time of an occurrence: a date alone takes the series'
 * time of day; a wall time is kept as written (even inside a DST gap, so it names the occurrence
 * whose recurrence id it is); a UTC or offset time is read into the zone.
 */
function occurrenceWall(value: unknown, zone: Zone, startLocal: string): string | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  const dateOnly = DATE_ONLY.exec(text);
  if (dateOnly) return `${dateOnly[1]}-${dateOnly[2]}-${dateOnly[3]} ${startLocal.slice(11)}`;
  const wall = WALL.exec(text);
  if (wall) return `${wall[1]}-${wall[2]}-${wall[3]} ${wall[4]}:${wall[5]}:${wall[6] ?? '00'}`;
  const ical = ICAL.exec(text);
  if (ical) {
    const stamp = `${ical[1]}-${ical[2]}-${ical[3]} ${ical[4]}:${ical[5]}:${ical[6]}`;
    return ical[7] ? utcToLocal(stamp, zone) : stamp;
  }
  return parseDateInput(text, zone);
}

function dateList(
  value: unknown,
  field: 'rdates' | 'exdates',
  zone: Zone,
  startLocal: string,
  policy: RecurrencePolicy,
  problems: Problems,
): string[] {
  if (value === undefined || value === null) return [];
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : null;
  if (items === null) {
    problems.add(`recurrence.${field}`, `recurrence.${field} must be a list of dates.`);
    return [];
  }
  if (items.length > policy.max) {
    problems.add(`recurrence.${field}`, `recurrence.${field} may list at most ${policy.max} dates.`);
    return [];
  }
  const walls: string[] = [];
  for (const item of items) {
    const wall = occurrenceWall(item, zone, startLocal);
    if (wall === null) {
      problems.add(`recurrence.${field}`, `recurrence.${field} holds ${JSON.stringify(item)}, which is not a date.`);
      return [];
    }
    walls.push(wall);
  }
  return [...new Set(walls)].sort();
}

/**
 * Checks a `recurrence` payload (an object, or the rule alone as a string) for a series starting
 * at `startLocal` in `zone`: the rule must be one the library reads, not sub-daily, and yield at
 * most `policy.max` occurrences up to its end or, for a rule without one, up to the horizon,
 * counted from `since` (the payload's, else the policy's) when that is after the start.
 */
export function checkRecurrence(
  value: unknown,
  zone: Zone,
  startLocal: string,
  policy: RecurrencePolicy,
  problems: Problems,
): CheckedRecurrence | undefined {
  const input = typeof value === 'string' ? { rrule: value } : value;
  if (!input || typeof input !== 'object' || Array.isArray(input)) {
    problems.add('recurrence', 'recurrence must be an object with rrule, rdates and exdates, or null.');
    return undefined;
  }
  const fields = input as Record<string, unknown>;
  const unknownKeys = Object.keys(fields).filter(
    (key) => !['rrule', 'rdates', 'exdates', 'summary', 'exceptions', 'since'].includes(key),
  );
  if (unknownKeys.length > 0) {
    problems.add('recurrence', `recurrence has unknown field(s) ${unknownKeys.join(', ')}.`);
    return undefined;
  }
  if (typeof fields['rrule'] !== 'string') {
    problems.add('recurrence.rrule', 'recurrence.rrule must be an RFC 5545 rule such as FREQ=WEEKLY;BYDAY=TU.');
    return undefined;
  }
  const rule = parseRule(fields['rrule'], zone);
  if (typeof rule === 'string') {
    problems.add('recurrence.rrule', rule);
    return undefined;
  }
  const sinceValue = fields['since'] ?? policy.since;
  const since = sinceValue === undefined || sinceValue === null ? null : sinceWall(sinceValue);
  if (sinceValue !== undefined && sinceValue !== null && since === null) {
    problems.add('recurrence.since', 'recurrence.since must be a day, YYYY-MM-DD.');
    return undefined;
  }
  const rdates = dateList(fields['rdates'], 'rdates', zone, startLocal, policy, problems);
  const exdates = dateList(fields['exdates'], 'exdates', zone, startLocal, policy, problems);
  if (problems.has('recurrence.rdates') || problems.has('recurrence.exdates')) return undefined;
  if (exdates.includes(startLocal)) {
    problems.add(
      'recurrence.exdates',
      'recurrence.exdates must not hold the first occurrence: the series is its first date; move start_date instead.',
    );
    return undefined;
  }
  const recurrence: Recurrence = { rrule: fields['rrule'].trim().replace(/^RRULE:/i, ''), rdates, exdates };
  // Only a since after the start leaves anything out.
  if (since !== null && since > startLocal) recurrence.since = since;
  if (rule.count !== null && rule.count > policy.max) {
    problems.add(
      'recurrence.rrule',
      `recurrence.rrule has ${rule.count} occurrences; at most ${policy.max} are allowed.`,
    );
    return undefined;
  }
  // What is made is counted: from the start (or since) to the rule's end or the horizon; the
  // series row itself is one of them even when since leaves out the dates after it.
  const through = materializedThrough(policy, rule, zone, startLocal);
  const { starts } = expand(rule, recurrence, startLocal, through, policy.max, afterSince(recurrence.since));
  const made = starts.length + (recurrence.since === undefined ? 0 : 1);
  if (made > policy.max) {
    const where = through === WHOLE ? '' : ` within the next ${policy.horizonDays} days`;
    const from = recurrence.since === undefined ? '' : ` from ${recurrence.since.slice(0, 10)}`;
    const hint =
      recurrence.since === undefined && rule.untilLocal === null && rule.count === null
        ? ' (recurrence.since, a later day, leaves out the past)'
        : '';
    problems.add(
      'recurrence.rrule',
      `recurrence.rrule has more than ${policy.max} occurrences${from}${where}; at most ${policy.max} are allowed${hint}.`,
    );
    return undefined;
  }
  return { recurrence, rule };
}
