import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet from '@fastify/helmet';
import { ApiError } from './errors.js';
import { EMBED_HOSTS } from '../lib/html.js';

export interface BrowserPolicy {
  siteUrl: string | undefined;
  trustedOrigins: readonly string[];
  frameAncestors: readonly string[];
  /** `frame-ancestors` of a page asked for as an embed (CAL_EMBED_ORIGINS). */
  embedOrigins: readonly string[];
}

/**
 * The Content-Security-Policy of every answer but the admin's, with who may frame it: the site's
 * own stylesheet and images, the embeds the sanitizer keeps; no plugins, no forms to other sites,
 * no `<base>`. A public page (`page`) may also run the site's own scripts (the map view's Leaflet
 * and its markers, served from /assets/), `'self'` only, never `'unsafe-inline'`, so a script
 * slipped into content still cannot run, and frame the site's own pages (the embed snippet page
 * previews the embed); JSON answers and the rest allow neither.
 */
export function contentSecurityPolicy(frameAncestors: readonly string[], page = false): Record<string, string[]> {
  return {
    'default-src': ["'none'"],
    // connect-src: a page may read its own site (crawlers' tools such as Lighthouse fetch
    // robots.txt from inside the page); still nothing of other origins.
    ...(page ? { 'script-src': ["'self'"], 'connect-src': ["'self'"] } : {}),
    'style-src': ["'self'"],
    'img-src': ["'self'", 'https:', 'http:', 'data:'],
    'media-src': ["'self'", 'https:'],
    'frame-src': [...(page ? ["'self'"] : []), ...EMBED_HOSTS.map((host) => `https://${host}`)],
    'frame-ancestors': [...frameAncestors],
    'base-uri': ["'none'"],
    'form-action': ["'self'"],
  };
}

/** X-Frame-Options saying what `frame-ancestors` says, where it can be said that way (older browsers). */
function frameOptionsOf(ancestors: readonly string[]): 'deny' | 'sameorigin' | null {
  if (ancestors.length !== 1) return null;
  return ancestors[0] === "'none'" ? 'deny' : ancestors[0] === "'self'" ? 'sameorigin' : null;
}

const serializePolicy = (directives: Record<string, string[]>): string =>
  Object.entries(directives)
    .map(([name, sources]) => [name, ...sources].join(' '))
    .join(';');

/**
 * The policy of a public page. A page asked for as an embed (`?embed=1`, shown inside another
 * site's `<iframe>`) is framed by CAL_EMBED_ORIGINS instead of CAL_FRAME_ANCESTORS, and by the site
 * itself (its snippet page shows a preview) unless that says `'none'`, with no X-Frame-Options
 * that would say otherwise (a browser obeying both would refuse an origin the policy allows).
 */
export function pagePolicy(reply: FastifyReply, policy: BrowserPolicy, embed: boolean): void {
  const ancestors = !embed
    ? policy.frameAncestors
    : policy.embedOrigins.includes("'none'")
      ? policy.embedOrigins
      : [...new Set(["'self'", ...policy.embedOrigins])];
  void reply.header('Content-Security-Policy', serializePolicy(contentSecurityPolicy(ancestors, true)));
  const frameOptions = frameOptionsOf(ancestors);
  if (frameOptions) void reply.header('X-Frame-Options', frameOptions.toUpperCase());
  else void reply.removeHeader('X-Frame-Options');
}

/**
 * The headers a browser acts on, on every answer (JSON included: a JSON error shown as a page
 * must not run anything either), through @fastify/helmet:
 * - the Content-Security-Policy above, `frame-ancestors` from CAL_FRAME_ANCESTORS (the admin sets
 *   its own, the public pages theirs through pagePolicy);
 * - `X-Content-Type-Options: nosniff`, `Referrer-Policy: strict-origin-when-cross-origin`,
 *   `X-Frame-Options` where `frame-ancestors` can be said that way (for older browsers);
 * - `Cross-Origin-Resource-Policy: cross-origin`: the API, feeds and stylesheet are meant to be
 *   read by other sites (CORS stays `*` for reads); helmet's `same-origin` would break embeds.
 * HSTS is left to whoever terminates TLS: on plain HTTP it is ignored, and a year of it set by
 * an application is hard for an operator to take back.
 */
export async function registerSecurityHeaders(app: FastifyInstance, policy: BrowserPolicy): Promise<void> {
  const frameOptions = frameOptionsOf(policy.frameAncestors);
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: contentSecurityPolicy(policy.frameAncestors),
    },
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: frameOptions ? { action: frameOptions } : false,
  });

  // What a caller reads with credentials is theirs: drafts carry ETag and Last-Modified, and a
  // browser or a shared cache must not keep them for the next user of the machine or the proxy.
  // Every answer may differ by the credentials, so caches key on them (Vary) whoever asked. A
  // session cookie counts only with its nonce (src/modules/users/authentication.service.ts), so
  // a request carrying both is treated as authenticated here, whether or not the session is valid.
  app.addHook('onSend', async (request, reply) => {
    addVary(reply, 'Authorization');
    const { authorization, cookie } = request.headers;
    if (cookie !== undefined) addVary(reply, 'Cookie');
    const byCookie = cookie !== undefined && request.headers['x-cal-nonce'] !== undefined;
    if (byCookie) addVary(reply, 'X-Cal-Nonce');
    if (authorization !== undefined || byCookie) void reply.header('Cache-Control', 'private, no-store');
  });
}

/** Adds a name to `Vary`, keeping those already there. */
export function addVary(reply: FastifyReply, name: string): void {
  const current = reply.getHeader('Vary');
  const names = String(current ?? '')
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  if (names.includes('*') || names.some((n) => n.toLowerCase() === name.toLowerCase())) return;
  void reply.header('Vary', [...names, name].join(', '));
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** 403 in the contract's body: the write came from a page of another site. */
export class CrossSiteRequest extends ApiError {
  constructor() {
    super(403, 'rest_cross_site_request', 'Requests that change data are not accepted from pages of other sites.', {});
  }
}

/**
 * Refuses writes a browser sends on behalf of another site's page: an auto-submitted form, or a
 * script's no-cors request, would otherwise carry whatever credentials the browser holds for this
 * origin. A browser says where a request comes from (`Origin` on every POST, PUT, PATCH and
 * DELETE, and `Sec-Fetch-Site`); programs send neither and keep writing JSON or forms as WordPress
 * clients do. The service's own origin is the one the request was sent to (its Host), or
 * CAL_SITE_URL's; CAL_TRUSTED_ORIGINS adds the front ends of other origins that may write.
 * Runs before authentication, so a forged request costs no password check.
 */
export function registerCrossSiteGuard(app: FastifyInstance, policy: BrowserPolicy): void {
  const trusted = new Set<string>(policy.trustedOrigins);
  const siteHost = policy.siteUrl ? new URL(policy.siteUrl).host.toLowerCase() : null;
  app.addHook('onRequest', async (request) => {
    if (!UNSAFE_METHODS.has(request.method)) return;
    if (isCrossSite(request, trusted, siteHost)) throw new CrossSiteRequest();
  });
}

function isCrossSite(request: FastifyRequest, trusted: Set<string>, siteHost: string | null): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return request.headers['sec-fetch-site'] === 'cross-site';
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    // `Origin: null` (a sandboxed frame, a redirect across sites) or garbage: nobody we know.
    return true;
  }
  if (trusted.has(parsed.origin.toLowerCase())) return false;
  const host = parsed.host.toLowerCase();
  return host !== String(request.headers.host ?? '').toLowerCase() && host !== siteHost;
}
