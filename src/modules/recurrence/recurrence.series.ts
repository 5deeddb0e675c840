import type { Db, EventRow, EventTable } from '../../db/database.js';
import { localToUtc, zoneOrUtc } from '../../lib/dates.js';
import { nowUtc } from '../../lib/clock.js';
import { shiftTermCounts } from '../terms/term.embed.js';
import * as events from '../events/event.repository.js';
import { horizonLocal, type CheckedRecurrence, type RecurrencePolicy } from './recurrence.input.js';
import { bumpRevisions, forChunks, linkAll, materialize, occurrenceDates } from './recurrence.materialize.js';
import * as store from './recurrence.repository.js';
import { addWall, expand, parseRule, withCount, withUntil, type Recurrence } from './recurrence.rule.js';

/**
 * Series-wide steps, each inside the caller's write transaction: start a series, re-expand it
 * after its rule or dates changed, carry a series edit to its occurrences, split it, stop it,
 * exclude one date, trash it whole. Non-exception occurrences mirror their series (fields, links,
 * status), which is what lets most of these run as a few multi-row statements.
 */

/** Occurrence columns a series edit carries over (dates, slug and translation group are each occurrence's own). */
const MIRRORED = [
  'title',
  'description',
  'excerpt',
  'status',
  'author',
  'password',
  'image_id',
  'cost',
  'currency_symbol',
  'currency_code',
  'currency_position',
  'website',
  'show_map',
  'show_map_link',
  'hide_from_listings',
  'sticky',
  'featured',
  'venue_id',
  'modified',
  'modified_utc',
] as const satisfies readonly (keyof EventTable)[];

/** Makes `row` (just written with its links) a series and materializes its occurrences to the horizon. */
export async function startSeries(
  trx: Db,
  row: EventRow,
  checked: CheckedRecurrence,
  policy: RecurrencePolicy,
): Promise<EventRow> {
  const series = Object.assign({}, row, {
    series_id: row.id,
    recurrence_id: row.start_local,
    recurrence_exception: 0,
    post_parent: null,
  });
  await events.update(trx, row.id, {
    series_id: row.id,
    recurrence_id: row.start_local,
    recurrence_exception: 0,
    post_parent: null,
  });
  const through = horizonLocal(policy, zoneOrUtc(row.timezone));
  const expansion = expand(checked.rule, checked.recurrence, row.start_local, through, policy.max);
  await materialize(
    trx,
    series,
    expansion.starts.filter((wall) => wall !== row.start_local),
  );
  await store.saveRecurrence(trx, row.id, checked.recurrence, through, expansion.complete);
  return series;
}

/** Trashes non-exception occurrences in bulk (they share the series' status and terms). */
async function trashMirrors(trx: Db, series: EventRow, ids: number[], termIds: number[]): Promise<void> {
  if (ids.length === 0) return;
  await forChunks(ids, (part) =>
    trx
      .updateTable('events')
      .set({ status: 'trash', trashed_from: series.status, modified_utc: nowUtc() })
      .where('id', 'in', part)
      .execute(),
  );
  await bumpRevisions(trx, ids);
  await shiftTermCounts(
    trx,
    { termIds, published: series.status === 'publish' },
    { termIds, published: false },
    ids.length,
  );
}

/** Trashes every live non-exception occurrence of a series; returns the live occurrences as they were. */
async function trashAllMirrors(trx: Db, series: EventRow): Promise<EventRow[]> {
  const live = await store.liveOccurrences(trx, series.id);
  const mirrors = live.filter((row) => row.recurrence_exception !== 1).map((row) => row.id);
  await trashMirrors(trx, series, mirrors, await events.allTermIds(trx, series.id));
  return live;
}

/** Trashes one occurrence that may differ from its series (an exception). */
async function trashOne(trx: Db, row: EventRow): Promise<void> {
  await events.update(trx, row.id, { status: 'trash', trashed_from: row.status, modified_utc: nowUtc() });
  await events.bumpRevision(trx, row.id);
  const termIds = await events.allTermIds(trx, row.id);
  await shiftTermCounts(trx, { termIds, published: row.status === 'publish' }, { termIds, published: false });
}

/**
 * After a series' rule or dates changed: the occurrences the rule now gives, keeping ids where a
 * date survives (matched by recurrence id, else by day, so "19:00 → 20:00" moves each occurrence
 * instead of replacing it), trashing the ones that no longer match and creating the new ones.
 * Exceptions are left as they are. Returns them, for the response to report.
 */
export async function reexpand(
  trx: Db,
  series: EventRow,
  recurrence: Recurrence,
  policy: RecurrencePolicy,
): Promise<EventRow[]> {
  const zone = zoneOrUtc(series.timezone);
  const rule = parseRule(recurrence.rrule, zone);
  if (typeof rule === 'string') throw new Error(`stored rule of series ${series.id} unreadable: ${rule}`);
  const through = horizonLocal(policy, zone);
  const expansion = expand(rule, recurrence, series.start_local, through, policy.max);
  const live = await store.liveOccurrences(trx, series.id);
  const exceptions = live.filter((row) => row.recurrence_exception === 1);
  const taken = new Set(exceptions.map((row) => row.recurrence_id!));
  const wanted = expansion.starts.filter((wall) => wall !== series.start_local && !taken.has(wall));

  const mirrors = live.filter((row) => row.recurrence_exception !== 1);
  const byWall = new Map(mirrors.map((row) => [row.recurrence_id!, row]));
  const byDay = new Map<string, EventRow[]>();
  for (const row of mirrors)
    byDay.set(row.recurrence_id!.slice(0, 10), [...(byDay.get(row.recurrence_id!.slice(0, 10)) ?? []), row]);
  const kept = new Set<number>();
  const moves: { row: EventRow; wall: string }[] = [];
  const missing: string[] = [];
  for (const wall of wanted) {
    const exact = byWall.get(wall);
    const row =
      exact && !kept.has(exact.id)
        ? exact
        : byDay.get(wall.slice(0, 10))?.find((r) => !kept.has(r.id) && !wanted.includes(r.recurrence_id!));
    if (!row) {
      missing.push(wall);
      continue;
    }
    kept.add(row.id);
    const dates = occurrenceDates(series, wall);
    if (
      row.recurrence_id !== wall ||
      row.start_local !== dates.start_local ||
      row.end_local !== dates.end_local ||
      row.timezone !== series.timezone ||
      row.all_day !== series.all_day
    ) {
      moves.push({ row, wall });
    }
  }
  for (const { row, wall } of moves) {
    await events.update(trx, row.id, {
      ...occurrenceDates(series, wall),
      recurrence_id: wall,
      timezone: series.timezone,
      all_day: series.all_day,
    });
  }
  await bumpRevisions(
    trx,
    moves.map((m) => m.row.id),
  );
  const termIds = await events.allTermIds(trx, series.id);
  await trashMirrors(
    trx,
    series,
    mirrors.filter((row) => !kept.has(row.id)).map((row) => row.id),
    termIds,
  );
  await materialize(trx, series, missing);
  await store.saveRecurrence(trx, series.id, recurrence, through, expansion.complete);
  return exceptions;
}

/** What a series edit changed, as the occurrences must follow it. */
export interface SeriesEdit {
  before: EventRow;
  after: EventRow;
  termsBefore: number[];
  termsAfter: number[];
  organizersChanged: boolean;
  termsChanged: boolean;
}

/** Carries a series edit to its non-exception occurrences: columns, links and term counts. */
export async function propagate(trx: Db, edit: SeriesEdit): Promise<void> {
  const { before, after } = edit;
  const targets = (await store.liveOccurrences(trx, after.id))
    .filter((row) => row.recurrence_exception !== 1)
    .map((row) => row.id);
  if (targets.length === 0) return;
  const columns: Partial<EventTable> = {};
  for (const key of MIRRORED) if (after[key] !== before[key]) Object.assign(columns, { [key]: after[key] });
  if (Object.keys(columns).length > 0)
    await forChunks(targets, (part) => trx.updateTable('events').set(columns).where('id', 'in', part).execute());
  if (edit.organizersChanged) {
    const organizerIds = (await events.organizerLinks(trx, [after.id])).map((l) => l.organizer_id);
    await forChunks(targets, (part) => trx.deleteFrom('event_organizers').where('event_id', 'in', part).execute());
    await linkAll(trx, targets, organizerIds, []);
  }
  if (edit.termsChanged) {
    await forChunks(targets, (part) => trx.deleteFrom('event_terms').where('event_id', 'in', part).execute());
    await linkAll(trx, targets, [], edit.termsAfter);
  }
  await shiftTermCounts(
    trx,
    { termIds: edit.termsBefore, published: before.status === 'publish' },
    { termIds: edit.termsAfter, published: after.status === 'publish' },
    targets.length,
  );
  await bumpRevisions(trx, targets);
}

/** `recurrence: null` on a series: its mirrors go to the trash, exceptions become plain events. */
export async function stopSeries(trx: Db, series: EventRow): Promise<EventRow> {
  const live = await trashAllMirrors(trx, series);
  const detach = { series_id: null, recurrence_id: null, recurrence_exception: 0, post_parent: null };
  await forChunks(
    live.filter((row) => row.recurrence_exception === 1).map((row) => row.id),
    (part) => trx.updateTable('events').set(detach).where('id', 'in', part).execute(),
  );
  await events.update(trx, series.id, detach);
  await store.deleteRecurrence(trx, series.id);
  return Object.assign({}, series, detach);
}

/** Deleting one occurrence: its date joins the series' EXDATEs, so no re-expansion brings it back. */
export async function excludeDate(trx: Db, occurrence: EventRow): Promise<void> {
  const stored = await store.findRecurrence(trx, occurrence.series_id!);
  if (!stored || stored.exdates.includes(occurrence.recurrence_id!)) return;
  const exdates = [...stored.exdates, occurrence.recurrence_id!].sort();
  await store.saveRecurrence(trx, stored.seriesId, { ...stored, exdates }, stored.expandedUntil, stored.complete);
}

/** Deleting a series: it and every live occurrence go to the trash, and nothing extends it any more. */
export async function trashSeries(trx: Db, series: EventRow): Promise<void> {
  const live = await trashAllMirrors(trx, series);
  for (const row of live.filter((r) => r.recurrence_exception === 1)) await trashOne(trx, row);
  const stored = await store.findRecurrence(trx, series.id);
  if (stored) await store.saveRecurrence(trx, series.id, stored, stored.expandedUntil, true);
}

/**
 * `scope=following` at `occurrence`: the series ends just before it (UNTIL) and a new series starts
 * at it, taking the later occurrences (exceptions included), the later RDATEs and EXDATEs and,
 * for a COUNT rule, the count still to come. Returns the new series row (the occurrence itself).
 */
export async function splitSeries(
  trx: Db,
  series: EventRow,
  occurrence: EventRow,
  policy: RecurrencePolicy,
): Promise<EventRow> {
  const stored = await store.findRecurrence(trx, series.id);
  if (!stored) throw new Error(`series ${series.id} has no rule`);
  const zone = zoneOrUtc(series.timezone);
  const rule = parseRule(stored.rrule, zone);
  if (typeof rule === 'string') throw new Error(`stored rule of series ${series.id} unreadable: ${rule}`);
  const wall = occurrence.recurrence_id!;
  const lastBefore = addWall(wall, -1000);
  let laterRule = stored.rrule;
  if (rule.count !== null) {
    const before = expand(rule, stored, series.start_local, lastBefore, policy.max).ruleInstances.length;
    laterRule = withCount(stored.rrule, Math.max(1, rule.count - before));
  }
  const earlier: Recurrence = {
    rrule: withUntil(stored.rrule, localToUtc(lastBefore, zone)),
    rdates: stored.rdates.filter((d) => d < wall),
    exdates: stored.exdates.filter((d) => d < wall),
  };
  const later: Recurrence = {
    rrule: laterRule,
    rdates: stored.rdates.filter((d) => d > wall),
    exdates: stored.exdates.filter((d) => d > wall),
  };
  await store.saveRecurrence(trx, series.id, earlier, lastBefore, true);

  const moved = (await store.liveOccurrences(trx, series.id))
    .filter((row) => row.recurrence_id! > wall)
    .map((row) => row.id);
  await forChunks(moved, (part) =>
    trx
      .updateTable('events')
      .set({ series_id: occurrence.id, post_parent: occurrence.id })
      .where('id', 'in', part)
      .execute(),
  );
  const head = {
    series_id: occurrence.id,
    post_parent: null,
    recurrence_id: occurrence.start_local,
    recurrence_exception: 0,
  };
  await events.update(trx, occurrence.id, head);
  await store.saveRecurrence(trx, occurrence.id, later, stored.expandedUntil, stored.complete);
  return Object.assign({}, occurrence, head);
}

/** The series row of an occurrence (a series is its own). */
export async function seriesOf(db: Db, row: EventRow): Promise<EventRow | undefined> {
  if (row.series_id === null || row.series_id === undefined) return undefined;
  return row.series_id === row.id ? row : events.findById(db, row.series_id);
}
