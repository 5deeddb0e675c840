import { RRule, type Options } from 'rrule';
import { floating } from './event-shape';

/**
 * The recurrence presets the editor offers, read from and written to an RFC 5545 rule. A rule
 * the presets cannot show (written by a client or an import) is kept as it is: `custom`.
 */
export type Frequency = 'none' | 'daily' | 'weekly' | 'monthly' | 'yearly' | 'custom';
export type MonthlyBy = 'day' | 'weekday';
export type EndKind = 'never' | 'until' | 'count';

export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface Preset {
  frequency: Frequency;
  interval: number;
  weekdays: Weekday[];
  monthlyBy: MonthlyBy;
  end: EndKind;
  /** "YYYY-MM-DD", the last day the series may fall on. */
  until: string;
  count: number;
}

const FREQ: Record<string, Frequency> = { DAILY: 'daily', WEEKLY: 'weekly', MONTHLY: 'monthly', YEARLY: 'yearly' };

/** The weekday of a wall time, as a rule names it. */
export function weekdayOf(start: string): Weekday {
  const date = floating(start) ?? new Date();
  return WEEKDAYS[(date.getUTCDay() + 6) % 7]!;
}

/** Which of its month's weekdays a date is: 1 to 4, or -1 for the last (so "5th" never skips a month). */
export function nthOf(start: string): number {
  const date = floating(start) ?? new Date();
  const nth = Math.ceil(date.getUTCDate() / 7);
  const daysInMonth = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  return date.getUTCDate() + 7 > daysInMonth ? -1 : nth;
}

export function defaultPreset(start: string): Preset {
  return {
    frequency: 'none',
    interval: 1,
    weekdays: [weekdayOf(start)],
    monthlyBy: 'day',
    end: 'never',
    until: '',
    count: 10,
  };
}

function parts(rrule: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const part of rrule.replace(/^RRULE:/i, '').split(';')) {
    const [key, value] = part.split('=');
    if (key && value !== undefined) map.set(key.trim().toUpperCase(), value.trim().toUpperCase());
  }
  return map;
}

/** The preset a rule is, or `custom` when the presets cannot show it. */
export function parsePreset(rrule: string | undefined, start: string): Preset {
  const preset = defaultPreset(start);
  if (!rrule) return preset;
  const map = parts(rrule);
  const frequency = FREQ[map.get('FREQ') ?? ''];
  const known = new Set(['FREQ', 'INTERVAL', 'BYDAY', 'BYMONTHDAY', 'COUNT', 'UNTIL', 'WKST']);
  if (!frequency || [...map.keys()].some((key) => !known.has(key))) return { ...preset, frequency: 'custom' };
  preset.frequency = frequency;
  preset.interval = Math.max(1, Number(map.get('INTERVAL') ?? 1) || 1);
  const byday = map.get('BYDAY');
  if (frequency === 'weekly' && byday) {
    const days = byday.split(',');
    if (!days.every((d) => (WEEKDAYS as readonly string[]).includes(d))) return { ...preset, frequency: 'custom' };
    preset.weekdays = days as Weekday[];
  } else if (frequency === 'monthly' && byday) {
    if (!/^-?\d[A-Z]{2}$/.test(byday)) return { ...preset, frequency: 'custom' };
    preset.monthlyBy = 'weekday';
  } else if (byday || (map.has('BYMONTHDAY') && frequency !== 'monthly')) return { ...preset, frequency: 'custom' };
  const until = /^(\d{4})(\d{2})(\d{2})/.exec(map.get('UNTIL') ?? '');
  if (until) {
    preset.end = 'until';
    preset.until = `${until[1]}-${until[2]}-${until[3]}`;
  } else if (map.has('COUNT')) {
    preset.end = 'count';
    preset.count = Math.max(1, Number(map.get('COUNT')) || 1);
  }
  return preset;
}

/** The rule of a preset for a series starting at `start` (local wall time), or null for none. */
export function buildRule(preset: Preset, start: string): string | null {
  if (preset.frequency === 'none' || preset.frequency === 'custom') return null;
  const rule = [`FREQ=${preset.frequency.toUpperCase()}`];
  if (preset.interval > 1) rule.push(`INTERVAL=${Math.floor(preset.interval)}`);
  if (preset.frequency === 'weekly') {
    const days = WEEKDAYS.filter((d) => preset.weekdays.includes(d));
    rule.push(`BYDAY=${(days.length > 0 ? days : [weekdayOf(start)]).join(',')}`);
  }
  if (preset.frequency === 'monthly') {
    const date = floating(start);
    if (preset.monthlyBy === 'weekday') rule.push(`BYDAY=${nthOf(start)}${weekdayOf(start)}`);
    else if (date) rule.push(`BYMONTHDAY=${date.getUTCDate()}`);
  }
  // UNTIL without Z: the API reads it as a wall time in the event's zone, the whole last day included.
  if (preset.end === 'until' && /^\d{4}-\d{2}-\d{2}$/.test(preset.until))
    rule.push(`UNTIL=${preset.until.replace(/-/g, '')}T235959`);
  if (preset.end === 'count') rule.push(`COUNT=${Math.max(1, Math.floor(preset.count))}`);
  return rule.join(';');
}

/**
 * The next occurrences of a rule from its start, as floating Dates (UTC fields = wall time in the
 * event's zone): rrule computes in UTC, so reading wall times as UTC keeps DST out of the sums.
 */
export function nextOccurrences(rrule: string, start: string, count: number, from: Date | null): Date[] {
  const dtstart = floating(start);
  if (!dtstart) return [];
  let options: Partial<Options>;
  try {
    options = RRule.parseString(rrule.replace(/^RRULE:/i, ''));
  } catch {
    return [];
  }
  if (options.until) {
    // A UNTIL without Z names a wall time; rrule read it as UTC, which is what floating dates want.
    options.tzid = null;
  }
  const rule = new RRule({ ...options, dtstart });
  const found: Date[] = [];
  const after = from && from > dtstart ? from : null;
  rule.all((date, index) => {
    if (index > 5000) return false;
    if (!after || date >= after) found.push(date);
    return found.length < count;
  });
  return found;
}
