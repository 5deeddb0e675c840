/**
 * npm run bench -- --only 17   (or: tsx bench/spam-wave.ts [--count 1000] [--connections 16])
 *
 * A spam wave against the public submission form (issue 29): waves of POSTs to /events/submit/
 * as a bot would send them (no JavaScript, so no proof of work), each from a different angle,
 * against the service started as `npm start` runs it, with submissions open to anyone and the
 * default limits. For each wave: how many were stored and how many refused (by answer), the
 * latency of the answers, the service's CPU time, and the rows the wave left in the database.
 * Client addresses are given in X-Forwarded-For (the service trusts it here: CAL_TRUST_PROXY).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { connect, migrate } from '../src/db/connect.js';
import { SettingsStore } from '../src/modules/settings/settings.service.js';
import { loadConfig } from '../src/config.js';
import { cpuSeconds, freePort, waitReady } from './service.js';
import { createScratchDatabase } from '../test/helpers/scratch-postgres.js';

const { values: args } = parseArgs({
  options: {
    count: { type: 'string', default: '1000' },
    connections: { type: 'string', default: '16' },
  },
});
const COUNT = Number(args.count);
const CONNECTIONS = Number(args.connections);

interface Wave {
  name: string;
  /** The i-th submission's client address, e-mail and whether it fills the honeypot. */
  from(i: number): { ip: string; email: string; honeypot?: boolean };
}

const WAVES: Wave[] = [
  { name: 'a. one address, a new e-mail each', from: (i) => ({ ip: '203.0.113.7', email: `bot${i}@spam.example` }) },
  {
    name: 'b. one IPv6 /64, a new address and e-mail each',
    from: (i) => ({ ip: `2001:db8:1:2:${(i + 1).toString(16)}::1`, email: `v6bot${i}@spam.example` }),
  },
  {
    name: 'c. a new address each, one e-mail',
    from: (i) => ({ ip: `198.18.${Math.floor(i / 250)}.${(i % 250) + 1}`, email: 'same@spam.example' }),
  },
  {
    name: 'd. one address, the honeypot filled',
    from: (i) => ({ ip: '203.0.113.99', email: `hp${i}@spam.example`, honeypot: true }),
  },
  {
    name: 'e. a new address and e-mail each (a botnet)',
    from: (i) => ({ ip: `198.19.${Math.floor(i / 250)}.${(i % 250) + 1}`, email: `net${i}@spam.example` }),
  },
];

function form(wave: number, i: number, honeypot: boolean, email: string): string {
  return new URLSearchParams({
    title: `Cheap watches ${wave}-${i}`,
    description: 'Best prices https://spam.example/watches',
    start: '2031-05-01T10:00',
    end: '2031-05-01T11:00',
    timezone: '',
    venue_id: '',
    venue_name: '',
    organizer_id: '',
    organizer_name: '',
    category_id: '',
    tags: '',
    cost: '',
    website: '',
    image: '',
    name: 'Bot',
    email,
    homepage: honeypot ? 'https://spam.example' : '',
  }).toString();
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-spam-'));
  const scratch = process.env['DATABASE_URL']
    ? await createScratchDatabase(process.env['DATABASE_URL'], 'cal_spam')
    : null;
  const env: Record<string, string> = { DATA_DIR: dataDir, ...(scratch ? { DATABASE_URL: scratch.url } : {}) };
  const config = loadConfig({ ...env, LOG_LEVEL: 'silent' });
  const storage = await connect({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  await migrate(storage.db);
  await new SettingsStore(storage.db, config).update({ submissions: 'anyone' });

  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', CAL_TRUST_PROXY: '1' },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const base = `http://127.0.0.1:${port}`;
  const rows: Record<string, string | number>[] = [];
  try {
    await waitReady(`${base}/`, child);
    for (const [w, wave] of WAVES.entries()) {
      const statuses = new Map<number, number>();
      const latencies: number[] = [];
      const storedBefore = Number(
        (
          await storage.db
            .selectFrom('submissions')
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
      const cpuBefore = cpuSeconds(child.pid!);
      const started = performance.now();
      let next = 0;
      await Promise.all(
        Array.from({ length: CONNECTIONS }, async () => {
          for (let i = next++; i < COUNT; i = next++) {
            const { ip, email, honeypot = false } = wave.from(i);
            const sent = performance.now();
            const res = await fetch(`${base}/events/submit/`, {
              method: 'POST',
              redirect: 'manual',
              headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': ip },
              body: form(w, i, honeypot, email),
            });
            await res.arrayBuffer();
            latencies.push(performance.now() - sent);
            statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          }
        }),
      );
      const seconds = (performance.now() - started) / 1000;
      const cpu = cpuSeconds(child.pid!) - cpuBefore;
      const stored =
        Number(
          (
            await storage.db
              .selectFrom('submissions')
              .select((eb) => eb.fn.countAll<string>().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        ) - storedBefore;
      latencies.sort((a, b) => a - b);
      rows.push({
        wave: wave.name,
        stored,
        refused: COUNT - stored,
        answers: [...statuses].map(([status, n]) => `${status}×${n}`).join(' '),
        p50_ms: Math.round(percentile(latencies, 0.5) * 10) / 10,
        p99_ms: Math.round(percentile(latencies, 0.99) * 10) / 10,
        per_sec: Math.round(COUNT / seconds),
        service_cpu_ms_each: Math.round((cpu * 1000 * 10) / COUNT) / 10,
      });
    }
    console.table(rows);
    console.log(
      `${config.databaseUrl ? 'PostgreSQL' : 'SQLite'}, ${COUNT} submissions a wave, ${CONNECTIONS} connections`,
    );
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    await storage.close();
    await scratch?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
