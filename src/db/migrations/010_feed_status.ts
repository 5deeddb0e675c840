import { sql, type Kysely } from 'kysely';

/**
 * `events.revision`: a counter every update and trash of the event bumps, the iCalendar SEQUENCE
 * subscribed calendars compare to know a VEVENT changed.
 *
 * `events.trashed_from`: the status an event had when it went to the trash (set by trashEvent).
 * The calendar feeds list an event trashed after publication, while it is in their window, as a
 * STATUS:CANCELLED VEVENT, so subscribed calendars drop it; null for events never trashed, or
 * trashed before this column existed (nothing is assumed about those). A partial index over the
 * trashed events' window serves the feeds' look-up of them (a few rows, not the whole window).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('events').addColumn('trashed_from', 'text').execute();
  await db.schema
    .alterTable('events')
    .addColumn('revision', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('events_trashed_window')
    .on('events')
    .columns(['lang', 'start_local'])
    .where(sql.raw<boolean>("status = 'trash'"))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('events_trashed_window').execute();
  await db.schema.alterTable('events').dropColumn('trashed_from').execute();
  await db.schema.alterTable('events').dropColumn('revision').execute();
}
