import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { originOf } from '../../http/context.js';
import { queryString, type PagePaths } from './page.links.js';
import { PageProblem, type PageRenderer } from './page.render.js';
import { PAGE, PUBLIC, PageQuery } from './page.schema.js';
import { EMBED_VIEWS } from './page-views.chrome.js';
import { filterForm, listParams, pageFilter, param, viewFilters } from './page.service.js';

/**
 * The snippet generator (`/events/embed/`): a form, sent by GET, choosing a view and its filters
 * and the frame's height; the answer shows the `<iframe>` to paste into another site (a view at
 * `?embed=1`, without the site's header and footer) and the same frame as a preview. No script.
 */

type EmbedView = (typeof EMBED_VIEWS)[number];

const HEIGHT = { min: 200, max: 3000, default: 800 };

function viewPath(paths: PagePaths, view: EmbedView): string {
  return view === 'month' ? paths.month() : paths[view]();
}

export function embedPages(fastify: FastifyInstance, pages: PageRenderer): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.services.storage;
  app.get('/events/embed', { schema: { ...PAGE, querystring: PageQuery }, config: PUBLIC }, (request, reply) =>
    pages.respond(request, reply, [], async (scope) => {
      const { m } = scope;
      const query = request.query;
      const asked = param(query, 'view') || 'month';
      const view = EMBED_VIEWS.find((v) => v === asked);
      if (!view) throw new PageProblem(400, `${m.embedView}: ${asked.slice(0, 40)}?`);
      const rawHeight = param(query, 'height').slice(0, 12);
      const height = rawHeight === '' ? HEIGHT.default : Number(rawHeight);
      if (!Number.isInteger(height) || height < HEIGHT.min || height > HEIGHT.max)
        throw new PageProblem(400, `${m.embedHeight}: ${HEIGHT.min}–${HEIGHT.max}.`);
      // A frame shows the view's filters but no search: the page it sits on chose what it shows.
      const { search: _search, embed: _embed, ...filters } = viewFilters(query);
      const q = await listParams(db, scope, filters);
      await pageFilter(db, request.ctx, q); // an unknown category or tag is the form's 400, not the frame's
      const form = await filterForm(db, scope, filters, q);
      const src = viewPath(scope.paths, view) + queryString({ ...filters, embed: '1' });
      // The frame takes its width from the page it sits on (a style: HTML's width attribute is in pixels).
      const title = `${m.siteName}: ${view === 'photo' ? m.photo : m[view]}`;
      return {
        template: 'embed',
        head: { title: `${m.embedTitle} · ${m.siteName}`, robots: 'noindex' },
        data: {
          view: 'embed',
          form,
          choice: { view, height },
          views: EMBED_VIEWS.map((v) => ({ value: v, label: v === 'photo' ? m.photo : m[v] })),
          heights: HEIGHT,
          preview: { src, title, height },
          snippet: `<iframe src="${originOf(request)}${src}" title="${title.replace(/"/g, '&quot;')}" height="${height}" loading="lazy" style="width:100%;border:0"></iframe>`,
        },
      };
    }),
  );
}
