import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';
import { createTriggers, dropTriggers, type RowTrigger } from '../triggers.js';
import { LISTED, type CountedEvents } from './013_event_term_window_counts.js';

/**
 * 009's and 013's per-day counts, per list facet: how many listed published events of a language
 * start and end on each pair of days, by venue, by organizer, featured, and featured with one
 * venue, organizer or term. A public list of whole days filtered by these (`venue=5`,
 * `organizer=7`, `featured=1`, `featured=1&categories=jazz`…) is then counted by summing a few
 * hundred rows, not by reading every event of the window (src/modules/events/event-counts.repository.ts).
 *
 * `facet` names what `facet_id` is: `venue` and `featured_venue` a venue, `organizer` and
 * `featured_organizer` an organizer, `featured_term` a category or tag; `featured` has id 0.
 *
 * Triggers keep them in every write's transaction, as 013 does: a change of an event's
 * visibility, dates, language, venue or featured flag takes its facets away and adds them again;
 * an organizer or term linked or unlinked counts when its event is listed and published; an event
 * deleted outright takes its counts away before its links go (their own triggers then find no event).
 * The partial index `events_public_venue` serves the row counts the facets do not cover (a venue
 * with a tag), from the venue's public events of the window only.
 */

/** A select of (facet, facet_id) for the event `row`: every count it belongs to. */
const facetsOf = (row: string) => `
  select 'venue' as facet, ${row}.venue_id as facet_id where ${row}.venue_id is not null
  union all select 'featured', 0 where ${row}.featured = 1
  union all select 'featured_venue', ${row}.venue_id where ${row}.featured = 1 and ${row}.venue_id is not null
  union all select 'organizer', eo.organizer_id from event_organizers eo where eo.event_id = ${row}.id
  union all select 'featured_organizer', eo.organizer_id from event_organizers eo where eo.event_id = ${row}.id and ${row}.featured = 1
  union all select 'featured_term', et.term_id from event_terms et where et.event_id = ${row}.id and ${row}.featured = 1`;

const days = (row: string) =>
  `substr(${row}.start_local, 1, 10) as start_day, substr(${row}.end_local, 1, 10) as end_day`;

/** The upsert's +1 (PostgreSQL wants the column qualified, SQLite reads it unqualified). */
const plusOne = (postgres: boolean) =>
  `on conflict (lang, facet, facet_id, start_day, end_day) do update set n = ${postgres ? 'event_facet_window_counts.n' : 'n'} + 1`;

/**
 * The facets a link row `link` (new or old) gives its event: (facet, facet_id, featured_only),
 * the last for the facets that count only when the event is featured.
 */
const LINK_FACETS = {
  event_organizers: (link: string) => `select 'organizer' as facet, ${link}.organizer_id as facet_id, 0 as featured_only
    union all select 'featured_organizer', ${link}.organizer_id, 1`,
  event_terms: (link: string) => `select 'featured_term' as facet, ${link}.term_id as facet_id, 1 as featured_only`,
};

/** The SQL of the counts of `counted` events (migration 021 counts other events than this one did). */
function statements({ visible }: CountedEvents) {
  return {
    /** +1 for each (facet, facet_id) of `facets`, for the event `row` when it counts. */
    add: (
      row: string,
      facets: string,
      postgres: boolean,
    ) => `insert into event_facet_window_counts (lang, facet, facet_id, start_day, end_day, n)
      select ${row}.lang, f.facet, f.facet_id, ${days(row)}, 1 from (${facets}) f where ${visible(row)}
      ${plusOne(postgres)};`,
    /** −1 for each (facet, facet_id) of `facets`, for the event `row` when it counted. */
    remove: (row: string, facets: string) => `update event_facet_window_counts set n = n - 1
      where ${visible(row)} and lang = ${row}.lang and start_day = substr(${row}.start_local, 1, 10) and end_day = substr(${row}.end_local, 1, 10)
        and (facet, facet_id) in (select f.facet, f.facet_id from (${facets}) f);`,
    /** The (lang, facet, facet_id, start_day, end_day) rows of a link's event e, when it counts. */
    linkRows: (
      link: 'new' | 'old',
      table: keyof typeof LINK_FACETS,
    ) => `select e.lang, f.facet, f.facet_id, ${days('e')}
  from events e join (${LINK_FACETS[table](link)}) f on f.featured_only = 0 or e.featured = 1
  where e.id = ${link}.event_id and ${visible('e')}`,
    /** Every stored event's facet rows, for the counts of the events already there. */
    allRows: `
  select e.lang as lang, 'venue' as facet, e.venue_id as facet_id, ${days('e')} from events e where e.venue_id is not null and ${visible('e')}
  union all select e.lang, 'featured', 0, ${days('e')} from events e where e.featured = 1 and ${visible('e')}
  union all select e.lang, 'featured_venue', e.venue_id, ${days('e')} from events e where e.featured = 1 and e.venue_id is not null and ${visible('e')}
  union all select e.lang, 'organizer', eo.organizer_id, ${days('e')} from event_organizers eo join events e on e.id = eo.event_id where ${visible('e')}
  union all select e.lang, 'featured_organizer', eo.organizer_id, ${days('e')} from event_organizers eo join events e on e.id = eo.event_id where e.featured = 1 and ${visible('e')}
  union all select e.lang, 'featured_term', et.term_id, ${days('e')} from event_terms et join events e on e.id = et.event_id where e.featured = 1 and ${visible('e')}`,
  };
}

/** Columns whose change moves an event's facet counts, besides those `counted` reads. */
const FACET_COLUMNS = 'venue_id, featured';

/** The triggers that keep the facet counts of `counted` events. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function createFacetCountTriggers(db: Kysely<any>, counted: CountedEvents): Promise<void> {
  await createTriggers(db, ...facetCountTriggers(dialectOf(db) === 'postgres', counted));
}

/**
 * An organizer or term linked or unlinked counts when its event does; an event written takes its
 * facets away and adds them again, and deleted, takes them away before its links go.
 */
function facetCountTriggers(postgres: boolean, counted: CountedEvents): RowTrigger[] {
  const { add, remove, linkRows } = statements(counted);
  const linkInsert = (
    table: keyof typeof LINK_FACETS,
  ) => `insert into event_facet_window_counts (lang, facet, facet_id, start_day, end_day, n)
      select r.*, 1 from (${linkRows('new', table)}) r where true ${plusOne(postgres)};`;
  const linkDelete = (table: keyof typeof LINK_FACETS) => `update event_facet_window_counts set n = n - 1
      where (lang, facet, facet_id, start_day, end_day) in (${linkRows('old', table)});`;
  const links = (['event_organizers', 'event_terms'] as const).map((table): RowTrigger => ({
    name: `${table}_facet_count`,
    table,
    on: { insert: ` ${linkInsert(table)} `, delete: ` ${linkDelete(table)} ` },
    plpgsql: `
        begin
          if tg_op = 'INSERT' then ${linkInsert(table)} else ${linkDelete(table)} end if;
          return null;
        end `,
  }));
  return [
    ...links,
    {
      name: 'event_facet_count',
      table: 'events',
      // An event inserted has no links yet; they count through their own trigger.
      on: {
        insert: ` ${add('new', facetsOf('new'), postgres)} `,
        update: `
        ${remove('old', facetsOf('old'))}
        ${add('new', facetsOf('new'), postgres)}
      `,
        delete: ` ${remove('old', facetsOf('old'))} `,
      },
      updateOf: `${counted.columns}, ${FACET_COLUMNS}`,
      before: ['delete'],
      plpgsql: `
      begin
        if tg_op in ('UPDATE', 'DELETE') then ${remove('old', facetsOf('old'))} end if;
        if tg_op in ('INSERT', 'UPDATE') then ${add('new', facetsOf('new'), postgres)} end if;
        return case when tg_op = 'DELETE' then old else null end;
      end `,
    },
  ];
}

/** The counts of the events and links already stored, for `counted` events (the table is empty). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function fillFacetCounts(db: Kysely<any>, counted: CountedEvents): Promise<void> {
  await sql
    .raw(
      `
    insert into event_facet_window_counts (lang, facet, facet_id, start_day, end_day, n)
    select r.lang, r.facet, r.facet_id, r.start_day, r.end_day, count(*) from (${statements(counted).allRows}) r
    group by r.lang, r.facet, r.facet_id, r.start_day, r.end_day`,
    )
    .execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function dropFacetCountTriggers(db: Kysely<any>): Promise<void> {
  // Whatever events they counted: a drop reads only their names.
  await dropTriggers(db, ...facetCountTriggers(dialectOf(db) === 'postgres', LISTED));
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('event_facet_window_counts')
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('facet', 'text', (c) => c.notNull())
    .addColumn('facet_id', 'integer', (c) => c.notNull())
    .addColumn('start_day', 'text', (c) => c.notNull())
    .addColumn('end_day', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_facet_window_counts_pk', ['lang', 'facet', 'facet_id', 'start_day', 'end_day'])
    .execute();
  await db.schema
    .createIndex('events_public_venue')
    .on('events')
    .columns(['venue_id', 'lang', 'start_local', 'end_local'])
    .where(sql.raw<boolean>("status = 'publish' AND hide_from_listings = 0"))
    .execute();
  await createFacetCountTriggers(db, LISTED);
  await fillFacetCounts(db, LISTED);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await dropFacetCountTriggers(db);
  await db.schema.dropIndex('events_public_venue').execute();
  await db.schema.dropTable('event_facet_window_counts').execute();
}
