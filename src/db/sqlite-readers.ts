import { Worker } from 'node:worker_threads';

/** What a reader thread opens: the database file and the main connection's pragmas that matter to a reader. */
export interface ReaderSetup {
  file: string;
  pragmas: string[];
}
export type ReaderRequest =
  { type: 'run'; id: number; sql: string; parameters: readonly unknown[] } | { type: 'close' };
/** A statement's rows (and how long it ran, in ms) or error; id 0 says the thread is ready. */
export type ReaderReply =
  | { id: number; rows: unknown[]; ms: number }
  | { id: number; error: { message: string; name: string; code: string | undefined } };

/**
 * Runs a statement on the main connection: its rows, and how long it ran (ms, its wait for the
 * connection aside, and no longer than the CPU time the process had meanwhile).
 */
type RunOnMain = (sql: string, parameters: readonly unknown[]) => Promise<{ rows: unknown[]; ms: number }>;

interface Job {
  sql: string;
  parameters: readonly unknown[];
  resolve(rows: unknown[]): void;
  reject(error: Error): void;
}

interface Reader {
  worker: Worker;
  ready: boolean;
  job: Job | null;
  /** Settles when the thread is ready or has ended. */
  started: Promise<void>;
  exited: Promise<void>;
}

/**
 * A thread's heap, bounded (V8 lets an idle heap grow to what the machine could give): it holds
 * one statement's rows at a time. A read that needs more ends the thread and runs again on the
 * main connection, like any read whose thread stopped.
 */
const LIMITS = { maxYoungGenerationSizeMb: 12, maxOldGenerationSizeMb: 64 };

/**
 * A statement that has run this often, typically in less than this (ms), and never slow (SLOW_MS),
 * is quick: it runs on the main connection rather than pay a thread's round trip, wake-ups and the
 * copy of its rows (the data version every request reads, a record by its id, a page of a list).
 * Its runs there are timed too: runs that take longer send it back to the threads until its typical
 * time is quick again, and one slow run for good (a statement whose cost depends on its values, a
 * count or a search, can stop the loop once, not again). 5 ms rather than 1: at a million events
 * the mixed uncached scenario ran 231 requests/s against 220, and single events 1,871/s against
 * 1,412 (one run each, issue 30 note).
 */
const QUICK_RUNS = 20;
const QUICK_MS = 5;
/**
 * How much a statement's latest run weighs in its typical time (an exponential average). Typical,
 * not slowest: with the slowest, one run of a quick statement that a busy host stretched past
 * QUICK_MS (a thread's runs are timed by the clock, not the CPU) sent it to the threads for good,
 * to pay a round trip and the copy of its rows on every run after.
 */
const TYPICAL_WEIGHT = 0.2;
/**
 * A read that took this long (ms) is slow: on the main connection it held every other request as
 * long. The first thread starts after the first slow read, not before: a calendar whose reads all
 * take a few milliseconds never pays a thread's memory (some 28 MB each) nor its round trips; at a
 * million events the first cold count of a search (a second and more) starts them. From then on a
 * statement once slow waits for a thread, and the others take a free thread or, all being busy with
 * slow ones, the main connection: slow reads never fill every thread while quicker ones queue
 * behind them. Measured at a million events before the common searches' counts were taken, mixed
 * uncached requests: with every thread taking the oldest read, 49 a second (p99 3.1 s); as here,
 * 177 (p99 481 ms). Without threads the overload guard refused 5,164 of some 5,400.
 */
const SLOW_MS = 50;
/**
 * Slow reads that may wait for a thread, per thread. Past it a slow read is refused at once (the
 * error's code is READERS_BUSY, which the service answers with 503), as the overload guard refuses
 * requests while the loop is held: a backlog of reads that take a second each would otherwise
 * grow without bound, and every reader would wait for all of it.
 */
const WAITING_PER_THREAD = 4;
/** The code of the error a refused read is rejected with. */
export const READERS_BUSY = 'CAL_READERS_BUSY';
/** Statements whose cost is remembered (by SQL text; forgotten all at once past this). */
const MAX_COSTS = 2000;

/** What the readers know of each statement's cost, by its SQL text: where its next run goes. */
export class StatementCosts {
  readonly #costs = new Map<string, { runs: number; typical: number; slowest: number }>();

  /** Records a run of `sql` that took `ms`. */
  measured(sql: string, ms: number): void {
    const cost = this.#costs.get(sql);
    if (cost) {
      cost.runs += 1;
      cost.typical += (ms - cost.typical) * TYPICAL_WEIGHT;
      cost.slowest = Math.max(cost.slowest, ms);
      return;
    }
    if (this.#costs.size >= MAX_COSTS) this.#costs.clear();
    this.#costs.set(sql, { runs: 1, typical: ms, slowest: ms });
  }

  /** Run often enough, typically quick, never slow: it runs on the main connection. */
  quick(sql: string): boolean {
    const cost = this.#costs.get(sql);
    return cost !== undefined && cost.runs >= QUICK_RUNS && cost.typical < QUICK_MS && cost.slowest < SLOW_MS;
  }

  /** Once slow: it waits for a thread rather than run on the main connection. */
  slow(sql: string): boolean {
    return (this.#costs.get(sql)?.slowest ?? 0) >= SLOW_MS;
  }
}

const source = import.meta.url.endsWith('.ts');
const ENTRY = new URL(`./sqlite-reader.worker.${source ? 'ts' : 'js'}`, import.meta.url);

/**
 * Node 20 does not run the parent's `--import tsx` hooks for a worker's entry, so from the
 * TypeScript sources (tests, `npm run dev`, the bench's scripts) the thread registers tsx itself
 * before loading the worker; from dist/ it loads the compiled file.
 */
function startThread(setup: ReaderSetup): Worker {
  const options = { workerData: setup, resourceLimits: LIMITS };
  if (!source) return new Worker(ENTRY, options);
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import(${JSON.stringify(tsx)}).then((api) => { api.register(); return import(${JSON.stringify(ENTRY.href)}); })`;
  return new Worker(boot, { ...options, eval: true });
}

/** What the readers have done so far (stats(): the metrics and tests read it). */
export interface SqliteReadersStats {
  threads: number;
  ready: number;
  ran: number;
  retried: number;
  quick: number;
  /** Slow reads refused because too many waited (WAITING_PER_THREAD). */
  refused: number;
  /** Whether threads start when reads come (a read was slow, or `warm` was called). */
  needed: boolean;
}

/**
 * Read-only connections to the embedded database in worker threads, so that a slow read (a cold
 * count, a search of a common word) runs beside the event loop instead of stopping it: WAL lets
 * them read while the main connection writes, and each statement sees every commit made before it
 * was sent. Threads are needed once a read on the main connection has been slow (SLOW_MS) or
 * `warm` is called; from then on they start when reads come and none is free, one at a time, up to
 * `max`. Until the first is ready, reads run on the main connection (starting never delays a
 * read). Only reads once slow wait for a thread, the oldest first; the others run on the main
 * connection when every thread is busy, and always once known to be quick (QUICK_RUNS below).
 */
export class SqliteReaders {
  readonly #setup: ReaderSetup;
  readonly #max: number;
  readonly #runOnMain: RunOnMain;
  #readers: Reader[] = [];
  #queue: Job[] = [];
  #nextId = 1;
  #closed = false;
  /** A thread that could not open the database: every read runs on the main connection from then on. */
  #broken = false;
  /** Whether threads start when reads come: a read on the main connection was slow, or `warm` was called. */
  #needed = false;
  #ran = 0;
  #retried = 0;
  #quick = 0;
  #refused = 0;
  readonly #costs = new StatementCosts();

  constructor(setup: ReaderSetup, max: number, runOnMain: RunOnMain) {
    this.#setup = setup;
    this.#max = max;
    this.#runOnMain = runOnMain;
  }

  /**
   * Runs a read-only statement in a free thread; on the main connection when it is known quick,
   * when no thread is ready, or when every thread is busy and it has never been slow.
   */
  run(sql: string, parameters: readonly unknown[]): Promise<unknown[]> {
    if (this.#closed || this.#broken) return this.#onMain(sql, parameters);
    if (this.#costs.quick(sql)) {
      this.#quick += 1;
      return this.#onMain(sql, parameters, true);
    }
    const free = this.#readers.find((reader) => reader.ready && reader.job === null);
    if (!free) {
      if (this.#needed && this.#readers.length < this.#max && this.#readers.every((reader) => reader.ready))
        this.#start();
      // Timed: its cost decides whether threads are needed, and where it runs once they are.
      if (!this.#costs.slow(sql) || !this.#readers.some((reader) => reader.ready))
        return this.#onMain(sql, parameters, true);
    }
    return new Promise((resolve, reject) => {
      const job = { sql, parameters, resolve, reject };
      if (free) this.#send(free, job);
      else if (this.#queue.length < this.#max * WAITING_PER_THREAD) this.#queue.push(job);
      else {
        this.#refused += 1;
        reject(Object.assign(new Error('Too many slow reads wait for a reader thread.'), { code: READERS_BUSY }));
      }
    });
  }

  /**
   * Threads started, statements they answered, reads run again after their thread stopped, quick
   * reads run on the main connection, slow reads refused, and whether threads are needed (the
   * metrics and tests look).
   */
  stats(): SqliteReadersStats {
    return {
      threads: this.#readers.length,
      ready: this.#readers.filter((reader) => reader.ready).length,
      ran: this.#ran,
      retried: this.#retried,
      quick: this.#quick,
      refused: this.#refused,
      needed: this.#needed,
    };
  }

  /** Starts every thread and resolves once they are ready (or have failed): tests, or a service at start-up. */
  async warm(): Promise<void> {
    if (this.#closed || this.#broken) return;
    this.#needed = true;
    while (this.#readers.length < this.#max) this.#start();
    await Promise.all(this.#readers.map((reader) => reader.started));
  }

  /**
   * Stops every thread at once, as a crash would: the reads they were running run again on the
   * main connection (a read can be repeated), and the next reads start new threads.
   */
  async terminate(): Promise<void> {
    await Promise.all(this.#readers.map((reader) => reader.worker.terminate()));
  }

  /** Closes the threads' connections after the statements they are running, and ends the threads. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const job of this.#queue.splice(0)) job.reject(new Error('The database was closed before this read ran.'));
    for (const reader of this.#readers) {
      reader.worker.ref();
      // One still starting has nothing to finish (a test's short-lived database need not wait for it).
      if (!reader.ready) void reader.worker.terminate();
      else reader.worker.postMessage({ type: 'close' } satisfies ReaderRequest);
    }
    await Promise.all(this.#readers.map((reader) => reader.exited));
  }

  #start(): void {
    const worker = startThread(this.#setup);
    let failure: Error | undefined;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    const started = Promise.race([new Promise<void>((resolve) => worker.once('message', () => resolve())), exited]);
    const reader: Reader = { worker, ready: false, job: null, started, exited };
    this.#readers.push(reader);
    worker.on('message', (reply: ReaderReply) => this.#answer(reader, reply));
    worker.on('error', (error) => (failure = error));
    worker.once('exit', (code) => this.#ended(reader, code, failure));
  }

  #send(reader: Reader, job: Job): void {
    reader.job = job;
    // Busy, the thread keeps the process alive (a script awaiting a read must not exit); idle, it does not.
    reader.worker.ref();
    const request: ReaderRequest = { type: 'run', id: this.#nextId++, sql: job.sql, parameters: job.parameters };
    reader.worker.postMessage(request);
  }

  #answer(reader: Reader, reply: ReaderReply): void {
    if (!reader.ready) reader.ready = true;
    else {
      const job = reader.job!;
      reader.job = null;
      this.#ran += 1;
      if ('rows' in reply) {
        this.#costs.measured(job.sql, reply.ms);
        job.resolve(reply.rows);
      } else job.reject(Object.assign(new Error(reply.error.message), reply.error));
    }
    if (this.#closed) return;
    const next = this.#queue.shift();
    if (next) this.#send(reader, next);
    else reader.worker.unref();
  }

  async #onMain(sql: string, parameters: readonly unknown[], timed = false): Promise<unknown[]> {
    const { rows, ms } = await this.#runOnMain(sql, parameters);
    if (timed) this.#costs.measured(sql, ms);
    if (ms >= SLOW_MS) this.#needed = true;
    return rows;
  }

  #ended(reader: Reader, code: number, failure: Error | undefined): void {
    this.#readers.splice(this.#readers.indexOf(reader), 1);
    if (this.#closed) {
      reader.job?.reject(new Error('The database was closed while this read ran.'));
      return;
    }
    if (!reader.ready) {
      this.#broken = true;
      process.emitWarning(
        `SQLite reader thread could not start (exit code ${code}${failure ? `: ${failure.message}` : ''}); reads run on the main connection.`,
      );
    }
    // What it was running, and what waits with no thread left to take it, runs on the main connection.
    const orphans = reader.job ? [reader.job] : [];
    this.#retried += orphans.length;
    if (!this.#readers.some((other) => other.ready)) orphans.push(...this.#queue.splice(0));
    for (const job of orphans) this.#onMain(job.sql, job.parameters).then(job.resolve, job.reject);
  }
}
