import { sql, type Kysely } from 'kysely';

/**
 * The exact `total` of an event list counts every event of the date window; this index covers
 * that count for the public view (published, listed), so it reads the index and not the table.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('events_public_window')
    .on('events')
    .columns(['lang', 'start_local', 'end_local'])
    .where(sql.raw<boolean>("status = 'publish' AND hide_from_listings = 0"))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('events_public_window').execute();
}
