import { spawn } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { cpuSeconds, freePort, startArgs, waitReady } from './service.js';

/**
 * The resident memory of the built service on an existing seeded SQLite database (issue 30: at
 * 100 k events, after serving pages and lists, at most 150 MB): starts it as `npm start` does
 * (its flags), asks it a fixed mix of distinct public pages (months, filtered months, days, weeks, lists,
 * category, venue, organizer and event pages) and then of distinct API lists (windows, pages,
 * filters, searches, single events), each body in the coding a browser takes (br or gzip, so the
 * page cache keeps coded bodies too), then the lists again in the other coding, and prints the RSS and the V8
 * heap after each phase. The service may write (migrations, search registrations): point it at a
 * copy of a shared database.
 *
 *   npx tsx bench/memory.ts --data-dir /tmp/m100k [--server dist/src/server.js] [--concurrency 2] [--sample 4] [--idle 30]
 */
const { values: args } = parseArgs({
  options: {
    'data-dir': { type: 'string' },
    server: { type: 'string', default: 'dist/src/server.js' },
    concurrency: { type: 'string', default: '2' },
    'node-option': { type: 'string', multiple: true, default: [] },
    /** Seconds without requests after the last phase, then a last reading (0: none). */
    idle: { type: 'string', default: '30' },
    /** Every nth URL of each phase only (a large database's pages are slow to ask for one by one). */
    sample: { type: 'string', default: '1' },
  },
});
if (!args['data-dir']) throw new Error('--data-dir is required');

const port = await freePort();
// The probe answers the parent's messages with the process's memory (a full GC first when asked).
const probe = path.join(path.dirname(new URL(import.meta.url).pathname), 'memory-probe.mjs');
// `npm start`'s flags (bench/service.ts), with the server given.
const flags = startArgs().filter((arg) => arg.startsWith('-'));
const child = spawn(
  process.execPath,
  [...flags, '--expose-gc', '--import', probe, ...args['node-option'], args.server],
  {
    // The overload guard off: on a busy machine it would refuse requests, and their work would not be measured.
    env: {
      ...process.env,
      DATA_DIR: args['data-dir'],
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      CAL_MAX_EVENT_LOOP_DELAY_MS: '0',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  },
);
const base = `http://127.0.0.1:${port}`;
const agent = new http.Agent({ keepAlive: true, maxSockets: Number(args.concurrency) });

interface Memory {
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** Resident bytes of the malloc heap, of other anonymous mappings (V8's heap, malloc's arenas), of files. */
  brk: number;
  anonymous: number;
  files: number;
  /** The process's threads (/proc/self/status). */
  threads: number;
  /** V8's heap by space: committed and used bytes. */
  spaces: Record<string, { size: number; used: number }>;
}

function memory(gc: boolean): Promise<Memory> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as Memory));
    child.send({ gc });
  });
}

const failures: string[] = [];
function get(url: string, coding: string): Promise<void> {
  return new Promise((resolve) => {
    const request = http.get(`${base}${url}`, { agent, headers: { 'accept-encoding': coding } }, (response) => {
      if ((response.statusCode ?? 500) >= 400) failures.push(`${response.statusCode} ${url}`);
      response.resume().on('end', resolve);
    });
    request.on('error', (error) => (failures.push(`${error.message} ${url}`), resolve()));
  });
}

/** `other`: each URL in the other coding than the first time, so the page cache keeps both. */
async function run(all: string[], other: boolean): Promise<number> {
  const urls = all.filter((_, i) => i % Number(args.sample) === 0);
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < urls.length) {
      const i = next++;
      await get(urls[i]!, (i % 2 === 0) !== other ? 'gzip, deflate, br' : 'gzip');
    }
  };
  await Promise.all(Array.from({ length: Number(args.concurrency) }, worker));
  return Math.round((performance.now() - started) / 1000);
}

async function json<T>(url: string): Promise<T> {
  return (await (await fetch(`${base}${url}`)).json()) as T;
}

const rows: [string, Memory, Memory | null][] = [];
const mb = (bytes: number) => (bytes / 1048576).toFixed(1);
/** Each phase's wall time, and the service's CPU time, which a busy machine disturbs less. */
async function phase(name: string, urls: string[], other = false): Promise<void> {
  const cpu = cpuSeconds(child.pid!);
  const seconds = await run(urls, other);
  const used = (cpuSeconds(child.pid!) - cpu).toFixed(1);
  rows.push([
    `${name} (${Math.ceil(urls.length / Number(args.sample))} URLs, ${seconds} s, CPU ${used} s)`,
    await memory(false),
    await memory(true),
  ]);
}

try {
  await waitReady(`${base}/`, child);
  rows.push(['started', await memory(false), null]);

  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const month = (offset: number) => {
    const d = new Date();
    d.setUTCDate(1);
    d.setUTCMonth(d.getUTCMonth() + offset);
    return d.toISOString().slice(0, 7);
  };
  const range = (n: number) => Array.from({ length: n }, (_, i) => i);
  type Slugged = { slug: string; id: number };
  const categories = (await json<{ categories: Slugged[] }>('/cal/events/v1/categories?per_page=100')).categories.map(
    (c) => c.slug,
  );
  const tags = (await json<{ tags: Slugged[] }>('/cal/events/v1/tags?per_page=100')).tags.map((t) => t.slug);
  const venues = (await json<{ venues: Slugged[] }>('/cal/events/v1/venues?per_page=100')).venues;
  const organizers = (await json<{ organizers: Slugged[] }>('/cal/events/v1/organizers?per_page=100')).organizers;
  const events: { id: number; slug: string }[] = [];
  for (const page of range(5)) {
    const window = `start_date=${day(30 + page * 120)}&end_date=${day(30 + page * 120 + 100)}`;
    events.push(
      ...(await json<{ events: { id: number; slug: string }[] }>(`/cal/events/v1/events?per_page=50&${window}`)).events,
    );
  }

  const pages = [
    ...range(24).map((m) => `/events/month/${month(m)}/`),
    ...range(24).flatMap((m) => categories.map((c) => `/events/month/${month(m)}/?category=${c}`)),
    ...range(12).flatMap((m) => tags.slice(0, 5).map((t) => `/events/month/${month(m)}/?tag=${t}`)),
    ...range(12).flatMap((m) => venues.slice(0, 5).map((v) => `/events/month/${month(m)}/?venue=${v.slug}`)),
    ...range(365).map((d) => `/events/day/${day(d + 1)}/`),
    ...range(52).map((w) => `/events/week/${day(w * 7 + 1)}/`),
    ...range(50).map((p) => `/events/list/?page=${p + 1}`),
    ...categories.flatMap((c) => range(5).map((p) => `/events/category/${c}/?page=${p + 1}`)),
    ...venues.map((v) => `/venue/${v.slug}/`),
    ...organizers.map((o) => `/organizer/${o.slug}/`),
    ...events.map((e) => `/event/${e.slug}/`),
  ];
  await phase('pages', pages);

  const list = '/cal/events/v1/events?per_page=50';
  const words = ['jazz', 'market', 'robotics', 'garden%20event', 'poetry', 'zzzunlikely', 'film', 'yoga'];
  const lists = [
    ...range(365).map((d) => `${list}&start_date=${day(d + 1)}&end_date=${day(d + 1)}`),
    ...range(52).flatMap((w) =>
      range(3).map((p) => `${list}&start_date=${day(w * 7)}&end_date=${day(w * 7 + 6)}&page=${p + 1}`),
    ),
    ...range(24).flatMap((m) =>
      range(5).map((p) => `${list}&start_date=${month(m)}-01&end_date=${month(m)}-28&page=${p + 1}`),
    ),
    ...range(20).map((p) => `${list}&start_date=${day(1)}&end_date=${day(365)}&page=${p + 1}`),
    ...range(12).flatMap((m) =>
      categories.map((c) => `${list}&start_date=${month(m)}-01&end_date=${month(m)}-28&categories=${c}`),
    ),
    ...range(12).flatMap((m) => tags.map((t) => `${list}&start_date=${month(m)}-01&end_date=${month(m)}-28&tags=${t}`)),
    ...venues.map((v) => `${list}&start_date=${day(1)}&end_date=${day(365)}&venue=${v.id}`),
    ...organizers.map((o) => `${list}&start_date=${day(1)}&end_date=${day(365)}&organizer=${o.id}&page=2`),
    ...range(12).map((m) => `${list}&start_date=${month(m)}-01&end_date=${month(m)}-28&featured=true`),
    ...range(12).flatMap((m) =>
      words.map((w) => `${list}&start_date=${month(m)}-01&end_date=${month(m)}-28&search=${w}`),
    ),
    ...events.map((e) => `/cal/events/v1/events/${e.id}`),
  ];
  await phase('API lists', lists);
  await phase('API lists again, in the other coding', lists, true);
  // Then no request for a while: what the process settles at once its traffic stops (V8's memory
  // reducer collects and compacts when the allocation rate drops).
  const idle = Number(args.idle);
  if (idle > 0) {
    await sleep(idle * 1000);
    rows.push([`idle ${idle} s`, await memory(false), null]);
  }

  console.log(`failures (status ≥ 400 or errors): ${failures.length}`, failures.slice(0, 5));
  // Metrics are off, as by default (prom-client is loaded only when they are on): the threads the
  // process has more than after start-up are SQLite reader threads (Node's own start with it).
  const started = rows[0]![1].threads;
  console.log(`threads started after start-up (SQLite readers): ${rows.at(-1)![1].threads - started}`);
  console.log(
    '| after | RSS MB | heap used | heap total | external | malloc heap (brk) | other anonymous | files | RSS after GC | heap used after GC | heap total after GC |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const [name, m, gc] of rows) {
    const after = gc ? [mb(gc.rss), mb(gc.heapUsed), mb(gc.heapTotal)] : ['', '', ''];
    const own = [m.rss, m.heapUsed, m.heapTotal, m.external, m.brk, m.anonymous, m.files].map(mb);
    console.log(`| ${name} | ${[...own, ...after].join(' | ')} |`);
  }
  // Where the heap's total goes beyond its live objects (V8's young generation, free pages).
  const spaces = (m: Memory) =>
    Object.entries(m.spaces)
      .filter(([, space]) => space.size > 0)
      .map(([name, space]) => `${name} ${mb(space.size)} (${mb(space.used)})`)
      .join(', ');
  const last = rows.findLast(([, , gc]) => gc !== null)?.[2];
  if (last) console.log('V8 heap spaces after the last full collection, MB committed (used):', spaces(last));
  if (idle > 0) console.log(`V8 heap spaces after ${idle} s idle, MB committed (used):`, spaces(rows.at(-1)![1]));
  if (process.env['MEMORY_SNAPSHOT']) {
    child.send({ snapshot: process.env['MEMORY_SNAPSHOT'] });
    await new Promise((resolve) => child.once('message', resolve));
    console.log(`heap snapshot: ${process.env['MEMORY_SNAPSHOT']}`);
  }
} finally {
  agent.destroy();
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
}
