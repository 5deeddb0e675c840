import type { Db } from '../../db/database.js';

/** Records whose language is no longer configured: kept, readable by id, reported at start-up. */
export async function countOutsideLanguages(db: Db, languages: readonly string[]): Promise<number> {
  let total = 0;
  for (const table of ['events', 'venues', 'organizers', 'terms'] as const) {
    const row = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('lang', 'not in', [...languages])
      .executeTakeFirstOrThrow();
    total += Number(row.n);
  }
  return total;
}
