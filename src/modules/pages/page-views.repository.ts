import { sql, type Expression, type SqlBool } from 'kysely';

/**
 * The conditions that split a list's events at a moment (`YYYY-MM-DD HH:MM:SS`, the site's local
 * time, compared as the pages compare days: with each event's local times). page.repository.ts's
 * list windows run them: each keeps reading its range of the index on (lang, start_local) and
 * drops, among the rows of that range, those on the other side of the moment (an event of this
 * morning that is over, a long exhibition still going on).
 */

/** Events not over at `now`: an upcoming list's. */
export function notOverAt(now: string): Expression<SqlBool> {
  return sql<SqlBool>`events.end_local >= ${now}`;
}

/** Events over before `now`: a past list's. */
export function overBefore(now: string): Expression<SqlBool> {
  return sql<SqlBool>`events.end_local < ${now}`;
}
