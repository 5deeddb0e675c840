import { sql } from 'kysely';
import type { Db } from './database.js';

/**
 * A counter every write bumps inside its transaction. Caches key on it, so a page cached before a
 * write is never served after it, on any instance sharing the database.
 */
export async function bumpDataVersion(db: Db): Promise<void> {
  await db
    .updateTable('settings')
    .set({ value: sql<string>`cast(cast(value as integer) + 1 as text)` })
    .where('key', '=', 'data_version')
    .execute();
}

export async function readDataVersion(db: Db): Promise<string> {
  const row = await db.selectFrom('settings').select('value').where('key', '=', 'data_version').executeTakeFirst();
  return row?.value ?? '0';
}
