import { sql, type Kysely } from 'kysely';

/**
 * Duplicate avoidance compares a new venue's or organizer's name case-insensitively with the
 * language's records (lower(title) = lower(?)) on every create, inline ones inside events too;
 * without these a create scans every venue of the language.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['venues', 'organizers']) {
    await sql`create index ${sql.id(`${table}_lang_title_ci`)} on ${sql.table(table)} (lang, lower(title))`.execute(db);
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['venues', 'organizers']) await db.schema.dropIndex(`${table}_lang_title_ci`).execute();
}
