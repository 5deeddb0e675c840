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
 * What a concurrent writer can cause and a new attempt resolves: the same unique value inserted
 * first, or (PostgreSQL) a deadlock between two writers moving counts in opposite orders.
 */
function isRetryable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === '40P01';
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
        if (check) await check(trx);
        const written = await work(trx);
        if (commit && !commit.taken) took = await commit.step(trx, written);
        return written;
      });
      // Only once committed: a transaction retried after a conflict runs the step again.
      if (took) commit!.taken = true;
      return result;
    } catch (error) {
      if (attempt >= ATTEMPTS || !isRetryable(error)) throw error;
    }
  }
}
