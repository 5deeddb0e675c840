import type { Kysely } from 'kysely';

/**
 * Terms shown in events are looked up by group and language (their translation in the request's
 * language). With only an index on the group, the planner preferred (taxonomy, lang) and walked
 * every term of the taxonomy for each linked term; this index answers the look-up directly and
 * serves every query by group alone too.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('terms_trid_lang').on('terms').columns(['trid', 'lang', 'taxonomy']).execute();
  await db.schema.dropIndex('terms_trid').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('terms_trid').on('terms').columns(['trid']).execute();
  await db.schema.dropIndex('terms_trid_lang').execute();
}
