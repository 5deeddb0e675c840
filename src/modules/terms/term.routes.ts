import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { NAMESPACE } from '../../http/context.js';
import { conditionalResponses, ID_SEGMENT, IdParams, IfMatchHeaders, responses } from '../../http/schemas.js';
import { toTermList, toTermObject } from './term.mapper.js';
import { termCreateBody, termListQuery, termListSchema, TermRef, termUpdateBody } from './term.schema.js';
import {
  createTerm,
  deleteTerm,
  findTerm,
  getTerm,
  listTerms,
  precheck,
  translationsOf,
  updateTerm,
} from './term.service.js';
import { TAXONOMIES, type TaxonomyDef } from './term.taxonomy.js';
import { totalHeaders } from '../../http/pagination.js';
import { etagOfBody, underIfMatch, withEtag } from '../../http/conditional.js';
import { lockRow } from '../../db/dialect.js';
import type { Db } from '../../db/database.js';
import type { RequestContext } from '../../http/context.js';

const PUBLIC = { access: 'public' } as const;
const security = [{ basic: [] }];

/** `/categories` and `/tags`: the same routes, one set per taxonomy. */
export async function termRoutes(app: FastifyInstance): Promise<void> {
  for (const def of TAXONOMIES) registerTaxonomy(app, def);
}

/** The term's tag as a GET answers it now, for `If-Match` (the row locked first). */
async function currentEtag(trx: Db, def: TaxonomyDef, id: number, ctx: RequestContext): Promise<string | null> {
  await lockRow(trx, 'terms', id);
  const row = await findTerm(trx, def, id);
  return row ? etagOfBody(toTermObject(def, row, await translationsOf(trx, [row]), ctx, true)) : null;
}

/** A field of a params or body object not validated yet (undefined when it is not an object). */
function unvalidatedField(value: unknown, name: string): unknown {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? Reflect.get(value, name) : undefined;
}

/**
 * The original validates the id in the path and `parent` as arguments, before its permission
 * check; this hook runs ahead of the access hook (preHandler) to keep that order. It runs before
 * the schemas, so it reads params and body as they came.
 */
function validateFirst(db: Db, def: TaxonomyDef) {
  return async (request: FastifyRequest): Promise<void> => {
    const raw = unvalidatedField(request.params, 'id');
    const parent = unvalidatedField(request.body, 'parent');
    await precheck(db, def, typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : null, parent);
  };
}

function registerTaxonomy(fastify: FastifyInstance, def: TaxonomyDef): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.services.storage;
  const base = `/${NAMESPACE}/${def.route}`;
  const write = { access: def.capability };
  const tags = [def.route];

  app.get(
    base,
    {
      schema: {
        tags,
        summary: `List ${def.route}`,
        querystring: termListQuery(def),
        response: responses({ 200: termListSchema(def) }),
      },
      config: PUBLIC,
    },
    async (request, reply) =>
      app.services.pageCache.respond(request, reply, [request.url], async () => {
        const page = await listTerms(db, def, request.query, request.ctx);
        const translations = await translationsOf(db, page.rows);
        const body = toTermList(
          def,
          page.rows.map((row) => toTermObject(def, row, translations, request.ctx, false)),
          page,
          request.ctx,
        );
        return { body, headers: totalHeaders({ total: page.total, total_pages: page.totalPages }) };
      }),
  );

  app.post(
    base,
    {
      schema: {
        tags,
        security,
        summary: `Create a ${def.label}`,
        body: termCreateBody(def),
        response: responses({ 201: TermRef }),
      },
      config: write,
      preValidation: validateFirst(db, def),
    },
    async (request, reply) => {
      const row = await createTerm(db, def, request.body, request.ctx);
      const translations = await translationsOf(db, [row]);
      void reply.code(201).header('Location', `${request.ctx.base}/${def.route}/${row.id}`);
      const body = toTermObject(def, row, translations, request.ctx, true);
      return withEtag(reply, etagOfBody(body), body);
    },
  );

  app.get(
    `${base}/${ID_SEGMENT}`,
    {
      schema: { tags, summary: `Read a ${def.label}`, params: IdParams, response: responses({ 200: TermRef }) },
      config: PUBLIC,
    },
    async (request, reply) =>
      app.services.pageCache.respond(request, reply, [request.url], async () => {
        const row = await getTerm(db, def, request.params.id);
        return { body: toTermObject(def, row, await translationsOf(db, [row]), request.ctx, true) };
      }),
  );

  app.route({
    method: ['POST', 'PUT', 'PATCH'],
    url: `${base}/${ID_SEGMENT}`,
    schema: {
      tags,
      security,
      summary: `Update a ${def.label} (only the fields sent)`,
      params: IdParams,
      body: termUpdateBody(def),
      headers: IfMatchHeaders,
      response: conditionalResponses({ 200: TermRef }),
    },
    config: write,
    preValidation: validateFirst(db, def),
    handler: async (request, reply) => {
      const { id } = request.params;
      const row = await underIfMatch(
        request,
        (trx) => currentEtag(trx, def, id, request.ctx),
        () => updateTerm(db, def, id, request.body ?? {}, request.ctx),
      );
      // The same object a GET answers: its tag is the one a following read carries.
      const body = toTermObject(def, row, await translationsOf(db, [row]), request.ctx, true);
      return withEtag(reply, etagOfBody(body), body);
    },
  });

  app.delete(
    `${base}/${ID_SEGMENT}`,
    {
      schema: {
        tags,
        security,
        summary: `Delete a ${def.label} for good`,
        params: IdParams,
        headers: IfMatchHeaders,
        response: conditionalResponses({ 200: TermRef }),
      },
      config: write,
      preValidation: validateFirst(db, def),
    },
    async (request) => {
      const { id } = request.params;
      const { row, translations } = await underIfMatch(
        request,
        (trx) => currentEtag(trx, def, id, request.ctx),
        () => deleteTerm(db, def, id),
      );
      return toTermObject(def, row, translations, request.ctx, false);
    },
  );
}
