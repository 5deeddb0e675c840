import { sql } from 'kysely';
import type { Db } from '../../db/database.js';

/**
 * A public list's window of whole days (from `YYYY-MM-DD 00:00:00`, to `YYYY-MM-DD 23:59:59`),
 * as days; either side may be open.
 */
export interface DayWindow {
  from: string | null;
  to: string | null;
}

/**
 * The total of a public list whose only filter is a window of whole days (and perhaps one
 * category or tag), from the per-day counts the triggers of migrations 009 and 013 keep: an event is in the window when it starts on or after its
 * first day and ends on or before its last, so the sum over (start day, end day) pairs inside the
 * window is exactly the count of its events, and reads a few hundred rows for a year.
 */
export function windowCountQuery(db: Db, lang: string, window: DayWindow, term: number | null = null) {
  // With a term: the same sums per (term, start day, end day), migration 013. Both tables have the
  // columns read here, so the query is typed with the first one.
  const table = (term === null ? 'event_window_counts' : 'event_term_window_counts') as 'event_window_counts';
  return db
    .selectFrom(table)
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'))
    .where('lang', '=', lang)
    .$if(term !== null, (qb) => qb.where(sql.ref('term_id'), '=', term))
    .$if(window.from !== null, (qb) => qb.where('start_day', '>=', window.from!))
    .$if(window.to !== null, (qb) => qb.where('end_day', '<=', window.to!));
}

/** The day of a bound when it is a whole-day bound of its side, else null (strict or relative bounds). */
export function wholeDay(value: string, side: 'from' | 'to'): string | null {
  const time = value.slice(11);
  return (side === 'from' ? time === '00:00:00' : time === '23:59:59') ? value.slice(0, 10) : null;
}
