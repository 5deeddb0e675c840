import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestContext } from '../../http/context.js';
import { canEdit, type Owned } from '../../auth/roles.js';

// Password-protected posts (WordPress's post_password): whether a reader unlocked one. Events
// use it for single reads and lists, feeds and terms for what they show of protected events.

/** What a read says about unlocking: the reader's password attempt and context. */
export interface Unlocking {
  password?: string | undefined;
  context?: string | undefined;
}

export function sameSecret(given: string, stored: string): boolean {
  // Hash both sides so the comparison is constant-time whatever the lengths.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(stored).digest();
  return timingSafeEqual(a, b);
}

/** What unlocking looks at in an event. */
export type Protected = Owned & { password: string };

/** `context=edit` by a reader allowed to edit the event opens it without its password (the original's rule). */
export function openedForEditing(row: Protected, ctx: RequestContext, query: Unlocking): boolean {
  return query.context === 'edit' && canEdit(ctx.actor, row);
}

/** Whether the reader unlocked a password-protected event (right password, or edit context with the right). */
export function unlocked(row: Protected, ctx: RequestContext, query: Unlocking): boolean {
  if (row.password === '') return true;
  if (query.password !== undefined && sameSecret(query.password, row.password)) return true;
  return openedForEditing(row, ctx, query);
}
