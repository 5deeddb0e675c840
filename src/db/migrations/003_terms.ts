import { sql, type Kysely } from 'kysely';

/**
 * Term look-ups by name ignore case (WordPress's term_exists, event `categories`/`tags` given by
 * name, list ordering by name), so they need an index on lower(name). Slugs are unique per
 * taxonomy and language: the unique index makes that hold even for concurrent writers.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('terms_tax_lang_lname')
    .on('terms')
    .columns(['taxonomy', 'lang'])
    .expression(sql`lower(name)`)
    .execute();
  await db.schema.dropIndex('terms_tax_lang_slug').execute();
  await db.schema
    .createIndex('terms_tax_lang_slug')
    .unique()
    .on('terms')
    .columns(['taxonomy', 'lang', 'slug'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('terms_tax_lang_lname').execute();
  await db.schema.dropIndex('terms_tax_lang_slug').execute();
  await db.schema.createIndex('terms_tax_lang_slug').on('terms').columns(['taxonomy', 'lang', 'slug']).execute();
}
