import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { nowUtc } from '../../lib/clock.js';
import { utcToLocal, zoneOrUtc } from '../../lib/dates.js';
import { toEventObject } from '../events/event.mapper.js';
import { loadEventRelations } from '../events/event-relations.service.js';
import { seriesOverview } from '../recurrence/recurrence.service.js';
import { eventPageLd } from './page-event.jsonld.js';
import { eventPageView, metaDescription } from './page.event.js';
import { PageProblem, type PageRenderer } from './page.render.js';
import { findEventBySlug } from './page.repository.js';
import { PAGE, PUBLIC, PageQuery, SlugParams } from './page.schema.js';
import { translationPaths } from './page.service.js';

/** Next dates an event page of a recurring event lists. */
const SERIES_DATES = 5;

/** A page per event (`/event/summer-fair/`): the API's event object as a page, its series' next dates. */
export function eventPages(fastify: FastifyInstance, pages: PageRenderer): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.services.storage;
  const { config } = app.services;

  app.get(
    '/event/:slug',
    { schema: { ...PAGE, querystring: PageQuery, params: SlugParams }, config: PUBLIC },
    async (request, reply) =>
      pages.respond(request, reply, [], async (scope) => {
        const { slug } = request.params;
        const row = await findEventBySlug(db, scope.lang, slug);
        // A trashed event that was public is gone (410); drafts and the like were never there.
        if (row?.status === 'trash' && row.trashed_from === 'publish') throw new PageProblem(410);
        if (!row || row.status !== 'publish') throw new PageProblem(404);
        const blank = row.password !== '';
        // The venue's coordinates whatever the API's geolocation switch (the original's Pro feature):
        // the page's structured data places the event, as the map view does.
        const ctx = { ...request.ctx, settings: { ...request.ctx.settings, geoloc: true } };
        const relations = await loadEventRelations(db, [row], ctx, true);
        const event = toEventObject(row, relations, ctx, { single: true, blank });
        const today = utcToLocal(nowUtc(), zoneOrUtc(row.timezone));
        const series = await seriesOverview(db, row, scope.lang, today, SERIES_DATES);
        const model = eventPageView(row, event, scope.paths, scope.lang, scope.m, blank, series);
        const translations = await translationPaths(db, config, 'events', row, (paths, s) => paths.event(s));
        const image = model.image && { ...model.image, alt: model.title };
        return {
          template: 'event',
          head: {
            title: `${model.title} · ${scope.m.siteName}`,
            translations,
            jsonLd: eventPageLd({ row, event, blank }),
            description: metaDescription(row, model.dates.text),
            ...(image ? { image } : {}),
          },
          data: { view: 'event', event: model, backHref: scope.paths.month(row.start_local.slice(0, 7)) },
        };
      }),
  );
}
