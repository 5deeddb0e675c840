import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import view from '@fastify/view';
import { Eta } from 'eta';
import type { EventRow } from '../../db/database.js';
import { ApiError } from '../../http/errors.js';
import { rootPathOf } from '../../http/languages.js';
import { loadEventRelations, toEventObject } from '../events/event.mapper.js';
import type { EventListParams } from '../events/event.schema.js';
import { eventLd } from '../feeds/jsonld.list.js';
import { findLinkedBySlug } from '../linked/linked.service.js';
import type { LinkedKind, LinkedRow } from '../linked/linked-kind.js';
import { VENUE, venueJsonLd } from '../venues/venue.kind.js';
import { ORGANIZER, organizerJsonLd } from '../organizers/organizer.kind.js';
import { loadTranslations } from '../posts/post.service.js';
import { renderHtml } from '../posts/post.mapper.js';
import { IMMUTABLE, loadAssets, pagesFile } from './page.assets.js';
import { addressLine, eventPageView, eventSummary, mapLink } from './page.event.js';
import { seriesOverview } from '../recurrence/recurrence.overview.js';
import { nowUtc } from '../../lib/clock.js';
import { utcToLocal, zoneOrUtc } from '../../lib/dates.js';
import { fill, formats } from './page.i18n.js';
import { pagePaths, queryString, type ViewFilters } from './page.links.js';
import {
  findEventBySlug,
  findTermBySlug,
  gridEvents,
  listSlice,
  pageFilter,
  publishedSlugs,
  termChoices,
  termGroupSlugs,
  venueChoices,
  type PageFilter,
} from './page.repository.js';
import { PageProblem, PageRenderer, pageScope, type PageScope, type Translations } from './page.render.js';
import { dayNeighbours, gridDays, monthView, parseDay, parseMonth } from './page.views.js';

/**
 * The public calendar: month, list and day views, a page per event, venue, organizer, category
 * and tag, in every site language (`/fr/events/`…), and the stylesheet. Pages show what an
 * anonymous reader of the API sees (published records only, whoever asks), read through the same
 * filters and mappers as the API and answered through the page cache.
 */

/** Next dates an event page of a recurring event lists. */
const SERIES_DATES = 5;

/** Events a month grid shows per day; the day view lists the rest. */
const GRID_PER_DAY = 3;
const LIST_PER_PAGE = 20;
const DAY_PER_PAGE = 50;
/** Filter choices offered in the form (by name); any other can still be given in the URL. */
const MAX_CHOICES = 200;
const MAX_PAGE = 1000;
const MAX_SEARCH = 200;

const PAGE_PREFIXES = ['/events', '/event/', '/venue/', '/organizer/', '/tag/', '/assets/'];

/** Whether a path the router did not know is one of the pages' (answered with the site's 404 page). */
export function isPagePath(path: string): boolean {
  return PAGE_PREFIXES.some((prefix) => path === prefix.replace(/\/$/, '') || path.startsWith(prefix));
}

type Query = Record<string, unknown>;

/** A single string parameter (the last one when repeated), trimmed; '' when absent. */
function param(query: Query, name: string): string {
  const value = query[name];
  const last = Array.isArray(value) ? value[value.length - 1] : value;
  return typeof last === 'string' ? last.trim() : '';
}

function pageNumber(query: Query): number {
  const raw = param(query, 'page');
  if (raw === '') return 1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE)
    throw new PageProblem(400, `page must be a whole number from 1 to ${MAX_PAGE}.`);
  return n;
}

function viewFilters(query: Query): ViewFilters {
  const filters: ViewFilters = {};
  for (const name of ['category', 'tag', 'venue', 'search'] as const) {
    const value = param(query, name);
    if (value !== '') filters[name] = value.slice(0, MAX_SEARCH);
  }
  return filters;
}

export type PageHandler = (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

export interface PageRoutesOptions {
  /** Receives the site's 404 page, for app.ts's not-found handler to answer unknown page paths with. */
  notFound(handler: PageHandler): void;
}

export async function pageRoutes(app: FastifyInstance, options: PageRoutesOptions): Promise<void> {
  const { db } = app.services.storage;
  const { config } = app.services;
  const assets = loadAssets();
  await app.register(view, {
    engine: { eta: new Eta() },
    root: pagesFile('./templates/'),
    viewExt: 'eta',
    production: true,
  });
  const pages = new PageRenderer(app, assets);

  // Pages show the public view whoever asks: no draft reaches a page, and one cached page serves all.
  app.addHook('preHandler', async (request) => {
    request.ctx = { ...request.ctx, actor: null };
  });

  const get = (url: string, handler: (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>) =>
    app.get(url, { schema: { hide: true }, config: { access: 'public' } }, handler);

  get('/assets/:file', async (request, reply) => {
    const asset = assets.byPath.get(request.url.split('?')[0]!);
    if (!asset) return pages.problem(request, reply, pageScope(request), new PageProblem(404));
    void reply.header('Cache-Control', IMMUTABLE).header('ETag', asset.etag);
    if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
    return reply.type(asset.type).send(asset.body);
  });

  /** The filters as the list's parameters; a venue is named by its slug. */
  async function listParams(scope: PageScope, filters: ViewFilters): Promise<EventListParams> {
    const q: EventListParams = {};
    if (filters.category) q.categories = [filters.category];
    if (filters.tag) q.tags = [filters.tag];
    if (filters.search) q.search = filters.search;
    if (filters.venue) {
      const venue = await findLinkedBySlug(db, VENUE, filters.venue, scope.lang);
      if (!venue || venue.status !== 'publish') throw new PageProblem(400, `${scope.m.venue}: ${filters.venue}?`);
      q.venue = [venue.id];
    }
    return q;
  }

  async function filterOf(request: FastifyRequest, q: EventListParams): Promise<PageFilter> {
    try {
      return await pageFilter(db, q, request.ctx);
    } catch (error) {
      // An unknown category or tag in a shared URL: the site's own page says which.
      if (error instanceof ApiError && error.status === 400) throw new PageProblem(400, error.message);
      throw error;
    }
  }

  /** The filter form's choices and current values, and the iCalendar feed of the same events. */
  async function filterForm(scope: PageScope, filters: ViewFilters, q: EventListParams) {
    const [categories, tags, venues] = await Promise.all([
      termChoices(db, 'cal_events_cat', scope.lang, MAX_CHOICES),
      termChoices(db, 'post_tag', scope.lang, MAX_CHOICES),
      venueChoices(db, scope.lang, MAX_CHOICES),
    ]);
    const feed =
      scope.paths.api('events') +
      queryString({
        format: 'ical',
        categories: filters.category,
        tags: filters.tag,
        venue: q.venue?.join(','),
        search: filters.search,
      });
    return { filters, choices: { categories, tags, venues }, feed, filtered: Object.keys(filters).length > 0 };
  }

  async function summaries(request: FastifyRequest, scope: PageScope, rows: EventRow[]) {
    const relations = await loadEventRelations(db, rows, request.ctx, false);
    return rows.map((row) =>
      eventSummary(
        toEventObject(row, relations, request.ctx, { single: false, blank: row.password !== '' }),
        scope.paths,
        scope.lang,
      ),
    );
  }

  // --- Month ---------------------------------------------------------------------------------

  async function monthPage(request: FastifyRequest, reply: FastifyReply, month: string | null): Promise<FastifyReply> {
    return pages.respond(request, reply, [], async (scope) => {
      const first = parseMonth(month ?? scope.today.slice(0, 7));
      if (!first) throw new PageProblem(404);
      const filters = viewFilters(request.query as Query);
      const q = await listParams(scope, filters);
      const filter = await filterOf(request, q);
      const days = gridDays(first, scope.lang);
      const grid = await gridEvents(db, request.ctx, filter, days, GRID_PER_DAY);
      const keep = queryString({ ...filters });
      const model = monthView(first, days, grid, scope.lang, scope.today, scope.paths, keep);
      const form = await filterForm(scope, filters, q);
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

  get('/events', (request, reply) => monthPage(request, reply, null));
  get('/events/month/:month', (request, reply) =>
    monthPage(request, reply, (request.params as { month: string }).month),
  );

  // --- List and day --------------------------------------------------------------------------

  interface ListOptions {
    title: (scope: PageScope) => string;
    heading?: string;
    /** Fixed parameters of a term page (its category or tag), beside the form's filters. */
    fixed?: EventListParams;
    translations?: Translations;
    form: boolean;
    intro?: object | null;
  }

  async function listPage(
    request: FastifyRequest,
    reply: FastifyReply,
    options: () => Promise<ListOptions>,
  ): Promise<FastifyReply> {
    return pages.respond(request, reply, [], async (scope) => {
      const opts = await options();
      const query = request.query as Query;
      const filters = viewFilters(query);
      const page = pageNumber(query);
      const past = param(query, 'past') === '1';
      const q = { ...(await listParams(scope, filters)), ...opts.fixed };
      const { where } = await filterOf(request, q);
      const slice = await listSlice(
        db,
        request.ctx,
        where,
        past ? { before: scope.today } : { from: scope.today },
        (page - 1) * LIST_PER_PAGE,
        LIST_PER_PAGE,
      );
      const here = request.url.split('?')[0]!;
      const link = (values: Record<string, string | number | undefined>) =>
        `${rootPathOf(config, scope.lang)}${here.replace(/^\/+/, '')}${queryString({ ...filters, ...values })}`;
      const form = await filterForm(scope, filters, q);
      return {
        template: 'list',
        head: {
          title: `${opts.title(scope)} · ${scope.m.siteName}`,
          feed: form.feed,
          robots: form.filtered || page > 1 ? 'noindex' : '',
          ...(opts.translations ? { translations: opts.translations } : {}),
        },
        data: {
          view: 'list',
          heading: opts.heading ?? (past ? scope.m.past : scope.m.upcoming),
          intro: opts.intro ?? null,
          events: await summaries(request, scope, slice.rows),
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
        },
      };
    });
  }

  get('/events/list', (request, reply) =>
    listPage(request, reply, async () => ({ title: (s) => s.m.list, form: true })),
  );

  get('/events/day/:day', async (request, reply) =>
    pages.respond(request, reply, [], async (scope) => {
      const day = parseDay((request.params as { day: string }).day);
      if (!day) throw new PageProblem(404);
      const date = day.toISODate()!;
      const query = request.query as Query;
      const filters = viewFilters(query);
      const page = pageNumber(query);
      const q = await listParams(scope, filters);
      const { where } = await filterOf(request, q);
      const slice = await listSlice(db, request.ctx, where, { day: date }, (page - 1) * DAY_PER_PAGE, DAY_PER_PAGE);
      const keep = queryString({ ...filters });
      const { prev, next } = dayNeighbours(day);
      const form = await filterForm(scope, filters, q);
      const heading = fill(scope.m.eventsOn, { date: formats.longDay(scope.lang, date) });
      return {
        template: 'day',
        head: { title: `${heading} · ${scope.m.siteName}`, feed: form.feed, robots: form.filtered ? 'noindex' : '' },
        data: {
          view: 'day',
          heading,
          date,
          events: await summaries(request, scope, slice.rows),
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

  // --- Categories and tags -------------------------------------------------------------------

  for (const [path, taxonomy, param] of [
    ['/events/category/:slug', 'cal_events_cat', 'categories'],
    ['/tag/:slug', 'post_tag', 'tags'],
  ] as const) {
    get(path, (request, reply) =>
      listPage(request, reply, async () => {
        const { slug } = request.params as { slug: string };
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
          translations,
          form: false,
          intro: term.description === '' ? null : { html: renderHtml(term.description) },
        };
      }),
    );
  }

  // --- One event -----------------------------------------------------------------------------

  get('/event/:slug', async (request, reply) =>
    pages.respond(request, reply, [], async (scope) => {
      const { slug } = request.params as { slug: string };
      const row = await findEventBySlug(db, scope.lang, slug);
      // A trashed event that was public is gone (410); drafts and the like were never there.
      if (row?.status === 'trash' && row.trashed_from === 'publish') throw new PageProblem(410);
      if (!row || row.status !== 'publish') throw new PageProblem(404);
      const blank = row.password !== '';
      const relations = await loadEventRelations(db, [row], request.ctx, true);
      const event = toEventObject(row, relations, request.ctx, { single: true, blank });
      const today = utcToLocal(nowUtc(), zoneOrUtc(row.timezone));
      const series = await seriesOverview(db, row, scope.lang, today, SERIES_DATES);
      const model = eventPageView(row, event, scope.paths, scope.lang, scope.m, blank, series);
      const translations = await translationPaths('events', row, (paths, s) => paths.event(s));
      return {
        template: 'event',
        head: {
          title: `${model.title} · ${scope.m.siteName}`,
          translations,
          jsonLd: eventLd(row, event, blank),
          description: model.dates.text,
        },
        data: { view: 'event', event: model, backHref: scope.paths.month(row.start_local.slice(0, 7)) },
      };
    }),
  );

  /** Paths of a record's published translations, for the switcher and hreflang. */
  async function translationPaths(
    table: 'events' | 'venues' | 'organizers',
    row: { id: number; trid: number; lang: string; slug: string },
    path: (paths: ReturnType<typeof pagePaths>, slug: string) => string,
  ): Promise<Translations> {
    const group = (await loadTranslations(db, table, [row.trid], null)).get(row.trid) ?? {};
    const ids = Object.entries(group)
      .filter(([lang]) => lang !== row.lang)
      .map(([, id]) => id);
    const others = ids.length === 0 ? [] : await publishedSlugs(db, table, ids);
    return Object.fromEntries(
      [...others, row].map((r) => [r.lang, path(pagePaths(rootPathOf(config, r.lang)), r.slug)]),
    );
  }

  // --- Venues and organizers -----------------------------------------------------------------

  const linkedPages: [LinkedKind, 'venue' | 'organizer'][] = [
    [VENUE, 'venue'],
    [ORGANIZER, 'organizer'],
  ];
  for (const [kind, name] of linkedPages) {
    get(`/${name}/:slug`, (request, reply) =>
      pages.respond(request, reply, [], async (scope) => {
        const { slug } = request.params as { slug: string };
        const row = await findLinkedBySlug(db, kind, slug, scope.lang);
        if (!row || row.status !== 'publish') throw new PageProblem(404);
        const page = pageNumber(request.query as Query);
        const { where } = await filterOf(request, { [name]: [row.id] });
        const slice = await listSlice(
          db,
          request.ctx,
          where,
          { from: scope.today },
          (page - 1) * LIST_PER_PAGE,
          LIST_PER_PAGE,
        );
        const translations = await translationPaths(kind.table, row, (paths, s) =>
          name === 'venue' ? paths.venue(s) : paths.organizer(s),
        );
        const base = name === 'venue' ? scope.paths.venue(row.slug) : scope.paths.organizer(row.slug);
        return {
          template: 'linked',
          head: {
            title: `${row.title} · ${scope.m.siteName}`,
            translations,
            jsonLd: linkedLd(kind, row),
            feed: scope.paths.api('events') + queryString({ format: 'ical', [name]: row.id }),
          },
          data: {
            view: name,
            record: linkedView(kind, row),
            events: await summaries(request, scope, slice.rows),
            later: slice.more ? base + queryString({ page: page + 1 }) : null,
            earlier: page > 1 ? base + queryString({ page: page - 1 }) : null,
          },
        };
      }),
    );
  }

  function linkedLd(kind: LinkedKind, row: LinkedRow): unknown {
    return kind === VENUE ? venueJsonLd(row as never) : organizerJsonLd(row as never);
  }

  function linkedView(kind: LinkedKind, row: LinkedRow) {
    const fields = row as unknown as Record<string, unknown>;
    const str = (name: string) => (typeof fields[name] === 'string' ? (fields[name] as string) : '');
    const address = kind === VENUE ? addressLine(fields) : '';
    const website = str('website');
    return {
      kind: kind.nameField,
      name: row.title,
      description: renderHtml(row.description),
      address,
      map: kind === VENUE && fields['show_map_link'] === 1 && address !== '' ? mapLink(address) : null,
      phone: str('phone'),
      email: str('email'),
      website: /^https?:\/\//i.test(website) ? website : '',
    };
  }

  options.notFound((request, reply) => pages.problem(request, reply, pageScope(request), new PageProblem(404)));
}
