import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { responses } from '../../http/schemas.js';
import { ChangesQuery, ChangesSchema, parseKinds } from './sync.schema.js';
import { readChanges } from './sync.service.js';
import { startRetentionStep } from './sync.retention.js';

/** GET /cal/events/v1/changes under every language root: the sync feed (issue 19). */
export async function syncRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.services.storage;
  startRetentionStep(app, db, app.services.config.changesRetentionDays);
  app.get(
    '/cal/events/v1/changes',
    {
      schema: { querystring: ChangesQuery, response: responses({ 200: ChangesSchema }) },
      config: { access: 'public' },
    },
    async (request) =>
      readChanges(db, request.ctx, request.query.since, parseKinds(request.query.kinds), request.query.per_page ?? 100),
  );
}
