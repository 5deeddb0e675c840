import type { Kysely } from 'kysely';
import { dialectOf, serialColumn } from '../dialect.js';

/**
 * Sign-in for people (issue 27): a login password per user, separate from the application
 * passwords programs use, and the sessions a sign-in opens.
 *
 * A session row holds a hash of its token, never the token: a copy of the database does not let
 * anyone in. The nonce is kept as issued (requests prove they come from the admin's own pages by
 * sending it back, as WordPress's X-WP-Nonce). `created`, `last_seen` and `expires` are UTC
 * `YYYY-MM-DD HH:MM:SS`; the idle limit is measured from `last_seen`, the absolute one is `expires`.
 * Rows go with their user (ON DELETE CASCADE); expired ones are purged by their `expires` and
 * `last_seen` (src/modules/users/session.service.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').addColumn('login_hash', 'text').execute();
  await db.schema
    .createTable('sessions')
    .addColumn('id', serialColumn(dialectOf(db)), (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .addColumn('last_seen', 'text', (c) => c.notNull())
    .addColumn('expires', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('sessions_token').on('sessions').column('token_hash').unique().execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires').on('sessions').column('expires').execute();
  await db.schema.createIndex('sessions_last_seen').on('sessions').column('last_seen').execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('sessions').execute();
  await db.schema.alterTable('users').dropColumn('login_hash').execute();
}
