import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { noRoute } from '../../http/errors.js';
import { SitemapService } from './sitemap.service.js';

/**
 * GET /robots.txt, /sitemap.xml (the index) and /sitemap-<lang>-<n>.xml (a language's files), at
 * the site's root only: crawlers look for them there, and a copy under each language root would
 * be one more address of the same thing. Public (the records of the anonymous view, whoever
 * asks), out of the API's documents, answered through the page cache.
 */

const HIDDEN = { hide: true } as const;
const PUBLIC = { access: 'public' } as const;
/** `en-1.xml`: a language code and a file number, nothing else (the router hands the rest over). */
const FileParams = Type.Object({ file: Type.String({ pattern: '^[a-z]{2}-[1-9][0-9]{0,5}\\.xml$' }) });
const XML = 'application/xml; charset=utf-8';

/** Whether the request was sent to the root itself, not under a language root (`/fr/robots.txt`). */
const atRoot = (request: FastifyRequest): boolean => request.originalUrl.split('?')[0] === request.url.split('?')[0];

export async function sitemapRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { storage, config, pageCache } = app.services;
  const sitemaps = new SitemapService(storage.db, config);

  app.get('/robots.txt', { schema: HIDDEN, config: PUBLIC }, async (request, reply) => {
    if (!atRoot(request)) throw noRoute();
    return pageCache.respondRaw(request, reply, ['robots'], async () => ({
      type: 'text/plain; charset=utf-8',
      body: Buffer.from(sitemaps.robots(request.ctx.site)),
    }));
  });

  app.get('/sitemap.xml', { schema: HIDDEN, config: PUBLIC }, async (request, reply) => {
    if (!atRoot(request)) throw noRoute();
    return pageCache.respondRaw(request, reply, ['sitemap'], async (version) => ({
      type: XML,
      body: Buffer.from(await sitemaps.index(version, request.ctx.site)),
    }));
  });

  app.get(
    '/sitemap-:file',
    { schema: { ...HIDDEN, params: FileParams }, config: PUBLIC },
    async (request, reply): Promise<FastifyReply> => {
      if (!atRoot(request)) throw noRoute();
      const [, lang, n] = /^([a-z]{2})-(\d+)\.xml$/.exec(request.params.file)!;
      return pageCache.respondRaw(request, reply, ['sitemap', lang!, n!], async (version) => {
        const body = await sitemaps.file(version, request.ctx.site, lang!, Number(n));
        if (body === null) throw noRoute();
        return { type: XML, body: Buffer.from(body) };
      });
    },
  );
}
