import { sql } from 'kysely';
import type { Db } from './database.js';
import { prepared } from './prepared.js';
import { dialectOf } from './dialect.js';
import { DATA_VERSION_SHARDS } from './migrations/026_write_order.js';

/**
 * Two counters, each bumped inside the transaction of the change it stands for, so every instance
 * sharing the database sees them:
 * - `data_version`, bumped by every write: caches key on it, so a page cached before a write is
 *   never served after it. It is the sum of `data_version_shards` (migration 026), each write
 *   bumping its connection's counter, so writers on other connections never wait for it;
 * - `auth_version` (a row of `settings`), bumped by every change that takes access away (a revoked
 *   password, a deleted user, a changed role): remembered credentials are re-checked when it moves.
 */
const bumpData = prepared((db) =>
  db
    .updateTable('data_version_shards')
    .set({ n: sql<number>`n + 1` })
    .where(
      'shard',
      '=',
      dialectOf(db) === 'postgres' ? sql<number>`pg_backend_pid() % ${sql.lit(DATA_VERSION_SHARDS)}` : sql.lit(0),
    ),
);
const bumpAuth = prepared((db) =>
  db
    .updateTable('settings')
    .set({ value: sql<string>`cast(cast(value as integer) + 1 as text)` })
    .where('key', '=', 'auth_version'),
);
const dataVersion = (db: Db) =>
  db
    .selectFrom('data_version_shards')
    .select([sql.lit('data').as('key'), sql<string>`cast(sum(n) as text)`.as('value')]);
const read = prepared((db) => dataVersion(db));
const readBoth = prepared((db) =>
  db
    .selectFrom('settings')
    .select([sql.lit('auth').as('key'), 'value'])
    .where('key', '=', 'auth_version')
    .unionAll(dataVersion(db)),
);

export interface Versions {
  data: string;
  auth: string;
}

export async function bumpDataVersion(db: Db): Promise<void> {
  await bumpData(db, {});
}

export async function bumpAuthVersion(db: Db): Promise<void> {
  await bumpAuth(db, {});
}

export async function readDataVersion(db: Db): Promise<string> {
  const [row] = await read(db, {});
  return row?.value ?? '0';
}

/** Both counters in one statement: an authenticated request reads them together. */
export async function readVersions(db: Db): Promise<Versions> {
  const versions: Versions = { data: '0', auth: '0' };
  for (const row of await readBoth(db, {})) versions[row.key === 'auth' ? 'auth' : 'data'] = row.value ?? '0';
  return versions;
}
