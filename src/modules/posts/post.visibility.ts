import type { Problems } from '../../http/problems.js';
import { can, POST_STATUSES, type Actor } from '../../auth/roles.js';

// Who sees which statuses in a list of events, venues or organizers: the rule, the `status`
// parameter and what a list echoes of it. The rule as SQL is visibleTo in post.repository.ts.

/**
 * Which records of `statuses` a caller may list: editors see all; others see published records
 * and their own in the other statuses (SPEC items 6 and 24).
 */
export type StatusVisibility =
  /** Every record in these statuses. */
  | { sees: 'all'; statuses: string[] }
  /** Only published records. */
  | { sees: 'published' }
  | { sees: 'nothing' }
  /** The author's own records in `statuses`, and published ones too when `published`. */
  | { sees: 'own'; statuses: string[]; author: number; published: boolean };

export function statusVisibility(actor: Actor | null, statuses: string[]): StatusVisibility {
  if (can(actor, 'edit_others_posts')) return { sees: 'all', statuses };
  const others = statuses.filter((s) => s !== 'publish');
  const published = statuses.includes('publish');
  if (actor === null || !can(actor, 'edit_posts') || others.length === 0)
    return published ? { sees: 'published' } : { sees: 'nothing' };
  return { sees: 'own', statuses: others, author: actor.id, published };
}

/**
 * What a list's `rest_url` echoes as `status`, as the original does: the statuses given, else
 * `publish` for readers of published records only and `any` for those who see more.
 */
export function statusEcho(given: unknown, statuses: string[]): string {
  return given !== undefined ? statuses.join(',') : statuses.length === 1 ? 'publish' : 'any';
}

/** Parses a `status` list parameter by the original's rules; throws via `problems`. */
export function checkStatusFilter(value: unknown, actor: Actor | null, problems: Problems): string[] | undefined {
  if (value === undefined) return undefined;
  const items = (Array.isArray(value) ? value : String(value).split(',')).map((s) => String(s).trim()).filter(Boolean);
  if (items.length === 0) {
    problems.add('status', 'status must not be empty.');
    return undefined;
  }
  if (!can(actor, 'edit_posts')) {
    if (items.length !== 1 || items[0] !== 'publish') problems.add('status', 'status must be publish for this user.');
    return ['publish'];
  }
  if (items.some((s) => !(POST_STATUSES as readonly string[]).includes(s)))
    problems.add('status', `status items must be among ${POST_STATUSES.join(', ')}.`);
  return items;
}
