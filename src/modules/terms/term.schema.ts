import { Type, type Static } from 'typebox';
import { CommonQuery, I18nLanguage, IdList, Nullable, Page, PerPage, TEXT_LIMITS, Truthy } from '../../http/schemas.js';
import { keepKeyOrder } from '../../http/pagination.js';
import type { TaxonomyDef } from './term.taxonomy.js';

/**
 * Term shapes and route schemas. Fastify's serializer writes the required properties in schema
 * order and then the optional ones, so the order below is the key order of the responses
 * (original 1.4 and 2.3) as long as optional properties only come last.
 */

const Urls = Type.Object({
  self: Type.String(),
  collection: Type.String(),
  up: Type.Optional(Type.String({ description: 'The parent term, when there is one' })),
});

const Translations = Type.Record(Type.String(), Type.Integer(), {
  description: 'Id of the term in each language of its translation group, itself included',
});

const Links = Type.Record(
  Type.String(),
  Type.Array(Type.Object({ href: Type.String() }, { additionalProperties: true })),
  {
    description: 'HAL links (single-term responses only)',
  },
);

/**
 * The term endpoints' shape (original 1.4 B), the `Term` component of both taxonomies: `parent`
 * only for categories, `_links` only in single-term responses (GET, create, update). Those two
 * are optional, so every key after `parent` is written as optional too (the serializer writes
 * required keys first): the order stays the original's; `meta` to `translations` are always there.
 */
export const TermSchema = keepKeyOrder(
  Type.Object(
    {
      id: Type.Integer(),
      count: Type.Integer({ description: 'Published events with this term' }),
      description: Type.String(),
      name: Type.String(),
      slug: Type.String(),
      taxonomy: Type.String({ description: 'cal_events_cat (categories) or post_tag (tags)' }),
      parent: Type.Optional(Type.Integer({ description: 'Parent category id, 0 for none (categories only)' })),
      meta: Type.Array(Type.Unknown(), { description: 'Always empty' }),
      url: Type.String({ description: 'Public archive page of the term' }),
      urls: Urls,
      _links: Type.Optional(Links),
      i18n_language: Type.String(),
      translations: Translations,
    },
    { $id: 'Term', description: 'Event category or tag' },
  ),
);
export const TermRef = Type.Ref('Term');

/** The list envelope (original 2.3): key order rest_url, total, total_pages, items, next, previous. */
export function termListSchema(def: TaxonomyDef) {
  return Type.Object({
    rest_url: Type.String(),
    total: Type.Integer(),
    total_pages: Type.Integer(),
    [def.route]: Type.Array(TermRef),
    next_rest_url: Type.Optional(Type.String()),
    previous_rest_url: Type.Optional(Type.String()),
  });
}

/** A term inside an event (original 1.4 A): a WP_Term cast to an array, plus `urls`. */
export const EmbeddedTermSchema = Type.Object(
  {
    name: Type.String(),
    slug: Type.String(),
    term_group: Type.Integer(),
    term_taxonomy_id: Type.Integer(),
    taxonomy: Type.String(),
    description: Type.String(),
    parent: Type.Integer(),
    count: Type.Integer(),
    filter: Type.String(),
    id: Type.Integer(),
    urls: Urls,
    i18n_language: Type.String(),
    translations: Translations,
  },
  { $id: 'EventTerm', description: 'Event category or tag, as embedded in an event' },
);
export type EmbeddedTerm = Static<typeof EmbeddedTermSchema>;

export const ORDERBY = ['id', 'name', 'slug', 'count', 'term_group', 'description', 'include'] as const;
export type TermOrderby = (typeof ORDERBY)[number];

/** The list parameters of categories; tags have the same without `parent` (original 3.4). */
const CategoryListQuery = Type.Object({
  page: Type.Optional(Page),
  per_page: Type.Optional(PerPage),
  search: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: TEXT_LIMITS.search,
      description: 'Terms whose name or slug contains this text',
    }),
  ),
  exclude: Type.Optional(IdList('Leave out these term ids')),
  include: Type.Optional(IdList('Only these term ids')),
  order: Type.Optional(Type.String({ minLength: 1, description: 'asc or desc (case-insensitive)' })),
  orderby: Type.Optional(
    Type.String({ enum: [...ORDERBY], default: 'name', description: 'Sort by this term attribute' }),
  ),
  hide_empty: Type.Optional(Truthy('Hide terms without published events (default true)')),
  parent: Type.Optional(
    Type.Integer({ minimum: 0, description: 'Only direct children of this category (0: top level)' }),
  ),
  post: Type.Optional(Type.Integer({ minimum: 1, description: 'Only terms of this event' })),
  event: Type.Optional(
    Type.Integer({ minimum: 1, description: 'Only terms of this event (alias of post, wins over it)' }),
  ),
  slug: Type.Optional(Type.String({ minLength: 1, description: 'Only the term with this slug' })),
  context: Type.Optional(
    Type.String({
      description:
        'edit: the terms of a password-protected event (post, event) the caller may edit are listed (view: they are not)',
    }),
  ),
  ...CommonQuery,
});
export type TermListQuery = Static<typeof CategoryListQuery>;

export function termListQuery(def: TaxonomyDef) {
  return def.hierarchical ? CategoryListQuery : Type.Omit(CategoryListQuery, ['parent']);
}

/** Body fields; `name`, `description` and `slug` must be non-empty when sent, as in the original. */
const Fields = {
  description: Type.Optional(Type.String({ minLength: 1, description: 'Description (plain text or HTML)' })),
  slug: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Slug; made unique with -2, -3…' })),
  parent: Type.Optional(Type.Integer({ minimum: 0, description: 'Parent category id, 0 for none (categories only)' })),
  translation_of: Type.Optional(
    Nullable(
      Type.Integer({ minimum: 1, description: 'Id of the term this one translates; null on update leaves the group' }),
    ),
  ),
  i18n_language: Type.Optional(I18nLanguage),
};
const Name = Type.String({ minLength: 1, maxLength: 200, description: 'Name' });

const CategoryCreateBody = Type.Object({ name: Name, ...Fields });
const CategoryUpdateBody = Type.Object({ name: Type.Optional(Name), ...Fields });

/** On tags `parent` is not a field: the service answers rest_taxonomy_not_hierarchical when it is sent. */
export function termCreateBody(def: TaxonomyDef) {
  return def.hierarchical ? CategoryCreateBody : Type.Omit(CategoryCreateBody, ['parent']);
}

export function termUpdateBody(def: TaxonomyDef) {
  return def.hierarchical ? CategoryUpdateBody : Type.Omit(CategoryUpdateBody, ['parent']);
}

/** A create or update body as the service reads it (on tags, `parent` arrives unchecked). */
export type TermInput = Omit<Static<typeof CategoryUpdateBody>, 'parent'> & { parent?: unknown };
