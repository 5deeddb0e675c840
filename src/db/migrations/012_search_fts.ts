import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * SQLite's counterpart of 007 (pg_trgm): an FTS5 index with the trigram tokenizer over the
 * searched columns (title, description, excerpt) of every event, kept by triggers. It finds the
 * events that contain a word of three characters or more, case-insensitively, without reading
 * the table; event.search.ts uses it to narrow a search before the exact LIKE test, which stays.
 * An external-content table: the text is stored once, in `events`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;
  await sql`create virtual table events_search using fts5(title, description, excerpt, content='events', content_rowid='id', tokenize='trigram')`.execute(
    db,
  );
  await sql`insert into events_search(events_search) values ('rebuild')`.execute(db);
  await sql`create trigger events_search_insert after insert on events begin
      insert into events_search(rowid, title, description, excerpt) values (new.id, new.title, new.description, new.excerpt);
    end`.execute(db);
  await sql`create trigger events_search_delete after delete on events begin
      insert into events_search(events_search, rowid, title, description, excerpt) values ('delete', old.id, old.title, old.description, old.excerpt);
    end`.execute(db);
  await sql`create trigger events_search_update after update of title, description, excerpt on events begin
      insert into events_search(events_search, rowid, title, description, excerpt) values ('delete', old.id, old.title, old.description, old.excerpt);
      insert into events_search(rowid, title, description, excerpt) values (new.id, new.title, new.description, new.excerpt);
    end`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;
  for (const trigger of ['events_search_insert', 'events_search_delete', 'events_search_update'])
    await sql`drop trigger if exists ${sql.id(trigger)}`.execute(db);
  await sql`drop table if exists events_search`.execute(db);
}
