import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { findLinkedBySlug } from '../linked/linked.service.js';
import type { LinkedKind, LinkedRow } from '../linked/linked.kind.js';
import { ORGANIZER } from '../organizers/organizer.kind.js';
import { renderHtml } from '../posts/post.mapper.js';
import { VENUE } from '../venues/venue.kind.js';
import { linkedPageLd } from './page-event.jsonld.js';
import { addressLine, mapLink, metaDescription, titleLang } from './page.event.js';
import { queryString } from './page.links.js';
import { PageProblem, type PageRenderer } from './page.render.js';
import { listSlice } from './page.repository.js';
import { PAGE, PUBLIC, PageQuery, SlugParams } from './page.schema.js';
import { LIST_PER_PAGE, pageFilter, pageNumber, summaries, translationPaths, upcomingMoment } from './page.service.js';
import { notOverAt } from './page-views.repository.js';

/** A page per venue and organizer (`/venue/town-hall/`): the record and its upcoming events, page by page. */
export function linkedPages(fastify: FastifyInstance, pages: PageRenderer): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.services.storage;
  const { config } = app.services;

  const kinds: [LinkedKind, 'venue' | 'organizer'][] = [
    [VENUE, 'venue'],
    [ORGANIZER, 'organizer'],
  ];
  for (const [kind, name] of kinds) {
    app.get(
      `/${name}/:slug`,
      { schema: { ...PAGE, querystring: PageQuery, params: SlugParams }, config: PUBLIC },
      (request, reply) => {
        // Upcoming, as on the list view: what is not over at this moment (also the cache key's).
        const now = upcomingMoment(request.ctx);
        return pages.respond(request, reply, [now], async (scope) => {
          const { slug } = request.params;
          const row = await findLinkedBySlug(db, kind, slug, scope.lang);
          if (!row || row.status !== 'publish') throw new PageProblem(404);
          const page = pageNumber(request.query);
          const { where } = await pageFilter(db, request.ctx, { [name]: [row.id] });
          const slice = await listSlice(
            db,
            request.ctx,
            [...where, notOverAt(now)],
            { from: scope.today },
            (page - 1) * LIST_PER_PAGE,
            LIST_PER_PAGE,
          );
          const translations = await translationPaths(db, config, kind.table, row, (paths, s) =>
            name === 'venue' ? paths.venue(s) : paths.organizer(s),
          );
          const base = name === 'venue' ? scope.paths.venue(row.slug) : scope.paths.organizer(row.slug);
          return {
            template: 'linked',
            head: {
              title: `${row.title} · ${scope.m.siteName}`,
              translations,
              jsonLd: linkedPageLd(
                name,
                row as unknown as Record<string, unknown>,
                request.ctx.pageUrl(row.lang, `${kind.pagePath}/${row.slug}`),
              ),
              feed: scope.paths.api('events') + queryString({ format: 'ical', [name]: row.id }),
              // Without a text of its own, the pages' default description.
              description: metaDescription(row, undefined),
            },
            data: {
              view: name,
              record: linkedView(kind, row, scope.lang),
              events: await summaries(db, request.ctx, scope, slice.rows),
              later: slice.more ? base + queryString({ page: page + 1 }) : null,
              earlier: page > 1 ? base + queryString({ page: page - 1 }) : null,
            },
          };
        });
      },
    );
  }
}

function linkedView(kind: LinkedKind, row: LinkedRow, lang: string) {
  const fields = row as unknown as Record<string, unknown>;
  const str = (name: string) => (typeof fields[name] === 'string' ? (fields[name] as string) : '');
  const address = kind === VENUE ? addressLine(fields) : '';
  const website = str('website');
  return {
    kind: kind.nameField,
    name: row.title,
    nameLang: titleLang(row.title, lang),
    description: renderHtml(row.description),
    address,
    map: kind === VENUE && fields['show_map_link'] === 1 && address !== '' ? mapLink(address) : null,
    phone: str('phone'),
    email: str('email'),
    website: /^https?:\/\//i.test(website) ? website : '',
  };
}
