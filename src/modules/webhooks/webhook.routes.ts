import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParams, responses } from '../../http/schemas.js';
import {
  DeletedWebhook,
  DeliveriesQuery,
  Delivery,
  PingResult,
  WebhookInput,
  WebhookObject,
} from './webhook.schema.js';
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  pingWebhook,
  updateWebhook,
  webhookDeliveries,
} from './webhook.service.js';
import { startWorker } from './webhook.worker.js';

/**
 * /cal/admin/v1/webhooks (administrators): subscriptions, their delivery log, a test ping, and
 * re-enabling a failing subscription with a redelivery of what it missed (webhook.service.ts).
 */

const admin = { access: 'manage_options' } as const;

export async function webhookRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.services.storage;
  const { config } = app.services;
  startWorker(app, { db, config, settings: () => app.services.settings.get() });
  const one = responses({ 200: WebhookObject });

  app.get('/webhooks', { schema: { response: responses({ 200: Type.Array(WebhookObject) }) }, config: admin }, () =>
    listWebhooks(db),
  );

  app.post(
    '/webhooks',
    { schema: { body: WebhookInput, response: responses({ 201: WebhookObject }) }, config: admin },
    async (request, reply) => reply.code(201).send(await createWebhook(db, request.body, config)),
  );

  app.get('/webhooks/:id', { schema: { params: IdParams, response: one }, config: admin }, (request) =>
    getWebhook(db, request.params.id),
  );

  app.patch(
    '/webhooks/:id',
    { schema: { params: IdParams, body: WebhookInput, response: one }, config: admin },
    (request) => updateWebhook(db, request.params.id, request.body, config),
  );

  app.delete(
    '/webhooks/:id',
    { schema: { params: IdParams, response: responses({ 200: DeletedWebhook }) }, config: admin },
    (request) => deleteWebhook(db, request.params.id),
  );

  app.post(
    '/webhooks/:id/test',
    { schema: { params: IdParams, response: responses({ 200: PingResult }) }, config: admin },
    (request) => pingWebhook(db, request.params.id, config),
  );

  app.get(
    '/webhooks/:id/deliveries',
    {
      schema: { params: IdParams, querystring: DeliveriesQuery, response: responses({ 200: Type.Array(Delivery) }) },
      config: admin,
    },
    async (request, reply) => {
      const rows = await webhookDeliveries(
        db,
        request.params.id,
        request.query.page ?? 1,
        request.query.per_page ?? 20,
      );
      void reply.header('Cache-Control', 'no-store');
      return rows;
    },
  );
}
