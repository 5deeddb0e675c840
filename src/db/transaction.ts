import type { Transaction } from 'kysely';
import type { Database, Db } from './database.js';

/** The violation a concurrent writer causes by inserting the same unique value first. */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
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
      return await db.transaction().execute(work);
    } catch (error) {
      if (attempt >= ATTEMPTS || !isUniqueViolation(error)) throw error;
    }
  }
}
