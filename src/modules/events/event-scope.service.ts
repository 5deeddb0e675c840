import type { Db, EventRow, EventTable } from '../../db/database.js';
import { inTransaction } from '../../db/transaction.js';
import type { RequestContext } from '../../http/context.js';
import { invalidParams, restForbidden } from '../../http/errors.js';
import { localToUtc, timezoneAbbr, zoneOrUtc } from '../../lib/dates.js';
import { canEdit } from '../../auth/roles.js';
import * as events from './event.repository.js';
import type { EventChanges } from './event.input.js';
import { trashEventIn, updateEventIn } from './event.service.js';
import type { RecurrencePolicy } from '../recurrence/recurrence.input.js';
import { addWall, wallDuration, type Recurrence } from '../recurrence/recurrence.rule.js';
import {
  excludeDate,
  findRecurrence,
  propagate,
  reexpand,
  seriesOf,
  splitSeries,
  startSeries,
  stopSeries,
  trashSeries,
} from '../recurrence/recurrence.service.js';

/**
 * Updates and deletes of an event under a scope of its series: event writes (updateEventIn,
 * trashEventIn) followed by the series' own steps (recurrence.service.ts). Events depends on
 * recurrence, never the reverse: recurrence reads and writes series rows through its own
 * repository.
 */

/**
 * Which part of a series a write addresses (`?scope=`), as calendar clients offer it: this
 * occurrence, this and the following ones, or all of them. A plain event ignores it. The series
 * row is the first occurrence and carries the rule, so on it `this` has no meaning of its own.
 */
export type Scope = 'this' | 'following' | 'all';

const DATE_COLUMNS = [
  'start_local',
  'end_local',
  'start_utc',
  'end_utc',
  'timezone',
  'timezone_abbr',
  'all_day',
] as const satisfies readonly (keyof EventTable)[];

function scopeOf(row: EventRow, requested: Scope | undefined): Scope {
  if (row.series_id !== row.id) return requested ?? 'this';
  if (requested === 'this')
    throw invalidParams({
      scope:
        "scope=this cannot address the first occurrence: it is the series. Update it with scope=all, or move the series' start_date.",
    });
  return 'all';
}

/**
 * Dates sent for an occurrence, applied to the series as a shift: moving this Tuesday's 19:00 to
 * 20:00 "for all" moves the series' start by an hour and keeps each occurrence's own day.
 */
function shiftedToSeries(changes: EventChanges, occurrence: EventRow, series: EventRow): EventChanges {
  const sent = changes.columns;
  if (sent.start_local === undefined || sent.end_local === undefined) return changes;
  const start = addWall(series.start_local, wallDuration(occurrence.start_local, sent.start_local));
  const end = addWall(start, wallDuration(sent.start_local, sent.end_local));
  const tzName = sent.timezone ?? series.timezone;
  const zone = zoneOrUtc(tzName);
  const columns = Object.assign({}, sent, {
    start_local: start,
    end_local: end,
    start_utc: localToUtc(start, zone),
    end_utc: localToUtc(end, zone),
    timezone_abbr: timezoneAbbr(start, zone, tzName),
  });
  return { ...changes, columns };
}

/**
 * The stored extra and excluded dates of a series whose start moved by some wall time: they move
 * with it (an EXDATE names an occurrence's start, and "every Monday, not the 9th" must stay that).
 */
function followStart(stored: Recurrence, from: string, to: string): Recurrence {
  const delta = wallDuration(from, to);
  if (delta === 0) return stored;
  const move = (dates: string[]) => dates.map((d) => addWall(d, delta)).sort();
  return { rrule: stored.rrule, rdates: move(stored.rdates), exdates: move(stored.exdates) };
}

/** A series edit: the series row, then what follows it (its mirrors, and a re-expansion when the rule or dates moved). */
async function editSeries(
  trx: Db,
  series: EventRow,
  changes: EventChanges,
  ctx: RequestContext,
  policy: RecurrencePolicy,
): Promise<EventRow> {
  const termsBefore = await events.allTermIds(trx, series.id);
  const updated = await updateEventIn(trx, series, changes, ctx);
  if (changes.recurrence === null) return stopSeries(trx, updated);
  const termsChanged = changes.categories !== undefined || changes.tags !== undefined;
  await propagate(trx, {
    before: series,
    after: updated,
    termsBefore,
    termsAfter: termsChanged ? await events.allTermIds(trx, series.id) : termsBefore,
    organizersChanged: changes.organizers !== undefined,
    termsChanged,
  });
  const datesMoved = DATE_COLUMNS.some(
    (column) => changes.columns[column] !== undefined && changes.columns[column] !== series[column],
  );
  if (!changes.recurrence && !datesMoved) return updated;
  const stored = await findRecurrence(trx, series.id);
  const recurrence =
    changes.recurrence?.recurrence ?? (stored && followStart(stored, series.start_local, updated.start_local));
  if (!recurrence) return updated;
  if (updated.recurrence_id !== updated.start_local)
    await events.update(trx, series.id, { recurrence_id: updated.start_local });
  await reexpand(trx, Object.assign({}, updated, { recurrence_id: updated.start_local }), recurrence, policy);
  return Object.assign({}, updated, { recurrence_id: updated.start_local });
}

/**
 * An update under a scope, in one transaction. Returns the row the answer shows: the occurrence
 * for `this`, the (new) series for `all` and `following`.
 */
export function updateInScope(
  db: Db,
  row: EventRow,
  changes: EventChanges,
  ctx: RequestContext,
  requested: Scope | undefined,
  policy: RecurrencePolicy,
): Promise<EventRow> {
  return inTransaction(db, async (trx) => {
    if (row.series_id === null || row.series_id === undefined) {
      const updated = await updateEventIn(trx, row, changes, ctx);
      return changes.recurrence ? startSeries(trx, updated, changes.recurrence, policy) : updated;
    }
    const scope = scopeOf(row, requested);
    if (scope === 'this') {
      if (changes.recurrence !== undefined)
        throw invalidParams({
          recurrence: 'recurrence belongs to the series: send it with scope=all or scope=following.',
        });
      const updated = await updateEventIn(trx, row, changes, ctx);
      await events.update(trx, row.id, { recurrence_exception: 1 });
      return Object.assign({}, updated, { recurrence_exception: 1 });
    }
    const series = await seriesOf(trx, row);
    if (!series) throw new Error(`occurrence ${row.id} has no series`);
    if (!canEdit(ctx.actor, series)) throw restForbidden(ctx.actor !== null);
    if (row.id === series.id) return editSeries(trx, series, changes, ctx, policy);
    if (scope === 'all') return editSeries(trx, series, shiftedToSeries(changes, row, series), ctx, policy);
    const head = await splitSeries(trx, series, row, policy);
    return editSeries(trx, head, changes, ctx, policy);
  });
}

/**
 * DELETE under a scope: one occurrence goes to the trash and its date becomes an EXDATE; `all`
 * (or the series itself) trashes the series and every occurrence; `following` ends the series
 * before this one and trashes the rest. Returns the addressed row as stored afterwards.
 */
export async function deleteInScope(
  db: Db,
  row: EventRow,
  ctx: RequestContext,
  requested: Scope | undefined,
  policy: RecurrencePolicy,
): Promise<EventRow> {
  await inTransaction(db, async (trx) => {
    if (row.series_id === null || row.series_id === undefined) return trashEventIn(trx, row, ctx);
    const scope = row.series_id === row.id ? 'all' : (requested ?? 'this');
    if (scope === 'this') {
      await trashEventIn(trx, row, ctx);
      return excludeDate(trx, row);
    }
    const series = await seriesOf(trx, row);
    if (!series) throw new Error(`occurrence ${row.id} has no series`);
    const head = scope === 'all' || row.id === series.id ? series : await splitSeries(trx, series, row, policy);
    if (head.status === 'trash') return trashEventIn(trx, head, ctx);
    await trashEventIn(trx, head, ctx);
    return trashSeries(trx, head);
  });
  return (await events.findById(db, row.id))!;
}
