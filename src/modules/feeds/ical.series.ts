import type { EventRow } from '../../db/database.js';
import type { RequestContext } from '../../http/context.js';
import { localToUtc, zoneOrUtc } from '../../lib/dates.js';
import { globalId } from '../posts/post.mapper.js';
import type { StoredRecurrence } from '../recurrence/recurrence.service.js';
import { expand, parseRule } from '../recurrence/recurrence.rule.js';
import { icalZone } from './ical.timezones.js';
import { dateTimeValue, dateValue, paramValue, property, utcValue } from './ical.text.js';
import type { SeriesLines } from './ical.render.js';

/**
 * Recurring events in iCalendar (RFC 5545 §3.8.5): a series is one VEVENT with RRULE, RDATE and
 * EXDATE, and each occurrence edited on its own one more VEVENT with the series' UID and a
 * RECURRENCE-ID, so subscribers get the series as their calendar app would make it. Occurrences
 * the caller may not see (a draft exception) become EXDATEs: the rule must not reveal them. A
 * series trashed after publication is one cancelled VEVENT with its rule (every instance
 * cancelled), as a plain event trashed after publication is.
 */

/** A series as one feed writes it. */
export interface FeedSeries {
  master: EventRow;
  recurrence: StoredRecurrence;
  /** Trashed after publication: written as STATUS:CANCELLED, its exceptions too. */
  cancelled: boolean;
  /** Edited occurrences the caller may read (for a cancelled series: those that were published), in date order. */
  exceptions: EventRow[];
  /** Recurrence ids of occurrences the caller may not read. */
  hidden: string[];
}

/** What a feed has written so far: each series once, however many of its occurrences it selected. */
export type SeriesWritten = Set<number>;

/** A list of local wall times as a DATE or DATE-TIME property in the series' zone form. */
function dateList(name: string, walls: string[], master: EventRow): string {
  if (walls.length === 0) return '';
  if (master.all_day === 1) return property(name, walls.map(dateValue).join(','), ';VALUE=DATE');
  const { tzid } = icalZone(master.timezone);
  if (tzid === null) {
    const zone = zoneOrUtc(master.timezone);
    return property(name, walls.map((wall) => utcValue(localToUtc(wall, zone))).join(','));
  }
  return property(name, walls.map(dateTimeValue).join(','), `;TZID=${paramValue(tzid)}`);
}

/**
 * Recurrence ids of exceptions that the rule no longer gives (the rule changed after they were
 * edited, and the service keeps them): RFC 5545 lets a RECURRENCE-ID name only an instance of the
 * set, and clients drop one that names none, so their dates are added to RDATE.
 */
function orphanIds(series: FeedSeries): string[] {
  const { master, recurrence, exceptions } = series;
  if (exceptions.length === 0) return [];
  const rule = parseRule(recurrence.rrule, zoneOrUtc(master.timezone));
  if (typeof rule === 'string') return [];
  const ids = exceptions.map((row) => row.recurrence_id!).sort();
  const instances = new Set(
    expand(rule, { ...recurrence, exdates: [] }, master.start_local, ids[ids.length - 1]!, Number.MAX_SAFE_INTEGER)
      .starts,
  );
  return ids.filter((id) => !instances.has(id));
}

/**
 * The rule as written in the feed. RFC 5545 leaves a DTSTART the rule does not give undefined,
 * and clients differ (Google counts it as the first instance, ical.js and rrule.js skip it); the
 * service counts it, so for such a series the start is also an RDATE and a COUNT becomes the
 * UNTIL of its last instance: every client then makes the same set.
 */
function feedRule(series: FeedSeries): { rrule: string; rdates: string[] } {
  const { master, recurrence } = series;
  const zone = zoneOrUtc(master.timezone);
  const rule = parseRule(recurrence.rrule, zone);
  if (typeof rule === 'string') return { rrule: recurrence.rrule, rdates: [] };
  const bare = { ...recurrence, rdates: [], exdates: [] };
  if (expand(rule, bare, master.start_local, master.start_local, 1).ruleInstances.includes(master.start_local))
    return { rrule: recurrence.rrule, rdates: [] };
  if (rule.count === null) return { rrule: recurrence.rrule, rdates: [master.start_local] };
  const last =
    expand(rule, bare, master.start_local, '9999-12-31 23:59:59', rule.count).ruleInstances.pop() ?? master.start_local;
  const until = master.all_day === 1 ? dateValue(last) : utcValue(localToUtc(last, zone));
  const parts = recurrence.rrule.split(';').filter((part) => part !== '' && !/^(UNTIL|COUNT)=/i.test(part));
  return { rrule: [...parts, `UNTIL=${until}`].join(';'), rdates: [master.start_local] };
}

/** The master VEVENT's extra lines: the rule, the extra dates, and the dates left out. */
export function masterLines(series: FeedSeries, ctx: RequestContext): SeriesLines {
  const { master, recurrence } = series;
  const written = feedRule(series);
  // An exception the service still shows names an instance, even one its date was excluded from.
  const shown = new Set(series.cancelled ? [] : series.exceptions.map((row) => row.recurrence_id!));
  const excluded = [...new Set([...recurrence.exdates, ...series.hidden])].filter((wall) => !shown.has(wall)).sort();
  const extra = [...new Set([...recurrence.rdates, ...written.rdates, ...orphanIds(series)])].sort();
  return {
    uid: globalId(ctx, master.id).global_id,
    lines: property('RRULE', written.rrule) + dateList('RDATE', extra, master) + dateList('EXDATE', excluded, master),
  };
}

/** An exception's RECURRENCE-ID (its original start) under the series' UID. */
export function exceptionLines(series: FeedSeries, row: EventRow, ctx: RequestContext): SeriesLines {
  return {
    uid: globalId(ctx, series.master.id).global_id,
    lines: dateList('RECURRENCE-ID', [row.recurrence_id!], series.master),
  };
}
