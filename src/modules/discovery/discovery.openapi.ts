import { ADMIN_NAMESPACE, NAMESPACE } from '../../http/context.js';

/** A namespace's own OpenAPI document, cut from the whole one @fastify/swagger generates (served by discovery.routes.ts). */
export interface OpenApiDocument {
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
export function namespaceDocument(
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
