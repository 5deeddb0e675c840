import { Type, type Static } from 'typebox';
import { Page } from '../../http/schemas.js';

/** /cal/admin/v1/webhooks: what a subscription is, what an administrator sends, and the delivery log. */

export const WebhookInput = Type.Object({
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
export type WebhookInput = Static<typeof WebhookInput>;

export const WebhookObject = Type.Object({
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
export type WebhookObject = Static<typeof WebhookObject>;

export const Delivery = Type.Object({
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

export const DeliveriesQuery = Type.Object({
  page: Type.Optional(Page),
  per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
});
export type DeliveriesQuery = Static<typeof DeliveriesQuery>;

export const PingResult = Type.Object({
  delivered: Type.Boolean(),
  status: Type.Union([Type.Integer(), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
  latency_ms: Type.Integer(),
});

export const DeletedWebhook = Type.Object({ deleted: Type.Boolean(), previous: WebhookObject });
