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

/** Sets a setting only if it has none yet; returns the value it has afterwards (the first writer's). */
export async function settingOnce(db: Db, key: string, json: string): Promise<string> {
  await db
    .insertInto('settings')
    .values({ key, value: json })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
  return row.value;
}
