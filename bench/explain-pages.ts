import { parseArgs } from 'node:util';
import { explainHarness, explainRequest } from './explain-harness.js';

/**
 * Every statement one uncached request of each public page runs (a month, a category's, a tag's
 * and a venue's month, the list, a week, a day), with its time and plan, on a database it seeds
 * or one given, as explain-lists.ts does for the API's lists (issue 30: pages at 1 M events):
 * `npx tsx bench/explain-pages.ts --database-url postgres://postgres@127.0.0.1:5432/m1`.
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
const { db } = harness;
const venue = (await db.selectFrom('venues').select('slug').orderBy('id').limit(1).executeTakeFirstOrThrow()).slug;
const ahead = new Date(Date.now() + 60 * 86_400_000);
const month = ahead.toISOString().slice(0, 7);
const day = ahead.toISOString().slice(0, 10);
const pages: [string, string][] = [
  ['month', `/events/month/${month}/`],
  ['a category’s month', `/events/month/${month}/?category=jazz`],
  ['a tag’s month', `/events/month/${month}/?tag=garden-tag`],
  ['a venue’s month', `/events/month/${month}/?venue=${venue}`],
  ['the list', '/events/list/'],
  ['a week', `/events/week/${day}/`],
  ['a day', `/events/day/${day}/`],
];
for (const [name, url] of pages) await explainRequest(harness, name, url);
await harness.close();
