import { randomUUID } from 'node:crypto';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  InjectOptions,
  LightMyRequestResponse,
  RouteOptions,
} from 'fastify';
import { isInjection } from 'light-my-request';
import type { Actor } from '../auth/roles.js';

/**
 * Requests this process makes to itself through `app.inject` (the importer writes through the
 * routes, so its writes are validated and stored exactly as a client's): each carries a ticket,
 * an unguessable id valid only while its request runs, honoured only on an injected request
 * (which never comes from the network). A ticket says whom the request acts as, without a
 * password, and may wrap the route's handler (the importer adds a step to its write transaction).
 */
export interface InProcessTicket {
  actor: Actor;
  /** Runs the handler; the importer's runs it inside db/transaction.ts withCommitStep. */
  around?: <T>(handler: () => Promise<T>) => Promise<T>;
}

const TICKET_HEADER = 'x-cal-in-process';
const tickets = new Map<string, InProcessTicket>();

/** `app.inject` with a ticket. */
export async function injectWithTicket(
  app: FastifyInstance,
  ticket: InProcessTicket,
  options: InjectOptions,
): Promise<LightMyRequestResponse> {
  const id = randomUUID();
  tickets.set(id, ticket);
  try {
    return await app.inject({ ...options, headers: { ...options.headers, [TICKET_HEADER]: id } });
  } finally {
    tickets.delete(id);
  }
}

/** The ticket of a request made by this process, or null (any request from outside). */
export function ticketOf(request: FastifyRequest): InProcessTicket | null {
  if (!isInjection(request.raw)) return null;
  const id = request.headers[TICKET_HEADER];
  return typeof id === 'string' ? (tickets.get(id) ?? null) : null;
}

/** Lets a ticket's `around` wrap the handler of every route (installed by app.ts's onRoute hook). */
export function handlerInTicket(route: RouteOptions): void {
  const handler = route.handler;
  route.handler = function (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
    const ticket = request.headers[TICKET_HEADER] === undefined ? null : ticketOf(request);
    if (!ticket?.around) return handler.call(this, request, reply);
    return ticket.around(async () => handler.call(this, request, reply));
  } as RouteOptions['handler'];
}
