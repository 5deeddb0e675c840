import { LRUCache } from 'lru-cache';
import type { Compilable } from 'kysely';

/**
 * Exact list totals cost a scan of every matching row; pages of one filter (page 1, 2, 3…) share
 * one total. Totals are kept by (data version, SQL, parameters), so a write makes them unreachable.
 * The version is the one the page cache read for the same request.
 */
export class CountCache {
  private readonly totals = new LRUCache<string, number>({ max: 10_000 });

  /** `check`, when given, sees each total computed afresh (not those served from the cache). */
  async count(
    query: Compilable<{ n: number | string | bigint }> & {
      executeTakeFirstOrThrow(): Promise<{ n: number | string | bigint }>;
    },
    version: string,
    check?: (total: number) => Promise<void>,
  ): Promise<number> {
    const compiled = query.compile();
    const key = `${version}\n${compiled.sql}\n${JSON.stringify(compiled.parameters)}`;
    let total = this.totals.get(key);
    if (total === undefined) {
      total = Number((await query.executeTakeFirstOrThrow()).n);
      await check?.(total);
      this.totals.set(key, total);
    }
    return total;
  }
}
