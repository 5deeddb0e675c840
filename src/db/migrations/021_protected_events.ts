import type { Kysely } from 'kysely';
import {
  createTermCountTriggers,
  dropTermCountTriggers,
  fillTermCounts,
  LISTED,
  type CountedEvents,
} from './013_event_term_window_counts.js';
import { createFacetCountTriggers, dropFacetCountTriggers, fillFacetCounts } from './018_event_facet_window_counts.js';
import {
  ANY_TEXT,
  createSearchCountTriggers,
  dropSearchCountTriggers,
  type SearchedText,
} from './019_search_counts.js';

/**
 * Password-protected events (issue 25).
 *
 * A protected event is listed with its title and dates only: its description, excerpt, venue,
 * organizers, categories, tags and flags are blanked for readers who have not unlocked it, as in
 * the original. Filtering the public list by those fields must not tell them either (`venue=5`
 * listing a protected event says where it is; `search` on its description reads it out letter by
 * letter). So for such readers a protected event matches a search by its title only, and no
 * filter on a hidden field (src/modules/events/event.access.ts). The per-day counts that give
 * public lists their totals count the same events: those of a term or facet (013, 018) leave
 * protected events out, and a registered search (019) finds a protected event by its title only.
 * The triggers are made again with those rules (and to follow a change of password), and the
 * counts rebuilt; registered searches are dropped (they register again when they come back).
 *
 * And `failure_counts`: failed attempts of guessable secrets (application passwords, event
 * passwords) per key and window, shared by every instance on the database
 * (src/modules/users/failure.service.ts), where they were each instance's memory.
 */

/** Listed, published and not password-protected: the events whose hidden fields public filters see. */
const UNPROTECTED: CountedEvents = {
  visible: (row) => `${LISTED.visible(row)} and ${row}.password = ''`,
  columns: `${LISTED.columns}, password`,
};

/** A protected event is found by its title; others by their title, description or excerpt. */
export const SHOWN_TEXT: SearchedText = {
  contains: (row, test) =>
    `${test('title')} or (${row}.password = '' and (${test('description')} or ${test('excerpt')}))`,
  columns: `${ANY_TEXT.columns}, password`,
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function recount(db: Kysely<any>, counted: CountedEvents, searched: SearchedText): Promise<void> {
  await dropTermCountTriggers(db);
  await dropFacetCountTriggers(db);
  await dropSearchCountTriggers(db);
  await db.deleteFrom('event_term_window_counts').execute();
  await db.deleteFrom('event_facet_window_counts').execute();
  for (const table of ['search_window_counts', 'search_phrase_words', 'search_phrases'])
    await db.deleteFrom(table).execute();
  await createTermCountTriggers(db, counted);
  await createFacetCountTriggers(db, counted);
  await createSearchCountTriggers(db, searched);
  await fillTermCounts(db, counted);
  await fillFacetCounts(db, counted);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await recount(db, UNPROTECTED, SHOWN_TEXT);
  await db.schema
    .createTable('failure_counts')
    .addColumn('key_hash', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('reset_at', 'bigint', (c) => c.notNull())
    .execute();
  // Ended windows are purged by their end.
  await db.schema.createIndex('failure_counts_reset').on('failure_counts').column('reset_at').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('failure_counts').execute();
  await recount(db, LISTED, ANY_TEXT);
}
