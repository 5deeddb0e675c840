import type { Db } from '../../db/database.js';

/** What the metrics read from the database at each scrape. */

/** Webhook deliveries counted by status. */
export async function deliveriesByStatus(db: Db): Promise<{ status: string; n: number }[]> {
  const rows = await db
    .selectFrom('webhook_deliveries')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('status')
    .execute();
  return rows.map((row) => ({ status: row.status, n: Number(row.n) }));
}

/** The progress (JSON) of each import under way. */
export function runningImports(db: Db): Promise<{ progress: string }[]> {
  return db.selectFrom('imports').select('progress').where('status', '=', 'running').execute();
}
