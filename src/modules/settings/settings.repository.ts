import type { Db } from '../../db/database.js';

/** The stored site settings: one row per key, its value as JSON. */

export function readSettings(db: Db, keys: readonly string[]): Promise<{ key: string; value: string }[]> {
  return db
    .selectFrom('settings')
    .select(['key', 'value'])
    .where('key', 'in', [...keys])
    .execute();
}

/** Sets one setting (in the caller's transaction). */
export async function writeSetting(trx: Db, key: string, json: string): Promise<void> {
  await trx
    .insertInto('settings')
    .values({ key, value: json })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: json }))
    .execute();
}
