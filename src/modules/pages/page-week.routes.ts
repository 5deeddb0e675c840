import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { queryString } from './page.links.js';
import { PageProblem, pageScope, type PageRenderer } from './page.render.js';
import { DayParams, PAGE, PUBLIC, PageQuery } from './page.schema.js';
import { filterForm, gridEvents, listParams, pageFilter, viewFilters } from './page.service.js';
import { parseDay, weekDays, weekStart, weekView } from './page.views.js';

/** Events a week shows per day (bars and events): past them, the day's "more" links to the day view. */
const WEEK_PER_DAY = 40;

/**
 * The week view: `/events/week/` (this week) and `/events/week/2027-03-14/`, the week holding that
 * day. A week's address is its first day (the language's first weekday): any other day of it
 * redirects there, so each week is one page (and one cached answer).
 */
export function weekPages(fastify: FastifyInstance, pages: PageRenderer): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.services.storage;

  async function weekPage(
    request: FastifyRequest,
    reply: FastifyReply,
    query: PageQuery,
    day: string | null,
  ): Promise<FastifyReply> {
    const asked = day === null ? null : parseDay(day);
    if (asked) {
      const first = weekStart(asked, request.ctx.lang).toISODate()!;
      const search = request.url.indexOf('?');
      if (first !== day)
        return reply.redirect(
          pageScope(request).paths.week(first) + (search < 0 ? '' : request.url.slice(search)),
          301,
        );
    }
    return pages.respond(request, reply, [], async (scope) => {
      const date = day === null ? parseDay(scope.today) : asked;
      if (!date) throw new PageProblem(404);
      const start = weekStart(date, scope.lang);
      const filters = viewFilters(query);
      const q = await listParams(db, scope, filters);
      const filter = await pageFilter(db, request.ctx, q);
      const grid = await gridEvents(db, request.ctx, filter, weekDays(start), WEEK_PER_DAY);
      const keep = queryString({ ...filters });
      const week = weekView(start, grid, scope.lang, scope.today, scope.paths, keep);
      const form = await filterForm(db, scope, filters, q);
      return {
        template: 'week',
        head: {
          title: `${week.caption} · ${scope.m.siteName}`,
          feed: form.feed,
          robots: form.filtered ? 'noindex' : '',
        },
        data: { view: 'week', week, form, todayHref: scope.paths.week() + keep },
      };
    });
  }

  app.get('/events/week', { schema: { ...PAGE, querystring: PageQuery }, config: PUBLIC }, (request, reply) =>
    weekPage(request, reply, request.query, null),
  );
  app.get(
    '/events/week/:day',
    { schema: { ...PAGE, querystring: PageQuery, params: DayParams }, config: PUBLIC },
    (request, reply) => weekPage(request, reply, request.query, request.params.day),
  );
}
