import type { FastifyInstance } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { NAMESPACE } from '../../http/context.js';
import { RouteTable, type RouteEntry } from '../../http/route-table.js';
import { CommonQuery, responses } from '../../http/schemas.js';

const ADMIN_NAMESPACE = 'cal/admin/v1';

interface ArgSpec {
  required: boolean;
  default?: unknown;
  description?: string;
  type?: string;
  enum?: unknown[];
}

/** `/cal/events/v1/events/:id` → WordPress's `/cal/events/v1/events/(?P<id>\d+)`. */
export function toWordPressPattern(url: string): string {
  return url
    .replace(/:id(\(\^\\d\+\$\))?/g, '(?P<id>\\d+)')
    .replace(/:slug\b/g, '(?P<slug>[^/]+)')
    .replace(/:(\w+)/g, '(?P<$1>[^/]+)');
}

function argsOf(schemas: (TSchema | undefined)[]): Record<string, ArgSpec> {
  const args: Record<string, ArgSpec> = {};
  for (const schema of schemas) {
    const properties =
      (schema as { properties?: Record<string, Record<string, unknown>> } | undefined)?.properties ?? {};
    const required = new Set((schema as { required?: string[] } | undefined)?.required ?? []);
    for (const [name, prop] of Object.entries(properties)) {
      const spec: ArgSpec = { required: required.has(name) };
      if (prop['default'] !== undefined) spec.default = prop['default'];
      if (typeof prop['description'] === 'string') spec.description = prop['description'];
      const type =
        prop['type'] ??
        (Array.isArray(prop['anyOf'])
          ? (prop['anyOf'] as { type?: string }[]).map((s) => s.type).filter(Boolean)
          : undefined);
      if (type !== undefined) spec.type = Array.isArray(type) && type.length === 1 ? type[0] : (type as string);
      if (Array.isArray(prop['enum'])) spec.enum = prop['enum'];
      args[name] = spec;
    }
  }
  return args;
}

function describeRoute(entry: RouteEntry, namespace: string, restRoot: string): Record<string, unknown> {
  const described: Record<string, unknown> = {
    namespace,
    methods: entry.methods,
    endpoints: entry.endpoints.map((e) => ({
      methods: e.methods,
      args: argsOf([RouteTable.part(e, 'params'), RouteTable.part(e, 'querystring'), RouteTable.part(e, 'body')]),
    })),
  };
  if (!entry.url.includes(':')) described['_links'] = { self: [{ href: `${restRoot}${entry.url.slice(1)}` }] };
  return described;
}

const described = new WeakMap<RouteTable, Map<string, Record<string, unknown>>>();

/**
 * The routes of a namespace (null: all) as WordPress describes them. The table is fixed once the
 * app is ready, so each description is built once per REST root.
 */
function routesOf(table: RouteTable, namespace: string | null, restRoot: string): Record<string, unknown> {
  const cache = described.get(table) ?? new Map<string, Record<string, unknown>>();
  described.set(table, cache);
  const key = `${namespace ?? '*'} ${restRoot}`;
  let routes = cache.get(key);
  if (!routes) {
    routes = describeRoutes(table, namespace, restRoot);
    if (cache.size > 100) cache.clear();
    cache.set(key, routes);
  }
  return routes;
}

function describeRoutes(table: RouteTable, namespace: string | null, restRoot: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const entry of table.entries) {
    const ns = entry.url.startsWith(`/${NAMESPACE}`)
      ? NAMESPACE
      : entry.url.startsWith(`/${ADMIN_NAMESPACE}`)
        ? ADMIN_NAMESPACE
        : '';
    if (namespace !== null && ns !== namespace) continue;
    if (ns === '') continue;
    out[toWordPressPattern(entry.url)] = describeRoute(entry, ns, restRoot);
  }
  return out;
}

const IndexSchema = Type.Object({}, { additionalProperties: true, description: 'REST index' });

/** The REST index, the namespace index and the OpenAPI document, all built from the registered routes. */
export async function discoveryRoutes(app: FastifyInstance): Promise<void> {
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

interface OpenApiDocument {
  openapi: string;
  info: Record<string, unknown>;
  components: { schemas?: Record<string, unknown>; [key: string]: unknown };
  paths: Record<string, unknown>;
  [key: string]: unknown;
}

/** Names of the components `value` refers to, followed through the components themselves. */
function referencedComponents(
  value: unknown,
  schemas: Record<string, unknown>,
  found = new Set<string>(),
): Set<string> {
  if (Array.isArray(value)) {
    for (const item of value) referencedComponents(item, schemas, found);
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const name =
        key === '$ref' && typeof item === 'string' ? /^#\/components\/schemas\/(.+)$/.exec(item)?.[1] : undefined;
      if (name !== undefined && !found.has(name)) {
        found.add(name);
        referencedComponents(schemas[name], schemas, found);
      } else {
        referencedComponents(item, schemas, found);
      }
    }
  }
  return found;
}

/** The part of the whole document under `/<namespace>`, in the original's key order. */
function namespaceDocument(
  whole: OpenApiDocument,
  namespace: string,
  info: { title: string; description: string },
  server: string,
): Record<string, unknown> {
  const { openapi, info: generated, components, paths, ...rest } = whole;
  const prefix = `/${namespace}`;
  const own: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(paths)) {
    // The events namespace's paths were made relative to it by the swagger transform (app.ts).
    if (namespace === NAMESPACE ? !path.startsWith(`/${ADMIN_NAMESPACE}`) : path.startsWith(prefix)) {
      own[namespace === NAMESPACE ? path : path.slice(prefix.length) || '/'] = item;
    }
  }
  const schemas = components.schemas ?? {};
  const used = referencedComponents(own, schemas);
  const kept = Object.fromEntries(Object.entries(schemas).filter(([name]) => used.has(name)));
  return {
    openapi,
    info: { ...generated, ...info },
    components: { ...components, schemas: kept },
    servers: [{ url: server }],
    paths: own,
    ...rest,
  };
}
