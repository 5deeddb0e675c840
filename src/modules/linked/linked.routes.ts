import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type TObject } from 'typebox';
import type { Db } from '../../db/database.js';
import { NAMESPACE } from '../../http/context.js';
import { totalHeaders } from '../../http/pagination.js';
import {
  CommonQuery,
  conditionalResponses,
  ID_SEGMENT,
  IdParams,
  IfMatchHeaders,
  SlugParams,
  responses,
} from '../../http/schemas.js';
import type { LinkedKind, LinkedRow } from './linked.kind.js';
import {
  assertReadable,
  byId,
  bySlug,
  checkLinkedRecord,
  createLinkedRecord,
  linkedObject,
  trashLinkedRecord,
  updateLinkedRecord,
} from './linked.actions.js';
import { findLinked, type LinkedChanges } from './linked.service.js';
import { etagOfBody, underIfMatch, withEtag } from '../../http/conditional.js';
import { routeSlot } from '../../http/route-slot.js';
import { lockRow } from '../../db/dialect.js';
import type { RequestContext } from '../../http/context.js';
import { listLinked } from './linked.list.js';
import { LinkedListQuery, linkedSchemas } from './linked.schema.js';

const ReadQuery = Type.Object(CommonQuery);
const security = [{ basic: [] }];

/** Only the fields the schema declares reach the service: unknown ones are ignored, as the original does. */
function declared(body: object | null | undefined, schema: TObject): Record<string, unknown> {
  const input = body ?? {};
  return Object.fromEntries(
    Object.keys(schema.properties)
      .filter((key) => key in input)
      .map((key) => [key, Reflect.get(input, key)]),
  );
}

/** What the routes of one kind share. */
interface KindRoutes {
  kind: LinkedKind;
  db: Db;
  schemas: ReturnType<typeof linkedSchemas>;
  base: string;
  tags: string[];
}

/**
 * Write responses are read back after the commit, without json_ld (single GETs only), with the
 * entity tag a following GET of the record carries.
 */
async function reload({ db, kind }: KindRoutes, request: FastifyRequest, reply: FastifyReply, id: number) {
  const row = await byId(db, kind, id);
  const [body, single] = await Promise.all([
    linkedObject(db, kind, row, request.ctx, false),
    linkedObject(db, kind, row, request.ctx, true),
  ]);
  return withEtag(reply, etagOfBody(single), body);
}

/** The record's tag as a GET answers it now, for `If-Match` (the row locked first). */
async function currentEtag(kind: LinkedKind, trx: Db, id: number, ctx: RequestContext): Promise<string | null> {
  await lockRow(trx, kind.table, id);
  const row = await findLinked(trx, kind, id);
  return row ? etagOfBody(await linkedObject(trx, kind, row, ctx, true)) : null;
}

/**
 * The routes of a venue-like kind: the list and create at `/<table>`, and read, update and delete
 * by id and by slug. Venues and organizers are the same code with a different {@link LinkedKind}.
 */
export function linkedRoutes(kind: LinkedKind) {
  return async function routes(fastify: FastifyInstance): Promise<void> {
    const shared: KindRoutes = {
      kind,
      db: fastify.services.storage.db,
      schemas: linkedSchemas(kind),
      base: `/${NAMESPACE}/${kind.table}`,
      tags: [kind.table],
    };
    listAndCreateRoutes(fastify, shared);
    singleRoutes(fastify, shared, `${shared.base}/${ID_SEGMENT}`, IdParams, 'id', (db, params) =>
      byId(db, kind, params.id),
    );
    singleRoutes(fastify, shared, `${shared.base}/by-slug/:slug`, SlugParams, 'slug', (db, params, ctx) =>
      bySlug(db, kind, params.slug, ctx.lang),
    );
  };
}

/** GET and POST `/<table>`. */
function listAndCreateRoutes(fastify: FastifyInstance, shared: KindRoutes): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { kind, db, schemas, base, tags } = shared;
  app.get(
    base,
    {
      schema: {
        tags,
        summary: `List ${kind.table}`,
        querystring: LinkedListQuery,
        response: responses({ 200: schemas.list }),
      },
      config: { access: 'public' },
    },
    async (request, reply) => {
      const produce = async () => {
        const page = await listLinked(db, kind, request.query, request.ctx);
        return { body: page, headers: totalHeaders(page) };
      };
      // `only_with_upcoming` changes with the clock as well as with writes: computed every time.
      if (request.query.only_with_upcoming !== undefined) {
        const { body, headers } = await produce();
        return reply.headers(headers).send(body);
      }
      return app.services.pageCache.respond(request, reply, [request.url], produce);
    },
  );

  const checked = routeSlot<LinkedChanges>();
  app.post(
    base,
    {
      schema: {
        tags,
        security,
        summary: `Create a ${kind.code}`,
        body: schemas.create,
        response: responses({ 201: schemas.ref }),
      },
      config: { access: 'edit_posts' },
      preHandler: async (request) => {
        checked.set(
          request,
          await checkLinkedRecord(db, kind, declared(request.body, schemas.create), request.ctx, null),
        );
      },
    },
    async (request, reply) => {
      const id = await createLinkedRecord(db, kind, checked.get(request), request.ctx);
      return reply.code(201).send(await reload(shared, request, reply, id));
    },
  );
}

/** The params a route with the params schema `P` hands its handlers (typed by the TypeBox provider). */
type ParamsOf<P> = FastifyRequest<
  RouteGenericInterface,
  RawServerDefault,
  RawRequestDefaultExpression,
  { params: P },
  TypeBoxTypeProvider
>['params'];

/** GET, DELETE and POST/PUT/PATCH of one record, found by `locate` from the path's params. */
function singleRoutes<P extends typeof IdParams | typeof SlugParams>(
  fastify: FastifyInstance,
  shared: KindRoutes,
  path: string,
  params: P,
  by: 'id' | 'slug',
  locate: (db: Db, params: ParamsOf<P>, ctx: RequestContext) => Promise<LinkedRow>,
): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { kind, db, schemas, tags } = shared;
  const updateBody = by === 'slug' ? schemas.updateBySlug : schemas.update;
  const conditional = conditionalResponses({ 200: schemas.ref });
  app.get(
    path,
    {
      schema: {
        tags,
        summary: `Read a ${kind.code} by ${by}`,
        params,
        querystring: ReadQuery,
        response: responses({ 200: schemas.ref }),
      },
      config: { access: 'public' },
    },
    async (request, reply) =>
      app.services.pageCache.respond(request, reply, [request.url], async () => {
        const row = await locate(db, request.params, request.ctx);
        assertReadable(kind, row, request.ctx);
        return { body: await linkedObject(db, kind, row, request.ctx, true) };
      }),
  );

  // Registered before the update so the methods read GET, DELETE, POST, PUT, PATCH, as in the original.
  const found = routeSlot<LinkedRow>();
  app.delete(
    path,
    {
      schema: {
        tags,
        security,
        summary: `Move a ${kind.code} to the trash by ${by}`,
        params,
        querystring: ReadQuery,
        headers: IfMatchHeaders,
        response: conditional,
      },
      config: { access: 'edit_posts' },
      // An unknown id is a 404 whoever asks: the record is looked up before the permission check.
      preHandler: async (request) => found.set(request, await locate(db, request.params, request.ctx)),
    },
    async (request, reply) => {
      const row = found.get(request);
      await underIfMatch(
        request,
        (trx) => currentEtag(kind, trx, row.id, request.ctx),
        () => trashLinkedRecord(db, kind, row, request.ctx),
      );
      return reload(shared, request, reply, row.id);
    },
  );

  const checked = routeSlot<{ row: LinkedRow; changes: LinkedChanges }>();
  app.route({
    method: ['POST', 'PUT', 'PATCH'],
    url: path,
    schema: {
      tags,
      security,
      summary: `Update a ${kind.code} by ${by}: only the fields sent change`,
      params,
      body: updateBody,
      headers: IfMatchHeaders,
      response: conditional,
    },
    config: { access: 'edit_posts' },
    preHandler: async (request) => {
      const row = await locate(db, request.params, request.ctx);
      const changes = await checkLinkedRecord(db, kind, declared(request.body, updateBody), request.ctx, row);
      checked.set(request, { row, changes });
    },
    handler: async (request, reply) => {
      const { row, changes } = checked.get(request);
      await underIfMatch(
        request,
        (trx) => currentEtag(kind, trx, row.id, request.ctx),
        () => updateLinkedRecord(db, kind, row, changes, request.ctx),
      );
      return reload(shared, request, reply, row.id);
    },
  });
}
