import { sql, type Compilable, type SqlBool } from 'kysely';
import { parseArgs } from 'node:util';
import { connect, migrate } from '../src/db/connect.js';
import { dialectOf } from '../src/db/dialect.js';
import { seedSeries } from './seed-series.js';
import { seed } from './seed.js';
import { createUser } from '../src/modules/users/user.service.js';

/**
 * The query plans of the recurrence queries (issue 18) on an existing, seeded database (a 1 M
 * event one from `npm run bench -- --events 1000000 --keep`, or any): adds 10,000 weekly series
 * of 5 dates in a window of their own when it has none, then prints each query's plan and time.
 *
 *   npx tsx bench/explain-recurrence.ts --data-dir /tmp/m1-sqlite
 *   npx tsx bench/explain-recurrence.ts --database-url postgres://postgres@127.0.0.1:5432/m1
 */
const { values: args } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    'database-url': { type: 'string' },
    series: { type: 'string', default: '10000' },
    events: { type: 'string', default: '100000' },
  },
});
const storage = await connect({ dataDir: args['data-dir'] ?? './data', databaseUrl: args['database-url'] });
const db = storage.db;
await migrate(db);
const postgres = dialectOf(db) === 'postgres';
const firstUser = await db.selectFrom('users').select('id').orderBy('id').limit(1).executeTakeFirst();
const author = firstUser?.id ?? (await createUser(db, { username: 'explain', role: 'administrator' })).user.id;
// An empty database gets plain events first, so the plans are those of a calendar, not of the series alone.
if (!(await db.selectFrom('events').select('id').limit(1).executeTakeFirst()))
  await seed(db, Number(args.events), author);
const existing = Number(
  (
    await db
      .selectFrom('event_recurrence')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n,
);
if (existing === 0) {
  const started = performance.now();
  await seedSeries(db, Number(args.series), 5, author, 2045);
  if (postgres) await sql`analyze`.execute(db);
  console.log(`seeded ${args.series} series in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
const total = Number(
  (
    await db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow()
  ).n,
);
const series = await db
  .selectFrom('event_recurrence')
  .select('series_id')
  .orderBy('series_id', 'desc')
  .limit(20)
  .execute();
const one = series[0]!.series_id;
const ids = series.map((s) => s.series_id);
const row = await db.selectFrom('events').selectAll().where('id', '=', one).executeTakeFirstOrThrow();
console.log(`${total} events, ${postgres ? 'PostgreSQL' : 'SQLite'}`);

const queries: [string, Compilable<unknown>][] = [
  [
    'live occurrences of a series',
    db
      .selectFrom('events')
      .selectAll()
      .where('series_id', '=', one)
      .where('id', '<>', one)
      .where('status', '<>', 'trash')
      .orderBy('recurrence_id')
      .orderBy('id'),
  ],
  [
    'exceptions of a page of series',
    db
      .selectFrom('events')
      .select(['id', 'series_id', 'recurrence_id'])
      .where('series_id', 'in', ids)
      .where('recurrence_exception', '=', 1)
      .where('status', '<>', 'trash')
      .orderBy('recurrence_id'),
  ],
  ['rules of a page of series', db.selectFrom('event_recurrence').selectAll().where('series_id', 'in', ids)],
  [
    'series due for the horizon step',
    db
      .selectFrom('event_recurrence')
      .select('series_id')
      .where('complete', '=', 0)
      .where('expanded_until', '<', '2100-01-01')
      .orderBy('expanded_until')
      .limit(50),
  ],
  [
    'translated series of a group',
    db
      .selectFrom('events')
      .select('id')
      .where('trid', '=', row.trid)
      .where('id', '<>', one)
      .whereRef('series_id', '=', 'id'),
  ],
  [
    'occurrence slugs taken',
    db
      .selectFrom('events')
      .select('slug')
      .where('lang', '=', 'en')
      .where('slug', 'in', [`${row.slug}-2045-01-08`, `${row.slug}-2045-01-15`])
      .where('status', '<>', 'trash'),
  ],
  [
    'next dates for the event page',
    db
      .selectFrom('events')
      .select(['id', 'slug', 'start_local'])
      .where('series_id', '=', one)
      .where(sql<SqlBool>`status = 'publish'`)
      .where('hide_from_listings', '=', 0)
      .where('end_local', '>=', '2045-01-01')
      .where('id', '<>', one)
      .orderBy('start_local')
      .limit(5),
  ],
  [
    'feed: exceptions and hidden dates of series',
    db
      .selectFrom('events')
      .selectAll()
      .where('series_id', 'in', ids)
      .where('status', '<>', 'trash')
      .where((eb) =>
        eb.or([eb('recurrence_exception', '=', 1), eb('status', '<>', 'publish'), eb('hide_from_listings', '=', 1)]),
      )
      .orderBy('recurrence_id'),
  ],
  [
    'list with hide_subsequent_recurrences (a year)',
    db
      .selectFrom('events')
      .select('id')
      .where('lang', '=', 'en')
      .where(sql<SqlBool>`hide_from_listings = 0`)
      .where(sql<SqlBool>`status = 'publish'`)
      .where('start_local', '>=', '2045-01-01 00:00:00')
      .where('start_local', '<=', '2046-01-01 23:59:59')
      .where(
        sql<SqlBool>`(events.series_id is null or not exists (select 1 from events o where o.series_id = events.series_id and ${sql.raw(postgres ? '' : '+')}o.lang = events.lang and o.status = events.status and o.hide_from_listings = events.hide_from_listings and ${sql.raw(postgres ? '' : '+')}o.start_local >= '2045-01-01 00:00:00' and (${sql.raw(postgres ? '' : '+')}o.start_local < events.start_local or (o.start_local = events.start_local and o.id < events.id))))`,
      )
      .orderBy('start_local')
      .orderBy('id')
      .limit(50),
  ],
];

let placeholder = 0;
for (const [name, query] of queries) {
  const compiled = query.compile();
  const explain = postgres ? `explain (analyze, costs off) ${compiled.sql}` : `explain query plan ${compiled.sql}`;
  const plan = await sql
    .raw(
      explain
        .replace(/\$(\d+)/g, (_, n: string) => literal(compiled.parameters[Number(n) - 1]))
        .replace(/\?/g, () => literal(compiled.parameters[placeholder++])),
    )
    .execute(db);
  placeholder = 0;
  const started = performance.now();
  await db.executeQuery(compiled);
  const ms = performance.now() - started;
  console.log(`\n## ${name} (${ms.toFixed(2)} ms)`);
  for (const line of plan.rows as Record<string, unknown>[])
    console.log(`  ${String(line['QUERY PLAN'] ?? line['detail'])}`);
}
function literal(value: unknown): string {
  return typeof value === 'number' ? String(value) : `'${String(value).replace(/'/g, "''")}'`;
}
await storage.close();
