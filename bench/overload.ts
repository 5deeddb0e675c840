/**
 * npx tsx bench/overload.ts [-- --events 20000 --duration 10 --busy 8 --connections 256 --max-delay 500]
 *
 * The overload guard (src/http/overload.ts, issue 25 finding 8) under loads it must refuse and
 * loads it must not, each scenario with the service restarted for every `--max-delay` given
 * (CAL_MAX_EVENT_LOOP_DELAY_MS, comma-separated):
 *  - light: one client reading plain pages one after another (no pause: the most a single client
 *    asks), on an idle host; beside `--busy` processes that each spin a core; beside them with the
 *    service below them in priority (nice 10: they take the CPU whenever they want it, as heavier
 *    neighbours or a hypervisor would); and with the service stopped 700 ms of every second
 *    (SIGSTOP, as a hypervisor's steal or a CPU quota does). Refusing it sheds nothing: it should
 *    never see 503.
 *  - overload: `--connections` clients at once asking uncached searches and year-long lists, the
 *    service's own excess work, on an idle host and beside the busy processes. It should see 503
 *    for part of it, and the latency of what is accepted should stay bounded.
 *
 * Prints one table (requests, the share answered 503, the latency of the 2xx answers, the CPU the
 * service and the whole host used) and writes it to bench/results/overload.json. To compare with
 * another version of the guard, run the same file in a checkout of it. Like bench/run.ts it seeds
 * a fresh database (SQLite, or a new database on the server of DATABASE_URL) and starts the built
 * service as `npm start` does, in a child process.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { connect, migrate } from '../src/db/connect.js';
import { createUser } from '../src/modules/users/user.service.js';
import { seed, type Seeded } from './seed.js';
import { cpuSeconds, freePort, startArgs, waitReady } from './service.js';
import { createScratchDatabase } from '../test/helpers/scratch-postgres.js';

const { values: args } = parseArgs({
  options: {
    events: { type: 'string', default: '20000' },
    duration: { type: 'string', default: '10' },
    // Processes spinning a core each beside the service: the neighbours of a shared host.
    busy: { type: 'string', default: String(4 * os.availableParallelism()) },
    connections: { type: 'string', default: '256' },
    // CAL_MAX_EVENT_LOOP_DELAY_MS values to run every scenario with (comma-separated).
    'max-delay': { type: 'string', default: '500' },
    // Runs only the scenarios whose names start with one of these (comma-separated), e.g. "light".
    only: { type: 'string' },
  },
});
const EVENTS = Number(args.events);
const DURATION_MS = Number(args.duration) * 1000;
const BUSY = Number(args.busy);
const CONNECTIONS = Number(args.connections);

interface Row {
  max_delay_ms: number;
  scenario: string;
  requests: number;
  refused_503_pct: number;
  other_errors: number;
  ok_p50_ms: number;
  ok_p99_ms: number;
  ok_max_ms: number;
  /** CPU the service used, as a share of one core (100 = one core busy). */
  service_cpu_pct: number;
  /** CPU the whole host used, as a share of all its cores (the service, the clients, the neighbours). */
  host_cpu_pct: number;
}

/** Busy and total CPU ticks of the host so far, all cores (the first line of /proc/stat). */
function hostTicks(): { busy: number; total: number } {
  const [, ...fields] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const ticks = fields.map(Number);
  const idle = ticks[3]! + ticks[4]!;
  const total = ticks.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: total - idle, total };
}

function percentile(sorted: number[], p: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Tallies answers by status and the latency of the 2xx ones. */
class Tally {
  ok: number[] = [];
  refused = 0;
  other = 0;
  add(status: number, ms: number): void {
    if (status >= 200 && status < 300) this.ok.push(ms);
    else if (status === 503) this.refused += 1;
    else this.other += 1;
  }
  row(maxDelayMs: number, scenario: string, cpuPct: number, hostPct: number): Row {
    const ok = this.ok.sort((a, b) => a - b);
    const requests = ok.length + this.refused + this.other;
    const round = (n: number) => Math.round(n * 10) / 10;
    return {
      max_delay_ms: maxDelayMs,
      scenario,
      requests,
      refused_503_pct: round((this.refused / Math.max(1, requests)) * 100),
      other_errors: this.other,
      ok_p50_ms: round(percentile(ok, 50)),
      ok_p99_ms: round(percentile(ok, 99)),
      ok_max_ms: round(ok.at(-1) ?? 0),
      service_cpu_pct: Math.round(cpuPct),
      host_cpu_pct: Math.round(hostPct),
    };
  }
}

/**
 * `count` processes that each spin a core for `ms` and then exit by themselves (so none outlives
 * the bench even if it is killed); `stop` ends them sooner.
 */
function busyHost(count: number, ms: number): { stop(): Promise<void> } {
  const children = Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', `const end = Date.now() + ${ms}; while (Date.now() < end) {}`], { stdio: 'ignore' }),
  );
  return {
    async stop() {
      await Promise.all(
        children.map((child) =>
          child.exitCode !== null || child.signalCode !== null
            ? undefined
            : new Promise((resolve) => {
                child.once('exit', resolve);
                child.kill('SIGKILL');
              }),
        ),
      );
    },
  };
}

/**
 * Stops and continues `pid` in turn (`stoppedMs` stopped, `runningMs` running) until `stop`: the
 * process is not scheduled for stretches, as under a hypervisor's steal or a cgroup's CPU quota.
 */
function stalls(pid: number, stoppedMs: number, runningMs: number): { stop(): Promise<void> } {
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      process.kill(pid, 'SIGSTOP');
      await sleep(stoppedMs);
      process.kill(pid, 'SIGCONT');
      await sleep(runningMs);
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      process.kill(pid, 'SIGCONT');
    },
  };
}

/** One client reading `paths` in turn, each as soon as it has the previous answer, for `ms`. */
async function lightClient(base: string, paths: string[], ms: number, tally: Tally): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const end = performance.now() + ms;
  try {
    for (let i = 0; performance.now() < end; i += 1) {
      const started = performance.now();
      const status = await new Promise<number>((resolve) => {
        http
          .get(`${base}${paths[i % paths.length]!}`, { agent }, (res) => {
            res.resume();
            res.once('end', () => resolve(res.statusCode ?? 0));
          })
          .once('error', () => resolve(0));
      });
      tally.add(status, performance.now() - started);
    }
  } finally {
    agent.destroy();
  }
}

/** `connections` clients at once, each asking the next of `paths` as soon as it has an answer, for `ms`. */
async function manyClients(
  base: string,
  paths: string[],
  ms: number,
  connections: number,
  tally: Tally,
): Promise<void> {
  let i = 0;
  await new Promise<void>((resolve, reject) => {
    const instance = autocannon(
      {
        url: base,
        connections,
        duration: ms / 1000,
        timeout: 60,
        requests: [{ setupRequest: (request) => ({ ...request, path: paths[i++ % paths.length]! }) }],
      },
      (error) => (error ? reject(error) : resolve()),
    );
    instance.on('response', (_client, status, _bytes, responseTime) => tally.add(status, responseTime));
  });
}

/** Plain reads: the cached first page, single events, a month's list, uncached. */
function lightPaths(seeded: Seeded): string[] {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  return Array.from(
    { length: 2000 },
    (_, i) =>
      [
        '/cal/events/v1/events',
        `/cal/events/v1/events/${seeded.eventId + ((i * 7919) % EVENTS)}`,
        `/cal/events/v1/events?per_page=10&start_date=${day(i % 300)}&end_date=${day((i % 300) + 30)}&light=${i}`,
      ][i % 3]!,
  );
}

/** Heavy reads, each distinct so no cache answers: searches and year-long filtered lists, deep pages. */
function heavyPaths(seeded: Seeded): string[] {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  const words = ['jazz', 'market event', 'poetry', 'zzzunlikely', 'tasting 12', 'robotics'];
  return Array.from({ length: 8000 }, (_, i) => {
    const window = `start_date=${day(i % 300)}&end_date=${day((i % 300) + 364)}`;
    return [
      `/cal/events/v1/events?per_page=50&${window}&search=${encodeURIComponent(words[i % words.length]!)}&heavy=${i}`,
      `/cal/events/v1/events?per_page=50&${window}&page=${1 + (i % 20)}&heavy=${i}`,
      `/cal/events/v1/events?per_page=50&${window}&categories=${seeded.categorySlugs[i % seeded.categorySlugs.length]!}&page=${1 + (i % 5)}&heavy=${i}`,
    ][i % 3]!;
  });
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-bench-overload-'));
  const scratch = process.env['DATABASE_URL']
    ? await createScratchDatabase(process.env['DATABASE_URL'], 'cal_bench')
    : null;
  const results: Row[] = [];
  try {
    const storage = await connect({ dataDir, databaseUrl: scratch?.url });
    await migrate(storage.db);
    const { user } = await createUser(storage.db, { username: 'bench', role: 'administrator' });
    const seeded = await seed(storage.db, EVENTS, user.id);
    await storage.close();
    console.log(
      `seeded ${EVENTS} events on ${scratch ? 'PostgreSQL' : 'SQLite'}; ${os.availableParallelism()} cores, ${BUSY} busy neighbours`,
    );

    const build = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
    if (build.status !== 0) throw new Error('build failed');
    const serviceArgs = startArgs();
    const light = lightPaths(seeded);
    const heavy = heavyPaths(seeded);

    for (const maxDelay of args['max-delay'].split(',').map(Number)) {
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const child = spawn(process.execPath, serviceArgs, {
        env: {
          ...process.env,
          DATA_DIR: dataDir,
          ...(scratch ? { DATABASE_URL: scratch.url } : {}),
          PORT: String(port),
          HOST: '127.0.0.1',
          LOG_LEVEL: 'error',
          CAL_MAX_EVENT_LOOP_DELAY_MS: String(maxDelay),
        },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      try {
        await waitReady(`${base}/health/ready`, child);
        // Past the guard's warm-up, and the caches of the light pages warm.
        await lightClient(base, light, 2000, new Tally());
        /** Name, what else runs on the host meanwhile, and the load. */
        const scenarios: [string, () => { stop(): Promise<void> }, (tally: Tally) => Promise<void>][] = [
          ['light, idle host', () => busyHost(0, 0), (tally) => lightClient(base, light, DURATION_MS, tally)],
          [
            `light, ${BUSY} busy neighbours`,
            () => busyHost(BUSY, DURATION_MS + 5000),
            (tally) => lightClient(base, light, DURATION_MS, tally),
          ],
          [
            'light, stopped 700 ms a second',
            () => stalls(child.pid!, 700, 300),
            (tally) => lightClient(base, light, DURATION_MS, tally),
          ],
          [
            `overload, ${CONNECTIONS} clients`,
            () => busyHost(0, 0),
            (tally) => manyClients(base, heavy, DURATION_MS, CONNECTIONS, tally),
          ],
          [
            `overload, ${CONNECTIONS} clients, ${BUSY} busy neighbours`,
            () => busyHost(BUSY, DURATION_MS + 5000),
            (tally) => manyClients(base, heavy, DURATION_MS, CONNECTIONS, tally),
          ],
          // Last: the service's priority cannot be raised back without privileges.
          [
            `light, ${BUSY} busy neighbours ahead in priority`,
            () => {
              os.setPriority(child.pid!, 10);
              return busyHost(BUSY, DURATION_MS + 5000);
            },
            (tally) => lightClient(base, light, DURATION_MS, tally),
          ],
        ];
        for (const [name, neighbours, run] of scenarios) {
          if (args.only && !args.only.split(',').some((prefix) => name.startsWith(prefix.trim()))) continue;
          const tally = new Tally();
          const cpuBefore = cpuSeconds(child.pid!);
          const hostBefore = hostTicks();
          const started = performance.now();
          const host = neighbours();
          try {
            await run(tally);
          } finally {
            await host.stop();
          }
          const hostAfter = hostTicks();
          const hostPct = ((hostAfter.busy - hostBefore.busy) / Math.max(1, hostAfter.total - hostBefore.total)) * 100;
          const row = tally.row(
            maxDelay,
            name,
            ((cpuSeconds(child.pid!) - cpuBefore) / ((performance.now() - started) / 1000)) * 100,
            hostPct,
          );
          console.log(JSON.stringify(row));
          results.push(row);
          // The guard's samples forget the scenario before the next begins.
          await sleep(3000);
        }
      } finally {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
    }
    console.table(results);
    fs.mkdirSync('bench/results', { recursive: true });
    fs.writeFileSync(
      'bench/results/overload.json',
      JSON.stringify(
        {
          date: new Date().toISOString(),
          database: scratch ? 'postgres' : 'sqlite',
          events: EVENTS,
          durationSeconds: DURATION_MS / 1000,
          busy: BUSY,
          connections: CONNECTIONS,
          cores: os.availableParallelism(),
          results,
        },
        null,
        2,
      ),
    );
  } finally {
    await scratch?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
