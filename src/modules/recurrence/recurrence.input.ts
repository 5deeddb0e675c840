import type { Problems } from '../../http/problems.js';
import { parseDateInput, utcToLocal, type Zone } from '../../lib/dates.js';
import { expand, parseRule, type Recurrence, type Rule } from './recurrence.rule.js';
import { nowUtc } from '../../lib/clock.js';

/** How far and how many occurrences a series may have (CAL_RECURRENCE_HORIZON_DAYS, CAL_RECURRENCE_MAX). */
export interface RecurrencePolicy {
  max: number;
  horizonDays: number;
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
 * most `policy.max` occurrences up to its end or, for a rule without one, up to the horizon.
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
    (key) => !['rrule', 'rdates', 'exdates', 'summary', 'exceptions'].includes(key),
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
  if (rule.count !== null && rule.count > policy.max) {
    problems.add(
      'recurrence.rrule',
      `recurrence.rrule has ${rule.count} occurrences; at most ${policy.max} are allowed.`,
    );
    return undefined;
  }
  // A rule with an end is counted to its end; one without, to the horizon it is materialized to.
  const through = rule.untilLocal !== null || rule.count !== null ? '9999-12-31 23:59:59' : horizonLocal(policy, zone);
  const { starts } = expand(rule, recurrence, startLocal, through, policy.max);
  if (starts.length > policy.max) {
    const where = through.startsWith('9999') ? '' : ` within the next ${policy.horizonDays} days`;
    problems.add(
      'recurrence.rrule',
      `recurrence.rrule has more than ${policy.max} occurrences${where}; at most ${policy.max} are allowed.`,
    );
    return undefined;
  }
  return { recurrence, rule };
}
