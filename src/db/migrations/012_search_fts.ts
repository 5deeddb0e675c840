import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';
import { createTriggers, dropTriggers, type RowTrigger } from '../triggers.js';

/**
 * SQLite's counterpart of 007 (pg_trgm): an FTS5 index with the trigram tokenizer over the
 * searched columns (title, description, excerpt) of every event, kept by triggers. It finds the
 * events that contain a word of three characters or more, case-insensitively, without reading
 * the table; event-search.repository.ts uses it to narrow a search before the exact LIKE test, which stays.
 * An external-content table: the text is stored once, in `events`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;
  await sql`create virtual table events_search using fts5(title, description, excerpt, content='events', content_rowid='id', tokenize='trigram')`.execute(
    db,
  );
  await sql`insert into events_search(events_search) values ('rebuild')`.execute(db);
  await createTriggers(db, SEARCH_INDEX);
}

const INDEX_NEW =
  'insert into events_search(rowid, title, description, excerpt) values (new.id, new.title, new.description, new.excerpt);';
const UNINDEX_OLD =
  "insert into events_search(events_search, rowid, title, description, excerpt) values ('delete', old.id, old.title, old.description, old.excerpt);";

/** Keeps the index: an event's text in on insert, out on delete, out and in again on an update of it. */
export const SEARCH_INDEX: RowTrigger = {
  name: 'events_search',
  table: 'events',
  on: {
    insert: `
      ${INDEX_NEW}
    `,
    delete: `
      ${UNINDEX_OLD}
    `,
    update: `
      ${UNINDEX_OLD}
      ${INDEX_NEW}
    `,
  },
  updateOf: 'title, description, excerpt',
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;
  await dropTriggers(db, SEARCH_INDEX);
  await sql`drop table if exists events_search`.execute(db);
}
