import { ADMIN_API, EVENTS_API } from './http';

/**
 * Where each react-admin resource lives in the REST API and how its list answers.
 * `paged`: the API pages (page, per_page, X-Cal-Total); otherwise it answers a whole array
 * (users, webhooks, imports: tens of rows) and the admin pages, sorts and filters it itself.
 * `listKey`: the key of the rows in a paged list's envelope (`{events: [...], total, ...}`).
 * `sorts`: the API's `orderby` values for the list's sortable columns (others sort nothing).
 */
export interface ResourceConfig {
  path: string;
  paged: boolean;
  listKey?: string;
  sorts?: Record<string, string>;
  /** Most pages the API gives at once. */
  maxPerPage?: number;
}

export const RESOURCES: Record<string, ResourceConfig> = {
  events: {
    path: `${EVENTS_API}/events`,
    paged: true,
    listKey: 'events',
    maxPerPage: 50,
    sorts: { start_date: 'start_date', date: 'date' },
  },
  venues: { path: `${EVENTS_API}/venues`, paged: true, listKey: 'venues', maxPerPage: 50 },
  organizers: { path: `${EVENTS_API}/organizers`, paged: true, listKey: 'organizers', maxPerPage: 50 },
  categories: {
    path: `${EVENTS_API}/categories`,
    paged: true,
    listKey: 'categories',
    maxPerPage: 100,
    sorts: { id: 'id', name: 'name', slug: 'slug', count: 'count' },
  },
  tags: {
    path: `${EVENTS_API}/tags`,
    paged: true,
    listKey: 'tags',
    maxPerPage: 100,
    sorts: { id: 'id', name: 'name', slug: 'slug', count: 'count' },
  },
  users: { path: `${ADMIN_API}/users`, paged: false },
  webhooks: { path: `${ADMIN_API}/webhooks`, paged: false },
  imports: { path: `${ADMIN_API}/imports`, paged: false },
  // The public form's submissions: an array with X-Cal-Total, filtered by `state` (pending by default).
  submissions: { path: `${ADMIN_API}/submissions`, paged: true, maxPerPage: 100 },
};

export function resourceConfig(resource: string): ResourceConfig {
  const config = RESOURCES[resource];
  if (!config) throw new Error(`Unknown resource ${resource}`);
  return config;
}
