import { parseArgs } from 'node:util';
import { explainHarness, explainStatement } from './explain-harness.js';

/**
 * The plans and times of the sitemaps' statements on a large seeded calendar (or one it seeds):
 * the index (a language's files found by stepping over its keys) and a file from the middle of
 * the events, each answered in process with the statements captured and explained
 * (`EXPLAIN QUERY PLAN` on SQLite, `EXPLAIN (ANALYZE)` on PostgreSQL, which runs them again).
 *
 *   npx tsx bench/explain-sitemaps.ts --data-dir /tmp/m1 [--events 1000000]
 *   npx tsx bench/explain-sitemaps.ts --database-url postgres://postgres@127.0.0.1:5432/m1
 */
const { values: args } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    'database-url': { type: 'string' },
    events: { type: 'string', default: '1000000' },
  },
});
const harness = await explainHarness({
  dataDir: args['data-dir'],
  databaseUrl: args['database-url'],
  events: Number(args.events),
});
const { db, app, postgres, captured } = harness;
/** One of each distinct statement, explained at the end. */
const pending: typeof captured = [];

const count = await db
  .selectFrom('events')
  .select((eb) => eb.fn.countAll<number>().as('n'))
  .executeTakeFirstOrThrow();
console.log(`${Number(count.n)} events, ${postgres ? 'PostgreSQL' : 'SQLite'}`);

const index = await app.inject({ url: '/sitemap.xml' });
const files = [...index.body.matchAll(/<loc>[^<]*\/(sitemap-en-\d+\.xml)<\/loc>/g)].map((m) => m[1]!);
report('index', index.statusCode, `${files.length} English files`);
const middle = files[Math.floor(files.length / 2)] ?? 'sitemap-en-2.xml';
const file = await app.inject({ url: `/${middle}` });
report(`file ${middle}`, file.statusCode, `${(file.rawPayload.length / 1e6).toFixed(1)} MB`);
const brotli = await app.inject({ url: `/${middle}`, headers: { 'accept-encoding': 'br' } });
console.log(`\n${middle} with brotli: ${(brotli.rawPayload.length / 1e6).toFixed(2)} MB`);

function report(name: string, status: number, what: string): void {
  const statements = captured
    .splice(0)
    .filter((q) => /^\s*select/i.test(q.sql) && !/from "settings"|data_version/.test(q.sql));
  const total = statements.reduce((sum, q) => sum + q.ms, 0);
  console.log(`\n## ${name}: ${status}, ${what}, ${statements.length} statements, ${total.toFixed(0)} ms in SQL`);
  // One of each distinct statement: the steps of a plan differ only by their parameters.
  const seen = new Set<string>();
  for (const q of statements) {
    if (seen.has(q.sql)) continue;
    seen.add(q.sql);
    pending.push(q);
  }
}
for (const q of pending) {
  console.log('');
  await explainStatement({ db, postgres }, q, 220);
}
await harness.close();
