import type { Db, EventRow } from '../src/db/database.js';
import { nowUtc } from '../src/lib/clock.js';
import { zoneOrUtc } from '../src/lib/dates.js';
import { Problems } from '../src/http/problems.js';
import { checkRecurrence, type RecurrencePolicy } from '../src/modules/recurrence/recurrence.input.js';
import { startSeries } from '../src/modules/recurrence/recurrence.series.js';

/**
 * Seeds recurring series for the recurrence scenario (issue 18): `count` weekly series of
 * `occurrences` dates each, in their own window (`year`), each written as the service writes one:
 * the series row, then startSeries (rule, occurrences, links) in the same transaction. Returns
 * the window's bounds for the list URLs.
 */
export async function seedSeries(db: Db, count: number, occurrences: number, author: number, year: number): Promise<{ start: string; end: string }> {
  const now = nowUtc();
  const zone = zoneOrUtc('Europe/Paris');
  // Far enough that every series is materialized whole, whenever the bench runs.
  const policy: RecurrencePolicy = { max: 1000, horizonDays: 36_500, now: () => new Date() };
  const BATCH = 200;
  for (let offset = 0; offset < count; offset += BATCH) {
    await db.transaction().execute(async (trx) => {
      const size = Math.min(BATCH, count - offset);
      const ids = (await trx.insertInto('posts').values(Array.from({ length: size }, () => ({ type: 'event' as const }))).returning('id').execute()).map((r) => r.id);
      for (const [j, id] of ids.entries()) {
        const n = offset + j;
        const day = new Date(Date.UTC(year, 0, 1 + (n % 300)));
        const start = `${day.toISOString().slice(0, 10)} ${String(8 + (n % 12)).padStart(2, '0')}:00:00`;
        const end = start.replace(/ (\d\d):/, (_, h: string) => ` ${String(Number(h) + 1).padStart(2, '0')}:`);
        const title = `Series ${n} weekly`;
        const row = {
          id, lang: 'en', trid: id, author, status: 'publish', password: '', slug: `series-${n}`, title, description: `${title}: a recurring listing.`, excerpt: '',
          date: now, date_utc: now, modified: now, modified_utc: now, image_id: null,
          all_day: 0, start_local: start, end_local: end, start_utc: start, end_utc: end, timezone: 'Europe/Paris', timezone_abbr: 'CET',
          cost: '[]', currency_symbol: '', currency_code: '', currency_position: '', website: null,
          show_map: 0, show_map_link: 0, hide_from_listings: 0, sticky: 0, featured: 0, venue_id: null, post_parent: null,
          trashed_from: null, revision: 0, series_id: null, recurrence_id: null, recurrence_exception: 0,
        } satisfies EventRow;
        await trx.insertInto('events').values(row).execute();
        const problems = new Problems();
        const checked = checkRecurrence({ rrule: `FREQ=WEEKLY;COUNT=${occurrences}` }, zone, start, policy, problems);
        problems.throwIfAny();
        await startSeries(trx, row, checked!, policy);
      }
    });
  }
  return { start: `${year}-01-01`, end: `${year + 1}-12-31` };
}
