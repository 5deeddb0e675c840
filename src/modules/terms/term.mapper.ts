import type { TermRow } from '../../db/database.js';
import type { RequestContext } from '../../http/context.js';
import { can } from '../../auth/roles.js';
import type { EmbeddedTerm } from './term.schema.js';
import { taxonomyDef, type TaxonomyDef } from './term.taxonomy.js';

/** `{lang: id}` per translation group (loadTranslations' result). */
export type TermTranslations = Map<number, Record<string, number>>;

type UrlContext = Pick<RequestContext, 'base'>;

/** `urls` of both shapes: self, collection, and `up` only under a parent (R/Post_Repository.php). */
export function termUrls(
  def: TaxonomyDef,
  row: TermRow,
  ctx: UrlContext,
): { self: string; collection: string; up?: string } {
  const collection = `${ctx.base}/${def.route}`;
  return {
    self: `${collection}/${row.id}`,
    collection,
    ...(row.parent !== 0 ? { up: `${collection}/${row.parent}` } : {}),
  };
}

function languageFields(row: TermRow, translations: TermTranslations) {
  return { i18n_language: row.lang, translations: translations.get(row.trid) ?? { [row.lang]: row.id } };
}

/**
 * HAL links of a single-term response. The original's point at WordPress's own `wp/v2` routes;
 * ours point at the routes this service has: the term, its list, its parent, and its events.
 */
function termLinks(def: TaxonomyDef, row: TermRow, ctx: RequestContext): Record<string, Record<string, unknown>[]> {
  const urls = termUrls(def, row, ctx);
  const allow = can(ctx.actor, def.capability) ? ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] : ['GET'];
  return {
    self: [{ href: urls.self, targetHints: { allow } }],
    collection: [{ href: urls.collection }],
    ...(urls.up ? { up: [{ href: urls.up, embeddable: true }] } : {}),
    'wp:post_type': [{ href: `${ctx.base}/events?${def.route}=${row.id}` }],
    curies: [{ name: 'wp', href: 'https://api.w.org/{rel}', templated: true }],
  };
}

/**
 * The term endpoints' object (original 1.4 B). `links` for single GET, create and update only:
 * list items and the deleted term have none, as in the original.
 */
export function toTermObject(
  def: TaxonomyDef,
  row: TermRow,
  translations: TermTranslations,
  ctx: RequestContext,
  links: boolean,
): Record<string, unknown> {
  return {
    id: row.id,
    count: row.count,
    description: row.description,
    name: row.name,
    slug: row.slug,
    taxonomy: row.taxonomy,
    ...(def.hierarchical ? { parent: row.parent } : {}),
    meta: [],
    url: ctx.pageUrl(row.lang, `${def.pagePath}/${row.slug}`),
    urls: termUrls(def, row, ctx),
    ...(links ? { _links: termLinks(def, row, ctx) } : {}),
    ...languageFields(row, translations),
  };
}

/** A term inside an event (original 1.4 A): WP_Term's fields, `id` and `urls`; no `url`. */
export function toEmbeddedTerm(row: TermRow, translations: TermTranslations, ctx: UrlContext): EmbeddedTerm {
  return {
    name: row.name,
    slug: row.slug,
    term_group: 0,
    term_taxonomy_id: row.id,
    taxonomy: row.taxonomy,
    description: row.description,
    parent: row.parent,
    count: row.count,
    filter: 'raw',
    id: row.id,
    urls: termUrls(taxonomyDef(row.taxonomy), row, ctx),
    ...languageFields(row, translations),
  };
}

/**
 * The list envelope (original 2.3). `rest_url` is always the bare base and the next/previous links
 * carry only `page`: the original drops `per_page` and the filters there (a quirk clients follow).
 */
export function toTermList(
  def: TaxonomyDef,
  items: Record<string, unknown>[],
  page: { page: number; total: number; totalPages: number },
  ctx: RequestContext,
): Record<string, unknown> {
  const restUrl = `${ctx.base}/${def.route}/`;
  return {
    rest_url: restUrl,
    total: page.total,
    total_pages: page.totalPages,
    [def.route]: items,
    ...(page.page < page.totalPages ? { next_rest_url: `${restUrl}?page=${page.page + 1}` } : {}),
    ...(page.page > 1 ? { previous_rest_url: page.page === 2 ? restUrl : `${restUrl}?page=${page.page - 1}` } : {}),
  };
}
