import type { Kysely } from 'kysely';
import { dialectOf, serialColumn } from '../dialect.js';

/**
 * `import_map`: which local record each imported source record became (source + kind + source
 * id → local id), with the source's modification time and a hash of what was written, so a
 * second run updates what changed and creates nothing twice. A row is written in the same
 * transaction as its record (db/transaction.ts withCommitStep): an interrupted run resumes.
 *
 * `imports`: the imports started through the admin route, their progress and report, in the
 * database so that every instance answers for them and one runs at a time across instances.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('import_map')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('source_id', 'text', (c) => c.notNull())
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('local_id', 'integer', (c) => c.notNull())
    .addColumn('source_modified', 'text')
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('imported_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('import_map_pk', ['source', 'kind', 'source_id'])
    .execute();
  await db.schema
    .createTable('imports')
    .addColumn('id', serialColumn(dialectOf(db)), (c) => c.primaryKey())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('progress', 'text', (c) => c.notNull())
    .addColumn('report', 'text')
    .addColumn('error', 'text')
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('started', 'text', (c) => c.notNull())
    .addColumn('heartbeat', 'text', (c) => c.notNull())
    .addColumn('finished', 'text')
    .execute();
  await db.schema.createIndex('imports_status').on('imports').columns(['status', 'heartbeat']).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('imports').execute();
  await db.schema.dropTable('import_map').execute();
}
