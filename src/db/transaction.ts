import { AsyncLocalStorage } from 'node:async_hooks';
import type { Transaction } from 'kysely';
import type { Database, Db } from './database.js';

type Precondition = (trx: Transaction<Database>) => Promise<void>;

/**
 * A condition the next write transaction of this async context checks first, inside itself: a
 * route with `If-Match` sets it around its service call, so the comparison and the write are one
 * atomic step (with the record locked on PostgreSQL) without every service taking it as a parameter.
 */
const preconditions = new AsyncLocalStorage<Precondition>();

/** Runs `work` (which opens the write transaction) with `check` as that transaction's first step. */
export function withPrecondition<T>(check: Precondition, work: () => Promise<T>): Promise<T> {
  return preconditions.run(check, work);
}

/**
 * A step that belongs in the same transaction as a write it does not make: the importer records
 * "source record → local id" in the transaction that created the record, so a run killed at any
 * point leaves both or neither. It gets each write transaction's result and says whether it was
 * the one it waited for (true: it has done its part and is not called again).
 */
type CommitStep = (trx: Transaction<Database>, result: unknown) => Promise<boolean>;
const commitSteps = new AsyncLocalStorage<{ step: CommitStep; taken: boolean }>();

/** Runs `work` with `step` added to the end of its write transaction (the first one it accepts). */
export function withCommitStep<T>(step: CommitStep, work: () => Promise<T>): Promise<T> {
  return commitSteps.run({ step, taken: false }, work);
}

/**
 * Work a write transaction does last, after its service's own statements (and before a commit
 * step): each keyed piece of state a service accumulated with `atTransactionEnd`, flushed once.
 * Row locks a write needs on hot rows (a category's count, which most writes of a busy calendar
 * touch) are then taken last and held only to the commit, in the same order by every writer, so
 * concurrent writers neither queue for the whole of each other's work nor deadlock.
 */
interface EndStep {
  state: unknown;
  flush: (trx: Transaction<Database>) => Promise<void>;
}
const endSteps = new WeakMap<object, Map<symbol, EndStep>>();

/**
 * The state kept under `key` for the end of `trx` (made by `make` the first time), or null when
 * `trx` is not a transaction of `inTransaction` (the caller then applies its change at once).
 */
export function atTransactionEnd<S>(
  trx: Db,
  key: symbol,
  make: () => { state: S; flush: (trx: Transaction<Database>, state: S) => Promise<void> },
): S | null {
  const steps = endSteps.get(trx);
  if (!steps) return null;
  let step = steps.get(key);
  if (!step) {
    const made = make();
    step = { state: made.state, flush: (t) => made.flush(t, made.state) };
    steps.set(key, step);
  }
  return step.state as S;
}

/**
 * What a concurrent writer can cause and a new attempt resolves: the same unique value inserted
 * first, or (PostgreSQL) a deadlock, which writers avoid by taking hot rows last and in order
 * (atTransactionEnd) but which a path not yet doing so could still meet.
 */
function retryReason(error: unknown): keyof typeof retries | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE') return 'unique';
  return code === '40P01' ? 'deadlock' : null;
}

/** Write transactions this process ran again, by reason (the metrics export them). */
const retries = { unique: 0, deadlock: 0 };

export function writeRetries(): Readonly<typeof retries> {
  return retries;
}

const ATTEMPTS = 3;

/**
 * Runs `work` in one transaction, again when another writer inserted the same unique value first
 * (two requests creating the term "Rock" or the image of one URL): the next attempt finds that
 * record and reuses it. PostgreSQL runs writers side by side; SQLite's never overlap.
 */
export async function inTransaction<T>(db: Db, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const check = preconditions.getStore();
      const commit = commitSteps.getStore();
      let took = false;
      const result = await db.transaction().execute(async (trx) => {
        const steps = new Map<symbol, EndStep>();
        endSteps.set(trx, steps);
        if (check) await check(trx);
        const written = await work(trx);
        for (const step of steps.values()) await step.flush(trx);
        // Flushed once: a use of `trx` after this (none today) applies its change at once, never lost.
        endSteps.delete(trx);
        if (commit && !commit.taken) took = await commit.step(trx, written);
        return written;
      });
      // Only once committed: a transaction retried after a conflict runs the step again.
      if (took) commit!.taken = true;
      return result;
    } catch (error) {
      const reason = retryReason(error);
      if (attempt >= ATTEMPTS || reason === null) throw error;
      retries[reason] += 1;
    }
  }
}
