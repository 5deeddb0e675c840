import { createRequire } from 'node:module';
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import type Koffi from 'koffi';

/**
 * glibc's malloc keeps the memory a program frees for its next allocations: it gives back on its
 * own only the free space at the top of its heap. Freed space between chunks still in use stays
 * resident. The service's transient buffers (a page's bytes and a fresh answer's, 100–270 KB each,
 * and the compressors' state) are freed between the long-lived ones: the page cache's coded
 * bodies, SQLite's page cache and statements. So after serving pages and lists some 30 MB of free
 * memory stayed resident at 100,000 events, whatever the idle time that followed (issue 30).
 * `malloc_trim(0)` gives back every whole free page of every arena (glibc 2.8 and later).
 *
 * The call is glibc's: the C libraries of musl, macOS and Windows have other allocators and no
 * such call, and there nothing is trimmed. It is made through koffi, a foreign function interface
 * (prebuilt for each platform), so that no native code of ours is compiled at install; koffi is
 * loaded only when trimming starts.
 */
interface Trim {
  (pad: number): number;
  /** The same call on a thread of libuv's pool, so that its walk never holds the event loop. */
  async(pad: number, callback: (error: unknown, released: number) => void): void;
}

let loaded: Trim | null | undefined;

/** glibc's `malloc_trim`, or null where the C library is not glibc or koffi cannot load it. */
function mallocTrim(): Trim | null {
  if (loaded !== undefined) return loaded;
  try {
    const koffi = createRequire(import.meta.url)('koffi') as typeof Koffi;
    loaded = koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as unknown as Trim;
  } catch {
    loaded = null;
  }
  return loaded;
}

/** Whether this process can trim (glibc's C library, and koffi loaded). */
export const canTrim = (): boolean => mallocTrim() !== null;

/**
 * Gives back the whole free pages of every arena now, on a thread of libuv's pool: a trim of the
 * service under load took 0.7–7.6 ms (100,000 events, a busy machine), which on the event loop
 * would have held every request as long. Answers how long it took and whether memory went back
 * (false where there is nothing to trim with).
 */
export function trimNow(): Promise<{ ms: number; released: boolean }> {
  const trim = mallocTrim();
  if (!trim) return Promise.resolve({ ms: 0, released: false });
  const started = performance.now();
  return new Promise((resolve, reject) =>
    trim.async(0, (error, released) =>
      error ? reject(error) : resolve({ ms: performance.now() - started, released: released === 1 }),
    ),
  );
}

export interface TrimOptions {
  /** The least time between two trims (ms): each walks every arena, holding its lock. */
  everyMs?: number;
  /** How long after a collection to trim (ms): V8 frees the dead buffers' memory after it, on its own threads. */
  settleMs?: number;
  /** Told of each trim: how long it took and whether memory went back. */
  onTrim?: (ms: number, released: boolean) => void;
}

/**
 * Trims after garbage collections, the moments when memory has been freed: `settleMs` after the
 * collection that asks for it, at most once every `everyMs`. A collection that comes while a trim
 * is waiting or running asks for one more after it, so the last collection of a load is always
 * followed by a trim, which gives back what the load left; an idle service collects rarely and so
 * trims rarely. Answers the function that stops it (nothing is scheduled where there is no
 * `malloc_trim`).
 */
export function trimAfterCollections({ everyMs = 5000, settleMs = 1000, onTrim }: TrimOptions = {}): () => void {
  if (!canTrim()) return () => undefined;
  let last = -Infinity;
  let timer: NodeJS.Timeout | null = null;
  let running = false;
  let again = false;
  let stopped = false;
  const schedule = () => {
    timer = setTimeout(run, Math.max(settleMs, last + everyMs - performance.now()));
    timer.unref();
  };
  const run = () => {
    timer = null;
    running = true;
    void trimNow()
      .then(({ ms, released }) => onTrim?.(ms, released))
      // A failed call leaves the memory where it was; the next collection tries again.
      .catch(() => undefined)
      .finally(() => {
        running = false;
        last = performance.now();
        if (again && !stopped) schedule();
        again = false;
      });
  };
  const observer = new PerformanceObserver((list) => {
    if (!list.getEntries().some(isCollection)) return;
    if (timer || running) again = true;
    else schedule();
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => {
    stopped = true;
    observer.disconnect();
    if (timer) clearTimeout(timer);
    timer = null;
  };
}

/** A collection that may have freed buffers: every kind but V8's incremental marking steps. */
const isCollection = (entry: PerformanceEntry) =>
  (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind !==
  constants.NODE_PERFORMANCE_GC_INCREMENTAL;
