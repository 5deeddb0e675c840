import { sql } from 'kysely';
import { MIGRATIONS } from '../src/db/connect.js';
import { dialectOf } from '../src/db/dialect.js';
import type { Db, EventTable, OrganizerTable, VenueTable } from '../src/db/database.js';
import { nowUtc } from '../src/lib/clock.js';
import { recountTerms } from '../src/modules/terms/term.embed.js';

/**
 * Seeds a realistic calendar straight through Kysely in batched transactions: venues, organizers,
 * categories, tags and N events spread over the next two years, most with a venue, an organizer
 * and a couple of terms. Returns ids the scenarios use.
 *
 * The tables that triggers derive from events (per-day counts, search indexes) are dropped during
 * the load and made again after it by their own migrations, which count what is stored in one
 * statement each: a million events load in minutes rather than paying every trigger a million
 * times. The change log (016) keeps its triggers: bench 13 reads it.
 */
export interface Seeded {
  categorySlug: string;
  eventId: number;
  categorySlugs: string[];
  tagSlugs: string[];
  venueIds: number[];
  organizerIds: number[];
}

const WORDS = [
  'jazz',
  'market',
  'workshop',
  'concert',
  'lecture',
  'festival',
  'yoga',
  'film',
  'tasting',
  'meetup',
  'charity',
  'theatre',
  'poetry',
  'robotics',
  'garden',
];
const CITIES = [
  ['Paris', 'France', 'Ile-de-France'],
  ['Austin', 'United States', 'TX'],
  ['Rome', 'Italy', 'Lazio'],
  ['Berlin', 'Germany', 'Berlin'],
  ['Madrid', 'Spain', 'Madrid'],
];
const BATCH = 500;
/** Events per transaction: several batches, so a commit (a WAL sync) is paid once per 5,000. */
const PER_TRANSACTION = 5000;
/** Migrations whose tables or indexes are derived from the events, newest first (the order to undo them). */
const DERIVED = [
  '033_search_index_queue',
  '032_search_words_folding',
  '029_search_counts_sliced',
  '021_protected_events',
  '019_search_counts',
  '018_event_facet_window_counts',
  '013_event_term_window_counts',
  '012_search_fts',
  '009_event_window_counts',
  '007_search_trigram',
];

function pick<T>(list: readonly T[], n: number): T {
  return list[n % list.length]!;
}

async function allocate(db: Db, type: 'event' | 'venue' | 'organizer', count: number): Promise<number[]> {
  const rows = await db
    .insertInto('posts')
    .values(Array.from({ length: count }, () => ({ type })))
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

function common(id: number, title: string, author: number, now: string) {
  return {
    id,
    lang: 'en',
    trid: id,
    author,
    status: 'publish',
    password: '',
    slug: title.toLowerCase().replace(/[^a-z0-9]+/g, '-'),
    title,
    description: `${title}: a description with enough words to be realistic for a calendar listing.`,
    excerpt: '',
    date: now,
    date_utc: now,
    modified: now,
    modified_utc: now,
    image_id: null,
  };
}

export async function seed(db: Db, events: number, author: number): Promise<Seeded> {
  const now = nowUtc();
  const venueIds = await allocate(db, 'venue', 200);
  const venues: VenueTable[] = venueIds.map((id, i) => {
    const [city, country, region] = pick(CITIES, i);
    return {
      ...common(id, `Venue ${i} ${city}`, author, now),
      address: `${i} Main Street`,
      city,
      country,
      province: region,
      state: region,
      zip: String(10000 + i),
      phone: `555-${1000 + i}`,
      website: `https://venue${i}.example.com`,
      stateprovince: region,
      show_map: 1,
      show_map_link: 1,
      geo_lat: null,
      geo_lng: null,
    };
  });
  for (let i = 0; i < venues.length; i += BATCH)
    await db
      .insertInto('venues')
      .values(venues.slice(i, i + BATCH))
      .execute();
  const organizerIds = await allocate(db, 'organizer', 100);
  const organizers: OrganizerTable[] = organizerIds.map((id, i) => ({
    ...common(id, `Organizer ${i}`, author, now),
    phone: `555-${2000 + i}`,
    website: `https://org${i}.example.com`,
    email: `org${i}@example.com`,
  }));
  await db.insertInto('organizers').values(organizers).execute();
  const terms = await db
    .insertInto('terms')
    .values([
      ...WORDS.map((w) => ({
        taxonomy: 'cal_events_cat' as const,
        lang: 'en',
        trid: 0,
        name: `${w[0]!.toUpperCase()}${w.slice(1)}`,
        slug: w,
        description: `${w} events`,
        parent: 0,
        count: 0,
      })),
      ...WORDS.map((w) => ({
        taxonomy: 'post_tag' as const,
        lang: 'en',
        trid: 0,
        name: `${w}-tag`,
        slug: `${w}-tag`,
        description: '',
        parent: 0,
        count: 0,
      })),
    ])
    .returning(['id', 'taxonomy'])
    .execute();
  await db
    .updateTable('terms')
    .set((eb) => ({ trid: eb.ref('id') }))
    .execute();
  const categories = terms.filter((t) => t.taxonomy === 'cal_events_cat').map((t) => t.id);
  const tags = terms.filter((t) => t.taxonomy === 'post_tag').map((t) => t.id);

  const start = Date.now();
  let firstEvent = 0;
  for (const name of DERIVED) await MIGRATIONS[name]!.down!(db);
  for (let chunk = 0; chunk < events; chunk += PER_TRANSACTION) {
    await db.transaction().execute(async (trx) => {
      for (let offset = chunk; offset < Math.min(events, chunk + PER_TRANSACTION); offset += BATCH) {
        const count = Math.min(BATCH, events - offset);
        const ids = await allocate(trx, 'event', count);
        firstEvent ||= ids[0]!;
        const rows: EventTable[] = ids.map((id, j) => {
          const n = offset + j;
          const startAt = new Date(start + ((n * 37) % (730 * 24)) * 3_600_000 + 86_400_000);
          startAt.setUTCMinutes(0, 0, 0);
          const local = startAt.toISOString().slice(0, 19).replace('T', ' ');
          const end = new Date(startAt.getTime() + 2 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
          return {
            ...common(id, `${pick(WORDS, n)} ${pick(WORDS, n * 7 + 3)} event ${n}`, author, now),
            all_day: 0,
            start_local: local,
            end_local: end,
            start_utc: local,
            end_utc: end,
            timezone: 'UTC',
            timezone_abbr: 'UTC',
            cost: JSON.stringify([String(5 + (n % 50))]),
            currency_symbol: '',
            currency_code: '',
            currency_position: '',
            website: null,
            show_map: 1,
            show_map_link: 1,
            hide_from_listings: 0,
            sticky: 0,
            featured: n % 10 === 0 ? 1 : 0,
            venue_id: pick(venueIds, n),
            post_parent: null,
          };
        });
        await trx.insertInto('events').values(rows).execute();
        await trx
          .insertInto('event_organizers')
          .values(ids.map((id, j) => ({ event_id: id, organizer_id: pick(organizerIds, offset + j), position: 0 })))
          .execute();
        await trx
          .insertInto('event_terms')
          .values(
            ids.flatMap((id, j) => [
              { event_id: id, term_id: pick(categories, offset + j) },
              { event_id: id, term_id: pick(tags, (offset + j) * 3) },
            ]),
          )
          .execute();
      }
    });
  }
  for (const name of [...DERIVED].reverse()) await MIGRATIONS[name]!.up(db);
  await recountTerms(
    db,
    terms.map((t) => t.id),
  );
  // The planner's statistics and PostgreSQL's visibility map, as they are soon after a bulk load
  // in production (autovacuum, SQLite's own optimize): without them the first minutes of a
  // million events are planned as an empty database.
  await sql.raw(dialectOf(db) === 'postgres' ? 'vacuum analyze' : 'analyze').execute(db);
  return {
    categorySlug: WORDS[0]!,
    eventId: firstEvent,
    categorySlugs: [...WORDS],
    tagSlugs: WORDS.map((w) => `${w}-tag`),
    venueIds,
    organizerIds,
  };
}
