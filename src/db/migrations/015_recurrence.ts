import { sql, type Kysely } from 'kysely';

/**
 * Recurring events (issue 18). A series is an event row that is also its own first occurrence
 * (the original's model: the list shows the series as its first date, `post_parent` of the other
 * occurrences names it); every other occurrence is a plain event row too, so lists, filters,
 * per-day counts, feeds and pages serve them by the indexes they already have.
 *
 * - `events.series_id`: the series an occurrence belongs to (the series row names itself); null
 *   for events that do not recur.
 * - `events.recurrence_id`: the occurrence's original local start ('YYYY-MM-DD HH:MM:SS' in the
 *   series' zone, iCalendar's RECURRENCE-ID), which stays when the occurrence is moved.
 * - `events.recurrence_exception`: 1 once the occurrence was edited on its own; re-expansions and
 *   series-wide edits leave it alone.
 * - `event_recurrence`: the rule of each series, its extra and excluded dates, and how far its
 *   occurrences are materialized (`expanded_until`, local wall time); `complete` once the rule
 *   has no occurrence beyond that, so the horizon step looks only at open-ended series.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('events').addColumn('series_id', 'integer').execute();
  await db.schema.alterTable('events').addColumn('recurrence_id', 'text').execute();
  await db.schema
    .alterTable('events')
    .addColumn('recurrence_exception', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // Partial: plain events (nearly all rows) stay out of it.
  await db.schema
    .createIndex('events_series')
    .on('events')
    .columns(['series_id', 'recurrence_id'])
    .where(sql.raw<boolean>('series_id is not null'))
    .execute();
  await db.schema
    .createTable('event_recurrence')
    .addColumn('series_id', 'integer', (c) => c.primaryKey())
    .addColumn('rrule', 'text', (c) => c.notNull())
    .addColumn('rdates', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('exdates', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('expanded_until', 'text', (c) => c.notNull())
    .addColumn('complete', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('event_recurrence_open')
    .on('event_recurrence')
    .columns(['expanded_until'])
    .where(sql.raw<boolean>('complete = 0'))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('event_recurrence').execute();
  await db.schema.dropIndex('events_series').execute();
  for (const column of ['series_id', 'recurrence_id', 'recurrence_exception'])
    await db.schema.alterTable('events').dropColumn(column).execute();
}
