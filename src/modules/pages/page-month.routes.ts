import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { queryString } from './page.links.js';
import { PageProblem, type PageRenderer } from './page.render.js';
import { PAGE, PUBLIC, MonthParams, PageQuery } from './page.schema.js';
import { filterForm, gridEvents, listParams, pageFilter, viewFilters } from './page.service.js';
import { gridDays, monthView, parseMonth } from './page.views.js';

/** Events a month grid shows per day; the day view lists the rest. */
const GRID_PER_DAY = 3;

/** The month view: `/events/` (this month) and `/events/month/2027-03/`, with the filter form. */
export function monthPages(fastify: FastifyInstance, pages: PageRenderer): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.services.storage;

  async function monthPage(
    request: FastifyRequest,
    reply: FastifyReply,
    query: PageQuery,
    month: string | null,
  ): Promise<FastifyReply> {
    return pages.respond(request, reply, [], async (scope) => {
      const first = parseMonth(month ?? scope.today.slice(0, 7));
      if (!first) throw new PageProblem(404);
      const filters = viewFilters(query);
      const q = await listParams(db, scope, filters);
      const filter = await pageFilter(db, request.ctx, q);
      const days = gridDays(first, scope.lang);
      const grid = await gridEvents(db, request.ctx, filter, days, GRID_PER_DAY);
      const keep = queryString({ ...filters });
      const model = monthView(first, days, grid, scope.lang, scope.today, scope.paths, keep);
      const form = await filterForm(db, scope, filters, q);
      return {
        template: 'month',
        head: {
          title: `${model.caption} · ${scope.m.siteName}`,
          feed: form.feed,
          robots: form.filtered ? 'noindex' : '',
        },
        data: { view: 'month', month: model, form, todayHref: scope.paths.month() + keep },
      };
    });
  }

  app.get('/events', { schema: { ...PAGE, querystring: PageQuery }, config: PUBLIC }, (request, reply) =>
    monthPage(request, reply, request.query, null),
  );
  app.get(
    '/events/month/:month',
    { schema: { ...PAGE, querystring: PageQuery, params: MonthParams }, config: PUBLIC },
    (request, reply) => monthPage(request, reply, request.query, request.params.month),
  );
}
