import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { READS_ONE_THREAD, threadCpuMs } from '../../src/lib/cpu-clock.js';

/**
 * Keeps this thread busy until the process has used `ms` of CPU time, read by the process's own
 * clock (not the one under test). Wall time would not do: on a loaded machine 150 ms of it gave
 * this thread 41 ms of CPU.
 */
function spinCpu(ms: number): number {
  const start = process.cpuUsage();
  let used = 0;
  while (used < ms) {
    const { user, system } = process.cpuUsage(start);
    used = (user + system) / 1000;
  }
  return used;
}

describe('threadCpuMs', () => {
  it("counts this thread's own work", () => {
    const before = threadCpuMs();
    const processMs = spinCpu(150);
    // Most of the process's time (its other threads are idle here), and never more than it.
    const used = threadCpuMs() - before;
    assert.ok(used > 100 && used <= processMs + 10, `this thread ${used} ms, the process ${processMs} ms`);
  });

  it(
    "does not count another thread's work",
    // Node 20 off Linux has only the process's time (cpu-clock.ts).
    { skip: !READS_ONE_THREAD && 'no clock of one thread here' },
    async () => {
      // A thread busy for 300 ms of its own CPU time while this one waits: the process's CPU time
      // grows by that, this thread's by the little it takes to start and join the other. The other
      // counts its own time (as cpu-clock.ts reads it), not the wall's: on a busy machine 400 ms of
      // wall time gave it only 200 ms of CPU.
      const process0 = process.cpuUsage();
      const before = threadCpuMs();
      const worker = new Worker(
        `const { parentPort } = require('node:worker_threads');
        const fs = require('node:fs');
        const own = process.threadCpuUsage
          ? () => { const { user, system } = process.threadCpuUsage(); return (user + system) / 1000; }
          : () => Number(fs.readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[0]) / 1e6;
        const start = own();
        while (own() - start < 300);
        parentPort.postMessage('done');`,
        { eval: true },
      );
      await new Promise((resolve, reject) => worker.once('message', resolve).once('error', reject));
      await worker.terminate();
      const own = threadCpuMs() - before;
      const { user, system } = process.cpuUsage(process0);
      const processMs = (user + system) / 1000;
      assert.ok(processMs - own > 200, `process ${processMs} ms, this thread ${own} ms`);
    },
  );
});
