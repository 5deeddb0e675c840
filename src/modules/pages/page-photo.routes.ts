import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { listPage } from './page-list.routes.js';
import type { PageRenderer } from './page.render.js';
import { PAGE, PUBLIC, PageQuery } from './page.schema.js';

/**
 * The photo view (`/events/photo/`): the list's events, filters and pages as cards, each with its
 * picture (or a plain placeholder), date, title and venue.
 */
export function photoPages(fastify: FastifyInstance, pages: PageRenderer): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/events/photo', { schema: { ...PAGE, querystring: PageQuery }, config: PUBLIC }, (request, reply) =>
    listPage(app, pages, request, reply, request.query, 'photo', async () => ({ title: (s) => s.m.photo, form: true })),
  );
}
