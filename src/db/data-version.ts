import { sql } from 'kysely';
import type { Db } from './database.js';
import { prepared } from './prepared.js';

/**
 * A counter every write bumps inside its transaction. Caches key on it, so a page cached before a
 * write is never served after it, on any instance sharing the database.
 */
const bump = prepared((db) =>
  db
    .updateTable('settings')
    .set({ value: sql<string>`cast(cast(value as integer) + 1 as text)` })
    .where('key', '=', 'data_version'),
);
const read = prepared((db) => db.selectFrom('settings').select('value').where('key', '=', 'data_version'));

export async function bumpDataVersion(db: Db): Promise<void> {
  await bump(db, {});
}

export async function readDataVersion(db: Db): Promise<string> {
  const [row] = await read(db, {});
  return row?.value ?? '0';
}
