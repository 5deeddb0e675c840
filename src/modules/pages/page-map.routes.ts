import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Expression, SqlBool } from 'kysely';
import type { Db } from '../../db/database.js';
import type { MapAssets } from './page.assets.js';
import { fill } from './page.i18n.js';
import { queryString } from './page.links.js';
import { mapMarkers } from './page-map.markers.js';
import { mapVenues, onTheMap, unmappedCount } from './page-map.repository.js';
import type { PageRenderer, PageScope } from './page.render.js';
import { listSlice, spanningEvents, type ListSlice } from './page.repository.js';
import { PAGE, PUBLIC, PageQuery } from './page.schema.js';
import {
  filterForm,
  listParams,
  pageFilter,
  pageNumber,
  summaries,
  upcomingMoment,
  viewFilters,
} from './page.service.js';
import { notOverAt } from './page-views.repository.js';

/**
 * The map view (`/events/map/`): the upcoming events whose venue has coordinates, page by page as
 * the list view goes (the same filters and the same read of the index by start), as a list, and a
 * map our script draws over it with Leaflet from the page's data-* attributes (no inline script).
 * Without JavaScript, or without tiles (CAL_MAP_TILES=off), the list is the whole page and says
 * how many events of the same dates have no place on the map, linking to the list view.
 */

/** Events per page: a map reads better with more of them than a list page holds. */
const MAP_PER_PAGE = 50;
/** Events without a place counted at most ("more than 100"): the count reads no further. */
const UNMAPPED_CAP = 100;
/** One past the cap: reaching it means "more than UNMAPPED_CAP". */
const UNMAPPED_READ = UNMAPPED_CAP + 1;

const dayStart = (day: string) => `${day} 00:00:00`;

/**
 * How many events of the page's dates have no place on the map: from today (or, after the first
 * page, this page's first start) to this page's last start, or on when it is the last page; on
 * the first page with the events still going on today.
 */
async function unmappedOnPage(
  db: Db,
  request: FastifyRequest,
  scope: PageScope,
  where: Expression<SqlBool>[],
  slice: ListSlice,
  page: number,
): Promise<number> {
  const today = dayStart(scope.today);
  const first = slice.rows[0]?.start_local ?? today;
  const from = page === 1 || first < today ? today : first;
  const to = slice.more ? slice.rows[slice.rows.length - 1]!.start_local : null;
  const [starting, going] = await Promise.all([
    unmappedCount(db, request.ctx, where, from, to, UNMAPPED_READ),
    page === 1 ? spanningEvents(db, request.ctx, [...where, onTheMap(false)], scope.today, UNMAPPED_READ) : [],
  ]);
  return Math.min(UNMAPPED_READ, starting + going.length);
}

export function mapPages(fastify: FastifyInstance, pages: PageRenderer, assets: MapAssets): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.services.storage;
  const { mapTiles } = app.services.config;

  app.get('/events/map', { schema: { ...PAGE, querystring: PageQuery }, config: PUBLIC }, (request, reply) => {
    // Upcoming, as on the list view: what is not over at this moment (also the cache key's).
    const now = upcomingMoment(request.ctx);
    return pages.respond(request, reply, [now], async (scope) => {
      const filters = viewFilters(request.query);
      const page = pageNumber(request.query);
      const q = await listParams(db, scope, filters);
      const where = [...(await pageFilter(db, request.ctx, q)).where, notOverAt(now)];
      const offset = (page - 1) * MAP_PER_PAGE;
      const slice = await listSlice(
        db,
        request.ctx,
        [...where, onTheMap(true)],
        { from: scope.today },
        offset,
        MAP_PER_PAGE,
      );
      const venueIds = slice.rows.map((row) => row.venue_id);
      const [events, venues, unmapped, form] = await Promise.all([
        summaries(db, request.ctx, scope, slice.rows),
        mapVenues(db, [...new Set(venueIds.filter((id) => id !== null))]),
        unmappedOnPage(db, request, scope, where, slice, page),
        filterForm(db, scope, filters, q),
      ]);
      const link = (values: Record<string, string | number | undefined>) =>
        scope.paths.map() + queryString({ ...filters, ...values });
      const { m } = scope;
      return {
        template: 'map',
        head: {
          title: `${m.mapTitle} · ${m.siteName}`,
          feed: form.feed,
          robots: form.filtered || page > 1 ? 'noindex' : '',
        },
        data: {
          view: 'map',
          heading: m.mapTitle,
          form,
          events,
          markers: JSON.stringify(mapMarkers(events, venueIds, venues, scope.paths)),
          tiles: mapTiles.url,
          attribution: mapTiles.url === 'off' ? '' : mapTiles.attribution,
          assets,
          unmapped:
            unmapped === 0
              ? null
              : {
                  text:
                    unmapped === 1
                      ? m.mapUnmappedOne
                      : fill(unmapped > UNMAPPED_CAP ? m.mapUnmappedMore : m.mapUnmapped, {
                          n: Math.min(unmapped, UNMAPPED_CAP),
                        }),
                  href: scope.paths.list() + queryString({ ...filters }),
                },
          pageNumber: page,
          earlier: page > 1 ? link({ page: page === 2 ? undefined : page - 1 }) : null,
          later: slice.more ? link({ page: page + 1 }) : null,
        },
      };
    });
  });
}
