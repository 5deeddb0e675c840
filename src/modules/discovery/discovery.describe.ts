import type { TSchema } from 'typebox';
import { ADMIN_NAMESPACE, NAMESPACE } from '../../http/context.js';
import { RouteTable, type RouteEntry } from '../../http/route-table.js';

/** The REST index's `routes`: the registered routes as WordPress describes them. */

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
export function routesOf(table: RouteTable, namespace: string | null, restRoot: string): Record<string, unknown> {
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
