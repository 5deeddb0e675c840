import type { Role } from './session';

/**
 * The contract's role table, for deciding what the admin shows. The API still decides every
 * request: a screen hidden here is a convenience, never the protection.
 */
export type Capability =
  'edit_posts' | 'publish_posts' | 'edit_others_posts' | 'manage_categories' | 'manage_tags' | 'manage_options';

const CAPABILITIES: Record<Role, readonly Capability[]> = {
  subscriber: [],
  contributor: ['edit_posts'],
  author: ['edit_posts', 'publish_posts', 'manage_categories'],
  editor: ['edit_posts', 'publish_posts', 'edit_others_posts', 'manage_categories', 'manage_tags'],
  administrator: [
    'edit_posts',
    'publish_posts',
    'edit_others_posts',
    'manage_categories',
    'manage_tags',
    'manage_options',
  ],
};

export function can(role: Role | undefined, capability: Capability): boolean {
  return role !== undefined && CAPABILITIES[role].includes(capability);
}

const READ_ACTIONS = new Set(['list', 'show']);

/** Which capability a resource's action needs, as the API's routes ask for them. */
export function mayAccess(role: Role | undefined, resource: string, action: string): boolean {
  switch (resource) {
    case 'users':
    case 'webhooks':
    case 'imports':
    case 'settings':
      return can(role, 'manage_options');
    case 'categories':
      return READ_ACTIONS.has(action) ? can(role, 'edit_posts') : can(role, 'manage_categories');
    case 'tags':
      return READ_ACTIONS.has(action) ? can(role, 'edit_posts') : can(role, 'manage_tags');
    case 'events':
    case 'venues':
    case 'organizers':
    case 'calendar':
      return can(role, 'edit_posts');
    default:
      return role !== undefined;
  }
}
