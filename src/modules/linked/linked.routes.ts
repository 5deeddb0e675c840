import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type, type Static, type TObject } from 'typebox';
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
import type { LinkedKind, LinkedRow } from './linked-kind.js';
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
import { lockRow } from '../../db/dialect.js';
import type { RequestContext } from '../../http/context.js';
import { listLinked } from './linked.list.js';
import { LinkedListQuery, linkedSchemas } from './linked.schema.js';

type Locate = (db: Db, request: FastifyRequest) => Promise<LinkedRow>;

const ReadQuery = Type.Object(CommonQuery);
const security = [{ basic: [] }];

/** Only the fields the schema declares reach the service: unknown ones are ignored, as the original does. */
function declared(body: unknown, schema: TObject): Record<string, unknown> {
  const input = (body ?? {}) as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(schema.properties)
      .filter((key) => key in input)
      .map((key) => [key, input[key]]),
  );
}

/**
 * The routes of a venue-like kind: the list and create at `/<table>`, and read, update and delete
 * by id and by slug. Venues and organizers are the same code with a different {@link LinkedKind}.
 */
export function linkedRoutes(kind: LinkedKind) {
  return async function routes(fastify: FastifyInstance): Promise<void> {
    const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
    const { db } = app.services.storage;
    const { pageCache } = app.services;
    const schemas = linkedSchemas(kind);
    const base = `/${NAMESPACE}/${kind.table}`;
    const tags = [kind.table];
    const one = responses({ 200: schemas.ref });
    const conditional = conditionalResponses({ 200: schemas.ref });
    /**
     * Write responses are read back after the commit, without json_ld (single GETs only), with the
     * entity tag a following GET of the record carries.
     */
    const reload = async (request: FastifyRequest, reply: FastifyReply, id: number) => {
      const row = await byId(db, kind, id);
      const [body, single] = await Promise.all([
        linkedObject(db, kind, row, request.ctx, false),
        linkedObject(db, kind, row, request.ctx, true),
      ]);
      return withEtag(reply, etagOfBody(single), body);
    };
    /** The record's tag as a GET answers it now, for `If-Match` (the row locked first). */
    const currentEtag = async (trx: Db, id: number, ctx: RequestContext): Promise<string | null> => {
      await lockRow(trx, kind.table, id);
      const row = await findLinked(trx, kind, id);
      return row ? etagOfBody(await linkedObject(trx, kind, row, ctx, true)) : null;
    };

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
        return pageCache.respond(request, reply, [request.url], produce);
      },
    );

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
          request.prepared = await checkLinkedRecord(
            db,
            kind,
            declared(request.body, schemas.create),
            request.ctx,
            null,
          );
        },
      },
      async (request, reply) => {
        const id = await createLinkedRecord(db, kind, request.prepared as LinkedChanges, request.ctx);
        return reply.code(201).send(await reload(request, reply, id));
      },
    );

    const single = (path: string, params: typeof IdParams | typeof SlugParams, locate: Locate, by: 'id' | 'slug') => {
      const updateBody = by === 'slug' ? schemas.updateBySlug : schemas.update;
      app.get(
        path,
        {
          schema: { tags, summary: `Read a ${kind.code} by ${by}`, params, querystring: ReadQuery, response: one },
          config: { access: 'public' },
        },
        async (request, reply) =>
          pageCache.respond(request, reply, [request.url], async () => {
            const row = await locate(db, request);
            assertReadable(kind, row, request.ctx);
            return { body: await linkedObject(db, kind, row, request.ctx, true) };
          }),
      );

      // Registered before the update so the methods read GET, DELETE, POST, PUT, PATCH, as in the original.
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
          preHandler: async (request) => void (request.prepared = await locate(db, request)),
        },
        async (request, reply) => {
          const row = request.prepared as LinkedRow;
          await underIfMatch(
            request,
            (trx) => currentEtag(trx, row.id, request.ctx),
            () => trashLinkedRecord(db, kind, row, request.ctx),
          );
          return reload(request, reply, row.id);
        },
      );

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
          const row = await locate(db, request);
          request.prepared = {
            row,
            changes: await checkLinkedRecord(db, kind, declared(request.body, updateBody), request.ctx, row),
          };
        },
        handler: async (request, reply) => {
          const { row, changes } = request.prepared as { row: LinkedRow; changes: LinkedChanges };
          await underIfMatch(
            request,
            (trx) => currentEtag(trx, row.id, request.ctx),
            () => updateLinkedRecord(db, kind, row, changes, request.ctx),
          );
          return reload(request, reply, row.id);
        },
      });
    };

    single(
      `${base}/${ID_SEGMENT}`,
      IdParams,
      (db, request) => byId(db, kind, (request.params as Static<typeof IdParams>).id),
      'id',
    );
    single(
      `${base}/by-slug/:slug`,
      SlugParams,
      (db, request) => bySlug(db, kind, (request.params as Static<typeof SlugParams>).slug, request.ctx.lang),
      'slug',
    );
  };
}
