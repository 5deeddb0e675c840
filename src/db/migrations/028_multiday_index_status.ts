import { sql, type Kysely, type SqlBool } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * SQLite did not read the grid's bars from the partial index of events lasting several days (027):
 * its planner estimates the rows an index gives from the table's size, not the partial index's,
 * so `(lang, start_local, id)` over 83,000 events looked no better than `events_lang_status_start`
 * over all 1,000,000, and won or lost on a tie (measured: lost, reading every event of the start
 * days, 19-34 ms for a month's bars at a million events instead of 2). The index now holds every
 * column the bars statement reads (`GRID_COLUMNS` in page.repository.ts, with `status` among the
 * equalities), so it answers without reading the table and the planner prefers it on any data.
 * PostgreSQL sizes a partial index by its own rows and already took it: its index is left as it is.
 */
const CONDITION =
  "status = 'publish' AND hide_from_listings = 0 AND substr(end_local, 1, 10) > substr(start_local, 1, 10)";

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function rebuild(db: Kysely<any>, columns: string[]): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;
  await db.schema.dropIndex('events_public_multiday').execute();
  await db.schema
    .createIndex('events_public_multiday')
    .on('events')
    .columns(columns)
    .where(sql.raw<SqlBool>(CONDITION))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await rebuild(db, [
    'lang',
    'status',
    'start_local',
    'id',
    // The rest of what the bars read (GRID_COLUMNS).
    'end_local',
    'slug',
    'title',
    'all_day',
    'featured',
  ]);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await rebuild(db, ['lang', 'start_local', 'id']);
}
