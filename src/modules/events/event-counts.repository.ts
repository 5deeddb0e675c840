import { sql, type Compilable, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Database, Db, EventFacetWindowCountTable } from '../../db/database.js';
import { nowUtc } from '../../lib/clock.js';
import { dialectOf, WRITE_ORDER_LOCK, type DialectName } from '../../db/dialect.js';
import { containsAll, indexedSubsets, type SearchFilter } from './event-search.repository.js';

/**
 * The per-day counts' statements: the counts of a list's filter (countRows, windowCountQuery), the
 * check of a total against the rows, and the registered searches (event-counts.service.ts decides
 * when to register one).
 */

/**
 * A public list's window of whole days (from `YYYY-MM-DD 00:00:00`, to `YYYY-MM-DD 23:59:59`),
 * as days; either side may be open.
 */
export interface DayWindow {
  from: string | null;
  to: string | null;
}

export type Facet = EventFacetWindowCountTable['facet'];

/**
 * Which per-day counts hold a public list's events: all of them (migration 009), those of one
 * category or tag (013), those of a facet (018) for one or more ids whose events never overlap
 * (the translations of one venue: an event has one venue), or those of a search (019).
 */
export type CountKey =
  | { kind: 'all' }
  | { kind: 'term'; id: number }
  | { kind: 'facet'; facet: Facet; ids: number[] }
  | { kind: 'search'; id: number };

const TABLES = {
  all: 'event_window_counts',
  term: 'event_term_window_counts',
  facet: 'event_facet_window_counts',
  search: 'search_window_counts',
} as const;

/** The per-day count rows of `key` in `lang`. The tables share the columns read by callers; the query is typed with the first. */
export function countRows(
  db: Db,
  lang: string,
  key: CountKey,
): SelectQueryBuilder<Database, 'event_window_counts', object> {
  return db
    .selectFrom(TABLES[key.kind] as 'event_window_counts')
    .where('lang', '=', lang)
    .$if(key.kind === 'term', (qb) => qb.where(sql.ref('term_id'), '=', (key as { id: number }).id))
    .$if(key.kind === 'search', (qb) => qb.where(sql.ref('phrase_id'), '=', (key as { id: number }).id))
    .$if(key.kind === 'facet', (qb) => {
      const { facet, ids } = key as { facet: Facet; ids: number[] };
      return qb.where(sql.ref('facet'), '=', facet).where(sql.ref('facet_id'), 'in', ids);
    });
}

/** How many events of `key`'s counts start on each of `days`, from their per-day counts. */
export async function startDayCounts(
  db: Db,
  lang: string,
  key: CountKey,
  days: string[],
): Promise<Map<string, number>> {
  const rows = await countRows(db, lang, key)
    .select((eb) => ['start_day', eb.fn.sum<number | string>('n').as('n')])
    .where('start_day', 'in', days)
    .groupBy('start_day')
    .execute();
  return new Map(rows.map((r) => [r.start_day, Number(r.n)]));
}

/**
 * The total of a public list of whole days from the per-day counts of its filter: an event is in
 * the window when it starts on or after its first day and ends on or before its last, so the sum
 * over (start day, end day) pairs inside the window is exactly the count of its events, and
 * reads a few hundred rows for a year.
 */
export function windowCountQuery(db: Db, lang: string, window: DayWindow, key: CountKey) {
  return countRows(db, lang, key)
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('n'), eb.lit(0)).as('n'))
    .$if(window.from !== null, (qb) => qb.where('start_day', '>=', window.from!))
    .$if(window.to !== null, (qb) => qb.where('end_day', '<=', window.to!));
}

/**
 * Both totals in one snapshot, for CAL_VERIFY_COUNTS: throws when the per-day counts differ from
 * the rows (a write committing between two statements would differ honestly).
 */
export async function assertCountsAgree(
  db: Db,
  summed: Compilable<{ n: number }>,
  plain: Compilable<{ n: number }>,
  window: DayWindow,
): Promise<void> {
  const snapshot =
    dialectOf(db) === 'postgres' ? db.transaction().setIsolationLevel('repeatable read') : db.transaction();
  await snapshot.execute(async (trx) => {
    const [fromCounts] = (await trx.executeQuery<{ n: number | string }>(summed.compile())).rows;
    const [fromRows] = (await trx.executeQuery<{ n: number | string }>(plain.compile())).rows;
    if (Number(fromCounts!.n) !== Number(fromRows!.n))
      throw new Error(
        `Per-day counts differ from the rows: ${fromCounts!.n} against ${fromRows!.n} for ${JSON.stringify(window)}`,
      );
  });
}

/** A registered search phrase and when it was last used. */
export function findPhrase(db: Db, phrase: string): Promise<{ id: number; used_utc: string } | undefined> {
  return db.selectFrom('search_phrases').select(['id', 'used_utc']).where('phrase', '=', phrase).executeTakeFirst();
}

export async function touchPhrase(db: Db, id: number): Promise<void> {
  await db.updateTable('search_phrases').set({ used_utc: nowUtc() }).where('id', '=', id).execute();
}

/**
 * One transaction: the phrase, its words, the first count of its events, and room made for it
 * (at most `keep` phrases). On PostgreSQL the write-order lock (which every write of events takes
 * before its trigger reads the phrases) is held from before the count to the commit; on SQLite the
 * phrase's insert takes the write lock first. Either way no write falls between the count and the
 * triggers. Writers take that lock shared and wait behind this exclusive request, so it is given
 * up (null: not registered this time) when a long write (an import) holds it past a moment.
 */
export async function registerPhrase(
  db: Db,
  phrase: string,
  search: SearchFilter,
  keep: number,
): Promise<number | null> {
  const dialect = dialectOf(db);
  try {
    return await db.transaction().execute((trx) => registerIn(trx, dialect, phrase, search, keep));
  } catch (error) {
    // 55P03 lock_not_available: lock_timeout passed.
    if ((error as { code?: string }).code === '55P03') return null;
    throw error;
  }
}

async function registerIn(
  trx: Db,
  dialect: DialectName,
  phrase: string,
  { words, patterns, shown }: SearchFilter,
  keep: number,
): Promise<number> {
  if (dialect === 'postgres') {
    await sql`select set_config('lock_timeout', '100ms', true)`.execute(trx);
    await sql`select pg_advisory_xact_lock(${WRITE_ORDER_LOCK})`.execute(trx);
    // The count itself may take long: only the wait for the lock is bounded.
    await sql`select set_config('lock_timeout', '0', true)`.execute(trx);
  }
  const inserted = await trx
    .insertInto('search_phrases')
    .values({ phrase, used_utc: nowUtc() })
    .onConflict((oc) => oc.column('phrase').doNothing())
    .returning('id')
    .executeTakeFirst();
  // Another request or instance registered it meanwhile.
  if (!inserted)
    return (await trx.selectFrom('search_phrases').select('id').where('phrase', '=', phrase).executeTakeFirstOrThrow())
      .id;
  const id = inserted.id;
  await trx
    .insertInto('search_phrase_words')
    .values(patterns.map((pattern) => ({ phrase_id: id, pattern })))
    .execute();
  const startDay = sql<string>`substr(events.start_local, 1, 10)`;
  const endDay = sql<string>`substr(events.end_local, 1, 10)`;
  await trx
    .insertInto('search_window_counts')
    .columns(['phrase_id', 'lang', 'start_day', 'end_day', 'n'])
    .expression(
      trx
        .selectFrom('events')
        .select((eb) => [
          eb.lit(id).as('phrase_id'),
          'events.lang',
          startDay.as('start_day'),
          endDay.as('end_day'),
          eb.fn.countAll<number>().as('n'),
        ])
        .where(sql<SqlBool>`events.status = 'publish' and events.hide_from_listings = 0`)
        // SQLite's trigram index names a common word's events faster than a scan of all of them.
        // `shown` is the anonymous reader's (only public lists register): a protected event by its title.
        .where((eb) => eb.and([...indexedSubsets(dialect, words), ...containsAll(dialect, patterns, shown)]))
        .groupBy(['events.lang', startDay, endDay]),
    )
    .execute();
  const evicted = await trx
    .selectFrom('search_phrases')
    .select('id')
    .where('id', '<>', id)
    .orderBy('used_utc', 'desc')
    .orderBy('id', 'desc')
    .offset(keep - 1)
    .limit(1000)
    .execute();
  // Their words and counts go with them (foreign keys on delete cascade).
  if (evicted.length > 0)
    await trx
      .deleteFrom('search_phrases')
      .where(
        'id',
        'in',
        evicted.map((r) => r.id),
      )
      .execute();
  return id;
}
