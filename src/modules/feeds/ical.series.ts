import type { Db, EventRow } from '../../db/database.js';
import type { RequestContext } from '../../http/context.js';
import { canRead } from '../../auth/roles.js';
import { localToUtc, zoneOrUtc } from '../../lib/dates.js';
import { globalId } from '../posts/post.mapper.js';
import { findRecurrences, type StoredRecurrence } from '../recurrence/recurrence.repository.js';
import { icalZone } from './ical.timezones.js';
import { dateTimeValue, dateValue, paramValue, property, utcValue } from './ical.text.js';
import type { SeriesLines } from './ical.render.js';

/**
 * Recurring events in iCalendar (RFC 5545 §3.8.5): a series is one VEVENT with RRULE, RDATE and
 * EXDATE, and each occurrence edited on its own one more VEVENT with the series' UID and a
 * RECURRENCE-ID, so subscribers get the series as their calendar app would make it. Occurrences
 * the caller may not see (a draft exception) become EXDATEs: the rule must not reveal them.
 */

/** A series as one feed writes it. */
export interface FeedSeries {
  master: EventRow;
  recurrence: StoredRecurrence;
  /** Edited occurrences the caller may read, in date order. */
  exceptions: EventRow[];
  /** Recurrence ids of occurrences the caller may not read. */
  hidden: string[];
}

/** What a feed has written so far: each series once, however many of its occurrences it selected. */
export type SeriesWritten = Set<number>;

const readable = (row: EventRow, ctx: RequestContext): boolean => row.status !== 'trash' && row.hide_from_listings === 0 && canRead(ctx.actor, row);

/**
 * The series of `rows` not yet written whose series row the caller may read (three queries for a
 * batch of rows, none when no row recurs). Occurrences of other series are written as plain events.
 */
export async function loadFeedSeries(db: Db, rows: EventRow[], ctx: RequestContext, written: SeriesWritten): Promise<Map<number, FeedSeries>> {
  const found = new Map<number, FeedSeries>();
  const ids = [...new Set(rows.flatMap((row) => (row.series_id === null || row.series_id === undefined || written.has(row.series_id) ? [] : [row.series_id])))];
  if (ids.length === 0) return found;
  const [masters, recurrences, others] = await Promise.all([
    db.selectFrom('events').selectAll().where('id', 'in', ids).execute(),
    findRecurrences(db, ids),
    db
      .selectFrom('events')
      .selectAll()
      .where('series_id', 'in', ids)
      .where('status', '<>', 'trash')
      .where((eb) => eb.or([eb('recurrence_exception', '=', 1), eb('status', '<>', 'publish'), eb('hide_from_listings', '=', 1)]))
      .orderBy('recurrence_id')
      .execute(),
  ]);
  for (const master of masters) {
    const recurrence = recurrences.get(master.id);
    if (!recurrence || master.series_id !== master.id || !readable(master, ctx)) continue;
    const own = others.filter((row) => row.series_id === master.id && row.id !== master.id);
    found.set(master.id, {
      master,
      recurrence,
      exceptions: own.filter((row) => row.recurrence_exception === 1 && readable(row, ctx)),
      hidden: own.filter((row) => !readable(row, ctx)).map((row) => row.recurrence_id!),
    });
  }
  return found;
}

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

/** The master VEVENT's extra lines: the rule, the extra dates, and the dates left out. */
export function masterLines(series: FeedSeries, ctx: RequestContext): SeriesLines {
  const { master, recurrence } = series;
  const excluded = [...new Set([...recurrence.exdates, ...series.hidden])].sort();
  return {
    uid: globalId(ctx, master.id).global_id,
    lines: property('RRULE', recurrence.rrule) + dateList('RDATE', recurrence.rdates, master) + dateList('EXDATE', excluded, master),
  };
}

/** An exception's RECURRENCE-ID (its original start) under the series' UID. */
export function exceptionLines(series: FeedSeries, row: EventRow, ctx: RequestContext): SeriesLines {
  return { uid: globalId(ctx, series.master.id).global_id, lines: dateList('RECURRENCE-ID', [row.recurrence_id!], series.master) };
}
