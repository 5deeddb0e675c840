import { spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** What the benchmarks share to run the service as a child process and watch it. */

/**
 * The arguments of `node` in `npm start` (its flags and `dist/src/server.js`), so that what the
 * benches start is exactly the service as it is run: the flags are a part of its memory and speed.
 */
export function startArgs(): string[] {
  const { scripts } = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: { start: string } };
  return scripts.start.split(/\s+/).slice(1);
}

/** A TCP port free on 127.0.0.1 for the service to listen on. */
export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Waits until `url` answers 2xx (30 s at most); fails at once if the service exited. */
export async function waitReady(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 300; i += 1) {
    if (child.exitCode !== null) throw new Error(`service exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error('service did not become ready');
}

/** User and system CPU seconds of a process so far (Linux clock ticks are 1/100 s). */
export function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * Reads `files` once, so that the operating system holds them in its cache, and answers their
 * size and how much of it was cached before (from util-linux's `fincore`; null without it). A
 * busy service's database stays in that cache; this machine's kernel pages out file pages left
 * unread for a minute (DAMON reclaim), so a scenario that follows a pause (the bench's wait for
 * the common searches) would otherwise measure reads from disk: at 1,000,000 events the window
 * lists ran at 11 requests/s, the service 23 % busy.
 */
export function warmFiles(files: string[]): { bytes: number; cachedBefore: number | null } {
  const fincore = spawnSync('fincore', ['--bytes', '--noheadings', '--raw', '--output', 'RES', ...files], {
    encoding: 'utf8',
  });
  const cachedBefore =
    fincore.status === 0
      ? fincore.stdout
          .trim()
          .split('\n')
          .filter(Boolean)
          .reduce((n, l) => n + Number(l), 0)
      : null;
  const buffer = Buffer.allocUnsafe(1 << 20);
  let bytes = 0;
  for (const file of files) {
    let fd: number;
    try {
      fd = fs.openSync(file, 'r');
    } catch {
      continue; // gone meanwhile (a WAL file checkpointed away)
    }
    try {
      for (let read; (read = fs.readSync(fd, buffer, 0, buffer.length, null)) > 0;) bytes += read;
    } finally {
      fs.closeSync(fd);
    }
  }
  return { bytes, cachedBefore };
}

/** SQLite's reader threads as the service's metrics give them (null without them: PostgreSQL, or none allowed). */
export interface ReaderCounts {
  threads: number;
  /** Reads run in a thread so far. */
  thread: number;
  /** Reads refused so far, too many slow ones waiting. */
  refused: number;
}

/** The reader counts in the service's metrics at `url` (its `/metrics`, CAL_METRICS=1). */
export async function readerCounts(url: string): Promise<ReaderCounts | null> {
  const text = await (await fetch(url)).text();
  const sample = (pattern: RegExp) => pattern.exec(text)?.[1];
  const threads = sample(/^cal_sqlite_reader_threads (\d+)/m);
  if (threads === undefined) return null;
  return {
    threads: Number(threads),
    thread: Number(sample(/^cal_sqlite_reads_total\{outcome="thread"\} (\d+)/m) ?? 0),
    refused: Number(sample(/^cal_sqlite_reads_total\{outcome="refused"\} (\d+)/m) ?? 0),
  };
}
