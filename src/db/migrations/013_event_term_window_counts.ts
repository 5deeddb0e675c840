import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';
import { createTriggers, dropTriggers, type RowTrigger } from '../triggers.js';

/**
 * 009's per-day counts, per category or tag: how many listed published events of a language,
 * linked to a term, start and end on each pair of days. A public list of whole days filtered by
 * one term (`categories=jazz`) is counted by summing them, instead of joining every event of the
 * window with its terms (a hash join over the table at a million events). Triggers on both
 * tables keep them in every write's transaction: a link made or removed counts when its event is
 * listed and published; an event that changes status, listing or dates moves the counts of all
 * its terms; an event deleted outright takes its counts away before its links go (on cascade,
 * the links' own trigger then finds no event and does nothing).
 */
/** Which events a count holds, as SQL on the event row named `row`, and the event columns it reads. */
export interface CountedEvents {
  visible: (row: string) => string;
  columns: string;
}

/** As this migration made them: the listed published events (021 leaves protected ones out). */
export const LISTED: CountedEvents = {
  visible: (row) => `${row}.status = 'publish' and ${row}.hide_from_listings = 0`,
  columns: 'status, hide_from_listings, lang, start_local, end_local',
};

/** The triggers that keep the counts of `counted` events (migration 021 makes them again with other events). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function createTermCountTriggers(db: Kysely<any>, counted: CountedEvents): Promise<void> {
  await createTriggers(db, ...termCountTriggers(dialectOf(db) === 'postgres', counted));
}

/**
 * A link made or removed counts for its event's terms; an event written moves the counts of its
 * terms, and deleted, takes them away before its links go.
 */
function termCountTriggers(postgres: boolean, counted: CountedEvents): RowTrigger[] {
  const { visible, columns } = counted;
  // PostgreSQL wants the column qualified in an upsert; SQLite reads it unqualified (as 009 does).
  const plusOne = `on conflict (lang, term_id, start_day, end_day) do update set n = ${postgres ? 'event_term_window_counts.n' : 'n'} + 1;`;
  /** +1 for the terms `terms` (a select of term_id) of event `row`, when it is visible. */
  const add = (
    row: string,
    terms: string,
  ) => `insert into event_term_window_counts (lang, term_id, start_day, end_day, n)
      select ${row}.lang, t.term_id, substr(${row}.start_local, 1, 10), substr(${row}.end_local, 1, 10), 1 from (${terms}) t where ${visible(row)}
      ${plusOne}`;
  const remove = (row: string, terms: string) => `update event_term_window_counts set n = n - 1
      where ${visible(row)} and lang = ${row}.lang and term_id in (${terms})
        and start_day = substr(${row}.start_local, 1, 10) and end_day = substr(${row}.end_local, 1, 10);`;

  const eventTerms = (row: string) => `select term_id from event_terms where event_id = ${row}.id`;
  return [
    {
      name: 'event_term_window_count_link',
      table: 'event_terms',
      on: {
        insert: `
        insert into event_term_window_counts (lang, term_id, start_day, end_day, n)
          select e.lang, new.term_id, substr(e.start_local, 1, 10), substr(e.end_local, 1, 10), 1 from events e where e.id = new.event_id and ${visible('e')}
          ${plusOne}
      `,
        delete: `
        update event_term_window_counts set n = n - 1
          where (lang, term_id, start_day, end_day) in (select e.lang, old.term_id, substr(e.start_local, 1, 10), substr(e.end_local, 1, 10) from events e where e.id = old.event_id and ${visible('e')});
      `,
      },
      plpgsql: `
      declare e events%rowtype;
      begin
        if tg_op = 'INSERT' then
          select * into e from events where id = new.event_id;
          if found then ${add('e', 'select new.term_id as term_id')} end if;
        else
          select * into e from events where id = old.event_id;
          if found then ${remove('e', 'select old.term_id')} end if;
        end if;
        return null;
      end `,
    },
    {
      name: 'event_term_window_count_event',
      table: 'events',
      on: {
        update: `
        ${remove('old', eventTerms('old'))}
        ${add('new', eventTerms('new'))}
      `,
        delete: `
        ${remove('old', eventTerms('old'))}
      `,
      },
      updateOf: columns,
      before: ['delete'],
      plpgsql: `
      begin
        ${remove('old', eventTerms('old'))}
        if tg_op = 'UPDATE' then ${add('new', eventTerms('new'))} end if;
        return case when tg_op = 'DELETE' then old else null end;
      end `,
    },
  ];
}

/** The counts of the links already stored, for `counted` events (the table is empty). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function fillTermCounts(db: Kysely<any>, counted: CountedEvents): Promise<void> {
  await sql
    .raw(
      `
    insert into event_term_window_counts (lang, term_id, start_day, end_day, n)
    select e.lang, et.term_id, substr(e.start_local, 1, 10), substr(e.end_local, 1, 10), count(*)
    from event_terms et join events e on e.id = et.event_id
    where ${counted.visible('e')}
    group by e.lang, et.term_id, substr(e.start_local, 1, 10), substr(e.end_local, 1, 10)`,
    )
    .execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function dropTermCountTriggers(db: Kysely<any>): Promise<void> {
  // Whatever events they counted: a drop reads only their names.
  await dropTriggers(db, ...termCountTriggers(dialectOf(db) === 'postgres', LISTED));
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('event_term_window_counts')
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('term_id', 'integer', (c) => c.notNull())
    .addColumn('start_day', 'text', (c) => c.notNull())
    .addColumn('end_day', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_term_window_counts_pk', ['lang', 'term_id', 'start_day', 'end_day'])
    .execute();
  await createTermCountTriggers(db, LISTED);
  await fillTermCounts(db, LISTED);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await dropTermCountTriggers(db);
  await db.schema.dropTable('event_term_window_counts').execute();
}
