import type { WebhookRow } from './webhook.repository.js';
import type { WebhookObject } from './webhook.schema.js';

/** A subscription as the API shows it: never its secret (the create's answer adds it, once). */
export function toWebhookObject(row: WebhookRow): WebhookObject {
  return {
    id: row.id,
    url: row.url,
    events: JSON.parse(row.events) as string[],
    languages: JSON.parse(row.languages) as string[],
    active: row.active === 1,
    status: row.status,
    failing_since: row.failing_since,
    created_utc: row.created_utc,
  };
}
