import type { Db, EventRow, EventTable } from '../../db/database.js';
import type { RequestContext } from '../../http/context.js';
import { canEdit } from '../../auth/roles.js';
import { localToUtc, timezoneAbbr, zoneOrUtc } from '../../lib/dates.js';
import { nowUtc } from '../../lib/clock.js';
import { shiftTermCounts } from '../terms/term.embed.js';
import { materializedThrough, type CheckedRecurrence, type RecurrencePolicy } from './recurrence.input.js';
import * as store from './recurrence.repository.js';
import { isSeries, type SeriesRelations } from './recurrence.mapper.js';
import {
  addWall,
  afterSince,
  expand,
  parseRule,
  pinWallTime,
  wallDuration,
  withCount,
  withUntil,
  type Recurrence,
} from './recurrence.rule.js';
import { summarize } from './recurrence.summary.js';

/**
 * Recurring events: below the events module (which calls these from its writes and its mapper,
 * and never the reverse), so this module reads and writes the rows of a series through its own
 * repository and never imports events.
 *
 * Series-wide steps, each inside the caller's write transaction: start a series, re-expand it
 * after its rule or dates changed, carry a series edit to its occurrences, split it, stop it,
 * exclude one date, trash it whole. Non-exception occurrences mirror their series (fields, links,
 * status), which is what lets most of these run as a few multi-row statements.
 */

export { findRecurrence, findRecurrences, type StoredRecurrence } from './recurrence.repository.js';

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

// --- Occurrences as event rows: what each one copies from its series ---------------------------

/** The dates of the occurrence whose original start (recurrence id) is `wall`, with the series' local duration. */
export function occurrenceDates(
  series: EventRow,
  wall: string,
): Pick<EventTable, 'start_local' | 'end_local' | 'start_utc' | 'end_utc' | 'timezone_abbr'> {
  const zone = zoneOrUtc(series.timezone);
  const start = pinWallTime(wall, zone);
  const end = pinWallTime(addWall(wall, wallDuration(series.start_local, series.end_local)), zone);
  return {
    start_local: start.local,
    end_local: end.local,
    start_utc: start.utc,
    end_utc: end.utc,
    timezone_abbr: timezoneAbbr(start.local, zone, series.timezone),
  };
}

/** `<series-slug>-<yyyy-mm-dd>`, made unique among the language's live records (two on one day get -2…). */
async function occurrenceSlugs(trx: Db, series: EventRow, walls: string[]): Promise<string[]> {
  const wanted = walls.map((wall) => `${series.slug}-${wall.slice(0, 10)}`);
  const taken = await store.takenSlugs(trx, series.lang, [...new Set(wanted)]);
  return wanted.map((slug) => {
    let candidate = slug;
    for (let n = 2; taken.has(candidate); n += 1) candidate = `${slug}-${n}`;
    taken.add(candidate);
    return candidate;
  });
}

/**
 * Creates the occurrences of `series` at the wall times `walls` (recurrence ids not yet present):
 * the series' fields, venue, organizers and terms, `post_parent` and `series_id` naming the series.
 * Returns the new ids.
 */
export async function materialize(trx: Db, series: EventRow, walls: string[]): Promise<number[]> {
  if (walls.length === 0) return [];
  const [ids, slugs, groups, organizerIds, termIds] = await Promise.all([
    store.allocateIds(trx, walls.length),
    occurrenceSlugs(trx, series, walls),
    store.translationGroups(trx, series, walls),
    store.organizerIdsOf(trx, series.id),
    store.termIdsOf(trx, series.id),
  ]);
  const { id: _id, slug: _slug, trid: _trid, ...shared } = series;
  const rows: EventTable[] = walls.map((wall, i) =>
    Object.assign({}, shared, occurrenceDates(series, wall), {
      id: ids[i]!,
      slug: slugs[i]!,
      trid: groups.get(wall) ?? ids[i]!,
      post_parent: series.id,
      series_id: series.id,
      recurrence_id: wall,
      recurrence_exception: 0,
      revision: 0,
      trashed_from: null,
    }),
  );
  await store.insertEvents(trx, rows);
  await store.linkAll(trx, ids, organizerIds, termIds);
  await shiftTermCounts(
    trx,
    { termIds, published: false },
    { termIds, published: series.status === 'publish' },
    ids.length,
  );
  return ids;
}

// --- Series-wide steps -----------------------------------------------------------------------

/**
 * Makes `row` (just written with its links) a series and materializes its occurrences: to the
 * rule's end or the horizon, from its start or the `since` the write gave.
 */
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
  await store.updateEvents(trx, [row.id], {
    series_id: row.id,
    recurrence_id: row.start_local,
    recurrence_exception: 0,
    post_parent: null,
  });
  const through = materializedThrough(policy, checked.rule, zoneOrUtc(row.timezone), row.start_local);
  const expansion = expand(
    checked.rule,
    checked.recurrence,
    row.start_local,
    through,
    policy.max,
    afterSince(checked.recurrence.since),
  );
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
  await store.updateEvents(trx, ids, { status: 'trash', trashed_from: series.status, modified_utc: nowUtc() });
  await store.bumpRevisions(trx, ids);
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
  await trashMirrors(trx, series, mirrors, await store.termIdsOf(trx, series.id));
  return live;
}

/** Trashes one occurrence that may differ from its series (an exception). */
async function trashOne(trx: Db, row: EventRow): Promise<void> {
  await store.updateEvents(trx, [row.id], { status: 'trash', trashed_from: row.status, modified_utc: nowUtc() });
  await store.bumpRevisions(trx, [row.id]);
  const termIds = await store.termIdsOf(trx, row.id);
  await shiftTermCounts(trx, { termIds, published: row.status === 'publish' }, { termIds, published: false });
}

/**
 * Where the occurrences of a series re-expanded start. A write naming `since` says it; else a
 * series made from a `since` (an import's) keeps its window, which its rows show: its earliest
 * live occurrence comes after dates its stored rule makes, which a series made from its start
 * would have. Either way an edit never trashes an occurrence only for being past.
 */
async function windowStart(
  trx: Db,
  series: EventRow,
  recurrence: Recurrence,
  live: EventRow[],
): Promise<string | undefined> {
  const earliest = live.find((row) => row.recurrence_id !== null)?.recurrence_id ?? undefined;
  if (earliest === undefined) return recurrence.since;
  if (recurrence.since !== undefined) return earliest < recurrence.since ? earliest : recurrence.since;
  const stored = await store.findRecurrence(trx, series.id);
  if (!stored) return undefined;
  const rule = parseRule(stored.rrule, zoneOrUtc(series.timezone));
  if (typeof rule === 'string') return undefined;
  const gap = expand(rule, stored, series.start_local, addWall(earliest, -1000), 1).starts;
  return gap.some((wall) => wall !== series.start_local) ? earliest : undefined;
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
  const through = materializedThrough(policy, rule, zone, series.start_local);
  const live = await store.liveOccurrences(trx, series.id);
  const since = await windowStart(trx, series, recurrence, live);
  const expansion = expand(rule, recurrence, series.start_local, through, policy.max, afterSince(since));
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
    await store.updateEvents(trx, [row.id], {
      ...occurrenceDates(series, wall),
      recurrence_id: wall,
      timezone: series.timezone,
      all_day: series.all_day,
    });
  }
  await store.bumpRevisions(
    trx,
    moves.map((m) => m.row.id),
  );
  const termIds = await store.termIdsOf(trx, series.id);
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
  await store.updateEvents(trx, targets, columns);
  if (edit.organizersChanged) {
    const organizerIds = await store.organizerIdsOf(trx, after.id);
    await store.unlinkAll(trx, targets, 'event_organizers');
    await store.linkAll(trx, targets, organizerIds, []);
  }
  if (edit.termsChanged) {
    await store.unlinkAll(trx, targets, 'event_terms');
    await store.linkAll(trx, targets, [], edit.termsAfter);
  }
  await shiftTermCounts(
    trx,
    { termIds: edit.termsBefore, published: before.status === 'publish' },
    { termIds: edit.termsAfter, published: after.status === 'publish' },
    targets.length,
  );
  await store.bumpRevisions(trx, targets);
}

/** `recurrence: null` on a series: its mirrors go to the trash, exceptions become plain events. */
export async function stopSeries(trx: Db, series: EventRow): Promise<EventRow> {
  const live = await trashAllMirrors(trx, series);
  const detach = { series_id: null, recurrence_id: null, recurrence_exception: 0, post_parent: null };
  await store.updateEvents(
    trx,
    live.filter((row) => row.recurrence_exception === 1).map((row) => row.id),
    detach,
  );
  await store.updateEvents(trx, [series.id], detach);
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
  await store.updateEvents(trx, moved, { series_id: occurrence.id, post_parent: occurrence.id });
  const head = {
    series_id: occurrence.id,
    post_parent: null,
    recurrence_id: occurrence.start_local,
    recurrence_exception: 0,
  };
  await store.updateEvents(trx, [occurrence.id], head);
  await store.saveRecurrence(trx, occurrence.id, later, stored.expandedUntil, stored.complete);
  return Object.assign({}, occurrence, head);
}

/** The series row of an occurrence (a series is its own). */
export async function seriesOf(db: Db, row: EventRow): Promise<EventRow | undefined> {
  if (row.series_id === null || row.series_id === undefined) return undefined;
  return row.series_id === row.id ? row : store.findEvent(db, row.series_id);
}

// --- The public page of a series ---------------------------------------------------------------

/** What the public page of a recurring event says about its series: the rule in words and the next published dates. */
export interface SeriesOverview {
  summary: string;
  next: Pick<
    EventRow,
    'id' | 'slug' | 'start_local' | 'end_local' | 'start_utc' | 'end_utc' | 'all_day' | 'timezone' | 'timezone_abbr'
  >[];
}

/**
 * For the event page of a series or one of its occurrences; null for plain events. Published,
 * listed occurrences only (pages show the public view), from `fromLocal` on, at most `limit`
 * (through the series index: a series has at most CAL_RECURRENCE_MAX rows to sort).
 */
export async function seriesOverview(
  db: Db,
  row: EventRow,
  lang: string,
  fromLocal: string,
  limit: number,
): Promise<SeriesOverview | null> {
  const seriesId = row.series_id;
  if (seriesId === null || seriesId === undefined) return null;
  const stored = await store.findRecurrence(db, seriesId);
  if (!stored) return null;
  const series = seriesId === row.id ? row : await store.findEvent(db, seriesId);
  if (!series) return null;
  const rule = parseRule(stored.rrule, zoneOrUtc(series.timezone));
  const next = await store.nextPublished(db, seriesId, row.id, fromLocal, limit);
  return { summary: typeof rule === 'string' ? stored.rrule : summarize(rule, series.start_local, lang), next };
}

/** What the event objects of a page need about series: nothing (no query) when no row recurs. */
export async function loadSeriesRelations(db: Db, rows: EventRow[], ctx: RequestContext): Promise<SeriesRelations> {
  const series = rows.filter(isSeries);
  if (series.length === 0) return { rules: new Map(), exceptions: new Map() };
  // Exceptions name occurrences that may be drafts: only those who may edit the series see them.
  const editable = series.filter((row) => canEdit(ctx.actor, row)).map((row) => row.id);
  const [rules, exceptions] = await Promise.all([
    store.findRecurrences(
      db,
      series.map((row) => row.id),
    ),
    store.exceptionsOf(db, editable),
  ]);
  for (const id of editable) if (!exceptions.has(id)) exceptions.set(id, []);
  return { rules, exceptions };
}
