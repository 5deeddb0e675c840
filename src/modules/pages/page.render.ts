import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { originOf } from '../../http/context.js';
import { rootPathOf } from '../../http/languages.js';
import { pagePolicy } from '../../http/security.js';
import { feedToday } from '../feeds/feed.service.js';
import type { Assets } from './page.assets.js';
import { fill, languageName, messagesOf, type Messages } from './page.i18n.js';
import { pagePaths, type PagePaths } from './page.links.js';
import { canonicalPath, describe, openGraph } from './page.seo.js';

/**
 * Rendering a page: the layout's data (language, switcher, alternates, stylesheet), the template
 * through @fastify/view, and the answer: through the page cache (ETag, Last-Modified, 304) for a
 * page, uncached with its status for a missing one.
 */

declare module 'fastify' {
  interface FastifyInstance {
    /** @fastify/view's renderer (Eta templates of ./templates). */
    view(template: string, data: object): Promise<string>;
  }
}

/** A page that cannot be shown: 404 (no such published record), 410 (trashed), 400 (a bad filter). */
export class PageProblem extends Error {
  constructor(
    readonly status: 400 | 404 | 410,
    message = '',
  ) {
    super(message);
  }
}

/** The same page in each site language: its path there, when it exists. */
export type Translations = Record<string, string | undefined>;

export interface PageHead {
  title: string;
  /**
   * Paths of the page in the other languages (a language left out gets its calendar's home);
   * left out, the page is a view that exists in every language at the same path under its root.
   */
  translations?: Translations;
  description?: string;
  /** The iCalendar subscription of what the page lists. */
  feed?: string;
  /** schema.org JSON-LD of the page's subject. */
  jsonLd?: unknown;
  /** Extra <meta name="robots">, e.g. noindex for filtered and error pages. */
  robots?: string;
  /** The page's picture for link previews (Open Graph, Twitter cards), an absolute URL. */
  image?: { url: string; width?: number; height?: number; alt?: string };
}

/** Per-request facts every template needs. */
export interface PageScope {
  lang: string;
  m: Messages;
  paths: PagePaths;
  /** Today in the site's time zone (YYYY-MM-DD): the month grid marks it, lists start from it. */
  today: string;
  /** `?embed=1`: the page is shown inside another site's `<iframe>`, without the site's header and footer. */
  embed: boolean;
}

export function pageScope(request: FastifyRequest): PageScope {
  const { ctx } = request;
  return {
    lang: ctx.lang,
    m: messagesOf(ctx.lang),
    paths: pagePaths(rootPathOf(pageConfig(request), ctx.lang)),
    today: feedToday(ctx),
    embed: isEmbed(request),
  };
}

/** Whether the page was asked for as an embed (`?embed=1`). */
export function isEmbed(request: FastifyRequest): boolean {
  const value = (request.query as Record<string, unknown> | undefined)?.['embed'];
  return value === '1' || (Array.isArray(value) && value[value.length - 1] === '1');
}

function pageConfig(request: FastifyRequest) {
  return request.server.services.config;
}

/** `</script>` and `<!--` cannot end or open anything inside a JSON script element once `<` is escaped. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export class PageRenderer {
  constructor(
    private readonly app: FastifyInstance,
    private readonly assets: Assets,
  ) {}

  /**
   * The layout's data around a page's own. The canonical address and the alternates are the page's
   * without noise (`embed`, tracking tags: canonicalPath), so search engines and link previews
   * name one page whatever address it was reached by; `x-default` is the default language's.
   */
  private layout(request: FastifyRequest, scope: PageScope, head: PageHead, view: unknown): Record<string, unknown> {
    const { config } = this.app.services;
    const origin = originOf(request);
    // The address as asked, with its language root (request.url is the path under the root).
    const here = request.originalUrl;
    const canonical = canonicalPath(here);
    const translations: Translations =
      head.translations ??
      Object.fromEntries(
        config.languages.map((lang) => [
          lang,
          canonicalPath(`${rootPathOf(config, lang)}${request.url.replace(/^\/+/, '')}`),
        ]),
      );
    const switcher = config.languages.map((lang) => ({
      lang,
      name: languageName(lang),
      href: lang === scope.lang ? here : (translations[lang] ?? pagePaths(rootPathOf(config, lang)).month()),
      current: lang === scope.lang,
    }));
    const alternates = config.languages.flatMap((lang) => {
      const path = lang === scope.lang ? canonical : translations[lang];
      return path === undefined ? [] : [{ lang, href: `${origin}${path}` }];
    });
    const byDefault = alternates.find((alt) => alt.lang === config.defaultLanguage);
    const description = describe(scope.m, head, view);
    return {
      ...scope,
      fill,
      title: head.title,
      description,
      feed: head.feed ?? '',
      jsonLd: head.jsonLd === undefined ? '' : scriptJson(head.jsonLd),
      robots: head.robots ?? '',
      canonical: `${origin}${canonical}`,
      stylesheet: this.assets.stylesheet.path,
      switcher,
      alternates:
        alternates.length > 1 ? [...alternates, ...(byDefault ? [{ ...byDefault, lang: 'x-default' }] : [])] : [],
      og: openGraph(scope, head, view, description, `${origin}${canonical}`, alternates),
      // The header's "Submit an event" link (a change of the setting moves the data version: no stale page).
      submissions: request.ctx.settings.submissions,
    };
  }

  async render(
    request: FastifyRequest,
    scope: PageScope,
    template: string,
    head: PageHead,
    data: object,
  ): Promise<string> {
    const view = (data as { view?: unknown }).view;
    return this.app.view(template, { ...this.layout(request, scope, head, view), ...data });
  }

  /**
   * Answers a page through the page cache: `keyParts` hold what the URL does not (today's date).
   * A PageProblem thrown while producing it is answered with its status, never cached.
   */
  async respond(
    request: FastifyRequest,
    reply: FastifyReply,
    keyParts: string[],
    produce: (scope: PageScope) => Promise<{ template: string; head: PageHead; data: object }>,
  ): Promise<FastifyReply> {
    const scope = pageScope(request);
    pagePolicy(reply, this.app.services.config, scope.embed);
    try {
      return await this.app.services.pageCache.respondRaw(
        request,
        reply,
        ['html', request.url, scope.today, ...keyParts],
        async () => {
          const { template, head, data } = await produce(scope);
          const html = await this.render(request, scope, template, head, data);
          return {
            type: 'text/html; charset=utf-8',
            headers: { 'Content-Language': scope.lang },
            body: Buffer.from(html),
          };
        },
      );
    } catch (error) {
      if (error instanceof PageProblem) return this.problem(request, reply, scope, error);
      throw error;
    }
  }

  /** The site's own page for a missing, removed or unreadable page, in the request's language. */
  async problem(
    request: FastifyRequest,
    reply: FastifyReply,
    scope: PageScope,
    problem: PageProblem,
  ): Promise<FastifyReply> {
    const { m } = scope;
    pagePolicy(reply, this.app.services.config, scope.embed);
    const [title, text] =
      problem.status === 410
        ? [m.goneTitle, m.goneText]
        : problem.status === 404
          ? [m.notFoundTitle, m.notFoundText]
          : [m.errorTitle, problem.message];
    const html = await this.render(
      request,
      scope,
      'problem',
      { title, translations: {}, robots: 'noindex' },
      { status: problem.status, text },
    );
    return reply
      .code(problem.status)
      .header('Cache-Control', 'no-store')
      .header('Content-Language', scope.lang)
      .type('text/html; charset=utf-8')
      .send(html);
  }
}
