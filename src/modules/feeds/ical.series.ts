import type { Db, EventRow } from '../../db/database.js';
import type { RequestContext } from '../../http/context.js';
import { canRead } from '../../auth/roles.js';
import { localToUtc, zoneOrUtc } from '../../lib/dates.js';
import { globalId } from '../posts/post.mapper.js';
import { findRecurrences, type StoredRecurrence } from '../recurrence/recurrence.repository.js';
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

const readable = (row: EventRow, ctx: RequestContext): boolean =>
  row.status !== 'trash' && row.hide_from_listings === 0 && canRead(ctx.actor, row);
/** A row the feeds show as cancelled (as feed.query.ts selects them): trashed after publication. */
const cancelledOnce = (row: EventRow): boolean =>
  row.status === 'trash' && row.trashed_from === 'publish' && row.hide_from_listings === 0;

/**
 * The series of `rows` not yet written whose series row the caller may read, or that was trashed
 * after publication (three queries for a batch of rows, none when no row recurs; one more when a
 * series is cancelled). Occurrences of other series are written as plain events.
 */
export async function loadFeedSeries(
  db: Db,
  rows: EventRow[],
  ctx: RequestContext,
  written: SeriesWritten,
): Promise<Map<number, FeedSeries>> {
  const found = new Map<number, FeedSeries>();
  const ids = [
    ...new Set(
      rows.flatMap((row) =>
        row.series_id === null || row.series_id === undefined || written.has(row.series_id) ? [] : [row.series_id],
      ),
    ),
  ];
  if (ids.length === 0) return found;
  const [masters, recurrences, others] = await Promise.all([
    db.selectFrom('events').selectAll().where('id', 'in', ids).execute(),
    findRecurrences(db, ids),
    db
      .selectFrom('events')
      .selectAll()
      .where('series_id', 'in', ids)
      .where('status', '<>', 'trash')
      .where((eb) =>
        eb.or([eb('recurrence_exception', '=', 1), eb('status', '<>', 'publish'), eb('hide_from_listings', '=', 1)]),
      )
      .orderBy('recurrence_id')
      .execute(),
  ]);
  const cancelledIds = masters.filter((m) => m.series_id === m.id && cancelledOnce(m)).map((m) => m.id);
  const cancelledExceptions =
    cancelledIds.length === 0
      ? []
      : await db
          .selectFrom('events')
          .selectAll()
          .where('series_id', 'in', cancelledIds)
          .where('recurrence_exception', '=', 1)
          .where('status', '=', 'trash')
          .where('trashed_from', '=', 'publish')
          .orderBy('recurrence_id')
          .execute();
  for (const master of masters) {
    const recurrence = recurrences.get(master.id);
    if (!recurrence || master.series_id !== master.id) continue;
    if (cancelledIds.includes(master.id)) {
      const exdates = new Set(recurrence.exdates);
      const exceptions = cancelledExceptions.filter(
        (row) => row.series_id === master.id && row.id !== master.id && !exdates.has(row.recurrence_id!),
      );
      found.set(master.id, { master, recurrence, cancelled: true, exceptions, hidden: [] });
      continue;
    }
    if (!readable(master, ctx)) continue;
    const own = others.filter((row) => row.series_id === master.id && row.id !== master.id);
    found.set(master.id, {
      master,
      recurrence,
      cancelled: false,
      exceptions: own.filter((row) => row.recurrence_exception === 1 && readable(row, ctx)),
      hidden: own.filter((row) => !readable(row, ctx)).map((row) => row.recurrence_id!),
    });
  }
  return found;
}

/**
 * The time zones a feed of `ids` writes besides those of the rows themselves: a series brings its
 * master and its exceptions, which may lie outside the feed's window (and an exception may have
 * been moved to another zone). Each needs its VTIMEZONE, or a TZID would name nothing.
 */
export async function seriesZones(db: Db, ids: number[]): Promise<Set<string>> {
  const zones = new Set<string>();
  for (let i = 0; i < ids.length; i += 500) {
    const part = ids.slice(i, i + 500);
    const rows = await db
      .selectFrom('events')
      .select('timezone')
      .distinct()
      .where('all_day', '=', 0)
      .where((eb) => eb.or([eb('id', '=', eb.ref('series_id')), eb('recurrence_exception', '=', 1)]))
      .where('series_id', 'in', (eb) =>
        eb
          .selectFrom('events as selected')
          .select('selected.series_id')
          .where('selected.id', 'in', part)
          .where('selected.series_id', 'is not', null),
      )
      .execute();
    for (const row of rows) zones.add(row.timezone);
  }
  return zones;
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
