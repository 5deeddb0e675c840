import { roleCan, type Capability } from '../../../src/auth/roles';
import type { Role } from './session';

/**
 * The service's own role table (src/auth/roles.ts, pure code shared with the admin's build), for
 * deciding what the admin shows. The API still decides every request: a screen hidden here is a
 * convenience, never the protection.
 */
export type { Capability };

export function can(role: Role | undefined, capability: Capability): boolean {
  return roleCan(role, capability);
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
    case 'submissions':
      return can(role, 'edit_others_posts');
    case 'events':
    case 'venues':
    case 'organizers':
    case 'calendar':
      return can(role, 'edit_posts');
    default:
      return role !== undefined;
  }
}
