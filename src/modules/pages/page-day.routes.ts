import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { fill, formats } from './page.i18n.js';
import { queryString } from './page.links.js';
import { PageProblem, type PageRenderer } from './page.render.js';
import { listSlice } from './page.repository.js';
import { DayParams, PAGE, PUBLIC, PageQuery } from './page.schema.js';
import { filterForm, listParams, pageFilter, pageNumber, summaries, viewFilters } from './page.service.js';
import { dayNeighbours, parseDay } from './page.views.js';

const DAY_PER_PAGE = 50;

/** The day view (`/events/day/2027-03-14/`): the events going on and starting that day, page by page. */
export function dayPages(fastify: FastifyInstance, pages: PageRenderer): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.services.storage;

  app.get(
    '/events/day/:day',
    { schema: { ...PAGE, querystring: PageQuery, params: DayParams }, config: PUBLIC },
    async (request, reply) =>
      pages.respond(request, reply, [], async (scope) => {
        const day = parseDay(request.params.day);
        if (!day) throw new PageProblem(404);
        const date = day.toISODate()!;
        const query = request.query;
        const filters = viewFilters(query);
        const page = pageNumber(query);
        const q = await listParams(db, scope, filters);
        const { where } = await pageFilter(db, request.ctx, q);
        const slice = await listSlice(db, request.ctx, where, { day: date }, (page - 1) * DAY_PER_PAGE, DAY_PER_PAGE);
        const keep = queryString({ ...filters });
        const { prev, next } = dayNeighbours(day);
        const form = await filterForm(db, scope, filters, q);
        const heading = fill(scope.m.eventsOn, { date: formats.longDay(scope.lang, date) });
        return {
          template: 'day',
          head: { title: `${heading} · ${scope.m.siteName}`, feed: form.feed, robots: form.filtered ? 'noindex' : '' },
          data: {
            view: 'day',
            heading,
            date,
            events: await summaries(db, request.ctx, scope, slice.rows),
            prev: { href: scope.paths.day(prev) + keep, label: formats.longDay(scope.lang, prev) },
            next: { href: scope.paths.day(next) + keep, label: formats.longDay(scope.lang, next) },
            monthHref: scope.paths.month(date.slice(0, 7)) + keep,
            morePage: slice.more ? scope.paths.day(date) + queryString({ ...filters, page: page + 1 }) : null,
            prevPage: page > 1 ? scope.paths.day(date) + queryString({ ...filters, page: page - 1 }) : null,
            form,
          },
        };
      }),
  );
}
