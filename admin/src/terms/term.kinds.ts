import type { Capability } from '../api/permissions';

/**
 * What differs between the category and tag screens, as the server's taxonomy descriptor
 * (src/modules/terms/term.taxonomy.ts) describes what differs between their routes.
 */
export interface TermKindUi {
  resource: 'categories' | 'tags';
  /** Categories nest (parent, tree); tags do not. */
  hierarchical: boolean;
  /** What it takes to create, edit or delete one (reading needs edit_posts). */
  capability: Capability;
}

export const CATEGORY_UI: TermKindUi = { resource: 'categories', hierarchical: true, capability: 'manage_categories' };
export const TAG_UI: TermKindUi = { resource: 'tags', hierarchical: false, capability: 'manage_tags' };

/** The API's bounds on names and slugs (term.schema.ts), repeated so the form says so before sending. */
export const TERM_NAME_MAX = 200;
export const TERM_SLUG_MAX = 200;
export const TERM_DESCRIPTION_MAX = 5000;
