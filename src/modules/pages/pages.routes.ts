import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import view from '@fastify/view';
import { Eta } from 'eta';
import { IMMUTABLE, loadAssets, pagesFile } from './page.assets.js';
import { dayPages } from './page-day.routes.js';
import { eventPages } from './page-event.routes.js';
import { linkedPages } from './page-linked.routes.js';
import { listPages, termPages } from './page-list.routes.js';
import { mapPages } from './page-map.routes.js';
import { monthPages } from './page-month.routes.js';
import { photoPages } from './page-photo.routes.js';
import { embedPages } from './page-embed.routes.js';
import { submitPages } from './page-submit.routes.js';
import { VIEW_HELPERS } from './page-views.chrome.js';
import { weekPages } from './page-week.routes.js';
import { PageProblem, PageRenderer, pageScope } from './page.render.js';
import { PAGE, PUBLIC } from './page.schema.js';

/**
 * The public calendar: month, list and day views, a page per event, venue, organizer, category
 * and tag, in every site language (`/fr/events/`…), and the stylesheet. Pages show what an
 * anonymous reader of the API sees (published records only, whoever asks), read through the same
 * filters and mappers as the API and answered through the page cache. Each kind of page has its
 * routes file (page-month.routes.ts, page-day.routes.ts…), registered here in order.
 */

const PAGE_PREFIXES = ['/events', '/event/', '/venue/', '/organizer/', '/tag/', '/assets/'];

/** Whether a path the router did not know is one of the pages' (answered with the site's 404 page). */
export function isPagePath(path: string): boolean {
  return PAGE_PREFIXES.some((prefix) => path === prefix.replace(/\/$/, '') || path.startsWith(prefix));
}

export type PageHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

export interface PageRoutesOptions {
  /** Receives the site's 404 page, for app.ts's not-found handler to answer unknown page paths with. */
  notFound(handler: PageHandler): void;
}

export async function pageRoutes(fastify: FastifyInstance, options: PageRoutesOptions): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const assets = loadAssets();
  await app.register(view, {
    engine: { eta: new Eta() },
    root: pagesFile('./templates/'),
    viewExt: 'eta',
    production: true,
    defaultContext: VIEW_HELPERS,
  });
  const pages = new PageRenderer(app, assets);

  // Pages show the public view whoever asks: no draft reaches a page, and one cached page serves all.
  app.addHook('preHandler', async (request) => {
    request.ctx = { ...request.ctx, actor: null };
  });

  app.get('/assets/:file', { schema: PAGE, config: PUBLIC }, async (request, reply) => {
    const asset = assets.byPath.get(request.url.split('?')[0]!);
    if (!asset) return pages.problem(request, reply, pageScope(request), new PageProblem(404));
    void reply.header('Cache-Control', IMMUTABLE).header('ETag', asset.etag);
    if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
    return reply.type(asset.type).send(asset.body);
  });

  monthPages(app, pages);
  listPages(app, pages);
  dayPages(app, pages);
  weekPages(app, pages);
  termPages(app, pages);
  eventPages(app, pages);
  linkedPages(app, pages);
  mapPages(app, pages, assets.map);
  photoPages(app, pages);
  embedPages(app, pages);
  submitPages(app, pages, assets.submit);

  options.notFound((request, reply) => pages.problem(request, reply, pageScope(request), new PageProblem(404)));
}
