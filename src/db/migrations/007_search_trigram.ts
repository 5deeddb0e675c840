import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';

const SEARCHED = ['title', 'description', 'excerpt'] as const;

/**
 * Event search is a case-insensitive substring match (`ILIKE '%word%'`) on title, description and
 * excerpt: without an index, a sequential scan of every event. pg_trgm's GIN indexes serve exactly
 * that operator, with the same semantics, so the query does not change. The extension ships with
 * PostgreSQL and is trusted (PostgreSQL 13+): a user who may create objects in the database may
 * create it. Where it is not available the indexes are left out and search scans, as before.
 * SQLite keeps its scan here.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  const available = await sql<{ ok: boolean }>`
    select exists (select 1 from pg_available_extensions where name = 'pg_trgm')
      and (exists (select 1 from pg_extension where extname = 'pg_trgm') or has_database_privilege(current_database(), 'CREATE')) as ok`.execute(
    db,
  );
  if (!available.rows[0]?.ok) return;
  await sql`create extension if not exists pg_trgm`.execute(db);
  for (const column of SEARCHED) {
    await sql`create index if not exists ${sql.id(`events_${column}_trgm`)} on events using gin (${sql.id(column)} gin_trgm_ops)`.execute(
      db,
    );
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  for (const column of SEARCHED) await sql`drop index if exists ${sql.id(`events_${column}_trgm`)}`.execute(db);
}
