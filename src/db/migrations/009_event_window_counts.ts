import { sql, type Kysely } from 'kysely';
import { createTriggers, dropTriggers, type RowTrigger } from '../triggers.js';

/**
 * The exact `total` of a public event list counts the listed published events of a date window:
 * at a million events, a year's window is half a million index entries to count on every new
 * page, month or language. These counts per (language, start day, end day) let a window of whole
 * days be counted by summing a few hundred rows instead (src/modules/events/event-counts.repository.ts).
 * Triggers keep them exact in every write's own transaction, whatever path writes the event (the
 * services, imports, recurrence, tests inserting rows); PostgreSQL's upserts lock the count row,
 * so concurrent writers count correctly.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('event_window_counts')
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('start_day', 'text', (c) => c.notNull())
    .addColumn('end_day', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_window_counts_pk', ['lang', 'start_day', 'end_day'])
    .execute();

  await createTriggers(db, WINDOW_COUNT);

  // The events already stored.
  await sql`
    insert into event_window_counts (lang, start_day, end_day, n)
    select lang, substr(start_local, 1, 10), substr(end_local, 1, 10), count(*) from events
    where status = 'publish' and hide_from_listings = 0
    group by lang, substr(start_local, 1, 10), substr(end_local, 1, 10)`.execute(db);
}

// SQLite's statements; PostgreSQL's function below says the same in its own words.
const visible = (row: 'new' | 'old') => `${row}.status = 'publish' and ${row}.hide_from_listings = 0`;
const increment = `insert into event_window_counts (lang, start_day, end_day, n)
        select new.lang, substr(new.start_local, 1, 10), substr(new.end_local, 1, 10), 1 where ${visible('new')}
        on conflict (lang, start_day, end_day) do update set n = n + 1;`;
const decrement = `update event_window_counts set n = n - 1
        where ${visible('old')} and lang = old.lang and start_day = substr(old.start_local, 1, 10) and end_day = substr(old.end_local, 1, 10);`;

/** The counts' trigger on events: a listed published event counts on its day pair. */
const WINDOW_COUNT: RowTrigger = {
  name: 'event_window_count',
  table: 'events',
  on: { insert: ` ${increment} `, delete: ` ${decrement} `, update: ` ${decrement} ${increment} ` },
  updateOf: 'status, hide_from_listings, lang, start_local, end_local',
  plpgsql: `
      begin
        if tg_op in ('UPDATE', 'DELETE') and old.status = 'publish' and old.hide_from_listings = 0 then
          update event_window_counts set n = n - 1
            where lang = old.lang and start_day = left(old.start_local, 10) and end_day = left(old.end_local, 10);
        end if;
        if tg_op in ('INSERT', 'UPDATE') and new.status = 'publish' and new.hide_from_listings = 0 then
          insert into event_window_counts (lang, start_day, end_day, n) values (new.lang, left(new.start_local, 10), left(new.end_local, 10), 1)
            on conflict (lang, start_day, end_day) do update set n = event_window_counts.n + 1;
        end if;
        return null;
      end `,
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await dropTriggers(db, WINDOW_COUNT);
  await db.schema.dropTable('event_window_counts').execute();
}
