import type { Kysely } from 'kysely';
import { createSearchCountTriggers, dropSearchCountTriggers } from './019_search_counts.js';
import { SHOWN_TEXT } from './021_protected_events.js';

/**
 * A registered search's first count is taken a slice of events at a time (issue 30), in the
 * background, where it was one count of every event on the request that registered it: at a
 * million events a common word's took seconds, held SQLite's event loop all that time, and on
 * PostgreSQL kept every writer waiting behind the write-order lock (019).
 *
 * `counted_through`: the highest event id the search's counts hold, null once they hold every
 * event (the phrases registered before this migration). A slice counts the events past it, up to
 * some thousands of ids, and moves it, in one transaction (src/modules/events/event-counts.repository.ts);
 * the triggers now count a written event only for the searches whose counts already hold it. So
 * every event is counted once, by the slice that reaches it or, after that, by its writes'
 * triggers: on PostgreSQL a slice holds the write-order lock exclusive, as the whole count did,
 * but only for its own slice. Lists sum a search's counts only once they are complete.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('search_phrases').addColumn('counted_through', 'integer').execute();
  await dropSearchCountTriggers(db);
  await createSearchCountTriggers(db, SHOWN_TEXT, true);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await dropSearchCountTriggers(db);
  await createSearchCountTriggers(db, SHOWN_TEXT);
  // Counts not complete would be summed as if they were.
  await db.deleteFrom('search_phrases').where('counted_through', 'is not', null).execute();
  await db.schema.alterTable('search_phrases').dropColumn('counted_through').execute();
}
