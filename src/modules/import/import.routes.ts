import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { IdParams, responses } from '../../http/schemas.js';
import { ImportJobs } from './import-job.service.js';
import { ImportBody, ImportJobSchema } from './import.schema.js';

/**
 * `POST /cal/admin/v1/imports` starts an import (202; 409 while one runs), `GET …/imports/{id}`
 * shows its progress and, once done, its report; `GET …/imports` the last twenty. For people who
 * cannot run `cal-events import` on the server; the same importer runs in this process.
 */

const admin = { access: 'manage_options' } as const;
const doc = { tags: ['admin'], security: [{ basic: [] }] };

export async function importRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const jobs = new ImportJobs(app, app.services.storage.db);

  app.post(
    '/imports',
    {
      schema: { ...doc, summary: 'Start an import', body: ImportBody, response: responses({ 202: ImportJobSchema }) },
      config: admin,
    },
    async (request, reply) => {
      const job = await jobs.startRequested(request.body, request.ctx.actor!);
      return reply.code(202).header('Location', `${request.ctx.restRoot}cal/admin/v1/imports/${job.id}`).send(job);
    },
  );

  app.get(
    '/imports',
    {
      schema: { ...doc, summary: 'The last twenty imports', response: responses({ 200: Type.Array(ImportJobSchema) }) },
      config: admin,
    },
    async () => jobs.list(),
  );

  app.get(
    '/imports/:id',
    {
      schema: {
        ...doc,
        summary: 'An import: progress, then report',
        params: IdParams,
        response: responses({ 200: ImportJobSchema }),
      },
      config: admin,
    },
    async (request) => jobs.found(request.params.id),
  );
}
