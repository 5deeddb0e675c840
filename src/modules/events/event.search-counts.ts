import { sql, type SqlBool } from 'kysely';
import { LRUCache } from 'lru-cache';
import { DateTime } from 'luxon';
import type { Db } from '../../db/database.js';
import { dialectOf, WRITE_ORDER_LOCK } from '../../db/dialect.js';
import { containsAll, indexedSubsets, type SearchFilter } from './event.search.js';

/**
 * Per-day counts for searches no index narrows (migration 019). A public list that searches such
 * words registers them (when they come back, below): one count of their matching events grouped
 * by day pair, then the triggers keep it. Every later list of whole days searching the same words sums it, so
 * `search=jazz` over a year costs what `categories=jazz` does, not a test of the year's events.
 *
 * Only searches that would scan are registered (a rare word is counted through its index), and at
 * most MAX_PHRASES of them, the least recently used going first: each costs every write of an
 * event a test of its words. A registration counts every event of the search once and, on
 * PostgreSQL, holds writers back meanwhile; so a search is registered when it comes back (one
 * asked once is counted as before), and an instance registers one search a second at most, so
 * that a stream of distinct searches cannot keep writers waiting. Both are this process's
 * memory on purpose: they only decide when to register, never what a count is.
 */

export const MAX_PHRASES = 200;

/** How stale a phrase's last use may get before a read records it again (one write an hour at most). */
const TOUCH_AFTER_HOURS = 1;

/** Per database: searches seen once and not registered, registered when seen again. */
const seen = new WeakMap<Db, LRUCache<string, true>>();
/** When this instance last registered a search (ms). */
let lastRegistration = 0;
/** The least time between two registrations of this instance; tests that register many searches lower it. */
export const registrationPacing = { gapMs: 1000 };

/** The registered phrase of the words: their JSON, sorted, so that "a b" and "b a" share it. */
const phraseOf = (words: string[]) => JSON.stringify([...words].sort());

const now = () => DateTime.utc().toFormat('yyyy-MM-dd HH:mm:ss');

/**
 * The id of the per-day counts of `search`, registering them if no index narrows the search; null
 * when it is narrowed (counting its events one by one is cheap) or has no words.
 */
export async function searchCountsId(db: Db, search: SearchFilter): Promise<number | null> {
  if (search.words.length === 0) return null;
  const phrase = phraseOf(search.words);
  const known = await db
    .selectFrom('search_phrases')
    .select(['id', 'used_utc'])
    .where('phrase', '=', phrase)
    .executeTakeFirst();
  if (known) {
    const stale = DateTime.utc().minus({ hours: TOUCH_AFTER_HOURS }).toFormat('yyyy-MM-dd HH:mm:ss');
    if (known.used_utc < stale)
      await db.updateTable('search_phrases').set({ used_utc: now() }).where('id', '=', known.id).execute();
    return known.id;
  }
  let seenOnce = seen.get(db);
  if (!seenOnce) seen.set(db, (seenOnce = new LRUCache({ max: 10_000 })));
  if (!seenOnce.has(phrase)) {
    seenOnce.set(phrase, true);
    return null;
  }
  if (Date.now() - lastRegistration < registrationPacing.gapMs || (await search.narrow())) return null;
  lastRegistration = Date.now();
  seenOnce.delete(phrase);
  return register(db, phrase, search);
}

/**
 * One transaction: the phrase, its words, the first count of its events, and room made for it.
 * On PostgreSQL the write-order lock (which every write of events takes before its trigger reads
 * the phrases) is held from before the count to the commit; on SQLite the phrase's insert takes
 * the write lock first. Either way no write falls between the count and the triggers.
 */
async function register(db: Db, phrase: string, { words, patterns, shown }: SearchFilter): Promise<number> {
  const dialect = dialectOf(db);
  return db.transaction().execute(async (trx) => {
    if (dialect === 'postgres') await sql`select pg_advisory_xact_lock(${WRITE_ORDER_LOCK})`.execute(trx);
    const inserted = await trx
      .insertInto('search_phrases')
      .values({ phrase, used_utc: now() })
      .onConflict((oc) => oc.column('phrase').doNothing())
      .returning('id')
      .executeTakeFirst();
    // Another request or instance registered it meanwhile.
    if (!inserted)
      return (
        await trx.selectFrom('search_phrases').select('id').where('phrase', '=', phrase).executeTakeFirstOrThrow()
      ).id;
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
      .offset(MAX_PHRASES - 1)
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
  });
}
