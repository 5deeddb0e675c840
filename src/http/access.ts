import type { FastifyRequest, RouteOptions } from 'fastify';
import { restForbidden } from './errors.js';
import { can, type Actor } from '../auth/roles.js';
import type { Access } from './context.js';

/** Whether `actor` passes a route's declared access level. */
export function mayCall(actor: Actor | null, access: Access | undefined): boolean {
  if (access === undefined || access === 'public') return true;
  return actor !== null && (access === 'authenticated' || can(actor, access));
}

/** Enforces a route's declared `config.access`: 401 for anonymous callers, 403 for the others. */
export async function enforceAccess(request: FastifyRequest): Promise<void> {
  const actor = request.ctx.actor;
  if (!mayCall(actor, request.routeOptions.config.access)) throw restForbidden(actor !== null);
}

/**
 * Appends {@link enforceAccess} to a route's own preHandlers. A route may look up its record and
 * check its input in a preHandler; those run first, so an unknown id is a 404 and a bad value a
 * 400 whoever asks, before the permission check, as in the original.
 */
export function withAccessLast(route: RouteOptions): void {
  const own =
    route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
  route.preHandler = [...own, enforceAccess];
}
