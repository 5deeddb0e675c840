import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';
import { createTriggers, dropTriggers, type RowTrigger } from '../triggers.js';

/**
 * Webhooks (issue 19): subscriptions, and an outbox of deliveries filled by a trigger on the
 * change log, so a delivery is written in the very transaction of the change: no acknowledged
 * write misses its delivery, no rolled-back write sends one. Only changes the public may see are
 * delivered (payloads are the public change-feed entry), typed as that reader sees them: a record
 * unpublished is `<kind>.trashed`.
 *
 * - `webhooks.lang_filter`: ',en,fr,' (the languages subscribed), '' for all.
 * - `webhook_patterns`: 'event.created', 'venue.*' or '*', one row each, for the trigger's match.
 * - `webhook_deliveries`: one per change and subscription; `lease_until` is the claim of a worker
 *   (several instances claim with FOR UPDATE SKIP LOCKED on PostgreSQL), `next_attempt_utc` the
 *   backoff.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const serial = (table: ReturnType<typeof db.schema.createTable>) =>
    table.addColumn('id', postgres ? 'serial' : 'integer', (c) =>
      postgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
    );
  await serial(db.schema.createTable('webhooks'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('languages', 'text', (c) => c.notNull())
    .addColumn('lang_filter', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('failing_since', 'text')
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('webhook_patterns')
    .addColumn('webhook_id', 'integer', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('pattern', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('webhook_patterns_pk', ['webhook_id', 'pattern'])
    .execute();
  await serial(db.schema.createTable('webhook_deliveries'))
    .addColumn('webhook_id', 'integer', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('position', 'bigint', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('record_id', 'integer', (c) => c.notNull())
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('event_type', 'text', (c) => c.notNull())
    .addColumn('change_at_utc', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_utc', 'text', (c) => c.notNull())
    .addColumn('lease_until', 'text')
    .addColumn('last_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('last_response', 'text')
    .addColumn('last_latency_ms', 'integer')
    .addColumn('created_utc', 'text', (c) => c.notNull())
    .addColumn('delivered_utc', 'text')
    .execute();
  // The worker's claim: pending deliveries by due time.
  await db.schema
    .createIndex('webhook_deliveries_due')
    .on('webhook_deliveries')
    .columns(['next_attempt_utc', 'id'])
    .where(sql.raw<boolean>("status = 'pending'"))
    .execute();
  // In order per record: an earlier pending delivery of the same record holds the later ones back.
  await db.schema
    .createIndex('webhook_deliveries_record')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'kind', 'record_id', 'id'])
    .execute();
  // The delivery log of a subscription, newest first.
  await db.schema
    .createIndex('webhook_deliveries_log')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'id'])
    .execute();

  const type =
    "new.kind || '.' || (case when new.is_public = 1 then new.change when new.change = 'deleted' then 'deleted' else 'trashed' end)";
  const langMatch = postgres
    ? "position(',' || new.lang || ',' in w.lang_filter) > 0"
    : "instr(w.lang_filter, ',' || new.lang || ',') > 0";
  const enqueue = `insert into webhook_deliveries (webhook_id, position, kind, record_id, lang, event_type, change_at_utc, status, attempts, next_attempt_utc, created_utc)
      select w.id, new.position, new.kind, new.record_id, new.lang, ${type}, new.at_utc, 'pending', 0, new.at_utc, new.at_utc
      from webhooks w
      where w.active = 1 and (w.lang_filter = '' or ${langMatch})
        and exists (select 1 from webhook_patterns p where p.webhook_id = w.id and p.pattern in ('*', new.kind || '.*', ${type}));`;
  await createTriggers(db, outboxTrigger(enqueue));
}

/** The outbox's trigger on the change log, `enqueue` writing a logged change's deliveries. */
function outboxTrigger(enqueue: string): RowTrigger {
  return {
    name: 'webhook_outbox',
    table: 'change_log',
    on: { insert: ` ${enqueue} ` },
    when: 'new.is_public = 1 or new.was_public = 1',
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await dropTriggers(db, outboxTrigger(''));
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhook_patterns').execute();
  await db.schema.dropTable('webhooks').execute();
}
