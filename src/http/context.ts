import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { Versions } from '../db/data-version.js';
import type { Actor, Capability } from '../auth/roles.js';
import type { Settings } from './site-settings.js';
import { rootPathOf } from './languages.js';
import { byteBoundedCache, CACHE_BUDGET, stringBytes } from '../lib/cache-budget.js';

export const NAMESPACE = 'cal/events/v1';
/** The administrators' namespace: users, settings, imports, webhooks. */
export const ADMIN_NAMESPACE = 'cal/admin/v1';

/**
 * What every handler needs to know about its request, resolved once in app.ts hooks: the language,
 * the caller, and the addresses responses are built from.
 */
export interface RequestContext {
  lang: string;
  actor: Actor | null;
  settings: Settings;
  /** `http://host:port/` or `http://host:port/fr/`: the REST root of the request's language. */
  restRoot: string;
  /** `<restRoot>cal/events/v1` (no trailing slash). */
  base: string;
  /** Public site address without trailing slash (CAL_SITE_URL or settings, else our own origin). */
  site: string;
  /** Host and path of the site, for `global_id` (no scheme, no port). */
  globalHost: string;
  defaultLanguage: string;
  /** Public page of a record: `<site>[/xx]/<path>/`. */
  pageUrl(lang: string, path: string): string;
}

/** The origin the client reached us at; the Host header is reduced to host[:port] characters. */
export function originOf(request: FastifyRequest): string {
  const host = (request.headers.host ?? '127.0.0.1').replace(/[^A-Za-z0-9.:[\]-]/g, '') || '127.0.0.1';
  return `${request.protocol}://${host}`;
}

/** By address, which comes from the Host header: bounded by bytes, since a header can be kilobytes long. */
const globalHosts = byteBoundedCache<string, string>(
  CACHE_BUDGET.hosts,
  (host, site) => stringBytes(site) + stringBytes(host),
);

/** `global_id` host of a site address: host and path, no scheme or port (parsed once per address). */
function globalHostOf(site: string): string {
  let host = globalHosts.get(site);
  if (host === undefined) {
    const url = new URL(site);
    host = `${url.hostname}${url.pathname.replace(/\/+$/, '')}`;
    globalHosts.set(site, host);
  }
  return host;
}

export function buildContext(
  config: Config,
  request: FastifyRequest,
  lang: string,
  actor: Actor | null,
  settings: Settings,
): RequestContext {
  return contextAt(config, originOf(request), lang, actor, settings);
}

/**
 * The context of work done outside a request (webhook payloads): the site's address stands for
 * the origin, as a reader of the site would reach it.
 */
export function backgroundContext(config: Config, lang: string, settings: Settings): RequestContext {
  const origin = (settings.site_url ?? config.siteUrl ?? `http://${config.host}:${config.port}`).replace(
    /^(https?:\/\/[^/]+).*$/,
    '$1',
  );
  return contextAt(config, origin, lang, null, settings);
}

function contextAt(
  config: Config,
  origin: string,
  lang: string,
  actor: Actor | null,
  settings: Settings,
): RequestContext {
  const restRoot = `${origin}${rootPathOf(config, lang)}`;
  const site = (settings.site_url ?? origin).replace(/\/+$/, '');
  return {
    lang,
    actor,
    settings,
    restRoot,
    base: `${restRoot}${NAMESPACE}`,
    site,
    globalHost: globalHostOf(site),
    defaultLanguage: config.defaultLanguage,
    pageUrl: (recordLang, path) => `${site}${recordLang === config.defaultLanguage ? '' : `/${recordLang}`}/${path}/`,
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    ctx: RequestContext;
    /**
     * The data and auth versions, read once by an authenticated request in one statement (with its
     * credentials); the page cache keys on the data version and need not read it again. Null for
     * anonymous requests, whose cached reads read the data version alone.
     */
    versions: Versions | null;
  }
  interface FastifyContextConfig {
    /** Who may call the route; enforced by one hook in app.ts after validation. */
    access?: Access;
    /** Answered without the request context (settings, language): health probes, which must not need the database. */
    bare?: boolean;
  }
}

export type Access = 'public' | 'authenticated' | Capability;
