import { createHash, timingSafeEqual } from 'node:crypto';
import type { EventRow } from '../../db/database.js';
import type { RequestContext } from '../../http/context.js';
import { canEdit, canRead } from '../../auth/roles.js';
import { eventErrors } from './event.errors.js';
import type { EventReadParams } from './event.schema.js';

// Who may see an event's content: single reads, and the list's blanking of protected events.

function sameSecret(given: string, stored: string): boolean {
  // Hash both sides so the comparison is constant-time whatever the lengths.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(stored).digest();
  return timingSafeEqual(a, b);
}

/** Whether the reader unlocked a password-protected event (right password, or edit context with the right). */
export function unlocked(row: EventRow, ctx: RequestContext, query: { password?: string | undefined; context?: string | undefined }): boolean {
  if (row.password === '') return true;
  if (query.password !== undefined && sameSecret(query.password, row.password)) return true;
  return query.context === 'edit' && canEdit(ctx.actor, row);
}

/** Single reads: trash, visibility and password checks, in the original's order. */
export function assertReadable(row: EventRow, ctx: RequestContext, query: EventReadParams): void {
  if (row.status === 'trash') throw eventErrors.noLongerAvailable();
  if (!canRead(ctx.actor, row)) throw eventErrors.notAccessible();
  if (!unlocked(row, ctx, query)) throw eventErrors.passwordProtected();
}

