import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { NAMESPACE } from '../../http/context.js';
import { ID_SEGMENT, IdParams, responses } from '../../http/schemas.js';
import { toTermList, toTermObject } from './term.mapper.js';
import { termCreateBody, termListQuery, termListSchema, termSchema, termUpdateBody, type TermInput, type TermListQuery } from './term.schema.js';
import { createTerm, deleteTerm, getTerm, listTerms, precheck, translationsOf, updateTerm } from './term.service.js';
import { TAXONOMIES, type TaxonomyDef } from './term.taxonomy.js';
import { totalHeaders } from '../../http/pagination.js';

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
  const Term = termSchema(def);
  const TermWithLinks = termSchema(def, true);

  /**
   * The original validates the id in the path and `parent` as arguments, before its permission
   * check; this hook runs ahead of the access hook (preHandler) to keep that order.
   */
  const validateFirst = async (request: FastifyRequest): Promise<void> => {
    const raw = (request.params as { id?: string }).id;
    const body = request.body;
    const parent = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>)['parent'] : undefined;
    await precheck(db, def, raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : null, parent);
  };

  app.get(
    base,
    { schema: { tags, summary: `List ${def.route}`, querystring: termListQuery(def), response: responses({ 200: termListSchema(def) }) }, config: PUBLIC },
    async (request, reply) =>
      app.services.pageCache.respond(request, reply, [request.url], async () => {
        const page = await listTerms(db, def, request.query as TermListQuery, request.ctx.lang);
        const translations = await translationsOf(db, page.rows);
        const body = toTermList(def, page.rows.map((row) => toTermObject(def, row, translations, request.ctx, false)), page, request.ctx);
        return { body, headers: totalHeaders({ total: page.total, total_pages: page.totalPages }) };
      }),
  );

  app.post(
    base,
    {
      schema: { tags, security, summary: `Create a ${def.label}`, body: termCreateBody(def), response: responses({ 201: TermWithLinks }) },
      config: write,
      preValidation: validateFirst,
    },
    async (request, reply) => {
      const row = await createTerm(db, def, request.body as TermInput & { name: string }, request.ctx);
      const translations = await translationsOf(db, [row]);
      void reply.code(201).header('Location', `${request.ctx.base}/${def.route}/${row.id}`);
      return toTermObject(def, row, translations, request.ctx, true);
    },
  );

  app.get(
    `${base}/${ID_SEGMENT}`,
    { schema: { tags, summary: `Read a ${def.label}`, params: IdParams, response: responses({ 200: TermWithLinks }) }, config: PUBLIC },
    async (request, reply) =>
      app.services.pageCache.respond(request, reply, [request.url], async () => {
        const row = await getTerm(db, def, request.params.id);
        return { body: toTermObject(def, row, await translationsOf(db, [row]), request.ctx, true) };
      }),
  );

  app.route({
    method: ['POST', 'PUT', 'PATCH'],
    url: `${base}/${ID_SEGMENT}`,
    schema: { tags, security, summary: `Update a ${def.label} (only the fields sent)`, params: IdParams, body: termUpdateBody(def), response: responses({ 200: TermWithLinks }) },
    config: write,
    preValidation: validateFirst,
    handler: async (request) => {
      const row = await updateTerm(db, def, request.params.id, (request.body ?? {}) as TermInput, request.ctx);
      return toTermObject(def, row, await translationsOf(db, [row]), request.ctx, true);
    },
  });

  app.delete(
    `${base}/${ID_SEGMENT}`,
    { schema: { tags, security, summary: `Delete a ${def.label} for good`, params: IdParams, response: responses({ 200: Term }) }, config: write, preValidation: validateFirst },
    async (request) => {
      const { row, translations } = await deleteTerm(db, def, request.params.id);
      return toTermObject(def, row, translations, request.ctx, false);
    },
  );
}
