import { createHash } from 'node:crypto';
import type { Compilable } from 'kysely';
import type { LRUCache } from 'lru-cache';
import { byteBoundedCache, CACHE_BUDGET, stringBytes } from '../lib/cache-budget.js';

/**
 * Exact list totals cost a scan of every matching row; pages of one filter (page 1, 2, 3…) share
 * one total. Totals are kept by (data version, SQL, parameters), so a write makes them unreachable.
 * The version is the one the page cache read for the same request.
 */
export class CountCache {
  /**
   * Keyed by the version and a digest of the statement: the SQL and parameters themselves run to
   * kilobytes (term ids, search words), which a budget would spend on keys instead of totals.
   */
  private readonly totals: LRUCache<string, number>;

  constructor(budget: number = CACHE_BUDGET.counts) {
    this.totals = byteBoundedCache(budget, (_total, key) => stringBytes(key));
  }

  /** `check`, when given, sees each total computed afresh (not those served from the cache). */
  async count(
    query: Compilable<{ n: number | string | bigint }> & {
      executeTakeFirstOrThrow(): Promise<{ n: number | string | bigint }>;
    },
    version: string,
    check?: (total: number) => Promise<void>,
  ): Promise<number> {
    const compiled = query.compile();
    const statement = createHash('sha256')
      .update(compiled.sql)
      .update('\n')
      .update(JSON.stringify(compiled.parameters));
    const key = `${version}\n${statement.digest('base64url')}`;
    let total = this.totals.get(key);
    if (total === undefined) {
      total = Number((await query.executeTakeFirstOrThrow()).n);
      await check?.(total);
      this.totals.set(key, total);
    }
    return total;
  }

  /** Bytes the kept totals take, as the budget counts them (for tests and metrics). */
  get bytes(): number {
    return this.totals.calculatedSize;
  }
}
