import { sql, type Kysely } from 'kysely';
import { dialectOf, serialColumn } from '../dialect.js';

/**
 * Events from the public (issue 29): submissions, spam blocks, the mail outbox, and moderators'
 * choice of mail.
 *
 * - `submissions`: one per submitted event (the event itself is an ordinary `pending` event). The
 *   submitter's contact lives here, apart from the event, so no reader of events (API, feeds,
 *   pages, change feed, webhooks) can ever carry it; copy and backup take every table, this one
 *   too. `ip_key` and `email_key` are what the rate limits and spam blocks count by (a hash of the
 *   address's network and of the folded e-mail). `confirm_hash` is the double opt-in link's token,
 *   hashed. `new_tags` are tag names the submitter typed that no tag has yet: made only when a
 *   moderator approves (a tag is public the moment it exists). The submission goes with its event
 *   (ON DELETE CASCADE).
 * - `spam_blocks`: a hashed key (address network or e-mail) refused until `until_utc`.
 * - `used_challenges`: proof-of-work challenges already spent (one solution, one submission), kept
 *   until they expire anyway.
 * - `mail_outbox`: rendered mails, written in the transaction that causes them and sent by a worker
 *   that claims them (FOR UPDATE SKIP LOCKED on PostgreSQL: several instances send each once),
 *   with backoff; `dedupe` makes a mail that must be sent once per something (a moderator's digest
 *   of a day) unique.
 * - `users.submission_mail`: 'none', 'each' or 'digest'.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const serial = serialColumn(dialectOf(db));
  await db.schema
    .createTable('submissions')
    .addColumn('id', serial, (c) => c.primaryKey())
    .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('ip_key', 'text', (c) => c.notNull())
    .addColumn('email_key', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('verified', 'integer', (c) => c.notNull())
    .addColumn('confirmed', 'integer', (c) => c.notNull())
    .addColumn('confirm_hash', 'text')
    .addColumn('duplicate_of', 'integer')
    .addColumn('links', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('new_venue', 'integer')
    .addColumn('new_organizers', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('new_tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .addColumn('decided_utc', 'text')
    .addColumn('decided_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('submissions_event').on('submissions').column('event_id').unique().execute();
  // The queue, by state, oldest first; and the rate limits, by key over the last hour.
  await db.schema.createIndex('submissions_state').on('submissions').columns(['state', 'id']).execute();
  await db.schema.createIndex('submissions_ip').on('submissions').columns(['ip_key', 'created_utc']).execute();
  await db.schema.createIndex('submissions_email').on('submissions').columns(['email_key', 'created_utc']).execute();
  await db.schema
    .createIndex('submissions_confirm')
    .on('submissions')
    .column('confirm_hash')
    .where(sql.raw<boolean>('confirm_hash is not null'))
    .execute();

  await db.schema
    .createTable('spam_blocks')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('until_utc', 'text', (c) => c.notNull())
    .addColumn('submission_id', 'integer')
    .execute();

  await db.schema
    .createTable('used_challenges')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('until_utc', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('used_challenges_until').on('used_challenges').column('until_utc').execute();

  await db.schema
    .createTable('mail_outbox')
    .addColumn('id', serial, (c) => c.primaryKey())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text', (c) => c.notNull())
    .addColumn('headers', 'text', (c) => c.notNull())
    .addColumn('dedupe', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_utc', 'text', (c) => c.notNull())
    .addColumn('lease_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('message_id', 'text')
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .addColumn('sent_utc', 'text')
    .execute();
  await db.schema
    .createIndex('mail_outbox_due')
    .on('mail_outbox')
    .columns(['next_attempt_utc', 'id'])
    .where(sql.raw<boolean>("status = 'pending'"))
    .execute();
  await db.schema.createIndex('mail_outbox_status').on('mail_outbox').columns(['status', 'id']).execute();
  await db.schema.createIndex('mail_outbox_dedupe').on('mail_outbox').column('dedupe').unique().execute();

  await db.schema
    .alterTable('users')
    .addColumn('submission_mail', 'text', (c) => c.notNull().defaultTo('none'))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('submission_mail').execute();
  await db.schema.dropTable('mail_outbox').execute();
  await db.schema.dropTable('used_challenges').execute();
  await db.schema.dropTable('spam_blocks').execute();
  await db.schema.dropTable('submissions').execute();
}
