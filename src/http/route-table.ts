import FindMyWay, { type HTTPVersion, type Instance } from 'find-my-way';
import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { TSchema } from 'typebox';
import { noRoute, sendError, ApiError } from './errors.js';
import { SLUG_MAX_ENCODED_LENGTH } from '../lib/slug.js';

export interface Endpoint {
  methods: string[];
  schema: RouteOptions['schema'];
  access: string | undefined;
}

export interface RouteEntry {
  url: string;
  methods: string[];
  /** One per registration: POST, PUT and PATCH of an update share one, as in WordPress. */
  endpoints: Endpoint[];
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * Every registered route, kept for the REST index, the 405 answers and the route-table test.
 * A second router mirrors Fastify's so a 404 can tell "no such path" from "not this method".
 */
export class RouteTable {
  readonly entries: RouteEntry[] = [];
  private readonly byUrl = new Map<string, RouteEntry>();
  private readonly mirror: Instance<HTTPVersion.V1> = FindMyWay({
    ignoreTrailingSlash: true,
    maxParamLength: SLUG_MAX_ENCODED_LENGTH,
  });

  add(route: RouteOptions): void {
    // HEAD twins and the CORS preflight route are not part of the API's route table.
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) =>
      (METHODS as readonly string[]).includes(m),
    );
    if (methods.length === 0) return;
    const endpoint: Endpoint = { methods, schema: route.schema, access: route.config?.access };
    const existing = this.entries.find((e) => e.url === route.url);
    if (existing) {
      existing.methods.push(...methods);
      existing.endpoints.push(endpoint);
    } else {
      const entry = { url: route.url, methods: [...methods], endpoints: [endpoint] };
      this.entries.push(entry);
      this.byUrl.set(route.url, entry);
    }
    for (const method of methods) this.mirror.on(method as never, route.url, () => undefined);
  }

  /**
   * The `Allow` header of a response, as WordPress sends it: the route's methods the caller may
   * use (an anonymous reader of /events is allowed GET only).
   */
  allowFor(url: string | undefined, allowed: (access: string | undefined) => boolean): string | undefined {
    const entry = url === undefined ? undefined : this.byUrl.get(url);
    if (!entry) return undefined;
    return entry.endpoints
      .filter((e) => allowed(e.access))
      .flatMap((e) => e.methods)
      .join(', ');
  }

  /** The methods a concrete path answers to. */
  allowedMethods(path: string): string[] {
    return METHODS.filter((m) => this.mirror.find(m, path) !== null);
  }

  notFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
    const path = request.url.split('?')[0]!;
    const allowed = this.allowedMethods(path);
    if (allowed.length > 0 && request.method !== 'OPTIONS') {
      return sendError(
        reply,
        new ApiError(
          405,
          'rest_no_route',
          'No route was found matching the URL and request method.',
          {},
          { Allow: allowed.join(', ') },
        ),
      );
    }
    return sendError(reply, noRoute());
  }

  /** Schema of one part of an endpoint (querystring, body, params). */
  static part(endpoint: Endpoint, part: 'querystring' | 'body' | 'params'): TSchema | undefined {
    return (endpoint.schema as Record<string, TSchema> | undefined)?.[part];
  }
}
