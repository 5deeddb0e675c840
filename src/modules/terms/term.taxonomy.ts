import type { TermTable } from '../../db/database.js';
import type { Capability } from '../../auth/roles.js';

export type Taxonomy = TermTable['taxonomy'];

/**
 * What separates event categories from tags. Everything else (routes, rules, shapes) is shared,
 * so the two endpoints are one implementation parameterised by this descriptor.
 */
export interface TaxonomyDef {
  taxonomy: Taxonomy;
  /** Path segment under the namespace, and the list envelope's key. */
  route: 'categories' | 'tags';
  /** Only categories have parents (`post_tag` is flat, as in WordPress). */
  hierarchical: boolean;
  /** Needed to create, update or delete: authors manage categories, tags need an editor. */
  capability: Extract<Capability, 'manage_categories' | 'manage_tags'>;
  /** Public archive page: `<site>/events/category/<slug>/` or `<site>/tag/<slug>/` (SPEC item 11). */
  pagePath: string;
  /** Singular noun for messages. */
  label: 'category' | 'tag';
}

export const CATEGORIES: TaxonomyDef = {
  taxonomy: 'cal_events_cat',
  route: 'categories',
  hierarchical: true,
  capability: 'manage_categories',
  pagePath: 'events/category',
  label: 'category',
};

export const TAGS: TaxonomyDef = {
  taxonomy: 'post_tag',
  route: 'tags',
  hierarchical: false,
  capability: 'manage_tags',
  pagePath: 'tag',
  label: 'tag',
};

export const TAXONOMIES: readonly TaxonomyDef[] = [CATEGORIES, TAGS];

export function taxonomyDef(taxonomy: Taxonomy): TaxonomyDef {
  return taxonomy === CATEGORIES.taxonomy ? CATEGORIES : TAGS;
}
