import { createHash } from 'node:crypto';
import type { Db } from '../../db/database.js';
import { entryBoundedCache } from '../../lib/cache-budget.js';
import { ApiError } from '../../http/errors.js';
import * as failures from './failure.repository.js';

/**
 * Failed attempts of guessable secrets, limited per key within a window (CONTRACT "Limits"): wrong
 * application passwords per (address, username) and per address, wrong event passwords per
 * (address, event) and per address. The window is one minute from the first failure; attempts
 * refused with 429 do not count; a success may clear its key.
 *
 * The counts live in the database, so several instances on one database limit as one: a guesser
 * spreading attempts over instances behind a load balancer meets the same limit. Each instance
 * also remembers what it last read or wrote, so a hot path that must not pay a statement (a
 * remembered application password) can still refuse a key this instance knows to be throttled.
 */

const WINDOW_MS = 60_000;

export interface Limit {
  /** What is limited, e.g. `auth\n10.0.0.1\nalice`; stored hashed (it may hold user input of any length). */
  key: string;
  /** Failures within the window from which further attempts are refused. */
  limit: number;
}

const hashOf = (key: string): string => createHash('sha256').update(key).digest('base64url');

/** An attempt counted before its secret was checked; a right secret takes it back. */
export interface Attempt {
  succeeded(): Promise<void>;
}

export class FailureLimiter {
  /** Hash → the count and window end this instance last saw. */
  private readonly known = entryBoundedCache<string, failures.FailureCount>(100_000, { ttl: WINDOW_MS });
  private lastPurge = 0;

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** Throws 429 with Retry-After when a key is at its limit, by what this instance knows (no statement). */
  refuseKnown(limits: Limit[], message: string): void {
    for (const { key, limit } of limits) this.refuseAt(this.known.get(hashOf(key)), limit, message);
  }

  /** Throws 429 with Retry-After when a key is at its limit, by the counts of every instance (one statement). */
  async refuse(limits: Limit[], message: string): Promise<void> {
    const hashes = limits.map(({ key }) => hashOf(key));
    const rows = new Map((await failures.readFailures(this.db, hashes)).map((row) => [row.key_hash, row]));
    for (const hash of hashes) {
      const row = rows.get(hash);
      if (row) this.known.set(hash, row);
      else this.known.delete(hash);
    }
    limits.forEach(({ limit }, i) => this.refuseAt(rows.get(hashes[i]!), limit, message));
  }

  /** Counts one failure of each key. */
  async fail(keys: string[]): Promise<void> {
    for (const key of keys) await this.count(hashOf(key));
    await this.purge();
  }

  /**
   * An attempt at a secret, counted as a failure *before* the secret is checked, so that guesses
   * sent all at once meet the limit too: checked first and counted after, a thousand parallel
   * guesses all passed the check before the first was counted. An attempt past a limit is taken
   * back and refused (429: refused attempts do not count); a right one is taken back by
   * {@link Attempt.succeeded}, which also clears the first key (the pair a success clears).
   */
  async attempt(limits: Limit[], message: string): Promise<Attempt> {
    const hashes = limits.map(({ key }) => hashOf(key));
    const rows: failures.FailureCount[] = [];
    for (const hash of hashes) rows.push(await this.count(hash));
    const over = rows.findIndex((row, i) => row.failures > limits[i]!.limit);
    if (over >= 0) {
      await this.takeBack(hashes);
      this.refuseAt({ ...rows[over]!, failures: limits[over]!.limit }, limits[over]!.limit, message);
    }
    await this.purge();
    return {
      succeeded: async () => {
        const [pair, ...others] = hashes;
        this.known.delete(pair!);
        await failures.clearFailures(this.db, pair!);
        await this.takeBack(others);
      },
    };
  }

  private async count(hash: string): Promise<failures.FailureCount> {
    const row = await failures.addFailure(this.db, hash, this.now(), WINDOW_MS);
    this.known.set(row.key_hash, row);
    return row;
  }

  private async takeBack(hashes: string[]): Promise<void> {
    for (const hash of hashes) {
      await failures.removeFailure(this.db, hash);
      const known = this.known.get(hash);
      if (known) this.known.set(hash, { ...known, failures: Math.max(0, known.failures - 1) });
    }
  }

  /** Ended windows are dropped by whichever instance counts failures, once a window at most. */
  private async purge(): Promise<void> {
    const now = this.now();
    if (now - this.lastPurge < WINDOW_MS) return;
    this.lastPurge = now;
    await failures.purgeFailures(this.db, now);
  }

  /** Clears a key after a success; no statement when neither this instance nor the last read saw a failure of it. */
  async clear(key: string): Promise<void> {
    const hash = hashOf(key);
    if (!this.known.has(hash)) return;
    this.known.delete(hash);
    await failures.clearFailures(this.db, hash);
  }

  private refuseAt(entry: failures.FailureCount | undefined, limit: number, message: string): void {
    const now = this.now();
    if (!entry || entry.failures < limit || entry.reset_at <= now) return;
    const retryAfter = Math.max(1, Math.ceil((entry.reset_at - now) / 1000));
    throw new ApiError(429, 'rest_too_many_requests', message, {}, { 'Retry-After': String(retryAfter) });
  }
}
