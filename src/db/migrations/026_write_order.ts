import { sql, type Kysely } from 'kysely';
import { dialectOf, WRITE_ORDER_LOCK } from '../dialect.js';

/**
 * Writers that run side by side on PostgreSQL (issue 30). Two things made every write of every
 * instance wait for the one before it to commit:
 *
 * - the write-order lock (016, 019): every logged write took one exclusive advisory lock before
 *   its change-log position was drawn and held it to commit, so positions were drawn in commit
 *   order. Writers now take it *shared* (they no longer wait for one another); what needs every
 *   write before or after it takes it exclusive: registering a search's counts (019), and the
 *   change feed, which takes it for a moment to learn the last position whose writer has ended
 *   (sync.repository.ts `safePosition`) and reads no further, so a position drawn early but
 *   committed late is never skipped;
 * - `data_version` (one row of `settings`), which every write bumps in its transaction: the row
 *   stayed locked to commit. It becomes the sum of a few counters (`data_version_shards`), each
 *   write bumping the one of its connection (`pg_backend_pid() % 32`): the sum grows with every
 *   commit, as the caches' keys need, and two writers wait for each other only when their
 *   connections share a counter. SQLite's writers never overlap: it bumps counter 0.
 */

/** How many counters `data_version` is spread over (the connections of a few instances). */
export const DATA_VERSION_SHARDS = 32;

/** The lock statement 016 and 019 wrote into their functions, and what it becomes. */
const EXCLUSIVE = `pg_advisory_xact_lock(${WRITE_ORDER_LOCK})`;
const SHARED = `pg_advisory_xact_lock_shared(${WRITE_ORDER_LOCK})`;

/**
 * Rewrites, in place, every trigger function that takes the write-order lock one way to take it
 * the other (their triggers stay as they are). 016 and 019 now write the shared form themselves,
 * so on a new database there is nothing to rewrite.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function relock(db: Kysely<any>, from: string, to: string): Promise<void> {
  const functions = await sql<{ definition: string }>`
    select pg_get_functiondef(p.oid) as definition from pg_proc p
    join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = current_schema() and p.prosrc like ${`%${from}%`}`.execute(db);
  for (const { definition } of functions.rows) await sql.raw(definition.split(from).join(to)).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  if (postgres) await relock(db, EXCLUSIVE, SHARED);
  await db.schema
    .createTable('data_version_shards')
    .addColumn('shard', 'integer', (c) => c.primaryKey())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .execute();
  // The sum goes on from the single counter's value (caches of running instances keyed on it).
  const current = await db.selectFrom('settings').select('value').where('key', '=', 'data_version').executeTakeFirst();
  await db
    .insertInto('data_version_shards')
    .values(
      Array.from({ length: DATA_VERSION_SHARDS }, (_, shard) => ({
        shard,
        n: shard === 0 ? Number(current?.value ?? 0) : 0,
      })),
    )
    .execute();
  await db.deleteFrom('settings').where('key', '=', 'data_version').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  const total = await db
    .selectFrom('data_version_shards')
    .select(sql<string>`cast(coalesce(sum(n), 0) as text)`.as('n'))
    .executeTakeFirstOrThrow();
  await db.insertInto('settings').values({ key: 'data_version', value: total.n }).execute();
  await db.schema.dropTable('data_version_shards').execute();
  if (dialectOf(db) === 'postgres') await relock(db, SHARED, EXCLUSIVE);
}
