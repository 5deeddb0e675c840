/**
 * npm run bench [-- --events 10000 --duration 5 --connections 16]
 *
 * Starts the service (a child process, so the load generator has its own core) on a fresh database
 * (SQLite in a temp dir, or a new database on the PostgreSQL server of DATABASE_URL), seeds it,
 * then measures each scenario with autocannon and prints one table; the same goes to
 * bench/results/latest.json.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { sql } from 'kysely';
import { connect, migrate } from '../src/db/connect.js';
import { createUser } from '../src/modules/users/user.service.js';
import { COMMON_SEARCH_ROUND_MS, COMMON_SEARCHES } from '../src/modules/events/event-counts.service.js';
import { seed, type Seeded } from './seed.js';
import { cpuSeconds, freePort, readerCounts, startArgs, waitReady, warmFiles } from './service.js';
import { seedPlainLikeSeries, seedSeries } from './seed-series.js';
import { createScratchDatabase } from '../test/helpers/scratch-postgres.js';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '10000' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '16' },
    // Runs only the scenarios whose names start with one of these (comma-separated), e.g. "5,4".
    only: { type: 'string' },
    // Scenario 11b: the VEVENTs of the generated iCalendar feed (default: --events, at most 50,000).
    'ics-events': { type: 'string' },
    // Scenario 5 at each of these client counts (comma-separated, e.g. "8,16,32"; default: --connections).
    'create-connections': { type: 'string' },
    // Writes a V8 CPU profile of the service to this directory (open it in Chrome DevTools).
    'cpu-prof': { type: 'string' },
    // PostgreSQL: scenario 5 also with this many instances on the database, the clients spread over them.
    instances: { type: 'string', default: '1' },
    // Scenario 5 with a webhook subscription to every event change, delivered to a local receiver.
    webhooks: { type: 'boolean', default: false },
  },
});
const ONLY = args.only
  ?.split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const EVENTS = Number(args.events);
const DURATION = Number(args.duration);
const CONNECTIONS = Number(args.connections);
const CREATE_CONNECTIONS = (args['create-connections'] ?? String(CONNECTIONS)).split(',').map(Number);
const INSTANCES = Number(args.instances);
if (!(Number.isInteger(INSTANCES) && INSTANCES >= 1)) throw new Error('--instances must be a whole number, 1 or more');
// Instances share a database only on PostgreSQL: an embedded database is one process's.
if (INSTANCES > 1 && !process.env['DATABASE_URL']) throw new Error('--instances needs PostgreSQL (DATABASE_URL)');
const ICS_EVENTS = Number(args['ics-events'] ?? Math.min(EVENTS, 50_000));
/** Scenario 12 (issue 18): series and, for comparison, plain events with the same dates. */
const SERIES = 10_000;
const SERIES_DATES = 5;
const selected = (name: string): boolean => !ONLY || ONLY.some((prefix) => name.startsWith(prefix));

interface Row {
  scenario: string;
  requests_per_sec: number;
  p50_ms: number;
  p99_ms: number;
  errors: number;
  non2xx: number;
  response_bytes: number;
  /** CPU the service used during the scenario, as a share of one core (100 = one core busy). */
  service_cpu_pct: number | null;
  /** SQLite: reader threads running at the scenario's end (none until a read was slow); null on PostgreSQL. */
  reader_threads: number | null;
  /** SQLite: the scenario's reads run in a reader thread, and refused because too many slow ones waited. */
  thread_reads: number | null;
  thread_refused: number | null;
}

/** A fresh database: a temp dir for SQLite, a new database on DATABASE_URL's server for PostgreSQL. */
async function freshDatabase(): Promise<{
  env: Record<string, string>;
  dataDir: string;
  databaseUrl?: string;
  drop(): Promise<void>;
}> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-bench-'));
  const adminUrl = process.env['DATABASE_URL'];
  if (!adminUrl)
    return {
      env: { DATA_DIR: dataDir },
      dataDir,
      drop: async () => fs.rmSync(dataDir, { recursive: true, force: true }),
    };
  const scratch = await createScratchDatabase(adminUrl, 'cal_bench');
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: scratch.url },
    dataDir,
    databaseUrl: scratch.url,
    drop: scratch.drop,
  };
}

const NO_READERS = { reader_threads: null, thread_reads: null, thread_refused: null } as const;

/** A row of a rate measured without requests (an import, a copy): records or rows per second. */
const rateRow = (scenario: string, rate: number): Row => ({
  scenario,
  requests_per_sec: rate,
  p50_ms: 0,
  p99_ms: 0,
  errors: 0,
  non2xx: 0,
  response_bytes: 0,
  service_cpu_pct: null,
  ...NO_READERS,
});

/**
 * `cal-events import ARGS` as an administrator of the database in `env`: its time, its events/s in
 * each quarter of the run (from its progress lines), and its peak resident memory (sampled).
 */
async function importCommand(
  env: NodeJS.ProcessEnv,
  args: string[],
): Promise<{ seconds: number; quarters: number[]; peakMb: number }> {
  spawnSync(process.execPath, ['dist/src/cli.js', 'user', 'add', 'importer', '--role', 'administrator'], {
    env,
    stdio: 'ignore',
  });
  const started = performance.now();
  const child = spawn(process.execPath, ['dist/src/cli.js', 'import', ...args], {
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // Progress lines (JSON, one per 100 events when not on a terminal), timed as they come.
  const ticks: { at: number; done: number }[] = [];
  let stderr = '';
  let peakMb = 0;
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-100_000);
    for (const line of chunk.split('\n')) {
      const done = /^\{"kind":"event","done":(\d+)/.exec(line)?.[1];
      if (done) ticks.push({ at: performance.now(), done: Number(done) });
    }
  });
  const sampler = setInterval(() => {
    if (child.pid) peakMb = Math.max(peakMb, safeRss(child.pid));
  }, 200);
  const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  clearInterval(sampler);
  const seconds = (performance.now() - started) / 1000;
  if (status !== 0) throw new Error(`import exited with ${status}: ${stderr.trim().split('\n').pop()}`);
  const quarters = [0, 1, 2, 3].map((q) => {
    const inQuarter = ticks.slice(Math.floor((ticks.length * q) / 4), Math.floor((ticks.length * (q + 1)) / 4));
    if (inQuarter.length < 2) return 0;
    const first = inQuarter[0]!;
    const last = inQuarter[inQuarter.length - 1]!;
    return Math.round(((last.done - first.done) * 1000) / Math.max(1, last.at - first.at));
  });
  return { seconds, quarters, peakMb };
}

/** The resident memory of `pid` in MB, 0 once it is gone. */
function safeRss(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024);
  } catch {
    return 0;
  }
}

/**
 * Where the service (SQLite) answers its metrics, on a port of their own: a row then says whether
 * its reads went to reader threads (sqlite-readers.ts), which start only once a read was slow, so
 * that two runs of one scenario are compared knowing which ran with threads. Null on PostgreSQL.
 */
let readerMetricsUrl: string | null = null;

/** `pid`: the service's, to report its CPU use; the bare baseline runs in this process. */
async function measure(name: string, options: autocannon.Options, pid?: number): Promise<Row | null> {
  if (ONLY && !ONLY.some((prefix) => name.startsWith(prefix))) return null;
  return measureSpread(name, [{ pid, options: { connections: CONNECTIONS, ...options } }]);
}

/**
 * One scenario on one or several instances at once, each with its own clients: the rates and the
 * services' CPU summed (none without a `pid`), the worst p50 and p99 of the instances.
 */
async function measureSpread(name: string, runs: { pid?: number; options: autocannon.Options }[]): Promise<Row> {
  const cpu = () => runs.reduce((sum, run) => sum + (run.pid === undefined ? 0 : cpuSeconds(run.pid)), 0);
  const onService = runs.every((run) => run.pid !== undefined);
  const metricsUrl = onService ? readerMetricsUrl : null;
  const readersBefore = metricsUrl === null ? null : await readerCounts(metricsUrl);
  const cpuBefore = cpu();
  const started = performance.now();
  const results = await Promise.all(runs.map((run) => autocannon({ duration: DURATION, ...run.options })));
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = cpu();
  const readersAfter = metricsUrl === null ? null : await readerCounts(metricsUrl);
  const total = (pick: (r: autocannon.Result) => number) => results.reduce((sum, r) => sum + pick(r), 0);
  const requests = total((r) => r.requests.total);
  return {
    scenario: name,
    requests_per_sec: Math.round(total((r) => r.requests.average)),
    p50_ms: Math.max(...results.map((r) => r.latency.p50)),
    p99_ms: Math.max(...results.map((r) => r.latency.p99)),
    errors: total((r) => r.errors + r.timeouts),
    non2xx: total((r) => r.non2xx),
    response_bytes: requests > 0 ? Math.round(total((r) => r.throughput.total) / requests) : 0,
    service_cpu_pct: onService ? Math.round(((cpuAfter - cpuBefore) / elapsed) * 100) : null,
    ...(readersBefore && readersAfter
      ? {
          reader_threads: readersAfter.threads,
          thread_reads: readersAfter.thread - readersBefore.thread,
          thread_refused: readersAfter.refused - readersBefore.refused,
        }
      : NO_READERS),
  };
}

/** The rate of a bare `node:http` server answering exactly `bytes`: the ceiling for a cached answer of that size. */
async function bareRate(name: string, bytes: Buffer, type: string): Promise<Row | null> {
  const bare = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': type, 'content-length': bytes.length });
    res.end(bytes);
  });
  const port = await new Promise<number>((resolve) =>
    bare.listen(0, '127.0.0.1', () => resolve((bare.address() as net.AddressInfo).port)),
  );
  try {
    return await measure(name, { url: `http://127.0.0.1:${port}/` });
  } finally {
    bare.close();
  }
}

/**
 * --webhooks: a local receiver answering 204 to every delivery, and a subscription of the service
 * at `base` to every event change sent to it, so scenario 5's writers feed the outbox and the
 * worker delivers beside them. `received` counts the deliveries.
 */
async function webhookReceiver(base: string, authorization: string): Promise<{ received: number }> {
  const counter = { received: 0 };
  const receiver = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      counter.received += 1;
      response.writeHead(204).end();
    });
  });
  const port = await new Promise<number>((resolve) =>
    receiver.listen(0, '127.0.0.1', () => resolve((receiver.address() as net.AddressInfo).port)),
  );
  receiver.unref();
  const subscribed = await fetch(`${base}/cal/admin/v1/webhooks`, {
    method: 'POST',
    headers: { authorization, 'content-type': 'application/json' },
    body: JSON.stringify({ url: `http://127.0.0.1:${port}/hook`, events: ['event.*'] }),
  });
  if (subscribed.status !== 201)
    throw new Error(`webhook subscription: ${subscribed.status} ${await subscribed.text()}`);
  return counter;
}

/** A small seeded random source: the same URL mix on every run. */
function random(seed: number): () => number {
  let state = seed;
  return () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
}

/**
 * The mixed uncached scenario's URLs: windows of a day, a week, a month, a year and the default,
 * pages 1 to 20 where the window holds them, category, tag, venue, organizer and featured filters
 * alone and combined, searches with hits and without, and single events, each URL distinct.
 */
function mixedUrls(seeded: Seeded, events: number): { byKind: Record<string, string[]>; all: string[] } {
  const next = random(42);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const spans = [0, 6, 30, 364];
  /** A window (or the default, two years from yesterday) and how many days it spans. */
  const window = (): [string, number] => {
    if (next() < 0.2) return ['', 730];
    const span = pick(spans);
    const from = 1 + Math.floor(next() * (700 - span));
    return [`&start_date=${day(from)}&end_date=${day(from + span)}`, span + 1];
  };
  /** A page the window holds (events are spread evenly over two years), at most 20. */
  const page = (days: number) =>
    `&page=${1 + Math.floor(next() * Math.min(20, Math.max(1, Math.floor((events * days) / 730 / 50))))}`;
  const filters = [
    () => `&categories=${pick(seeded.categorySlugs)}`,
    () => `&tags=${pick(seeded.tagSlugs)}`,
    () => `&venue=${pick(seeded.venueIds)}`,
    () => `&organizer=${pick(seeded.organizerIds)}`,
    () => '&featured=true',
    () => `&categories=${pick(seeded.categorySlugs)}&featured=true`,
    () => `&venue=${pick(seeded.venueIds)}&tags=${pick(seeded.tagSlugs)}`,
  ];
  const words = ['robotics', 'jazz', 'garden', 'market event', 'poetry', 'zzzunlikely', 'qqqnothing', 'tasting 12'];
  const byKind: Record<string, string[]> = { a: [], b: [], c: [], d: [] };
  for (let i = 0; i < 2000; i += 1) {
    const u = `&mix=${i}`;
    const [dates, days] = window();
    byKind['a']!.push(`/cal/events/v1/events?per_page=50${dates}${page(days)}${u}`);
    byKind['b']!.push(`/cal/events/v1/events?per_page=50${window()[0]}${pick(filters)()}${u}`);
    byKind['c']!.push(`/cal/events/v1/events?per_page=50${window()[0]}&search=${encodeURIComponent(pick(words))}${u}`);
    byKind['d']!.push(`/cal/events/v1/events/${seeded.eventId + Math.floor(next() * events)}?mix=${i}`);
  }
  const named = {
    'a. window lists': byKind['a']!,
    'b. filtered lists': byKind['b']!,
    'c. search': byKind['c']!,
    'd. single event': byKind['d']!,
  };
  const all = Array.from(
    { length: 8000 },
    (_, i) => [byKind['a']!, byKind['a']!, byKind['b']!, byKind['c']!, byKind['d']!][i % 5]![Math.floor(i / 5) % 2000]!,
  );
  return { byKind: named, all };
}

/**
 * Of a month unfiltered or filtered by one seeded tag, category or venue (the seed gives them about
 * EVENTS / 24, / 120, / 360 and / 4,800 events a month), the one whose event count, as the API
 * totals it, is nearest `target` (by ratio): its page query (`category=jazz`…, '' for none).
 */
async function monthNear(
  base: string,
  month: string,
  seeded: Seeded,
  target: number,
): Promise<{ query: string; label: string; events: number }> {
  const [year, monthNumber] = month.split('-').map(Number) as [number, number];
  const lastDay = new Date(Date.UTC(year, monthNumber, 0)).toISOString().slice(0, 10);
  const venueId = seeded.venueIds[0]!;
  // Pages name a venue by its slug, the API by its id.
  const venueSlug = ((await (await fetch(`${base}/cal/events/v1/venues/${venueId}`)).json()) as { slug: string }).slug;
  const choices = [
    { query: '', api: '', label: 'all' },
    { query: `tag=${seeded.tagSlugs[0]!}`, api: `tags=${seeded.tagSlugs[0]!}`, label: `tag ${seeded.tagSlugs[0]!}` },
    {
      query: `category=${seeded.categorySlug}`,
      api: `categories=${seeded.categorySlug}`,
      label: `category ${seeded.categorySlug}`,
    },
    { query: `venue=${venueSlug}`, api: `venue=${venueId}`, label: `venue ${venueSlug}` },
  ];
  const counted = await Promise.all(
    choices.map(async (choice) => {
      const list = await fetch(
        `${base}/cal/events/v1/events?per_page=1&start_date=${month}-01&end_date=${lastDay}${choice.api ? `&${choice.api}` : ''}`,
      );
      return { ...choice, events: ((await list.json()) as { total: number }).total };
    }),
  );
  const distance = (events: number) => Math.abs(Math.log(Math.max(1, events) / target));
  return counted.reduce((best, choice) => (distance(choice.events) < distance(best.events) ? choice : best));
}

/**
 * The files of the bench's database: SQLite's data directory, or the PostgreSQL database's own
 * directory on its server when this machine can read it (none otherwise).
 */
async function databaseFiles(database: { dataDir: string; databaseUrl?: string | undefined }): Promise<string[]> {
  // Files only, and none where this user may not read (a server's directory of another user).
  const inDirectory = (dir: string) => {
    try {
      return fs
        .readdirSync(dir, { withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map((entry) => path.join(dir, entry.name));
    } catch {
      return [];
    }
  };
  if (!database.databaseUrl) return inDirectory(database.dataDir);
  const storage = await connect({ dataDir: database.dataDir, databaseUrl: database.databaseUrl });
  try {
    const { rows } = await sql<{
      dir: string;
    }>`select current_setting('data_directory') || '/base/' || oid as dir from pg_database where datname = current_database()`.execute(
      storage.db,
    );
    return rows[0] ? inDirectory(rows[0].dir) : [];
  } finally {
    await storage.close();
  }
}

/** Reads the database's files into the OS's cache before the scenarios named (bench/service.ts, warmFiles), and says how much was cached. */
async function warmDatabase(
  database: { dataDir: string; databaseUrl?: string | undefined },
  before: string,
): Promise<void> {
  const files = await databaseFiles(database);
  if (files.length === 0) return console.log(`database files not readable here: not warmed before ${before}`);
  const { bytes, cachedBefore } = warmFiles(files);
  const share =
    cachedBefore === null ? '' : `, ${Math.round((cachedBefore / Math.max(1, bytes)) * 100)} % of it cached`;
  console.log(`database files read before ${before}: ${Math.round(bytes / 1048576)} MB${share}`);
}

/** The bench user's login password, for the admin's session scenario (16). */
const BENCH_LOGIN = 'bench-login-password';

/**
 * Waits until the service has registered the common words of a large calendar and taken their
 * counts (src/modules/events/event-counts.service.ts), as a service that has run a while has, and
 * prints how long that took: scenario 7's searches then measure a visitor's first ask of them.
 */
async function commonSearchesCounted(
  database: { dataDir: string; databaseUrl?: string | undefined },
  readyAt: number,
): Promise<void> {
  if (EVENTS < COMMON_SEARCHES.minListed) return;
  // The service reads the common words a round after it is ready: the searches registered before
  // (by scenario 3) may all be counted while those are still to come. A few seconds for the round.
  const firstRoundAt = readyAt + COMMON_SEARCH_ROUND_MS + 5_000;
  const storage = await connect({ dataDir: database.dataDir, databaseUrl: database.databaseUrl });
  const started = performance.now();
  try {
    for (;;) {
      const { all, pending } = await storage.db
        .selectFrom('search_phrases')
        .select((eb) => [
          eb.fn.countAll<number | string>().as('all'),
          eb.fn.count<number | string>('counted_through').as('pending'),
        ])
        .executeTakeFirstOrThrow();
      const seconds = (performance.now() - started) / 1000;
      if (Number(all) > 0 && Number(pending) === 0 && performance.now() >= firstRoundAt) {
        console.log(`common searches: ${all} registered and counted after ${seconds.toFixed(0)} s`);
        return;
      }
      if (seconds > 1800) {
        console.log(`common searches: ${pending} of ${all} still being counted after 30 min; going on`);
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  } finally {
    await storage.close();
  }
}

async function main(): Promise<void> {
  const database = await freshDatabase();
  const storage = await connect({ dataDir: database.dataDir, databaseUrl: database.databaseUrl });
  await migrate(storage.db);
  const { user, application_password } = await createUser(storage.db, {
    username: 'bench',
    role: 'administrator',
    password: BENCH_LOGIN,
  });
  const seedStart = performance.now();
  const seeded = await seed(storage.db, EVENTS, user.id);
  const seedSeconds = (performance.now() - seedStart) / 1000;
  console.log(
    `seeded ${EVENTS} events in ${seedSeconds.toFixed(1)} s on ${database.databaseUrl ? 'PostgreSQL' : 'SQLite'}`,
  );
  let seriesWindows: { series: { start: string; end: string }; plain: { start: string; end: string } } | null = null;
  if (selected('12')) {
    const started = performance.now();
    seriesWindows = {
      series: await seedSeries(storage.db, SERIES, SERIES_DATES, user.id, 2045),
      plain: await seedPlainLikeSeries(storage.db, SERIES * SERIES_DATES, SERIES_DATES, user.id, 2047),
    };
    console.log(
      `seeded ${SERIES} series of ${SERIES_DATES} dates and ${SERIES * SERIES_DATES} plain events in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
  }
  await storage.close();

  // The compiled server, as `npm start` runs it.
  const build = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('build failed');
  const port = await freePort();
  // Exactly what `npm start` runs after its build (`node <flags> dist/src/server.js`).
  const serviceArgs = startArgs();
  const profileDir = args['cpu-prof'];
  const startService = (port: number, profile: boolean, metricsPort?: number) =>
    spawn(
      process.execPath,
      [...(profile ? ['--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', profileDir!] : []), ...serviceArgs],
      {
        env: {
          ...process.env,
          ...database.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'warn',
          // Writers run side by side up to the pool's size: as many as the clients.
          CAL_PG_POOL_SIZE: String(Math.max(10, CONNECTIONS, ...CREATE_CONNECTIONS)),
          ...(metricsPort === undefined ? {} : { CAL_METRICS: '1', CAL_METRICS_PORT: String(metricsPort) }),
          // --webhooks: the receiver is on loopback.
          ...(args.webhooks ? { CAL_WEBHOOKS_ALLOW_PRIVATE: '1' } : {}),
        },
        stdio: ['ignore', 'inherit', 'inherit'],
      },
    );
  // SQLite: the metrics on a port of their own, for the rows' reader columns.
  const metricsPort = database.databaseUrl ? undefined : await freePort();
  const child = startService(port, profileDir !== undefined, metricsPort);
  if (metricsPort !== undefined) readerMetricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
  const base = `http://127.0.0.1:${port}`;
  /** Instances started for scenario 5 with --instances, beside `child`. */
  const extra: { child: ReturnType<typeof startService>; base: string }[] = [];
  const results: Row[] = [];
  const record = (row: Row | null): void => void (row && results.push(row));
  const onService = (name: string, options: autocannon.Options): Promise<Row | null> =>
    measure(name, options, child.pid);
  try {
    await waitReady(`${base}/`, child);
    const readyAt = performance.now();
    const rssAfterStart = safeRss(child.pid!);
    const window = 'start_date=2020-01-01&end_date=2040-12-31';
    const listPath = `/cal/events/v1/events?per_page=50&${window}`;
    const listBytes = Buffer.from(await (await fetch(`${base}${listPath}`)).arrayBuffer());
    const authorization = `Basic ${Buffer.from(`bench:${application_password}`).toString('base64')}`;

    record(await onService('1. list, 50 events', { url: `${base}${listPath}` }));
    const rssAfterList = safeRss(child.pid!);
    // An ignored parameter that changes every time: the same page, never from the page cache.
    let bust = 0;
    record(
      await onService('1u. list, uncached', {
        url: `${base}${listPath}`,
        requests: [{ setupRequest: (request) => ({ ...request, path: `${listPath}&uncached=${(bust += 1)}` }) }],
      }),
    );
    record(
      await onService('2. list + category', {
        url: `${base}/cal/events/v1/events?per_page=50&${window}&categories=${seeded.categorySlug}`,
      }),
    );
    record(
      await onService('3. search', { url: `${base}/cal/events/v1/events?per_page=50&${window}&search=jazz%20event` }),
    );
    record(await onService('4. single event', { url: `${base}/cal/events/v1/events/${seeded.eventId}` }));
    let n = 0;
    /** Scenario 5's requests to the service at `at`, on `connections` clients. */
    const creates = (at: string, connections: number): autocannon.Options => ({
      connections,
      url: `${at}/cal/events/v1/events`,
      method: 'POST',
      headers: { authorization, 'content-type': 'application/json' },
      setupClient: (client) => {
        client.setBody(
          JSON.stringify({
            title: `Bench create ${n}`,
            start_date: '2031-01-01 10:00:00',
            end_date: '2031-01-01 12:00:00',
          }),
        );
      },
      requests: [
        {
          setupRequest: (request) => {
            n += 1;
            // As a calendar fills: days spread over two years, each event with a venue, an
            // organizer, a category and a tag (writers on one day share its count rows).
            const day = new Date(Date.UTC(2031, 0, 1 + (n % 730))).toISOString().slice(0, 10);
            return {
              ...request,
              body: JSON.stringify({
                title: `Bench create ${n}`,
                start_date: `${day} 10:00:00`,
                end_date: `${day} 12:00:00`,
                categories: [seeded.categorySlugs[n % seeded.categorySlugs.length]],
                tags: [seeded.tagSlugs[n % seeded.tagSlugs.length]],
                venue: seeded.venueIds[n % seeded.venueIds.length],
                organizer: [seeded.organizerIds[n % seeded.organizerIds.length]],
              }),
            };
          },
        },
      ],
    });
    const scaledOut = INSTANCES > 1 && selected('5');
    const hooks = args.webhooks && selected('5') ? await webhookReceiver(base, authorization) : null;
    for (const connections of CREATE_CONNECTIONS) {
      const clients = `${CREATE_CONNECTIONS.length > 1 ? `, ${connections} clients` : ''}${hooks ? ', webhook subscribed' : ''}`;
      const received = hooks?.received ?? 0;
      record(await onService(`5. create (auth)${clients}`, creates(base, connections)));
      if (hooks) console.log(`webhook deliveries received during the creates: ${hooks.received - received}`);
      if (!scaledOut) continue;
      // The other instances start once, beside the first, on the same database.
      while (extra.length < INSTANCES - 1) {
        const at = await freePort();
        const instance = startService(at, false);
        extra.push({ child: instance, base: `http://127.0.0.1:${at}` });
        await waitReady(`http://127.0.0.1:${at}/`, instance);
      }
      const instances = [{ child, base }, ...extra];
      record(
        await measureSpread(
          `5. create (auth)${clients}, ${INSTANCES} instances`,
          instances.map((instance, i) => ({
            pid: instance.child.pid!,
            // The clients dealt out in turn: 16 over 3 instances are 6, 5 and 5.
            options: creates(
              instance.base,
              Math.floor(connections / INSTANCES) + (i < connections % INSTANCES ? 1 : 0),
            ),
          })),
        ),
      );
    }

    // 7. Uncached lists as real traffic asks for them: a fixed, seeded mix of distinct URLs, so that
    // neither the page cache nor (within a run) the count cache answers. One client at a time per kind
    // (what one visitor waits), then the whole mix on every connection (throughput).
    const mix = mixedUrls(seeded, EVENTS);
    // Only scenario 7 searches: without it, a run of other scenarios at 1 M does not wait for the counts.
    const scenario7 = [...Object.keys(mix.byKind), '. mixed uncached'].some((kind) => selected(`7${kind}`));
    if (scenario7) await commonSearchesCounted(database, readyAt);
    const cycle = (urls: string[]) => {
      let i = 0;
      return [{ setupRequest: (request: autocannon.Request) => ({ ...request, path: urls[i++ % urls.length]! }) }];
    };
    if (scenario7) await warmDatabase(database, 'scenario 7');
    for (const [kind, urls] of Object.entries(mix.byKind)) {
      record(await onService(`7${kind}, one client`, { url: base, connections: 1, requests: cycle(urls) }));
    }
    record(await onService('7. mixed uncached', { url: base, requests: cycle(mix.all) }));

    const bareRow = await bareRate('6. bare node:http, same bytes', listBytes, 'application/json; charset=utf-8');
    record(bareRow);

    // 8-9. Calendar feeds (issue 15): the default window's iCalendar feed as subscribers poll it
    // (cached), the bare node:http rate for the same bytes, and uncached feeds of about 500 events
    // (a window that holds them, an ignored parameter that changes every time), one client at a time.
    const feedPath = '/cal/events/v1/events?format=ical';
    const feedBytes = Buffer.from(await (await fetch(`${base}${feedPath}`)).arrayBuffer());
    console.log(
      `default-window feed: ${feedBytes.length} bytes, ${feedBytes.toString().split('BEGIN:VEVENT').length - 1} events`,
    );
    const feedRow = await onService('8. feed (iCalendar), cached', { url: `${base}${feedPath}` });
    record(feedRow);
    const feedBareRow = await bareRate('8b. bare node:http, feed bytes', feedBytes, 'text/calendar; charset=utf-8');
    record(feedBareRow);
    const feedDay = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const feedDays = Math.max(1, Math.round((500 * 730) / EVENTS));
    const windowFeed = `/cal/events/v1/events?format=ical&start_date=${feedDay(10)}&end_date=${feedDay(10 + feedDays - 1)}`;
    const windowFeedEvents = (await (await fetch(`${base}${windowFeed}`)).text()).split('BEGIN:VEVENT').length - 1;
    let feedBust = 0;
    record(
      await onService(`9. feed, uncached (${windowFeedEvents} events)`, {
        url: `${base}${windowFeed}`,
        connections: 1,
        requests: [{ setupRequest: (request) => ({ ...request, path: `${windowFeed}&uncached=${(feedBust += 1)}` }) }],
      }),
    );
    if (feedRow && feedBareRow)
      console.log(
        `cached feed / bare-bytes ratio: ${((feedRow.requests_per_sec / Math.max(1, feedBareRow.requests_per_sec)) * 100).toFixed(0)} %`,
      );

    // 10. Public pages (issue 16): a month page from the page cache against the bare rate for its
    // bytes, and uncached month pages (an ignored parameter that changes every time), one client at
    // a time. The uncached month is the one, unfiltered or filtered by a tag, a category or a venue,
    // that holds nearest 200 events at this EVENTS: a busy month whose every day fills the grid,
    // rather than one that grows thin at a small seed or thick at a large one.
    const month = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 7);
    const monthPath = `/events/month/${month}/`;
    const monthBytes = Buffer.from(await (await fetch(`${base}${monthPath}`)).arrayBuffer());
    const monthRow = await onService('10. month page, cached', { url: `${base}${monthPath}` });
    record(monthRow);
    const monthBareRow = await bareRate(
      '10b. bare node:http, month page bytes',
      monthBytes,
      'text/html; charset=utf-8',
    );
    record(monthBareRow);
    const busyMonth = await monthNear(base, month, seeded, 200);
    const uncachedMonth = `${monthPath}?${busyMonth.query}${busyMonth.query ? '&' : ''}`;
    if (selected('10u') || selected('10p')) await warmDatabase(database, 'scenario 10u');
    let pageBust = 0;
    record(
      await onService(`10u. month page, uncached (${busyMonth.label}: ${busyMonth.events} events)`, {
        url: `${base}${uncachedMonth}`,
        connections: 1,
        requests: [
          { setupRequest: (request) => ({ ...request, path: `${uncachedMonth}uncached=${(pageBust += 1)}` }) },
        ],
      }),
    );
    // 10p. The pages issue 30 sets a target for whatever the calendar's size (p99 ≤ 50 ms at 1 M
    // events): the month, a category's month, the list and a day, each ask uncached and another
    // one (the next year's months, the categories in turn, the list's first 20 pages, the next
    // year's days), one client at a time.
    const ahead = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
    const visited: [string, (i: number) => string][] = [
      ['the month', (i) => `/events/month/${ahead(31 * (i % 12)).slice(0, 7)}/?`],
      [
        'a category’s month',
        (i) =>
          `/events/month/${ahead(31 * (i % 12)).slice(0, 7)}/?category=${seeded.categorySlugs[i % seeded.categorySlugs.length]!}&`,
      ],
      ['the list', (i) => `/events/list/?page=${1 + (i % 20)}&`],
      ['a day', (i) => `/events/day/${ahead(1 + (i % 365)).slice(0, 10)}/?`],
    ];
    for (const [kind, pathOf] of visited) {
      let asked = 0;
      record(
        await onService(`10p. ${kind}, uncached`, {
          url: base,
          connections: 1,
          requests: [{ setupRequest: (request) => ({ ...request, path: `${pathOf(asked)}uncached=${(asked += 1)}` }) }],
        }),
      );
    }
    if (monthRow && monthBareRow)
      console.log(
        `cached month page / bare-bytes ratio: ${((monthRow.requests_per_sec / Math.max(1, monthBareRow.requests_per_sec)) * 100).toFixed(0)} % (${monthBytes.length} bytes)`,
      );

    // 11. Import (issue 17): this service as the source of `cal-events import` into a fresh database
    // of the same kind, as an operator runs it; the rate is records read per second.
    if (!ONLY || ONLY.some((prefix) => '11. import'.startsWith(prefix))) {
      const target = await freshDatabase();
      try {
        // The source is this machine's own service: a private address, refused unless allowed.
        const env = { ...process.env, ...target.env, LOG_LEVEL: 'warn', CAL_IMPORT_ALLOW_PRIVATE: '1' };
        const run = await importCommand(env, [
          '--from',
          `${base}/`,
          '--user',
          'bench',
          '--password',
          application_password,
          '--report',
          path.join(target.dataDir, 'report.json'),
        ]);
        const report = JSON.parse(fs.readFileSync(path.join(target.dataDir, 'report.json'), 'utf8')) as {
          rate: number;
        };
        console.log(
          `import of ${EVENTS} events and their linked records: ${run.seconds.toFixed(1)} s, ${report.rate} records/s`,
        );
        record(rateRow(`11. import (${EVENTS} events), records/s`, report.rate));
      } finally {
        await target.drop();
      }
    }

    // 11b. iCalendar import (issue 31): a generated feed of ICS_EVENTS events (venues, organizers,
    // categories, zones, series with overrides; scripts/generate-ics.mjs) into a fresh database,
    // as `cal-events import --ics` runs it: the rate, the rate in each quarter of the run (steady
    // or not), and the command's peak resident memory (flat or not).
    if (selected('11b. import')) {
      const target = await freshDatabase();
      try {
        const env = { ...process.env, ...target.env, LOG_LEVEL: 'warn' };
        const feed = path.join(target.dataDir, 'feed.ics');
        spawnSync(process.execPath, ['scripts/generate-ics.mjs', String(ICS_EVENTS), feed], { stdio: 'inherit' });
        const run = await importCommand(env, ['--ics', feed, '--report', path.join(target.dataDir, 'report.json')]);
        const report = JSON.parse(fs.readFileSync(path.join(target.dataDir, 'report.json'), 'utf8')) as {
          rate: number;
        };
        console.log(
          `iCalendar import of ${ICS_EVENTS} VEVENTs (${(fs.statSync(feed).size / 1e6).toFixed(1)} MB): ` +
            `${run.seconds.toFixed(1)} s, ${report.rate} records/s; events/s by quarter of the run: ` +
            `${run.quarters.join(', ')}; peak RSS ${run.peakMb} MB`,
        );
        record(rateRow(`11b. import iCalendar (${ICS_EVENTS} VEVENTs), records/s`, report.rate));
      } finally {
        await target.drop();
      }
    }

    // 12. Recurring events (issue 18): an uncached list page of a window of 10,000 weekly series
    // (50,000 occurrences) against the same page of a window of 50,000 plain events with the same
    // dates (the costs should match: occurrences are events), one client at a time; and creating a
    // weekly series of 105 dates over two years, authenticated, one client at a time.
    if (seriesWindows) {
      const page = (window: { start: string; end: string }) =>
        `/cal/events/v1/events?per_page=50&start_date=${window.start}&end_date=${window.end}`;
      for (const [name, window] of [
        [`12a. list, uncached, ${SERIES} series`, seriesWindows.series],
        [`12b. list, uncached, ${SERIES * SERIES_DATES} plain events`, seriesWindows.plain],
      ] as const) {
        let pageNo = 0;
        record(
          await onService(name, {
            url: `${base}${page(window)}`,
            connections: 1,
            // Pages 1-20 in turn, with an ignored parameter that changes every time.
            requests: [
              {
                setupRequest: (request) => ({
                  ...request,
                  path: `${page(window)}&page=${1 + (pageNo % 20)}&uncached=${(pageNo += 1)}`,
                }),
              },
            ],
          }),
        );
      }
      let series = 0;
      const seriesBody = () =>
        JSON.stringify({
          title: `Bench series ${(series += 1)}`,
          start_date: '2049-01-05 19:00:00',
          end_date: '2049-01-05 21:00:00',
          timezone: 'Europe/Paris',
          categories: ['jazz'],
          venue: 1 + (series % 150),
          recurrence: { rrule: 'FREQ=WEEKLY;COUNT=105' },
        });
      record(
        await onService('12c. create a weekly series of 105 (auth)', {
          url: `${base}/cal/events/v1/events`,
          method: 'POST',
          connections: 1,
          headers: { authorization, 'content-type': 'application/json' },
          requests: [{ setupRequest: (request) => ({ ...request, body: seriesBody() }) }],
        }),
      );
    }

    // 13. The sync change feed (issue 19): pages of 100 changes read from tokens spread over the
    // seeded history (an ignored parameter that changes every time), one client at a time, as
    // anonymous readers; each page renders its records as GET would.
    if (selected('13')) {
      const first = (await (await fetch(`${base}/cal/events/v1/changes?per_page=1`)).json()) as { next_token: string };
      const start = Number(Buffer.from(first.next_token, 'base64url').toString().split('.')[1]);
      const tokens = Array.from({ length: 500 }, (_, i) =>
        Buffer.from(`c1.${start + Math.floor((i * 7919) % Math.max(1, EVENTS))}`).toString('base64url'),
      );
      let read = 0;
      record(
        await onService('13. change feed, 100 per page, uncached', {
          url: `${base}/cal/events/v1/changes`,
          connections: 1,
          requests: [
            {
              setupRequest: (request) => ({
                ...request,
                path: `/cal/events/v1/changes?per_page=100&since=${tokens[read % tokens.length]}&n=${(read += 1)}`,
              }),
            },
          ],
        }),
      );
    }

    // 14. `cal-events copy` (issue 20): the seeded database, while the service runs on it, into a
    // fresh database of the other kind (PostgreSQL from SQLite on the server of TEST_DATABASE_URL,
    // SQLite from PostgreSQL; SQLite again when no server is named), then that copy back into a
    // fresh database of the bench's kind; counts and checksums checked, as an operator runs it.
    if (selected('14')) {
      const otherUrl = database.databaseUrl ? undefined : process.env['TEST_DATABASE_URL'];
      const there = otherUrl ? await createScratchDatabase(otherUrl, 'cal_bench_copy') : null;
      const thereDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-bench-copy-'));
      const back = await freshDatabase();
      const kind = (url: string | undefined) => (url ? 'PostgreSQL' : 'SQLite');
      try {
        const legs = [
          {
            from: database.databaseUrl ?? database.dataDir,
            to: there?.url ?? thereDir,
            name: `${kind(database.databaseUrl)} → ${kind(there?.url)}`,
          },
          {
            from: there?.url ?? thereDir,
            to: back.databaseUrl ?? back.dataDir,
            name: `${kind(there?.url)} → ${kind(back.databaseUrl)}`,
          },
        ];
        for (const [i, leg] of legs.entries()) {
          const run = spawnSync(process.execPath, ['dist/src/cli.js', 'copy', '--from', leg.from, '--to', leg.to], {
            env: { ...process.env, LOG_LEVEL: 'warn' },
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          if (run.status !== 0) throw new Error(`copy exited with ${run.status}: ${run.stderr.toString().trim()}`);
          const total = /^total +(\d+) +in ([\d.]+) s \((\d+) rows\/s\)$/m.exec(run.stdout.toString())!;
          console.log(`copy ${leg.name}: ${total[1]} rows in ${total[2]} s (${total[3]} rows/s), checks included`);
          record(rateRow(`14${'ab'[i]}. copy ${leg.name} (${EVENTS} events), rows/s`, Number(total[3])));
        }
      } finally {
        await there?.drop();
        fs.rmSync(thereDir, { recursive: true, force: true });
        await back.drop();
      }
    }

    // 15. An attacker's requests (issue 25): the inputs that froze earlier versions (a cost of
    // 24,000 letters, a 12 KB date, a thousand search words, a cross-site form), in turn, as fast
    // as the connections go; each must be refused at once (non2xx counts them all), never a 503.
    if (selected('15')) {
      const attacks: { method: 'GET' | 'POST'; path: string; headers?: Record<string, string>; body?: string }[] = [
        {
          method: 'POST',
          path: '/cal/events/v1/events',
          headers: { authorization, 'content-type': 'application/json' },
          body: JSON.stringify({
            title: 'x',
            start_date: '2030-01-01 10:00',
            end_date: '2030-01-01 11:00',
            cost: 'a'.repeat(24_000),
          }),
        },
        { method: 'GET', path: `/cal/events/v1/events?start_date=${encodeURIComponent('next friday '.repeat(1000))}` },
        {
          method: 'GET',
          path: `/cal/events/v1/events?search=${encodeURIComponent(Array.from({ length: 1000 }, (_, i) => `w${i}`).join(' '))}`,
        },
        {
          method: 'POST',
          path: '/cal/admin/v1/users',
          headers: {
            authorization,
            origin: 'https://evil.example',
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: 'username=mallory&role=administrator',
        },
      ];
      let sent = 0;
      record(
        await onService('15. attacks refused (cost, date, words, cross-site form)', {
          url: base,
          requests: [{ setupRequest: (request) => ({ ...request, ...attacks[(sent += 1) % attacks.length]! }) }],
        }),
      );
    }

    // 16. The admin's events list as the application asks for it (a signed-in editor's session:
    // cookie and nonce; every status, newest first, 25 a page), beside the same page read with
    // Basic: a session costs what an application password costs, and the page what the API's does.
    if (selected('16')) {
      const signIn = await fetch(`${base}/cal/admin/v1/session`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: 'bench', password: BENCH_LOGIN }),
      });
      const { nonce } = (await signIn.json()) as { nonce: string };
      const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
      const adminList =
        '/cal/events/v1/events?starts_after=1900-01-01&context=edit&page=1&per_page=25&orderby=start_date&order=desc';
      record(
        await onService('16a. admin list, session', {
          url: `${base}${adminList}`,
          headers: { cookie, 'x-cal-nonce': nonce },
        }),
      );
      record(await onService('16b. admin list, Basic', { url: `${base}${adminList}`, headers: { authorization } }));
      record(
        await onService('16c. admin status tab count', {
          url: `${base}/cal/events/v1/events?starts_after=1900-01-01&context=edit&status=draft&_fields=id&page=1&per_page=1`,
          headers: { cookie, 'x-cal-nonce': nonce },
        }),
      );
    }

    // 17. A spam wave against the public submission form (issue 29): waves of 1,000 bot posts from
    // five angles, on a service of its own (it trusts X-Forwarded-For), printed as its own table.
    if (selected('17')) {
      const wave = spawnSync(process.execPath, ['--import', 'tsx', 'bench/spam-wave.ts'], { stdio: 'inherit' });
      if (wave.status !== 0) throw new Error('the spam wave failed');
    }

    const list = results.find((row) => row.scenario.startsWith('1.'));
    const ratio = list && bareRow ? list.requests_per_sec / Math.max(1, bareRow.requests_per_sec) : null;
    console.table(results);
    if (ratio !== null) console.log(`list / bare-bytes ratio: ${(ratio * 100).toFixed(0)} %`);
    console.log(`service RSS: ${rssAfterStart} MB after start, ${rssAfterList} MB after the list scenario`);
    fs.mkdirSync('bench/results', { recursive: true });
    fs.writeFileSync(
      'bench/results/latest.json',
      JSON.stringify(
        {
          date: new Date().toISOString(),
          database: database.databaseUrl ? 'postgres' : 'sqlite',
          events: EVENTS,
          durationSeconds: DURATION,
          connections: CONNECTIONS,
          seedSeconds,
          rssAfterStartMb: rssAfterStart,
          rssAfterListMb: rssAfterList,
          ratio,
          results,
        },
        null,
        2,
      ),
    );
  } finally {
    for (const instance of [child, ...extra.map((e) => e.child)]) {
      instance.kill('SIGTERM');
      await new Promise((r) => instance.once('exit', r));
    }
    await database.drop();
  }
}

await main();
