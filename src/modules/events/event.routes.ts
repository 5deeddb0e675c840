import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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
import { eventErrors } from './event.errors.js';
import { attemptKey, PasswordAttempts } from './event.access.js';
import { listEvents, windowKey } from './event-list.service.js';
import { totalHeaders } from '../../http/pagination.js';
import { etagOfBody, underIfMatch, withEtag } from '../../http/conditional.js';
import { lockRow } from '../../db/dialect.js';
import { loadEventRelations, toEventObject, type Written } from './event.mapper.js';
import * as events from './event.repository.js';
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
import { createEvent } from './event.service.js';
import { deleteInScope, updateInScope, type Scope } from './event-scope.service.js';
import type { RecurrencePolicy } from '../recurrence/recurrence.input.js';
import { startHorizonStep } from '../recurrence/recurrence-horizon.service.js';
import { negotiateFormat, type Format } from './event.format.js';
import { checkEventInput, type EventChanges } from './event.input.js';

const BASE = '/cal/events/v1/events';

/** The event object of one row, with its relations (a fixed number of queries). */
async function eventObject(
  db: Db,
  row: EventRow,
  ctx: RequestContext,
  single: boolean,
  written?: Written,
): Promise<Record<string, unknown>> {
  const relations = await loadEventRelations(db, [row], ctx, single, written);
  return toEventObject(row, relations, ctx, { single, blank: false });
}

/**
 * The event's entity tag as a GET answers it to the caller (the single read's object), for
 * `If-Match` and for the `ETag` of a write's answer. Null when the event no longer exists.
 */
async function currentEtag(db: Db, id: number, ctx: RequestContext): Promise<string | null> {
  await lockRow(db, 'events', id);
  const row = await events.findById(db, id);
  return row ? etagOfBody(await eventObject(db, row, ctx, true)) : null;
}

/** A write's answer: the event object, with the tag a following GET of it will carry. */
async function written(
  db: Db,
  row: EventRow,
  ctx: RequestContext,
  reply: FastifyReply,
  done?: Written,
): Promise<Record<string, unknown>> {
  const [body, single] = await Promise.all([
    eventObject(db, row, ctx, false, done),
    eventObject(db, row, ctx, true, done),
  ]);
  return withEtag(reply, etagOfBody(single), body);
}

/** An unknown id is a 404; the id of a venue, organizer or image is a 400, as in the original. */
async function byId(db: Db, id: number): Promise<EventRow> {
  const row = await events.findById(db, id);
  if (row) return row;
  if (await events.isOtherPost(db, id)) throw eventErrors.notAnEvent();
  throw eventErrors.notFound(id);
}

async function bySlug(db: Db, slug: string, lang: string): Promise<EventRow> {
  const row = await events.findBySlug(db, slug, lang);
  if (!row) throw eventErrors.notFoundBySlug(slug);
  return row;
}

type Locate = (request: FastifyRequest) => Promise<EventRow>;

/**
 * The answers in the formats besides JSON (iCalendar, JSON-LD): the feeds module's, which
 * src/app.ts hands over as this plugin's options. Feeds depends on events (its list, filter and
 * mapper), never the reverse.
 */
export interface EventFeeds {
  list(request: FastifyRequest, reply: FastifyReply, format: Exclude<Format, 'json'>): Promise<FastifyReply>;
  one(
    request: FastifyRequest,
    reply: FastifyReply,
    format: Exclude<Format, 'json'>,
    locate: () => Promise<EventRow>,
    attempts: PasswordAttempts,
  ): Promise<FastifyReply>;
}

export async function eventRoutes(app: FastifyInstance, { feeds }: { feeds: EventFeeds }): Promise<void> {
  const { db } = app.services.storage;
  const { pageCache, config } = app.services;
  const attempts = new PasswordAttempts(app.services.auth.failures, config.authFailLimit);
  const policy: RecurrencePolicy = {
    max: config.recurrenceMax,
    horizonDays: config.recurrenceHorizonDays,
    now: () => new Date(),
  };
  startHorizonStep(app, db, policy);
  const one = responses({ 200: Type.Ref('Event') });
  const conditional = conditionalResponses({ 200: Type.Ref('Event') });

  app.get(
    '/cal/events/v1/events',
    {
      schema: { querystring: EventListQuery, response: responses({ 200: EventListSchema }) },
      config: { access: 'public' },
    },
    async (request, reply) => {
      const query = request.query as EventListParams;
      // Before the cache and whatever the format: a throttled address gets no list with a password.
      await attempts.beforeList(query, request.ip);
      const format = negotiateFormat(request, reply);
      if (format !== 'json') {
        await attempts.guess(query, request.ip);
        return feeds.list(request, reply, format);
      }
      return pageCache.respond(request, reply, [request.url, windowKey(query, request.ctx)], async (version) => {
        const page = await listEvents(db, app.services.counts, query, request.ctx, version, {
          onRows: (rows) => attempts.afterList(rows, request.ctx, query, request.ip),
        });
        return { body: page, headers: totalHeaders(page) };
      });
    },
  );

  app.post(
    '/cal/events/v1/events',
    {
      schema: { body: EventCreateSchema, response: responses({ 201: Type.Ref('Event') }) },
      config: { access: 'edit_posts' },
      preHandler: async (request) => {
        request.prepared = await checkEventInput(
          db,
          request.body as Record<string, unknown>,
          request.ctx,
          null,
          true,
          policy,
        );
      },
    },
    async (request, reply) => {
      const { row, organizerIds } = await createEvent(db, request.prepared as EventChanges, request.ctx, policy);
      return reply.code(201).send(await written(db, row, request.ctx, reply, { organizerIds }));
    },
  );

  const routesFor = (
    path: string,
    params: typeof IdParams | typeof SlugParams,
    locate: Locate,
    updateBody: typeof EventUpdateSchema | typeof EventSlugUpdateSchema,
    allowPassword: boolean,
  ) => {
    app.get(
      path,
      { schema: { params, querystring: EventReadQuery, response: one }, config: { access: 'public' } },
      async (request, reply) => {
        const format = negotiateFormat(request, reply);
        if (format !== 'json') return feeds.one(request, reply, format, () => locate(request), attempts);
        const query = request.query as EventReadParams;
        return pageCache.respond(request, reply, [request.url, attemptKey(query, request.ip)], async () => {
          const row = await locate(request);
          await attempts.assertReadable(row, request.ctx, query, request.ip);
          return { body: await eventObject(db, row, request.ctx, true) };
        });
      },
    );

    // Registered before the update so the methods read GET, DELETE, POST, PUT, PATCH, as in the original.
    app.delete(
      path,
      {
        schema: { params, querystring: EventDeleteQuery, headers: IfMatchHeaders, response: conditional },
        config: { access: 'edit_posts' },
        preHandler: async (request) => void (request.prepared = await locate(request)),
      },
      async (request, reply) => {
        const row = request.prepared as EventRow;
        const scope = (request.query as { scope?: Scope }).scope;
        const trashed = await underIfMatch(
          request,
          (trx) => currentEtag(trx, row.id, request.ctx),
          () => deleteInScope(db, row, request.ctx, scope, policy),
        );
        return written(db, trashed, request.ctx, reply);
      },
    );

    app.route({
      method: ['POST', 'PUT', 'PATCH'],
      url: path,
      schema: { params, body: updateBody, headers: IfMatchHeaders, response: conditional },
      config: { access: 'edit_posts' },
      // The record and the payload are checked before the permission, as in the original.
      preHandler: async (request) => {
        const row = await locate(request);
        request.prepared = {
          row,
          changes: await checkEventInput(
            db,
            request.body as Record<string, unknown>,
            request.ctx,
            row,
            allowPassword,
            policy,
          ),
        };
      },
      handler: async (request, reply) => {
        const { row, changes } = request.prepared as { row: EventRow; changes: EventChanges };
        const scope = (request.body as { scope?: Scope }).scope;
        const updated = await underIfMatch(
          request,
          (trx) => currentEtag(trx, row.id, request.ctx),
          () => updateInScope(db, row, changes, request.ctx, scope, policy),
        );
        return written(db, updated, request.ctx, reply);
      },
    });
  };

  routesFor(
    `${BASE}/${ID_SEGMENT}`,
    IdParams,
    (request) => byId(db, (request.params as { id: number }).id),
    EventUpdateSchema,
    true,
  );
  routesFor(
    `${BASE}/by-slug/:slug`,
    SlugParams,
    (request) => bySlug(db, (request.params as { slug: string }).slug, request.ctx.lang),
    EventSlugUpdateSchema,
    false,
  );
}
