import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { connect, migrate, type Storage } from '../../src/db/connect.js';
import { isValidTimezone } from '../../src/lib/dates.js';
import { injector, queryCounter, type TestApp } from './app.js';

/** What the operator's tests (ops-*, copy*) run: the real CLI and server in child processes, apps on existing databases. */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export const tmpDir = (prefix: string) => fs.mkdtempSync(path.join(os.tmpdir(), prefix));

/** The environment of a child process: this one's, without any database of the test runner's. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'silent' };
  delete base['DATABASE_URL'];
  return { ...base, ...env };
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `cal-events …` as an operator runs it (DATA_DIR, DATABASE_URL… in `env`). */
export function runCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli.ts', ...args],
      { cwd: ROOT, env: childEnv(env) },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

export interface RunningServer {
  address: string;
  pid: number;
  /** Every line it has logged so far, raw. */
  lines: string[];
  /** SIGTERM; resolves with the exit code. */
  stop(): Promise<number | null>;
}

/** `src/server.ts` in a child process on a free port; resolves once it logs "ready". */
export async function startServer(env: Record<string, string>): Promise<RunningServer> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: ROOT,
    env: childEnv({ PORT: '0', LOG_LEVEL: 'info', CAL_MAX_EVENT_LOOP_DELAY_MS: '0', ...env }),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const address = await new Promise<string>((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      const entry = JSON.parse(line) as { msg: string; address?: string };
      if (entry.msg === 'ready') resolve(entry.address!);
    });
    void exited.then((code) => reject(new Error(`the server exited with ${code}`)));
  });
  return {
    address,
    pid: child.pid!,
    lines,
    stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}

/** A service over a database that exists already (a copy, a restore): migrated if need be, then served. */
export async function appOn(env: Record<string, string>): Promise<TestApp> {
  const config = loadConfig(
    { DATA_DIR: tmpDir('cal-unused-'), LOG_LEVEL: 'silent', CAL_MAX_EVENT_LOOP_DELAY_MS: '0', ...env },
    isValidTimezone,
  );
  const storage: Storage = await connect({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  await migrate(storage.db);
  const app: FastifyInstance = await buildApp(config, { storage, logger: false });
  await app.ready();
  return {
    app,
    storage,
    config,
    backend: config.databaseUrl ? 'postgres' : 'sqlite',
    queries: queryCounter(),
    asUser: () => Promise.reject(new Error('appOn: create users through the API')),
    request: injector(app),
    async close() {
      await app.close();
      await storage.close();
    },
  };
}
