import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import helmet from '@fastify/helmet';
import { ApiError } from './errors.js';
import { EMBED_HOSTS } from '../lib/html.js';

export interface BrowserPolicy {
  siteUrl: string | undefined;
  trustedOrigins: readonly string[];
  frameAncestors: readonly string[];
}

/**
 * The headers a browser acts on, on every answer (JSON included: a JSON error shown as a page
 * must not run anything either), through @fastify/helmet:
 * - a Content-Security-Policy that allows nothing but the site's own stylesheet, images and the
 *   embeds the sanitizer keeps: no script at all (the pages have none), no plugins, no forms to
 *   other sites, no `<base>`; `frame-ancestors` from CAL_FRAME_ANCESTORS for embedding;
 * - `X-Content-Type-Options: nosniff`, `Referrer-Policy: strict-origin-when-cross-origin`,
 *   `X-Frame-Options` where `frame-ancestors` can be said that way (for older browsers);
 * - `Cross-Origin-Resource-Policy: cross-origin`: the API, feeds and stylesheet are meant to be
 *   read by other sites (CORS stays `*` for reads); helmet's `same-origin` would break embeds.
 * HSTS is left to whoever terminates TLS: on plain HTTP it is ignored, and a year of it set by
 * an application is hard for an operator to take back.
 */
export async function registerSecurityHeaders(app: FastifyInstance, policy: BrowserPolicy): Promise<void> {
  const ancestors = policy.frameAncestors;
  const frameOptions =
    ancestors.length === 1 && ancestors[0] === "'none'"
      ? 'deny'
      : ancestors.length === 1 && ancestors[0] === "'self'"
        ? 'sameorigin'
        : null;
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        styleSrc: ["'self'"],
        imgSrc: ["'self'", 'https:', 'http:', 'data:'],
        mediaSrc: ["'self'", 'https:'],
        frameSrc: EMBED_HOSTS.map((host) => `https://${host}`),
        frameAncestors: [...ancestors],
        baseUri: ["'none'"],
        formAction: ["'self'"],
      },
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

function addVary(reply: FastifyReply, name: string): void {
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
