import type { Role } from '../api/session';

/** The contract's roles, most powerful first; their names are translated under `cal.users.roles`. */
export const ROLES: readonly Role[] = ['administrator', 'editor', 'author', 'contributor', 'subscriber'];

export const roleChoices = ROLES.map((role) => ({ id: role, name: `cal.users.roles.${role}` }));
