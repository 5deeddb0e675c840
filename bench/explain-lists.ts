import { parseArgs } from 'node:util';
import { explainHarness, explainRequest } from './explain-harness.js';

/**
 * The plans of the queries each kind of uncached list (issue 14, bench scenario 7) runs, on an
 * existing seeded database (or one it seeds): the service answers each request in process, every
 * statement it ran is captured with its parameters and printed with its time and plan
 * (`EXPLAIN QUERY PLAN` on SQLite, `EXPLAIN (ANALYZE)` on PostgreSQL, which runs it again).
 *
 *   npx tsx bench/explain-lists.ts --data-dir /tmp/m1 [--events 1000000]
 *   npx tsx bench/explain-lists.ts --database-url postgres://postgres@127.0.0.1:5432/m1
 */
const { values: args } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    'database-url': { type: 'string' },
    events: { type: 'string', default: '100000' },
  },
});
const harness = await explainHarness({
  dataDir: args['data-dir'],
  databaseUrl: args['database-url'],
  events: Number(args.events),
});
const { db, app, postgres, captured } = harness;

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
const venue = (await db.selectFrom('venues').select('id').orderBy('id').limit(1).executeTakeFirstOrThrow()).id;
const organizer = (await db.selectFrom('organizers').select('id').orderBy('id').limit(1).executeTakeFirstOrThrow()).id;
const event = (await db.selectFrom('events').select('id').orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow()).id;
const year = `start_date=${day(100)}&end_date=${day(464)}`;
const week = `start_date=${day(200)}&end_date=${day(206)}`;
// Not whole days: no per-day count holds the total.
const exact = `start_date=${day(200)}T12:00:00&end_date=${day(230)}T12:00:00&strict_dates=1`;
const kinds: [string, string][] = [
  ['default window, page 1', 'per_page=50'],
  ['a year, page 20', `per_page=50&${year}&page=20`],
  ['a week, page 3', `per_page=50&${week}&page=3`],
  ['a year, category', `per_page=50&${year}&categories=jazz`],
  ['a year, tag, page 5', `per_page=50&${year}&tags=garden-tag&page=5`],
  ['a year, venue', `per_page=50&${year}&venue=${venue}`],
  ['a year, organizer, page 10', `per_page=50&${year}&organizer=${organizer}&page=10`],
  // Deep pages read from a link's index in order (migration 025), and totals counted along it.
  ['a year, category, page 10', `per_page=50&${year}&categories=jazz&page=10`],
  ['a year, tag, page 10, newest first', `per_page=50&${year}&tags=jazz-tag&page=10&order=desc`],
  ['a year, organizer and category, page 2', `per_page=50&${year}&organizer=${organizer}&categories=jazz&page=2`],
  ['a month, organizer, exact times', `per_page=50&${exact}&organizer=${organizer}`],
  ['a month, category, exact times, page 3', `per_page=50&${exact}&categories=jazz&page=3`],
  ['a year, featured', `per_page=50&${year}&featured=true`],
  ['a year, featured and category', `per_page=50&${year}&featured=true&categories=yoga`],
  // The first venue's events all have the first tag (bench/seed.ts): both hold events of the year.
  ['a year, venue and tag', `per_page=50&${year}&venue=${venue}&tags=jazz-tag`],
  ['a year, search with hits', `per_page=50&${year}&search=robotics`],
  ['a year, search with no hit', `per_page=50&${year}&search=zzzunlikely`],
  ['a week, two-word search', `per_page=50&${week}&search=market%20event`],
  // Filters through an event's links: a protected event's are hidden (event.access.ts).
  ['venues of an event', `/cal/events/v1/venues?event=${event}`],
  ['organizers of an event', `/cal/events/v1/organizers?event=${event}`],
  ['venues with events', '/cal/events/v1/venues?has_events=true'],
  ['organizers with upcoming events', '/cal/events/v1/organizers?only_with_upcoming=true'],
];
console.log(
  `${Number(
    (
      await db
        .selectFrom('events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  )} events, ${postgres ? 'PostgreSQL' : 'SQLite'}`,
);
for (const [name, query] of [...kinds, ['single event', ''] as [string, string]]) {
  const url =
    query === '' ? `/cal/events/v1/events/${event}` : query.startsWith('/') ? query : `/cal/events/v1/events?${query}`;
  // A search's first list registers its counts (event-counts.service.ts); readers see the later ones.
  // Over another window, so that its total is not the one the count cache then holds.
  const search = /search=[^&]+/.exec(query)?.[0];
  if (search) await app.inject({ url: `/cal/events/v1/events?${search}` });
  await explainRequest({ db, app, postgres, captured }, name, url);
}
await harness.close();
