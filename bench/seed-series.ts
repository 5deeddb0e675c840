import type { Db, EventRow } from '../src/db/database.js';
import { nowUtc } from '../src/lib/clock.js';
import { zoneOrUtc } from '../src/lib/dates.js';
import { Problems } from '../src/http/problems.js';
import { checkRecurrence, type RecurrencePolicy } from '../src/modules/recurrence/recurrence.input.js';
import { startSeries } from '../src/modules/recurrence/recurrence.service.js';

/**
 * Seeds recurring series for the recurrence scenario (issue 18): `count` weekly series of
 * `occurrences` dates each, in their own window (`year`), each written as the service writes one:
 * the series row, then startSeries (rule, occurrences, links) in the same transaction; and, for
 * comparison, as many plain events with the same dates in another window. Each returns its
 * window's bounds for the list URLs.
 */
/** The n-th dated row of a window: the series and the plain events of the comparison share the pattern. */
function slot(n: number, year: number, week: number): { start: string; end: string } {
  const day = new Date(Date.UTC(year, 0, 1 + (n % 300) + 7 * week));
  const hour = 8 + (n % 12);
  const date = day.toISOString().slice(0, 10);
  return {
    start: `${date} ${String(hour).padStart(2, '0')}:00:00`,
    end: `${date} ${String(hour + 1).padStart(2, '0')}:00:00`,
  };
}

function eventRow(
  id: number,
  n: number,
  title: string,
  slug: string,
  author: number,
  now: string,
  dates: { start: string; end: string },
): EventRow {
  return {
    id,
    lang: 'en',
    trid: id,
    author,
    status: 'publish',
    password: '',
    slug,
    title,
    description: `${title}: a listing with enough words to be realistic.`,
    excerpt: '',
    date: now,
    date_utc: now,
    modified: now,
    modified_utc: now,
    image_id: null,
    all_day: 0,
    start_local: dates.start,
    end_local: dates.end,
    start_utc: dates.start,
    end_utc: dates.end,
    timezone: 'Europe/Paris',
    timezone_abbr: 'CET',
    cost: JSON.stringify([String(5 + (n % 50))]),
    currency_symbol: '',
    currency_code: '',
    currency_position: '',
    website: null,
    show_map: 0,
    show_map_link: 0,
    hide_from_listings: 0,
    sticky: 0,
    featured: 0,
    venue_id: null,
    post_parent: null,
    trashed_from: null,
    revision: 0,
    series_id: null,
    recurrence_id: null,
    recurrence_exception: 0,
  };
}

const BATCH = 200;

async function inBatches(
  db: Db,
  count: number,
  write: (trx: Db, ids: number[], offset: number) => Promise<void>,
): Promise<void> {
  for (let offset = 0; offset < count; offset += BATCH) {
    await db.transaction().execute(async (trx) => {
      const size = Math.min(BATCH, count - offset);
      const ids = (
        await trx
          .insertInto('posts')
          .values(Array.from({ length: size }, () => ({ type: 'event' as const })))
          .returning('id')
          .execute()
      ).map((r) => r.id);
      await write(trx, ids, offset);
    });
  }
}

export async function seedSeries(
  db: Db,
  count: number,
  occurrences: number,
  author: number,
  year: number,
): Promise<{ start: string; end: string }> {
  const now = nowUtc();
  const zone = zoneOrUtc('Europe/Paris');
  // Far enough that every series is materialized whole, whenever the bench runs.
  const policy: RecurrencePolicy = { max: 1000, horizonDays: 36_500, now: () => new Date() };
  await inBatches(db, count, async (trx, ids, offset) => {
    for (const [j, id] of ids.entries()) {
      const n = offset + j;
      const row = eventRow(id, n, `Series ${n} weekly`, `series-${n}`, author, now, slot(n, year, 0));
      await trx.insertInto('events').values(row).execute();
      const problems = new Problems();
      const checked = checkRecurrence(
        { rrule: `FREQ=WEEKLY;COUNT=${occurrences}` },
        zone,
        row.start_local,
        policy,
        problems,
      );
      problems.throwIfAny();
      await startSeries(trx, row, checked!, policy);
    }
  });
  return { start: `${year}-01-01`, end: `${year + 1}-12-31` };
}

/** The comparison: `count` plain events with the dates `count / occurrences` series of `occurrences` weekly dates would have. */
export async function seedPlainLikeSeries(
  db: Db,
  count: number,
  occurrences: number,
  author: number,
  year: number,
): Promise<{ start: string; end: string }> {
  const now = nowUtc();
  await inBatches(db, count, async (trx, ids, offset) => {
    const rows = ids.map((id, j) => {
      const n = offset + j;
      const series = Math.floor(n / occurrences);
      return eventRow(id, series, `Plain ${n} event`, `plain-${n}`, author, now, slot(series, year, n % occurrences));
    });
    await trx.insertInto('events').values(rows).execute();
  });
  return { start: `${year}-01-01`, end: `${year + 1}-12-31` };
}
