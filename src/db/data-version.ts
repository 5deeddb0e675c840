import { sql } from 'kysely';
import type { Db } from './database.js';
import { prepared } from './prepared.js';

/**
 * Two counters kept in the settings table, each bumped inside the transaction of the change it
 * stands for, so every instance sharing the database sees them:
 * - `data_version`, bumped by every write: caches key on it, so a page cached before a write is
 *   never served after it;
 * - `auth_version`, bumped by every change that takes access away (a revoked password, a deleted
 *   user, a changed role): remembered credentials are re-checked when it moves.
 */
type Counter = 'data_version' | 'auth_version';

const bump = prepared((db, args: { key: Counter }) =>
  db
    .updateTable('settings')
    .set({ value: sql<string>`cast(cast(value as integer) + 1 as text)` })
    .where('key', '=', args.key),
);
const read = prepared((db) => db.selectFrom('settings').select('value').where('key', '=', 'data_version'));
const readBoth = prepared((db) =>
  db.selectFrom('settings').select(['key', 'value']).where('key', 'in', ['data_version', 'auth_version']),
);

export interface Versions {
  data: string;
  auth: string;
}

export async function bumpDataVersion(db: Db): Promise<void> {
  await bump(db, { key: 'data_version' });
}

export async function bumpAuthVersion(db: Db): Promise<void> {
  await bump(db, { key: 'auth_version' });
}

export async function readDataVersion(db: Db): Promise<string> {
  const [row] = await read(db, {});
  return row?.value ?? '0';
}

/** Both counters in one statement: an authenticated request reads them together. */
export async function readVersions(db: Db): Promise<Versions> {
  const versions: Versions = { data: '0', auth: '0' };
  for (const row of await readBoth(db, {})) versions[row.key === 'auth_version' ? 'auth' : 'data'] = row.value;
  return versions;
}
