import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Db, EventRow } from '../../db/database.js';
import type { RequestContext } from '../../http/context.js';
import {
  conditionalResponses,
  ID_SEGMENT,
  IdParams,
  IfMatchHeaders,
  SlugParams,
  responses,
} from '../../http/schemas.js';
import { attemptKey, PasswordAttempts } from './event.access.js';
import { listEvents, windowKey } from './event-list.service.js';
import { totalHeaders } from '../../http/pagination.js';
import { routeSlot } from '../../http/route-slot.js';
import { etagOfBody, underIfMatch, withEtag } from '../../http/conditional.js';
import {
  EventCreateSchema,
  EventDeleteQuery,
  EventListQuery,
  EventListSchema,
  EventReadQuery,
  EventSlugUpdateSchema,
  EventUpdateSchema,
  type EventListParams,
  type EventReadParams,
} from './event.schema.js';
import {
  createEvent,
  currentEtag,
  eventObject,
  findEvent,
  findEventBySlug,
  findEventToRead,
  writtenObjects,
} from './event.service.js';
import type { EmbeddedRows } from './event.repository.js';
import { deleteInScope, updateInScope, type Scope } from './event-scope.service.js';
import type { RecurrencePolicy } from '../recurrence/recurrence.input.js';
import { startHorizonStep } from '../recurrence/recurrence-horizon.service.js';
import { startSearchCounts } from './event-counts.service.js';
import { startSearchIndexing } from './event-search.service.js';
import { negotiateFormat, type Format } from './event.format.js';
import { checkEventInput, type EventChanges } from './event.input.js';

const BASE = '/cal/events/v1/events';

/** A write's answer: the event object, with the tag a following GET of it will carry. */
async function written(
  db: Db,
  row: EventRow,
  ctx: RequestContext,
  reply: FastifyReply,
): Promise<Record<string, unknown>> {
  const { body, single } = await writtenObjects(db, row, ctx);
  return withEtag(reply, etagOfBody(single), body);
}

/**
 * The answers in the formats besides JSON (iCalendar, JSON-LD): the feeds module's, which
 * src/app.ts hands over as this plugin's options. Feeds depends on events (its list, filter and
 * mapper), never the reverse.
 */
export interface EventFeeds {
  list(
    request: FastifyRequest,
    reply: FastifyReply,
    query: EventListParams,
    format: Exclude<Format, 'json'>,
  ): Promise<FastifyReply>;
  one(
    request: FastifyRequest,
    reply: FastifyReply,
    query: EventReadParams,
    format: Exclude<Format, 'json'>,
    locate: () => Promise<EventRow>,
    attempts: PasswordAttempts,
  ): Promise<FastifyReply>;
}

/** What the handlers below share: the app's services, the feeds, the password limiter, the series policy. */
interface Deps {
  app: FastifyInstance;
  db: Db;
  feeds: EventFeeds;
  attempts: PasswordAttempts;
  policy: RecurrencePolicy;
}

/** GET /events: JSON through the page cache, another format from the feeds. */
async function listRoute(d: Deps, request: FastifyRequest, reply: FastifyReply, query: EventListParams) {
  // Before the cache and whatever the format: a throttled address gets no list with a password.
  await d.attempts.beforeList(query, request.ip);
  const format = negotiateFormat(request, reply, query.format);
  if (format !== 'json') {
    await d.attempts.guess(query, request.ip);
    return d.feeds.list(request, reply, query, format);
  }
  const { pageCache, counts } = d.app.services;
  return pageCache.respond(request, reply, [request.url, windowKey(query, request.ctx)], async (version) => {
    const page = await listEvents(d.db, counts, query, request.ctx, version, {
      onRows: (rows) => d.attempts.afterList(rows, request.ctx, query, request.ip),
    });
    return { body: page, headers: totalHeaders(page) };
  });
}

/**
 * GET one event (by id or slug): JSON through the page cache, another format from the feeds.
 * `locateToRead`: the row with the records it embeds when one statement reads both.
 */
async function readRoute(
  d: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  query: EventReadParams,
  locate: () => Promise<EventRow>,
  locateToRead: () => Promise<{ row: EventRow; embedded?: EmbeddedRows }> = async () => ({ row: await locate() }),
) {
  const format = negotiateFormat(request, reply, query.format);
  if (format !== 'json') return d.feeds.one(request, reply, query, format, locate, d.attempts);
  return d.app.services.pageCache.respond(request, reply, [request.url, attemptKey(query, request.ip)], async () => {
    const { row, embedded } = await locateToRead();
    await d.attempts.assertReadable(row, request.ctx, query, request.ip);
    return { body: await eventObject(d.db, row, request.ctx, true, embedded) };
  });
}

/** DELETE one event (under `If-Match`), its series following `scope`. */
async function trashRoute(d: Deps, request: FastifyRequest, reply: FastifyReply, row: EventRow, scope?: Scope) {
  const trashed = await underIfMatch(
    request,
    (trx) => currentEtag(trx, row.id, request.ctx),
    () => deleteInScope(d.db, row, request.ctx, scope, d.policy),
  );
  return written(d.db, trashed, request.ctx, reply);
}

/** POST, PUT or PATCH one event (under `If-Match`) with its checked changes, its series following `scope`. */
async function updateRoute(
  d: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  { row, changes }: Checked,
  scope?: Scope,
) {
  const updated = await underIfMatch(
    request,
    (trx) => currentEtag(trx, row.id, request.ctx),
    () => updateInScope(d.db, row, changes, request.ctx, scope, d.policy),
  );
  return written(d.db, updated, request.ctx, reply);
}

/** An event and the changes an update sends for it, checked before the permission, as in the original. */
interface Checked {
  row: EventRow;
  changes: EventChanges;
}

const PUBLIC = { access: 'public' } as const;
const EDITOR = { access: 'edit_posts' } as const;
const UPDATE_METHODS = ['POST', 'PUT', 'PATCH'];

export async function eventRoutes(fastify: FastifyInstance, { feeds }: { feeds: EventFeeds }): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.services.storage;
  const { config } = app.services;
  const attempts = new PasswordAttempts(app.services.auth.failures, config.authFailLimit);
  const policy: RecurrencePolicy = {
    max: config.recurrenceMax,
    horizonDays: config.recurrenceHorizonDays,
    now: () => new Date(),
  };
  startHorizonStep(app, db, policy);
  startSearchCounts(app, db, config.commonSearches);
  startSearchIndexing(app, db);
  const d: Deps = { app, db, feeds, attempts, policy };
  const one = responses({ 200: Type.Ref('Event') });
  const conditional = conditionalResponses({ 200: Type.Ref('Event') });

  app.get(
    '/cal/events/v1/events',
    { schema: { querystring: EventListQuery, response: responses({ 200: EventListSchema }) }, config: PUBLIC },
    (request, reply) => listRoute(d, request, reply, request.query),
  );

  const creating = routeSlot<EventChanges>();
  app.post(
    '/cal/events/v1/events',
    {
      schema: { body: EventCreateSchema, response: responses({ 201: Type.Ref('Event') }) },
      config: EDITOR,
      preHandler: async (request) =>
        creating.set(request, await checkEventInput(db, request.body, request.ctx, null, true, policy)),
    },
    async (request, reply) => {
      const { row } = await createEvent(db, creating.get(request), request.ctx, policy);
      return reply.code(201).send(await written(db, row, request.ctx, reply));
    },
  );

  // Per path, the methods read GET, DELETE, POST, PUT, PATCH, as in the original. The record and
  // an update's payload are checked (preHandler) before the permission, as in the original.
  const byIdPath = `${BASE}/${ID_SEGMENT}`;
  app.get(
    byIdPath,
    { schema: { params: IdParams, querystring: EventReadQuery, response: one }, config: PUBLIC },
    (request, reply) =>
      readRoute(
        d,
        request,
        reply,
        request.query,
        () => findEvent(db, request.params.id),
        () => findEventToRead(db, request.params.id, request.ctx.lang),
      ),
  );
  const trashingById = routeSlot<EventRow>();
  app.delete(
    byIdPath,
    {
      schema: { params: IdParams, querystring: EventDeleteQuery, headers: IfMatchHeaders, response: conditional },
      config: EDITOR,
      preHandler: async (request) => trashingById.set(request, await findEvent(db, request.params.id)),
    },
    (request, reply) => trashRoute(d, request, reply, trashingById.get(request), request.query.scope),
  );
  const updatingById = routeSlot<Checked>();
  app.route({
    method: UPDATE_METHODS,
    url: byIdPath,
    schema: { params: IdParams, body: EventUpdateSchema, headers: IfMatchHeaders, response: conditional },
    config: EDITOR,
    preHandler: async (request) => {
      const row = await findEvent(db, request.params.id);
      updatingById.set(request, {
        row,
        changes: await checkEventInput(db, request.body, request.ctx, row, true, policy),
      });
    },
    handler: (request, reply) => updateRoute(d, request, reply, updatingById.get(request), request.body.scope),
  });

  // By slug, `password` cannot be set (EventSlugUpdateSchema).
  const bySlugPath = `${BASE}/by-slug/:slug`;
  app.get(
    bySlugPath,
    { schema: { params: SlugParams, querystring: EventReadQuery, response: one }, config: PUBLIC },
    (request, reply) =>
      readRoute(d, request, reply, request.query, () => findEventBySlug(db, request.params.slug, request.ctx.lang)),
  );
  const trashingBySlug = routeSlot<EventRow>();
  app.delete(
    bySlugPath,
    {
      schema: { params: SlugParams, querystring: EventDeleteQuery, headers: IfMatchHeaders, response: conditional },
      config: EDITOR,
      preHandler: async (request) =>
        trashingBySlug.set(request, await findEventBySlug(db, request.params.slug, request.ctx.lang)),
    },
    (request, reply) => trashRoute(d, request, reply, trashingBySlug.get(request), request.query.scope),
  );
  const updatingBySlug = routeSlot<Checked>();
  app.route({
    method: UPDATE_METHODS,
    url: bySlugPath,
    schema: { params: SlugParams, body: EventSlugUpdateSchema, headers: IfMatchHeaders, response: conditional },
    config: EDITOR,
    preHandler: async (request) => {
      const row = await findEventBySlug(db, request.params.slug, request.ctx.lang);
      const changes = await checkEventInput(db, request.body, request.ctx, row, false, policy);
      updatingBySlug.set(request, { row, changes });
    },
    handler: (request, reply) => updateRoute(d, request, reply, updatingBySlug.get(request), request.body.scope),
  });
}
