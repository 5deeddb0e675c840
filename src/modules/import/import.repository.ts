import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db, ImportMapTable, ImportTable } from '../../db/database.js';
import { dialectOf } from '../../db/dialect.js';

/**
 * The import module's statements: `imports` (the imports started through the admin route, their
 * progress, heartbeat and report) and `import_map` (source record → local id, per source, which
 * makes a second run update rather than create).
 */

export type ImportRow = Selectable<ImportTable>;
export type NewImport = Insertable<ImportTable>;
export type ImportUpdate = Updateable<ImportTable>;
export type ImportMapRow = Selectable<ImportMapTable>;

export function findImport(db: Db, id: number): Promise<ImportRow | undefined> {
  return db.selectFrom('imports').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The last `limit` imports, newest first. */
export function recentImports(db: Db, limit: number): Promise<ImportRow[]> {
  return db.selectFrom('imports').selectAll().orderBy('id', 'desc').limit(limit).execute();
}

/** An import still running: its status says so and its heartbeat is newer than `heartbeatAfter`. */
export function runningImport(trx: Db, heartbeatAfter: string): Promise<{ id: number } | undefined> {
  return trx
    .selectFrom('imports')
    .select('id')
    .where('status', '=', 'running')
    .where('heartbeat', '>', heartbeatAfter)
    .executeTakeFirst();
}

export async function insertImport(trx: Db, row: NewImport): Promise<number> {
  const inserted = await trx.insertInto('imports').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

/** The heartbeat and progress of a running import, or its outcome once over. */
export async function updateImport(db: Db, id: number, changes: ImportUpdate): Promise<void> {
  await db.updateTable('imports').set(changes).where('id', '=', id).execute();
}

/** Every map row of a source. */
export function mapRows(db: Db, source: string): Promise<ImportMapRow[]> {
  return db.selectFrom('import_map').selectAll().where('source', '=', source).execute();
}

/** Source id → local id of a source's records of a kind and language. */
export async function mappedIds(db: Db, source: string, kind: string, lang: string): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('import_map')
    .select(['source_id', 'local_id'])
    .where('source', '=', source)
    .where('kind', '=', kind)
    .where('lang', '=', lang)
    .execute();
  return new Map(rows.map((r) => [r.source_id, r.local_id]));
}

/** Writes (or rewrites) a record's map row, in the transaction of the record's own write. */
export async function remember(trx: Db, row: ImportMapRow): Promise<void> {
  // An import is repeatable and its map row commits with its record, so a crash may lose the
  // last records and their rows together and the next run makes them again: PostgreSQL need
  // not wait for the disk at each of ten thousand commits.
  if (dialectOf(trx) === 'postgres') await sql`set local synchronous_commit = off`.execute(trx);
  await trx
    .insertInto('import_map')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['source', 'kind', 'source_id']).doUpdateSet({
        local_id: row.local_id,
        lang: row.lang,
        source_modified: row.source_modified,
        hash: row.hash,
        imported_at: row.imported_at,
      }),
    )
    .execute();
}

export async function forget(db: Db, source: string, kind: string, sourceId: string): Promise<void> {
  await db
    .deleteFrom('import_map')
    .where('source', '=', source)
    .where('kind', '=', kind)
    .where('source_id', '=', sourceId)
    .execute();
}

/** Whether `id` is a row of `table` (what a write's result names may be another table's, e.g. an image's). */
export async function recordExists(
  trx: Db,
  table: 'terms' | 'venues' | 'organizers' | 'events',
  id: number,
): Promise<boolean> {
  return (await trx.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}
