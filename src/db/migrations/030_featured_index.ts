import { sql, type Kysely, type SqlBool } from 'kysely';

/**
 * The listed featured events, by language and start: a public list with `featured=1` (a tenth of
 * the events in bench/seed.ts) walked `events_public_start` and read every event of the window to
 * keep one in ten: 500 rows for a day's first page at a million events, 7 ms warm and 27-71 ms
 * when the rows were not in the page cache. From this index the page is its own 50 rows.
 *
 * `featured` is a column as well as the condition: SQLite sizes a partial index from the whole
 * table (migration 028), so with `(lang, start_local, id)` alone it would tie with
 * `events_public_start`; the equality on a column of the index is what makes it the cheaper one.
 * The end closes it for the count of a window that is not whole days (strict dates), which the
 * per-day counts do not serve. The condition is written as the list writes it (isFeatured in
 * event-list.repository.ts: literals, not parameters), so both databases prove it applies.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('events_public_featured')
    .on('events')
    .columns(['lang', 'featured', 'start_local', 'id', 'end_local'])
    .where(sql.raw<SqlBool>("status = 'publish' AND hide_from_listings = 0 AND featured = 1"))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('events_public_featured').execute();
}
