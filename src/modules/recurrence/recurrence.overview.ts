import { sql, type SqlBool } from 'kysely';
import type { Db, EventRow } from '../../db/database.js';
import { zoneOrUtc } from '../../lib/dates.js';
import { findRecurrence } from './recurrence.repository.js';
import { parseRule } from './recurrence.rule.js';
import { summarize } from './recurrence.summary.js';

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
  const stored = await findRecurrence(db, seriesId);
  if (!stored) return null;
  const series =
    seriesId === row.id ? row : await db.selectFrom('events').selectAll().where('id', '=', seriesId).executeTakeFirst();
  if (!series) return null;
  const rule = parseRule(stored.rrule, zoneOrUtc(series.timezone));
  const next = await db
    .selectFrom('events')
    .select(['id', 'slug', 'start_local', 'end_local', 'start_utc', 'end_utc', 'all_day', 'timezone', 'timezone_abbr'])
    .where('series_id', '=', seriesId)
    .where(sql<SqlBool>`status = 'publish'`)
    .where('hide_from_listings', '=', 0)
    .where('end_local', '>=', fromLocal)
    .where('id', '<>', row.id)
    .orderBy('start_local')
    .limit(limit)
    .execute();
  return { summary: typeof rule === 'string' ? stored.rrule : summarize(rule, series.start_local, lang), next };
}
