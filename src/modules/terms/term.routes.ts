import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { NAMESPACE } from '../../http/context.js';
import { conditionalResponses, ID_SEGMENT, IdParams, IfMatchHeaders, responses } from '../../http/schemas.js';
import { toTermList, toTermObject } from './term.mapper.js';
import {
  termCreateBody,
  termListQuery,
  termListSchema,
  TermRef,
  termUpdateBody,
  type TermInput,
  type TermListQuery,
} from './term.schema.js';
import { createTerm, deleteTerm, getTerm, listTerms, precheck, translationsOf, updateTerm } from './term.service.js';
import { TAXONOMIES, type TaxonomyDef } from './term.taxonomy.js';
import { totalHeaders } from '../../http/pagination.js';
import { etagOfBody, underIfMatch, withEtag } from '../../http/conditional.js';
import { lockRow } from '../../db/dialect.js';
import type { Db } from '../../db/database.js';
import type { RequestContext } from '../../http/context.js';
import * as terms from './term.repository.js';

const PUBLIC = { access: 'public' } as const;
const security = [{ basic: [] }];

/** `/categories` and `/tags`: the same routes, one set per taxonomy. */
export async function termRoutes(app: FastifyInstance): Promise<void> {
  for (const def of TAXONOMIES) registerTaxonomy(app, def);
}

function registerTaxonomy(fastify: FastifyInstance, def: TaxonomyDef): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.services.storage;
  const base = `/${NAMESPACE}/${def.route}`;
  const write = { access: def.capability };
  const tags = [def.route];

  /** The term's tag as a GET answers it now, for `If-Match` (the row locked first). */
  const currentEtag = async (trx: Db, id: number, ctx: RequestContext): Promise<string | null> => {
    await lockRow(trx, 'terms', id);
    const row = await terms.findInTaxonomy(trx, def.taxonomy, id);
    return row ? etagOfBody(toTermObject(def, row, await translationsOf(trx, [row]), ctx, true)) : null;
  };

  /**
   * The original validates the id in the path and `parent` as arguments, before its permission
   * check; this hook runs ahead of the access hook (preHandler) to keep that order.
   */
  const validateFirst = async (request: FastifyRequest): Promise<void> => {
    const raw = (request.params as { id?: string }).id;
    const body = request.body;
    const parent =
      body && typeof body === 'object' && !Array.isArray(body)
        ? (body as Record<string, unknown>)['parent']
        : undefined;
    await precheck(db, def, raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : null, parent);
  };

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
        const page = await listTerms(db, def, request.query as TermListQuery, request.ctx);
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
      preValidation: validateFirst,
    },
    async (request, reply) => {
      const row = await createTerm(db, def, request.body as TermInput & { name: string }, request.ctx);
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
    preValidation: validateFirst,
    handler: async (request, reply) => {
      const { id } = request.params;
      const row = await underIfMatch(
        request,
        (trx) => currentEtag(trx, id, request.ctx),
        () => updateTerm(db, def, id, (request.body ?? {}) as TermInput, request.ctx),
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
      preValidation: validateFirst,
    },
    async (request) => {
      const { id } = request.params;
      const { row, translations } = await underIfMatch(
        request,
        (trx) => currentEtag(trx, id, request.ctx),
        () => deleteTerm(db, def, id),
      );
      return toTermObject(def, row, translations, request.ctx, false);
    },
  );
}
