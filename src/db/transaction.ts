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
      return await db.transaction().execute(async (trx) => {
        if (check) await check(trx);
        return work(trx);
      });
    } catch (error) {
      if (attempt >= ATTEMPTS || !isRetryable(error)) throw error;
    }
  }
}
