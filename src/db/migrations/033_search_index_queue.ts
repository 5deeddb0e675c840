import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';
import { createTriggers, dropTriggers, type RowTrigger } from '../triggers.js';
import { SEARCH_INDEX } from './012_search_fts.js';

/**
 * SQLite: a new event's text goes into the search index (012) in batches, from a queue, instead
 * of in the transaction that writes the event.
 *
 * Why: FTS5 keeps what a statement adds in memory, but writes it to disk as a segment of its own
 * before the next statement of the transaction (at its statement savepoint), and merges those
 * segments later. A create runs several statements after its event's insert, so every create
 * wrote a segment of one event. Measured at 100,000 events (better-sqlite3 alone, the statements
 * of a create, transactions of eight creates as the writer groups them): 950 µs a create in the
 * database, of which some 250 went to the segment, paid by the statement after the insert; from
 * the queue, indexed 512 events at a time, 560 µs, the indexing included (33–40 µs an event).
 *
 * `events_search_pending`: the events whose text is written but not in the index (an event is in
 * one or the other, never both). The search reads it with the index (event-search.repository.ts,
 * indexedIds), so a queued event is found as soon as it is written; the background indexes the
 * queue (event-search.service.ts). Its name is the index's with `_pending`: the copy leaves it
 * out and empties it when it rebuilds the index (operations/tables.repository.ts).
 *
 * The triggers: an insert queues the event. An update of its text takes the old text out of the
 * index (FTS5 needs the text it indexed to remove it) unless it is still queued, and queues it.
 * A delete does the same without queuing. PostgreSQL is unchanged: its trigram indexes (007) are
 * GIN indexes, which gather new entries in a pending list of their own (`fastupdate`).
 */

const QUEUE = 'events_search_pending';

const UNINDEX_OLD_UNLESS_QUEUED = `insert into events_search(events_search, rowid, title, description, excerpt) select 'delete', old.id, old.title, old.description, old.excerpt where not exists (select 1 from ${QUEUE} where id = old.id);`;
const QUEUE_NEW = `insert or ignore into ${QUEUE} (id) values (new.id);`;

const SEARCH_INDEX_QUEUED: RowTrigger = {
  ...SEARCH_INDEX,
  on: {
    insert: `
      ${QUEUE_NEW}
    `,
    delete: `
      ${UNINDEX_OLD_UNLESS_QUEUED}
      delete from ${QUEUE} where id = old.id;
    `,
    update: `
      ${UNINDEX_OLD_UNLESS_QUEUED}
      ${QUEUE_NEW}
    `,
  },
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;
  await sql`create table ${sql.table(QUEUE)} (id integer primary key)`.execute(db);
  await dropTriggers(db, SEARCH_INDEX);
  await createTriggers(db, SEARCH_INDEX_QUEUED);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;
  await dropTriggers(db, SEARCH_INDEX_QUEUED);
  // What is queued goes into the index first: 012's triggers expect every event in it.
  await sql`insert into events_search (rowid, title, description, excerpt) select e.id, e.title, e.description, e.excerpt from ${sql.table(QUEUE)} q cross join events e on e.id = q.id`.execute(
    db,
  );
  await sql`drop table ${sql.table(QUEUE)}`.execute(db);
  await createTriggers(db, SEARCH_INDEX);
}
