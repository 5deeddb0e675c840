import { sql, type Kysely, type SqlBool } from 'kysely';

/**
 * The listed events that last into another day, by language and start: a month or week grid's
 * bars (and the events still going on when a list or map begins) are read from their start days,
 * and those days' one-day events, the most by far, were each read and thrown away (5,900 rows
 * for 490 bars in a month at 100,000 events). The condition is written as the pages' statements
 * write it (page.repository.ts), so both databases prove the partial index applies.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('events_public_multiday')
    .on('events')
    .columns(['lang', 'start_local', 'id'])
    .where(
      sql.raw<SqlBool>(
        "status = 'publish' AND hide_from_listings = 0 AND substr(end_local, 1, 10) > substr(start_local, 1, 10)",
      ),
    )
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('events_public_multiday').execute();
}
