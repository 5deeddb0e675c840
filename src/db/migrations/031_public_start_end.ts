import { sql, type Kysely, type SqlBool } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * PostgreSQL: the public lists' index (`events_public_start`, 001) holds the end of each event
 * too. A page past the first walks the index for the ids it skips (pageRows in
 * event-list.repository.ts), and the window's end (`end_local <= …`) was the one condition of a
 * public list's window the index did not hold, so every skipped event was read from the table: at
 * a million events, page 20 of a year read a thousand rows, 4.7 ms with the table in the OS's
 * cache and 11 ms when not. With the end in the index the walk is an index-only scan, and only the
 * page's own 50 rows are read (1.7 ms). The end comes after the id: the index's order is the
 * lists' order as before.
 *
 * Not on SQLite: there the walk along its index was under a millisecond at page 20 (the rows in
 * the OS's cache, at 100,000 events) and no faster from a covering index, and the wider index
 * changed the planner's choice for featured lists (030) away from their own index.
 */

const PUBLIC = "status = 'publish' AND hide_from_listings = 0";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function publicStart(db: Kysely<any>, columns: string[]): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await db.schema.dropIndex('events_public_start').execute();
  await db.schema
    .createIndex('events_public_start')
    .on('events')
    .columns(columns)
    .where(sql.raw<SqlBool>(PUBLIC))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await publicStart(db, ['lang', 'start_local', 'id', 'end_local']);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await publicStart(db, ['lang', 'start_local', 'id']);
}
