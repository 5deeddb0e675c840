import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { rootPathOf } from '../../http/languages.js';
import { shiftDays } from '../../lib/dates.js';
import type { EventListParams } from '../events/event.schema.js';
import { renderHtml } from '../posts/post.mapper.js';
import { fill } from './page.i18n.js';
import { pagePaths, queryString } from './page.links.js';
import { PageProblem, pageScope, type PageRenderer, type PageScope, type Translations } from './page.render.js';
import { findTermBySlug, listSlice, termGroupSlugs } from './page.repository.js';
import { notOverAt, overBefore } from './page-views.repository.js';
import { PAGE, PUBLIC, PageQuery, SlugParams } from './page.schema.js';
import {
  LIST_PER_PAGE,
  byDay,
  filterForm,
  listParams,
  pageFilter,
  pageNumber,
  param,
  summaries,
  upcomingMoment,
  viewFilters,
} from './page.service.js';

/**
 * The list view (`/events/list/`: upcoming events page by page, `?past=1` the past ones, latest
 * first) and the category and tag pages, which are the same list with their term fixed.
 */

interface ListOptions {
  title: (scope: PageScope) => string;
  heading?: string;
  /** Fixed parameters of a term page (its category or tag), beside the form's filters. */
  fixed?: EventListParams;
  /** The term page's own feed (the form's names only the form's filters). */
  feed?: (scope: PageScope) => string;
  translations?: Translations;
  form: boolean;
  intro?: object | null;
}

/** The views that are a list of events page by page: the list and the photo cards. */
export type ListView = 'list' | 'photo';

export function listPage(
  app: FastifyInstance,
  pages: PageRenderer,
  request: FastifyRequest,
  reply: FastifyReply,
  query: PageQuery,
  view: ListView,
  options: () => Promise<ListOptions>,
): Promise<FastifyReply> {
  const { db } = app.services.storage;
  const { config } = app.services;
  const now = upcomingMoment(request.ctx);
  return pages.respond(request, reply, [now], async (scope) => {
    const opts = await options();
    const filters = viewFilters(query);
    const page = pageNumber(query);
    const past = param(query, 'past') === '1';
    const q = { ...(await listParams(db, scope, filters)), ...opts.fixed };
    const { where } = await pageFilter(db, request.ctx, q);
    const today = now.slice(0, 10);
    // Upcoming: what is not over yet (going on first); past: what is over, latest first.
    const slice = await listSlice(
      db,
      request.ctx,
      [...where, past ? overBefore(now) : notOverAt(now)],
      past ? { before: shiftDays(`${today} 00:00:00`, 1).slice(0, 10) } : { from: today },
      (page - 1) * LIST_PER_PAGE,
      LIST_PER_PAGE,
    );
    const here = request.url.split('?')[0]!;
    const link = (values: Record<string, string | number | undefined>) =>
      `${rootPathOf(config, scope.lang)}${here.replace(/^\/+/, '')}${queryString({ ...filters, ...values })}`;
    const form = await filterForm(db, scope, filters, q);
    const events = await summaries(db, request.ctx, scope, slice.rows);
    return {
      template: view,
      head: {
        title: `${opts.title(scope)} · ${scope.m.siteName}`,
        feed: opts.feed ? opts.feed(scope) : form.feed,
        robots: form.filtered || page > 1 ? 'noindex' : '',
        ...(opts.translations ? { translations: opts.translations } : {}),
      },
      data: {
        view,
        heading: opts.heading ?? (past ? scope.m.past : scope.m.upcoming),
        intro: opts.intro ?? null,
        events,
        days: byDay(events, scope.lang, past ? null : today),
        past,
        pageNumber: page,
        // Upcoming pages go forward in time, past pages backward.
        newer: past
          ? page > 1
            ? link({ past: 1, page: page - 1 })
            : link({})
          : page > 1
            ? link({ page: page - 1 })
            : null,
        older: past ? (slice.more ? link({ past: 1, page: page + 1 }) : null) : page === 1 ? link({ past: 1 }) : null,
        later: !past && slice.more ? link({ page: page + 1 }) : null,
        form: opts.form ? form : null,
        resetHref: view === 'photo' ? scope.paths.photo() : scope.paths.list(),
      },
    };
  });
}

export function listPages(fastify: FastifyInstance, pages: PageRenderer): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/events/list', { schema: { ...PAGE, querystring: PageQuery }, config: PUBLIC }, (request, reply) =>
    listPage(app, pages, request, reply, request.query, 'list', async () => ({ title: (s) => s.m.list, form: true })),
  );
}

// --- Categories and tags ---------------------------------------------------------------------

export function termPages(fastify: FastifyInstance, pages: PageRenderer): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.services.storage;
  const { config } = app.services;
  for (const [path, taxonomy, param] of [
    ['/events/category/:slug', 'cal_events_cat', 'categories'],
    ['/tag/:slug', 'post_tag', 'tags'],
  ] as const) {
    app.get(
      path,
      { schema: { ...PAGE, querystring: PageQuery, params: SlugParams }, config: PUBLIC },
      (request, reply) =>
        listPage(app, pages, request, reply, request.query, 'list', async () => {
          const { slug } = request.params;
          const lang = request.ctx.lang;
          const term = await findTermBySlug(db, taxonomy, lang, slug);
          if (!term) throw new PageProblem(404);
          const members = await termGroupSlugs(db, term.trid, taxonomy);
          const translations = Object.fromEntries(
            members.map((t) => {
              const paths = pagePaths(rootPathOf(config, t.lang));
              return [t.lang, taxonomy === 'post_tag' ? paths.tag(t.slug) : paths.category(t.slug)];
            }),
          );
          return {
            title: (s) => fill(s.m.eventsIn, { name: term.name }),
            heading: fill(pageScope(request).m.eventsIn, { name: term.name }),
            fixed: { [param]: [String(term.id)] },
            feed: (s) => s.paths.api('events') + queryString({ format: 'ical', [param]: term.slug }),
            translations,
            form: false,
            intro: term.description === '' ? null : { html: renderHtml(term.description) },
          };
        }),
    );
  }
}
