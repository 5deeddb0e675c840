import { can } from '../api/permissions';
import { currentUser, type Role } from '../api/session';

/** Whether the signed-in user may edit this record: their own, or anyone's with edit_others_posts. */
export function mayEditRecord(role: Role | undefined, record: { author?: string | number } | undefined): boolean {
  if (!can(role, 'edit_posts')) return false;
  if (can(role, 'edit_others_posts')) return true;
  const me = currentUser();
  return me !== null && record?.author !== undefined && String(record.author) === String(me.id);
}
