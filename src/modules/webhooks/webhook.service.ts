import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Db } from '../../db/database.js';
import { inTransaction } from '../../db/transaction.js';
import { ApiError } from '../../http/errors.js';
import { Problems } from '../../http/problems.js';
import { nowUtc } from '../../lib/clock.js';
import { urlProblem } from './webhook.address.js';
import { toWebhookObject } from './webhook.mapper.js';
import * as webhooks from './webhook.repository.js';
import type { WebhookInput, WebhookObject } from './webhook.schema.js';
import { send, signedHeaders } from './webhook.send.js';

/**
 * Subscriptions as administrators manage them: checked input, each write in one transaction,
 * a test ping, and re-enabling a failing subscription with a redelivery of what it missed.
 */

const KINDS = ['event', 'venue', 'organizer', 'category', 'tag'];
const CHANGES = ['created', 'updated', 'trashed', 'deleted', '*'];

type WebhookPolicy = Pick<Config, 'languages' | 'webhooksAllowPrivate'>;

const notFound = (id: number) =>
  new ApiError(404, 'rest_webhook_invalid_id', `No webhook subscription has the id ${id}.`);

/** `kind.change` with a known kind and change (or `*` for every change of a kind), or `*` alone. */
function isEventType(type: string): boolean {
  const [kind, change, ...rest] = type.split('.');
  return type === '*' || (KINDS.includes(kind!) && CHANGES.includes(change ?? '') && rest.length === 0);
}

/** Every problem of the input at once; a create needs `url` and `events`. */
function check(input: WebhookInput, policy: WebhookPolicy, creating: boolean): WebhookInput {
  const problems = new Problems();
  if (input.url !== undefined) {
    const problem = urlProblem(input.url, policy.webhooksAllowPrivate);
    if (problem) problems.add('url', problem);
  } else if (creating) problems.add('url', 'url is required.');
  if (input.events !== undefined) {
    const bad = input.events.filter((e) => !isEventType(e));
    if (input.events.length === 0 || bad.length > 0)
      problems.add(
        'events',
        `events must list event types such as event.created or venue.*${bad.length > 0 ? ` (not ${bad.join(', ')})` : ''}.`,
      );
  } else if (creating) problems.add('events', 'events is required.');
  if (input.languages !== undefined && input.languages.some((l) => !policy.languages.includes(l)))
    problems.add('languages', `languages must be among ${policy.languages.join(', ')}.`);
  problems.throwIfAny();
  return input;
}

/** The languages as the outbox trigger matches them: `,en,fr,`, or empty for all. */
const langFilter = (languages: string[]) => (languages.length === 0 ? '' : `,${languages.join(',')},`);

/** The subscription, or 404 `rest_webhook_invalid_id`. */
export async function findWebhook(db: Db, id: number): Promise<webhooks.WebhookRow> {
  const row = await webhooks.findById(db, id);
  if (!row) throw notFound(id);
  return row;
}

export async function listWebhooks(db: Db): Promise<WebhookObject[]> {
  return (await webhooks.list(db)).map(toWebhookObject);
}

export async function getWebhook(db: Db, id: number): Promise<WebhookObject> {
  return toWebhookObject(await findWebhook(db, id));
}

/** A new subscription with its signing secret, which this answer alone shows. */
export async function createWebhook(db: Db, input: WebhookInput, policy: WebhookPolicy): Promise<WebhookObject> {
  const checked = check(input, policy, true);
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const languages = checked.languages ?? [];
  const row = await inTransaction(db, async (trx) => {
    const inserted = await webhooks.create(trx, {
      url: checked.url!,
      events: JSON.stringify(checked.events),
      languages: JSON.stringify(languages),
      lang_filter: langFilter(languages),
      active: checked.active === false ? 0 : 1,
      status: 'active',
      secret,
      failing_since: null,
      created_utc: nowUtc(),
    });
    await webhooks.replacePatterns(trx, inserted.id, checked.events!);
    return inserted;
  });
  return { ...toWebhookObject(row), secret };
}

/** Changes what is given; `active: true` on a failing subscription redelivers what it missed, in order. */
export async function updateWebhook(
  db: Db,
  id: number,
  input: WebhookInput,
  policy: WebhookPolicy,
): Promise<WebhookObject> {
  const checked = check(input, policy, false);
  await inTransaction(db, async (trx) => {
    const row = await findWebhook(trx, id);
    const changes: webhooks.WebhookUpdate = {};
    if (checked.url !== undefined) changes.url = checked.url;
    if (checked.events !== undefined) {
      changes.events = JSON.stringify(checked.events);
      await webhooks.replacePatterns(trx, id, checked.events);
    }
    if (checked.languages !== undefined)
      Object.assign(changes, {
        languages: JSON.stringify(checked.languages),
        lang_filter: langFilter(checked.languages),
      });
    if (checked.active !== undefined) changes.active = checked.active ? 1 : 0;
    // Re-enabled: what it missed (given up, or queued while failing) is delivered again, in order.
    if (checked.active === true && row.status === 'failing') {
      Object.assign(changes, { status: 'active', failing_since: null });
      await webhooks.redeliverFailed(trx, id);
    }
    await webhooks.update(trx, id, changes);
  });
  return getWebhook(db, id);
}

export async function deleteWebhook(db: Db, id: number): Promise<{ deleted: boolean; previous: WebhookObject }> {
  const row = await findWebhook(db, id);
  await webhooks.remove(db, row.id);
  return { deleted: true, previous: toWebhookObject(row) };
}

/** A signed `ping` sent now, outside the outbox: whether the receiver answers, and how. */
export async function pingWebhook(db: Db, id: number, policy: WebhookPolicy) {
  const row = await findWebhook(db, id);
  const at = new Date();
  const body = JSON.stringify({ type: 'ping', webhook_id: row.id, timestamp: at.toISOString() });
  const result = await send(
    row.url,
    body,
    signedHeaders(row.secret, `msg_ping_${row.id}_${at.getTime()}`, at, body),
    policy.webhooksAllowPrivate,
  );
  return { delivered: result.ok, status: result.status, error: result.error, latency_ms: result.latencyMs };
}

export async function webhookDeliveries(db: Db, id: number, page: number, perPage: number) {
  const row = await findWebhook(db, id);
  return webhooks.deliveries(db, row.id, page, perPage);
}
