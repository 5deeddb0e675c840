import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import fastifyStatic from '@fastify/static';
import { Type } from 'typebox';
import { ApiError, noRoute } from '../../http/errors.js';
import { adminPolicy, loadAdminApp, newNonce, type AdminApp } from './admin-app.service.js';

export interface AdminAppOptions {
  /** The folder `npm run build` wrote the admin to. */
  dir: string;
}

const PUBLIC = { access: 'public' } as const;
const HIDDEN = { hide: true } as const;
/** Vite's hashed names: letters, digits, `-`, `_` and one extension; anything else matches nothing. */
const AssetParams = Type.Object({
  file: Type.String({ pattern: '^[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*\\.(js|css|svg|png|woff2?|map)$', maxLength: 200 }),
});

/** 503 in the contract's body: the service runs, its admin was not built (npm start always builds it). */
class AdminNotBuilt extends ApiError {
  constructor() {
    super(503, 'cal_admin_not_built', 'The admin has not been built: run `npm run build`.', {});
  }
}

function sendPage(app: AdminApp, reply: FastifyReply): FastifyReply {
  const nonce = newNonce();
  // Replaces the public pages' policy (set for every answer by security.ts) for this answer only.
  return reply
    .header('Content-Security-Policy', adminPolicy(nonce))
    .header('X-Frame-Options', 'DENY')
    .header('Cache-Control', 'no-store')
    .header('X-Robots-Tag', 'noindex')
    .type('text/html; charset=utf-8')
    .send(app.page(nonce));
}

/**
 * The admin at /admin/: every path under it answers the application's page (its router reads
 * the path), except /admin/assets/, the hashed files, cached for a year. The application talks
 * to the same REST API as any client; nothing here reads data.
 */
export async function adminAppRoutes(fastify: FastifyInstance, options: AdminAppOptions): Promise<void> {
  const routes = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const app = loadAdminApp(options.dir);
  const page = (_request: unknown, reply: FastifyReply) => {
    if (!app) throw new AdminNotBuilt();
    return sendPage(app, reply);
  };
  // `/admin` and `/admin/` alike (the router ignores a trailing slash).
  routes.get('/admin', { schema: HIDDEN, config: PUBLIC }, page);
  routes.get('/admin/*', { schema: HIDDEN, config: PUBLIC }, (request, reply) => {
    // A missing hashed file is a 404, never the page: a script URL answered with HTML breaks loudly.
    if (request.url.startsWith('/admin/assets/')) throw noRoute();
    return page(request, reply);
  });
  if (!app) return;
  // @fastify/static sends the files (streams, ETag, ranges, no way out of the folder); the route
  // is ours so that it declares its access like every other route.
  await routes.register(fastifyStatic, { root: app.assetsDir, serve: false });
  routes.get(
    '/admin/assets/:file',
    { schema: { ...HIDDEN, params: AssetParams }, config: PUBLIC },
    (request, reply) => {
      // A file of another build is a 404 in the contract's body, never the page.
      if (!app.hasAsset(request.params.file)) throw noRoute();
      return reply.sendFile(request.params.file, app.assetsDir, {
        immutable: true,
        maxAge: '365d',
        cacheControl: true,
        dotfiles: 'deny',
      });
    },
  );
}
