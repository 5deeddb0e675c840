import { sql } from 'kysely';
import type { Db, EventRow, EventTable } from '../../db/database.js';
import { timezoneAbbr, zoneOrUtc } from '../../lib/dates.js';
import { shiftTermCounts } from '../terms/term.embed.js';
import * as events from '../events/event.repository.js';
import { addWall, pinWallTime, wallDuration } from './recurrence.rule.js';

/**
 * Occurrences as event rows: what each one copies from its series and how many statements a
 * series of a hundred dates costs (a fixed handful, whatever the number: ids, slugs, rows, links
 * and term counts each go in one multi-row statement per chunk).
 */

/** Rows per INSERT: under SQLite's 32,766 bound parameters at ~40 columns a row. */
const CHUNK = 200;

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

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

/** New ids from the shared post sequence, in one statement. */
async function allocateIds(trx: Db, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (const part of chunks(
    Array.from({ length: count }, () => ({ type: 'event' as const })),
    1000,
  )) {
    const rows = await trx.insertInto('posts').values(part).returning('id').execute();
    ids.push(...rows.map((r) => r.id));
  }
  return ids.sort((a, b) => a - b);
}

/** `<series-slug>-<yyyy-mm-dd>`, made unique among the language's live records (two on one day get -2…). */
async function occurrenceSlugs(trx: Db, series: EventRow, walls: string[]): Promise<string[]> {
  const wanted = walls.map((wall) => `${series.slug}-${wall.slice(0, 10)}`);
  const taken = new Set<string>();
  for (const part of chunks([...new Set(wanted)], 500)) {
    const rows = await trx
      .selectFrom('events')
      .select('slug')
      .where('lang', '=', series.lang)
      .where('slug', 'in', part)
      .where('status', '<>', 'trash')
      .execute();
    for (const row of rows) taken.add(row.slug);
  }
  return wanted.map((slug) => {
    let candidate = slug;
    for (let n = 2; taken.has(candidate); n += 1) candidate = `${slug}-${n}`;
    taken.add(candidate);
    return candidate;
  });
}

/**
 * The translation group each new occurrence joins: the group of the occurrence with the same
 * recurrence id in a translation of the series (so a translated series is linked date by date),
 * unless that group has a live member in this language already.
 */
async function translationGroups(trx: Db, series: EventRow, walls: string[]): Promise<Map<string, number>> {
  const groups = new Map<string, number>();
  const siblings = await trx
    .selectFrom('events')
    .select('id')
    .where('trid', '=', series.trid)
    .where('id', '<>', series.id)
    .whereRef('series_id', '=', 'id')
    .execute();
  if (siblings.length === 0) return groups;
  const siblingIds = siblings.map((s) => s.id);
  for (const part of chunks(walls, 500)) {
    const rows = await trx
      .selectFrom('events as o')
      .select(['o.recurrence_id', 'o.trid'])
      .where('o.series_id', 'in', siblingIds)
      .where('o.recurrence_id', 'in', part)
      .where('o.status', '<>', 'trash')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('events as mine')
              .select('mine.id')
              .whereRef('mine.trid', '=', 'o.trid')
              .where('mine.lang', '=', series.lang)
              .where('mine.status', '<>', 'trash'),
          ),
        ),
      )
      .execute();
    for (const row of rows) if (!groups.has(row.recurrence_id!)) groups.set(row.recurrence_id!, row.trid);
  }
  return groups;
}

/**
 * Creates the occurrences of `series` at the wall times `walls` (recurrence ids not yet present):
 * the series' fields, venue, organizers and terms, `post_parent` and `series_id` naming the series.
 * Returns the new ids.
 */
export async function materialize(trx: Db, series: EventRow, walls: string[]): Promise<number[]> {
  if (walls.length === 0) return [];
  const [ids, slugs, groups, organizerLinks, termIds] = await Promise.all([
    allocateIds(trx, walls.length),
    occurrenceSlugs(trx, series, walls),
    translationGroups(trx, series, walls),
    events.organizerLinks(trx, [series.id]),
    events.allTermIds(trx, series.id),
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
  for (const part of chunks(rows)) await trx.insertInto('events').values(part).execute();
  const organizerIds = organizerLinks.map((l) => l.organizer_id);
  await linkAll(trx, ids, organizerIds, termIds);
  await shiftTermCounts(
    trx,
    { termIds, published: false },
    { termIds, published: series.status === 'publish' },
    ids.length,
  );
  return ids;
}

/** Links every event of `ids` to the organizers (in order) and terms given. */
export async function linkAll(trx: Db, ids: number[], organizerIds: number[], termIds: number[]): Promise<void> {
  const organizerRows = ids.flatMap((event_id) =>
    organizerIds.map((organizer_id, position) => ({ event_id, organizer_id, position })),
  );
  for (const part of chunks(organizerRows, 1000)) await trx.insertInto('event_organizers').values(part).execute();
  const termRows = ids.flatMap((event_id) => termIds.map((term_id) => ({ event_id, term_id })));
  for (const part of chunks(termRows, 1000)) await trx.insertInto('event_terms').values(part).execute();
}

/** Runs `update` on `ids` a chunk at a time (an `in` list stays within every parameter bound). */
export async function forChunks(ids: number[], work: (part: number[]) => Promise<unknown>): Promise<void> {
  for (const part of chunks(ids, 500)) await work(part);
}

/** Bumps the revision (iCalendar SEQUENCE) of many events at once. */
export async function bumpRevisions(trx: Db, ids: number[]): Promise<void> {
  await forChunks(ids, (part) =>
    trx
      .updateTable('events')
      .set({ revision: sql`revision + 1` })
      .where('id', 'in', part)
      .execute(),
  );
}
