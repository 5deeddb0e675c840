import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ADMIN_NAMESPACE, NAMESPACE } from '../../http/context.js';
import { CommonQuery, responses } from '../../http/schemas.js';
import { routesOf } from './discovery.describe.js';
import { namespaceDocument, type OpenApiDocument } from './discovery.openapi.js';

const IndexSchema = Type.Object({}, { additionalProperties: true, description: 'REST index' });

/** The REST index, the namespace index and the OpenAPI document, all built from the registered routes. */
export async function discoveryRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { routes, config } = app.services;

  app.get(
    '/',
    {
      schema: { hide: true, querystring: Type.Object(CommonQuery), response: responses({ 200: IndexSchema }) },
      config: { access: 'public' },
    },
    async (request) => ({
      name: 'Event Calendar',
      description: 'Calendar events, venues, organizers, categories and tags',
      url: request.ctx.site,
      home: request.ctx.site,
      language: request.ctx.lang,
      languages: config.languages,
      namespaces: [NAMESPACE, ADMIN_NAMESPACE],
      authentication: { basic: { description: 'HTTP Basic with a username and an application password' } },
      routes: routesOf(routes, null, request.ctx.restRoot),
      _links: { help: [{ href: `${request.ctx.base}/doc` }] },
    }),
  );

  app.get(
    `/${NAMESPACE}`,
    {
      schema: {
        hide: true,
        querystring: Type.Object({
          namespace: Type.Optional(Type.String({ default: NAMESPACE })),
          context: Type.Optional(Type.String({ default: 'view' })),
          ...CommonQuery,
        }),
        response: responses({ 200: IndexSchema }),
      },
      config: { access: 'public' },
    },
    async (request) => ({
      namespace: NAMESPACE,
      routes: routesOf(routes, NAMESPACE, request.ctx.restRoot),
      _links: { up: [{ href: request.ctx.restRoot }] },
    }),
  );

  /**
   * One OpenAPI 3.1 document per namespace, both cut from the one @fastify/swagger generates from
   * the route schemas: the paths under the namespace (relative to it, which `servers` points at)
   * and the components they refer to.
   */
  const documentRoute = (namespace: string, title: string, description: string) =>
    app.get(
      `/${namespace}/doc`,
      {
        schema: {
          summary: 'This OpenAPI document',
          ...(namespace === ADMIN_NAMESPACE ? { tags: ['admin'] } : {}),
          querystring: Type.Object(CommonQuery),
          response: responses({
            200: Type.Object({}, { additionalProperties: true, description: 'OpenAPI 3.1 document' }),
          }),
        },
        config: { access: 'public' },
      },
      async (request) => {
        const whole = app.swagger() as unknown as OpenApiDocument;
        return namespaceDocument(whole, namespace, { title, description }, `${request.ctx.restRoot}${namespace}/`);
      },
    );
  documentRoute(
    NAMESPACE,
    'Event Calendar REST API',
    'Calendar events, venues, organizers, event categories and tags (cal/events/v1), one REST root per site language.',
  );
  // Public like the events document: it describes routes, and every one of them needs an administrator.
  documentRoute(
    ADMIN_NAMESPACE,
    'Event Calendar administration API',
    'Users, their application passwords and the site settings (cal/admin/v1); administrators only, with HTTP Basic.',
  );
}
