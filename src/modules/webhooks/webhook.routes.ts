import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Db, WebhookTable } from '../../db/database.js';
import type { Selectable } from 'kysely';
import { inTransaction } from '../../db/transaction.js';
import { ApiError } from '../../http/errors.js';
import { IdParams, Page, responses } from '../../http/schemas.js';
import { Problems } from '../../http/problems.js';
import { nowUtc } from '../../lib/clock.js';
import { urlProblem } from './webhook.address.js';
import { send, signedHeaders } from './webhook.send.js';
import { startWorker } from './webhook.worker.js';

/**
 * /cal/admin/v1/webhooks (administrators): subscriptions, their delivery log, a test ping, and
 * re-enabling a failing subscription with a redelivery of what it missed.
 */

type WebhookRow = Selectable<WebhookTable>;
const admin = { access: 'manage_options' } as const;
const KINDS = ['event', 'venue', 'organizer', 'category', 'tag'];
const CHANGES = ['created', 'updated', 'trashed', 'deleted', '*'];

const WebhookInput = Type.Object({
  url: Type.Optional(
    Type.String({
      description: 'https: address to POST to (http: and private addresses only with CAL_WEBHOOKS_ALLOW_PRIVATE=1)',
    }),
  ),
  events: Type.Optional(
    Type.Array(Type.String(), {
      description: 'event.created, event.updated, event.trashed, event.deleted, venue.*, … or *',
    }),
  ),
  languages: Type.Optional(
    Type.Array(Type.String(), { description: 'Languages whose records are delivered; empty or absent: all' }),
  ),
  active: Type.Optional(
    Type.Boolean({
      description:
        'false pauses deliveries; true on a failing subscription re-enables it and redelivers what it missed',
    }),
  ),
});

const WebhookObject = Type.Object({
  id: Type.Integer(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  languages: Type.Array(Type.String()),
  active: Type.Boolean(),
  status: Type.String({ description: 'active, or failing after 24 h of failed deliveries' }),
  failing_since: Type.Union([Type.String(), Type.Null()]),
  created_utc: Type.String(),
  secret: Type.Optional(
    Type.String({ description: 'The signing secret (whsec_…), shown once, in the answer to the create' }),
  ),
});

const Delivery = Type.Object({
  id: Type.Integer(),
  event_type: Type.String(),
  kind: Type.String(),
  record_id: Type.Integer(),
  status: Type.String({ description: 'pending, delivered or failed' }),
  attempts: Type.Integer(),
  last_status: Type.Union([Type.Integer(), Type.Null()]),
  last_error: Type.Union([Type.String(), Type.Null()]),
  last_latency_ms: Type.Union([Type.Integer(), Type.Null()]),
  next_attempt_utc: Type.String(),
  created_utc: Type.String(),
  delivered_utc: Type.Union([Type.String(), Type.Null()]),
});

const toObject = (row: WebhookRow) => ({
  id: row.id,
  url: row.url,
  events: JSON.parse(row.events) as string[],
  languages: JSON.parse(row.languages) as string[],
  active: row.active === 1,
  status: row.status,
  failing_since: row.failing_since,
  created_utc: row.created_utc,
});

interface Checked {
  url?: string;
  events?: string[];
  languages?: string[];
  active?: boolean;
}

function check(
  input: Static<typeof WebhookInput>,
  languages: readonly string[],
  allowPrivate: boolean,
  creating: boolean,
): Checked {
  const problems = new Problems();
  if (input.url !== undefined) {
    const problem = urlProblem(input.url, allowPrivate);
    if (problem) problems.add('url', problem);
  } else if (creating) problems.add('url', 'url is required.');
  if (input.events !== undefined) {
    const bad = input.events.filter(
      (e) =>
        e !== '*' &&
        !(KINDS.includes(e.split('.')[0]!) && CHANGES.includes(e.split('.')[1] ?? '') && e.split('.').length === 2),
    );
    if (input.events.length === 0 || bad.length > 0)
      problems.add(
        'events',
        `events must list event types such as event.created or venue.*${bad.length > 0 ? ` (not ${bad.join(', ')})` : ''}.`,
      );
  } else if (creating) problems.add('events', 'events is required.');
  if (input.languages !== undefined && input.languages.some((l) => !languages.includes(l)))
    problems.add('languages', `languages must be among ${languages.join(', ')}.`);
  problems.throwIfAny();
  return input;
}

const notFound = (id: number) =>
  new ApiError(404, 'rest_webhook_invalid_id', `No webhook subscription has the id ${id}.`);

async function find(db: Db, id: number): Promise<WebhookRow> {
  const row = await db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(id);
  return row;
}

async function writePatterns(trx: Db, id: number, events: string[]): Promise<void> {
  await trx.deleteFrom('webhook_patterns').where('webhook_id', '=', id).execute();
  await trx
    .insertInto('webhook_patterns')
    .values([...new Set(events)].map((pattern) => ({ webhook_id: id, pattern })))
    .execute();
}

const langFilter = (languages: string[]) => (languages.length === 0 ? '' : `,${languages.join(',')},`);

export async function webhookRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app.services.storage;
  const { config } = app.services;
  startWorker(app, { db, config, settings: () => app.services.settings.get() });
  const one = responses({ 200: WebhookObject });

  app.get(
    '/webhooks',
    { schema: { response: responses({ 200: Type.Array(WebhookObject) }) }, config: admin },
    async () => {
      const rows = await db.selectFrom('webhooks').selectAll().orderBy('id').execute();
      return rows.map(toObject);
    },
  );

  app.post(
    '/webhooks',
    { schema: { body: WebhookInput, response: responses({ 201: WebhookObject }) }, config: admin },
    async (request, reply) => {
      const input = check(
        request.body as Static<typeof WebhookInput>,
        config.languages,
        config.webhooksAllowPrivate,
        true,
      );
      const secret = `whsec_${randomBytes(32).toString('base64')}`;
      const languages = input.languages ?? [];
      const row = await inTransaction(db, async (trx) => {
        const inserted = await trx
          .insertInto('webhooks')
          .values({
            url: input.url!,
            events: JSON.stringify(input.events),
            languages: JSON.stringify(languages),
            lang_filter: langFilter(languages),
            active: input.active === false ? 0 : 1,
            status: 'active',
            secret,
            failing_since: null,
            created_utc: nowUtc(),
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await writePatterns(trx, inserted.id, input.events!);
        return inserted;
      });
      return reply.code(201).send({ ...toObject(row), secret });
    },
  );

  app.get('/webhooks/:id', { schema: { params: IdParams, response: one }, config: admin }, async (request) =>
    toObject(await find(db, (request.params as { id: number }).id)),
  );

  app.patch(
    '/webhooks/:id',
    { schema: { params: IdParams, body: WebhookInput, response: one }, config: admin },
    async (request) => {
      const id = (request.params as { id: number }).id;
      const input = check(
        request.body as Static<typeof WebhookInput>,
        config.languages,
        config.webhooksAllowPrivate,
        false,
      );
      await inTransaction(db, async (trx) => {
        const row = await find(trx, id);
        const changes: Partial<WebhookRow> = {};
        if (input.url !== undefined) changes.url = input.url;
        if (input.events !== undefined) {
          changes.events = JSON.stringify(input.events);
          await writePatterns(trx, id, input.events);
        }
        if (input.languages !== undefined)
          Object.assign(changes, {
            languages: JSON.stringify(input.languages),
            lang_filter: langFilter(input.languages),
          });
        if (input.active !== undefined) changes.active = input.active ? 1 : 0;
        // Re-enabled: what it missed (given up, or queued while failing) is delivered again, in order.
        if (input.active === true && row.status === 'failing') {
          Object.assign(changes, { status: 'active', failing_since: null });
          await trx
            .updateTable('webhook_deliveries')
            .set({ status: 'pending', next_attempt_utc: nowUtc(), lease_until: null })
            .where('webhook_id', '=', id)
            .where('status', '=', 'failed')
            .execute();
        }
        if (Object.keys(changes).length > 0)
          await trx.updateTable('webhooks').set(changes).where('id', '=', id).execute();
      });
      return toObject(await find(db, id));
    },
  );

  app.delete(
    '/webhooks/:id',
    {
      schema: {
        params: IdParams,
        response: responses({ 200: Type.Object({ deleted: Type.Boolean(), previous: WebhookObject }) }),
      },
      config: admin,
    },
    async (request) => {
      const row = await find(db, (request.params as { id: number }).id);
      await db.deleteFrom('webhooks').where('id', '=', row.id).execute();
      return { deleted: true, previous: toObject(row) };
    },
  );

  app.post(
    '/webhooks/:id/test',
    {
      schema: {
        params: IdParams,
        response: responses({
          200: Type.Object({
            delivered: Type.Boolean(),
            status: Type.Union([Type.Integer(), Type.Null()]),
            error: Type.Union([Type.String(), Type.Null()]),
            latency_ms: Type.Integer(),
          }),
        }),
      },
      config: admin,
    },
    async (request) => {
      const row = await find(db, (request.params as { id: number }).id);
      const at = new Date();
      const body = JSON.stringify({ type: 'ping', webhook_id: row.id, timestamp: at.toISOString() });
      const result = await send(
        row.url,
        body,
        signedHeaders(row.secret, `msg_ping_${row.id}_${at.getTime()}`, at, body),
        config.webhooksAllowPrivate,
      );
      return { delivered: result.ok, status: result.status, error: result.error, latency_ms: result.latencyMs };
    },
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: {
        params: IdParams,
        querystring: Type.Object({
          page: Type.Optional(Page),
          per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
        }),
        response: responses({ 200: Type.Array(Delivery) }),
      },
      config: admin,
    },
    async (request, reply) => {
      const row = await find(db, (request.params as { id: number }).id);
      const q = request.query as { page?: number; per_page?: number };
      const perPage = q.per_page ?? 20;
      const rows = await db
        .selectFrom('webhook_deliveries')
        .select([
          'id',
          'event_type',
          'kind',
          'record_id',
          'status',
          'attempts',
          'last_status',
          'last_error',
          'last_latency_ms',
          'next_attempt_utc',
          'created_utc',
          'delivered_utc',
        ])
        .where('webhook_id', '=', row.id)
        .orderBy('id', 'desc')
        .limit(perPage)
        .offset(((q.page ?? 1) - 1) * perPage)
        .execute();
      void reply.header('Cache-Control', 'no-store');
      return rows;
    },
  );
}
