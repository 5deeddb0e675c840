/**
 * Who may do what: the contract's role table and the original's finer rules, in one place.
 * Routes ask for a capability; record checks (ownership) go through canRead/canEdit below.
 */
export const ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const;
export type Role = (typeof ROLES)[number];

export type Capability =
  | 'edit_posts' // create events, venues, organizers; edit own unpublished ones
  | 'publish_posts' // publish, and edit own published ones
  | 'edit_others_posts' // edit, delete and read anyone's records, any status
  | 'manage_categories' // event categories (authors up, as the original)
  | 'manage_tags' // tags need an editor
  | 'manage_options'; // users and settings

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

export interface Actor {
  id: number;
  username: string;
  role: Role;
}

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

export function can(actor: Actor | null, capability: Capability): boolean {
  return actor !== null && roleCan(actor.role, capability);
}

/** Whether a role holds a capability: also what the admin application decides its screens by. */
export function roleCan(role: Role | undefined, capability: Capability): boolean {
  return role !== undefined && CAPABILITIES[role].includes(capability);
}

/** What record checks need to know about a record. */
export interface Owned {
  author: number;
  status: string;
}

/** Statuses in which a record counts as published: contributors may no longer edit their own then. */
export const PUBLISHED_LIKE_STATUSES = ['publish', 'future', 'private'] as const;
const PUBLISHED_LIKE = new Set<string>(PUBLISHED_LIKE_STATUSES);

/** Published records are public; others are for their author and for editors (SPEC item 6). */
export function canRead(actor: Actor | null, record: Owned): boolean {
  if (record.status === 'publish') return true;
  return (
    actor !== null && (can(actor, 'edit_others_posts') || (record.author === actor.id && can(actor, 'edit_posts')))
  );
}

/** Editors edit anything; authors their own; contributors their own unpublished records. */
export function canEdit(actor: Actor | null, record: Owned): boolean {
  if (actor === null) return false;
  if (can(actor, 'edit_others_posts')) return true;
  if (record.author !== actor.id || !can(actor, 'edit_posts')) return false;
  return can(actor, 'publish_posts') || !PUBLISHED_LIKE.has(record.status);
}

export const POST_STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'] as const;

/** The original's scale_back_post_status: users who cannot publish get pending or draft. */
export function scaleBackStatus(actor: Actor | null, requested: string | undefined): string {
  if (can(actor, 'publish_posts')) return requested ?? 'publish';
  if (requested === 'publish' || requested === 'future') return 'pending';
  return requested ?? 'draft';
}

/**
 * The statuses a list shows when none is asked for: everything but trash for those who may edit
 * (restricted to their own records below editor, SPEC item 6), else published only.
 */
export function defaultListStatuses(actor: Actor | null): string[] {
  return can(actor, 'edit_posts') ? ['publish', 'future', 'draft', 'pending', 'private'] : ['publish'];
}
