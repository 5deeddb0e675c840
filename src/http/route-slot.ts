import type { FastifyRequest } from 'fastify';

/**
 * What a route's preHandler found and checked (its record, its checked input), handed to its
 * handler with its type: `const found = routeSlot<EventRow>()` beside the route, `found.set(request,
 * row)` in the preHandler, `found.get(request)` in the handler. One slot per route, so two routes
 * never read each other's value; a WeakMap, so nothing outlives its request.
 */
export interface RouteSlot<T> {
  set(request: FastifyRequest, value: T): void;
  /** The value the preHandler set; throws when it did not run (a wiring mistake, never a client's). */
  get(request: FastifyRequest): T;
}

export function routeSlot<T>(): RouteSlot<T> {
  const values = new WeakMap<FastifyRequest, T>();
  return {
    set: (request, value) => void values.set(request, value),
    get(request) {
      if (!values.has(request)) throw new Error(`route slot read before its preHandler ran: ${request.url}`);
      return values.get(request) as T;
    },
  };
}
