import { sql } from 'kysely';
import type { Storage } from '../../src/db/connect.js';

/**
 * The schema every migration leaves, as text a reviewer can read and diff: tables with their
 * columns, indexes, triggers, and (PostgreSQL) the trigger functions. Committed per dialect in
 * src/db/schema/ and compared by test/db/schema-snapshot.test.ts, so a change to a migration
 * shows in review as a change to what the database holds; `npm run schema` writes them again.
 */
export async function dumpSchema(storage: Storage): Promise<string> {
  return storage.dialect === 'sqlite' ? dumpSqlite(storage) : dumpPostgres(storage);
}

/** Where each dialect's snapshot is committed. */
export const SNAPSHOTS = {
  sqlite: new URL('../../src/db/schema/sqlite.sql', import.meta.url),
  postgres: new URL('../../src/db/schema/postgres.sql', import.meta.url),
} as const;

async function dumpSqlite(storage: Storage): Promise<string> {
  const { rows } = await sql<{ type: string; name: string; sql: string | null }>`
    select type, name, sql from sqlite_master
    where name not like 'sqlite_%' and name not like 'kysely_migration%'
    order by case type when 'table' then 0 when 'index' then 1 when 'view' then 2 else 3 end, name`.execute(storage.db);
  // Virtual tables' shadow tables (FTS5) are made by the module: their statements say nothing new.
  return rows
    .filter((row) => row.sql !== null)
    .map((row) => `-- ${row.type} ${row.name}\n${normalize(row.sql!)};\n`)
    .join('\n');
}

async function dumpPostgres(storage: Storage): Promise<string> {
  const db = storage.db;
  const columns = await sql<{
    table_name: string;
    column_name: string;
    data_type: string;
    is_nullable: string;
    column_default: string | null;
  }>`
    select table_name, column_name, data_type, is_nullable, column_default from information_schema.columns
    where table_schema = 'public' and table_name not like 'kysely_migration%'
    order by table_name, ordinal_position`.execute(db);
  const constraints = await sql<{ table_name: string; name: string; definition: string }>`
    select c.conrelid::regclass::text as table_name, c.conname as name, pg_get_constraintdef(c.oid) as definition
    from pg_constraint c join pg_namespace n on n.oid = c.connamespace
    where n.nspname = 'public' and c.conrelid::regclass::text not like 'kysely_migration%'
    order by 1, 2`.execute(db);
  const indexes = await sql<{ indexname: string; indexdef: string }>`
    select indexname, indexdef from pg_indexes
    where schemaname = 'public' and tablename not like 'kysely_migration%'
    order by tablename, indexname`.execute(db);
  const triggers = await sql<{ name: string; definition: string }>`
    select t.tgname as name, pg_get_triggerdef(t.oid) as definition from pg_trigger t
    join pg_class c on c.oid = t.tgrelid join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and not t.tgisinternal
    order by c.relname, t.tgname`.execute(db);
  const functions = await sql<{ name: string; definition: string }>`
    select p.proname as name, pg_get_functiondef(p.oid) as definition from pg_proc p
    join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = 'public'
      -- An extension's own functions (pg_trgm's) change with the server's version, not with ours.
      and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
    order by p.proname, p.oid`.execute(db);

  const out: string[] = [];
  let table = '';
  for (const c of columns.rows) {
    if (c.table_name !== table) {
      table = c.table_name;
      out.push(`\n-- table ${table}`);
      for (const k of constraints.rows.filter((row) => row.table_name === table))
        out.push(`--   ${k.name}: ${k.definition}`);
    }
    out.push(
      `${table}.${c.column_name} ${c.data_type}${c.is_nullable === 'NO' ? ' not null' : ''}${c.column_default ? ` default ${c.column_default}` : ''}`,
    );
  }
  out.push('\n-- indexes');
  for (const i of indexes.rows) out.push(`${i.indexdef};`);
  out.push('\n-- triggers');
  for (const t of triggers.rows) out.push(`${t.definition};`);
  out.push('\n-- functions');
  for (const f of functions.rows) out.push(`${normalize(f.definition)}\n`);
  return `${out.join('\n').trim()}\n`;
}

/** Trailing blanks and blank lines inside a statement are not part of the schema. */
function normalize(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line !== '')
    .join('\n');
}
