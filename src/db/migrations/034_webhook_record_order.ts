import { sql, type Kysely, type SqlBool } from 'kysely';

/**
 * Webhook deliveries in the order of the change log per record (issue 30). The claim held a
 * delivery back while an earlier one of its record was pending, "earlier" by delivery id. On
 * PostgreSQL a delivery's id and its change's position are drawn one after the other in the
 * writer's transaction, and two writers can interleave between the two, so the ids of one record's
 * deliveries need not follow their positions (a venue's change is logged as an update of each of
 * its events without locking them: the event's own update and its venue's can draw in either
 * order). The claim now compares positions (and on PostgreSQL claims only positions whose writers
 * have all ended, webhook.worker.ts), and this index serves that probe as 017's served the one by
 * id: a record's earlier deliveries are a range of it. It holds the pending deliveries only (the
 * probe's condition, written as a literal so both databases prove it applies): 017's held every
 * delivery ever made, and the probe read a record's whole delivered history to find none pending
 * (99 rows a probe for a record with 100 changes, at 1,000,000 deliveries).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_record').execute();
  await db.schema
    .createIndex('webhook_deliveries_record')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'kind', 'record_id', 'position'])
    .where(sql.raw<SqlBool>("status = 'pending'"))
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('webhook_deliveries_record').execute();
  await db.schema
    .createIndex('webhook_deliveries_record')
    .on('webhook_deliveries')
    .columns(['webhook_id', 'kind', 'record_id', 'id'])
    .execute();
}
