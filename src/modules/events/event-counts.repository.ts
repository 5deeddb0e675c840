import { sql, type Compilable, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Database, Db, EventFacetWindowCountTable } from '../../db/database.js';
import { nowUtc } from '../../lib/clock.js';
import { dialectOf, likeWatch, WRITE_ORDER_LOCK, type DialectName } from '../../db/dialect.js';
import { unprotectedSql } from '../../db/visibility.js';
import { containedInText } from './event-search.repository.js';

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

/** How much of an event's description and excerpt {@link sampledListedTexts} reads: enough for its words' frequency. */
const SAMPLED_CHARS = 500;
/**
 * Equal slices of the events' ids a sample is taken from, the newest of each: the newest events
 * alone were a burst of like events as often as not (an import, a series, a bench's creates),
 * whose words then stood for the whole calendar's.
 */
const SAMPLE_SLICES = 10;

/**
 * The title and the start of the description and excerpt of about `limit` events anonymous
 * readers find in lists (published, listed, no password: a protected event's text is not read for
 * any purpose of the public's): the newest of each of SAMPLE_SLICES equal slices of the events'
 * ids, each read through the primary key from the top of its slice.
 */
export async function sampledListedTexts(db: Db, limit: number): Promise<string[]> {
  // Two reads of one end of the key each: SQLite reads both in one select by scanning an index
  // (273 ms at a million events), each alone in a step of the primary key.
  const end = (order: 'asc' | 'desc') =>
    db.selectFrom('events').select('id').orderBy('id', order).limit(1).executeTakeFirst();
  const [lowest, highest] = [await end('asc'), await end('desc')];
  if (!lowest || !highest) return [];
  const first = Number(lowest.id);
  const span = Number(highest.id) - first + 1;
  const texts: string[] = [];
  for (let slice = SAMPLE_SLICES - 1; slice >= 0; slice--) {
    const rows = await db
      .selectFrom('events')
      .select(
        sql<string>`title || ' ' || substr(excerpt, 1, ${SAMPLED_CHARS}) || ' ' || substr(description, 1, ${SAMPLED_CHARS})`.as(
          'text',
        ),
      )
      .where('id', '>=', first + Math.floor((span * slice) / SAMPLE_SLICES))
      .where('id', '<', first + Math.floor((span * (slice + 1)) / SAMPLE_SLICES))
      .where('status', '=', 'publish')
      .where('hide_from_listings', '=', 0)
      .where('password', '=', '')
      .orderBy('id', 'desc')
      .limit(Math.ceil(limit / SAMPLE_SLICES))
      .execute();
    texts.push(...rows.map((row) => row.text));
  }
  return texts;
}

/**
 * Whether anonymous readers find at least `least` events in lists, all languages (what a search's
 * count tests): read up to `least` of them, not all (a million events' count took 1.1 s on SQLite).
 */
export async function listsAtLeast(db: Db, least: number): Promise<boolean> {
  const row = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('events')
        .select('id')
        .where('status', '=', 'publish')
        .where('hide_from_listings', '=', 0)
        .limit(least)
        .as('listed'),
    )
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n) >= least;
}

/** A registered search phrase, when it was last used, and how far its counts are taken (029). */
export function findPhrase(
  db: Db,
  phrase: string,
): Promise<{ id: number; used_utc: string; counted_through: number | null } | undefined> {
  return db
    .selectFrom('search_phrases')
    .select(['id', 'used_utc', 'counted_through'])
    .where('phrase', '=', phrase)
    .executeTakeFirst();
}

export async function touchPhrase(db: Db, id: number): Promise<void> {
  await db.updateTable('search_phrases').set({ used_utc: nowUtc() }).where('id', '=', id).execute();
}

/**
 * Registers a search: the phrase and its words' patterns, its counts still to take (they hold no
 * event yet: `countPhraseSlice` takes them), and room made for it (at most `keep` phrases, the
 * least recently used going). One short transaction, with no count in it. Another request or
 * instance may have registered it meanwhile: the insert then does nothing.
 */
export async function addPhrase(db: Db, phrase: string, patterns: string[], keep: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('search_phrases')
      .values({ phrase, used_utc: nowUtc(), counted_through: 0 })
      .onConflict((oc) => oc.column('phrase').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!inserted) return;
    await trx
      .insertInto('search_phrase_words')
      .values(patterns.map((pattern) => ({ phrase_id: inserted.id, pattern, watch: likeWatch(pattern) })))
      .execute();
    const evicted = await trx
      .selectFrom('search_phrases')
      .select('id')
      .where('id', '<>', inserted.id)
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
  });
}

/** What one slice did: counted one, found every search's counts complete, or gave up the lock. */
export type SliceOutcome = 'counted' | 'none' | 'busy';

/**
 * Takes the next slice of the counts of the registered search whose counts are not complete that
 * was used last (pendingPhrase): its matching listed published events with ids past its
 * `counted_through` and up to `size` more (all of the rest when they reach the highest id), added
 * to its per-day counts, and `counted_through` moved past them (null once complete), in one
 * transaction. The triggers count a written event for the search once `counted_through` has
 * reached it (migration 029), so each event is counted once. On PostgreSQL the slice holds the
 * write-order lock exclusive, which every write of events takes shared before its trigger reads
 * the searches: no write falls between the slice's count and the triggers. Writers wait behind an
 * exclusive request, so the slice gives up ('busy') when a long write (an import) holds the lock
 * past a moment.
 */
export async function countPhraseSlice(db: Db, size: number): Promise<SliceOutcome> {
  const dialect = dialectOf(db);
  // Looked for first without the lock, which every instance would otherwise take each round, and
  // writers queue behind: nearly always, every search's counts are complete.
  if (!(await pendingPhrase(db))) return 'none';
  try {
    return await db.transaction().execute((trx) => countSliceIn(trx, dialect, size));
  } catch (error) {
    const code = (error as { code?: string }).code;
    // 55P03 lock_not_available: lock_timeout passed. 23503 foreign_key_violation: a registration
    // made room by dropping this search meanwhile (it takes no lock); the next slice goes on.
    if (code === '55P03' || code === '23503') return 'busy';
    throw error;
  }
}

/**
 * The registered search whose counts are not complete that was used last (at most 200 rows are
 * read): one a visitor asked again, registered then, is counted before the common words
 * registered ahead (event-counts.service.ts), which at a million events take the background some
 * twenty minutes on PostgreSQL and would have kept it waiting behind them.
 */
function pendingPhrase(db: Db): Promise<{ id: number; counted_through: number | null } | undefined> {
  return db
    .selectFrom('search_phrases')
    .select(['id', 'counted_through'])
    .where('counted_through', 'is not', null)
    .orderBy('used_utc', 'desc')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

async function countSliceIn(trx: Db, dialect: DialectName, size: number): Promise<SliceOutcome> {
  if (dialect === 'postgres') {
    await sql`select set_config('lock_timeout', '100ms', true)`.execute(trx);
    await sql`select pg_advisory_xact_lock(${WRITE_ORDER_LOCK})`.execute(trx);
    await sql`select set_config('lock_timeout', '0', true)`.execute(trx);
  }
  // Read again under the lock: another instance's slice may have moved it.
  const phrase = await pendingPhrase(trx);
  if (!phrase) return 'none';
  const from = phrase.counted_through!;
  const patterns = (
    await trx.selectFrom('search_phrase_words').select('pattern').where('phrase_id', '=', phrase.id).execute()
  ).map((w) => w.pattern);
  const { last } = await trx
    .selectFrom('events')
    .select((eb) => eb.fn.max<number | null>('id').as('last'))
    .executeTakeFirstOrThrow();
  const through = from + size;
  const complete = through >= (last ?? 0);
  const startDay = sql<string>`substr(events.start_local, 1, 10)`;
  const endDay = sql<string>`substr(events.end_local, 1, 10)`;
  await trx
    .insertInto('search_window_counts')
    .columns(['phrase_id', 'lang', 'start_day', 'end_day', 'n'])
    .expression(
      trx
        .selectFrom('events')
        .select((eb) => [
          eb.lit(phrase.id).as('phrase_id'),
          'events.lang',
          startDay.as('start_day'),
          endDay.as('end_day'),
          eb.fn.countAll<number>().as('n'),
        ])
        // A range of the primary key: the slice reads its own events only.
        .where('events.id', '>', from)
        .$if(!complete, (qb) => qb.where('events.id', '<=', through))
        .where(sql<SqlBool>`events.status = 'publish' and events.hide_from_listings = 0`)
        // As anonymous readers search (only public lists register): a protected event by its title.
        .where((eb) => eb.and(containedInText(dialect, patterns, unprotectedSql('events'))))
        .groupBy(['events.lang', startDay, endDay]),
    )
    // An earlier slice may have counted events of the same days.
    .onConflict((oc) =>
      oc
        .columns(['phrase_id', 'lang', 'start_day', 'end_day'])
        .doUpdateSet({ n: sql<number>`search_window_counts.n + excluded.n` }),
    )
    .execute();
  await trx
    .updateTable('search_phrases')
    .set({ counted_through: complete ? null : through })
    .where('id', '=', phrase.id)
    .execute();
  return 'counted';
}
