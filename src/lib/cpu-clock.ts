import fs from 'node:fs';

/**
 * The CPU time this thread has used, in milliseconds. The main thread's own time is what tells a
 * slow statement or a held event loop from a host that took the process off the CPU (the SQLite
 * reader threads' start, the overload guard). The process's time would not do: it also counts the
 * reader threads, V8's background threads and libuv's pool, and, busy meanwhile, they make a short
 * statement on a loaded host look as costly as its wall time (issue 30).
 *
 * `process.threadCpuUsage` (Node 22 and 24) reads it. Node 20 has no such call: on Linux the
 * thread's scheduler statistics tell it (`/proc/thread-self/schedstat`, nanoseconds on the CPU,
 * read again through one descriptor: 3–4 µs a reading; the slice running when it is read counts
 * from the scheduler's next tick, a few milliseconds at most, well within the 50 ms a slow read
 * is); elsewhere the process's time is the fallback.
 */
type Usage = { user: number; system: number };
const ms = ({ user, system }: Usage) => (user + system) / 1000;
const threadUsage = (process as { threadCpuUsage?: () => Usage }).threadCpuUsage?.bind(process);
const oneThread = threadUsage ? () => ms(threadUsage()) : schedulerClock();

export const threadCpuMs: () => number = oneThread ?? (() => ms(process.cpuUsage()));

/** Whether {@link threadCpuMs} reads this thread's time alone, not the fallback of the process's. */
export const READS_ONE_THREAD = oneThread !== null;

/** This thread's time from Linux's scheduler statistics, or null where they cannot be read. */
function schedulerClock(): (() => number) | null {
  if (process.platform !== 'linux') return null;
  try {
    // /proc/thread-self names the thread that opens it: the descriptor stays this thread's.
    const fd = fs.openSync('/proc/thread-self/schedstat', 'r');
    const buffer = Buffer.alloc(96);
    const read = () => Number(buffer.toString('latin1', 0, fs.readSync(fd, buffer, 0, 96, 0)).split(' ')[0]) / 1e6;
    return Number.isFinite(read()) ? read : (fs.closeSync(fd), null);
  } catch {
    return null;
  }
}
