import type { Db } from '../../db/database.js';
import { bumpDataVersion } from '../../db/data-version.js';
import type { RequestContext } from '../../http/context.js';
import { restForbidden } from '../../http/errors.js';
import { Problems } from '../../http/problems.js';
import { canEdit, canRead } from '../../auth/roles.js';
import { assertMayAssignAuthor } from '../posts/post.service.js';
import type { LinkedKind, LinkedRow } from './linked.kind.js';
import { linkedErrors } from './linked.errors.js';
import { findBySlug, unlinkFromEvents } from './linked.repository.js';
import {
  checkLinkedInput,
  findLinked,
  insertLinked,
  loadRelated,
  toLinkedObject,
  updateLinked,
  type LinkedChanges,
} from './linked.service.js';
import { inTransaction } from '../../db/transaction.js';

/**
 * What the venue and organizer routes do, for either kind: locate a record, check the caller may
 * see or change it, write in one transaction. Input checks all finish before the transaction.
 */

export async function byId(db: Db, kind: LinkedKind, id: number): Promise<LinkedRow> {
  const row = await findLinked(db, kind, id);
  if (!row) throw linkedErrors(kind).notFound(id);
  return row;
}

export async function bySlug(db: Db, kind: LinkedKind, slug: string, lang: string): Promise<LinkedRow> {
  const row = await findBySlug(db, kind, slug, lang);
  if (!row) throw linkedErrors(kind).notFoundBySlug(slug);
  return row;
}

/** The response object of one record; `single` (GET only) adds json_ld. */
export async function linkedObject(
  db: Db,
  kind: LinkedKind,
  row: LinkedRow,
  ctx: RequestContext,
  single: boolean,
): Promise<Record<string, unknown>> {
  return toLinkedObject(kind, row, await loadRelated(db, kind, [row], ctx.actor), ctx, single);
}

/** Single reads: anyone may read a published record; others (trash included) need canRead (SPEC item 22). */
export function assertReadable(kind: LinkedKind, row: LinkedRow, ctx: RequestContext): void {
  if (!canRead(ctx.actor, row)) throw linkedErrors(kind).notAccessible();
}

/** Checks a create or update payload; runs before the permission check, as in the original. */
export async function checkLinkedRecord(
  db: Db,
  kind: LinkedKind,
  input: Record<string, unknown>,
  ctx: RequestContext,
  existing: LinkedRow | null,
): Promise<LinkedChanges> {
  const problems = new Problems();
  const changes = await checkLinkedInput(db, kind, input, ctx, existing, problems);
  problems.throwIfAny();
  return changes;
}

/** Creates a checked record, or finds its duplicate (original 4.3); returns its id either way. */
export async function createLinkedRecord(
  db: Db,
  kind: LinkedKind,
  changes: LinkedChanges,
  ctx: RequestContext,
): Promise<number> {
  assertMayAssignAuthor(ctx.actor, changes.common.author);
  return inTransaction(db, async (trx) => {
    const { id, created } = await insertLinked(trx, kind, changes, ctx);
    if (created) await bumpDataVersion(trx);
    return id;
  });
}

/** Writes an update; a record entering the trash leaves its events in the same transaction. */
async function writeUpdate(
  db: Db,
  kind: LinkedKind,
  row: LinkedRow,
  changes: LinkedChanges,
  ctx: RequestContext,
): Promise<void> {
  await inTransaction(db, async (trx) => {
    await updateLinked(trx, kind, row, changes, ctx);
    if (changes.common.status === 'trash' && row.status !== 'trash') await unlinkFromEvents(trx, kind, row.id);
    await bumpDataVersion(trx);
  });
}

/** Partial update (SPEC item 1) of a checked payload; the caller must be allowed to edit the record. */
export async function updateLinkedRecord(
  db: Db,
  kind: LinkedKind,
  row: LinkedRow,
  changes: LinkedChanges,
  ctx: RequestContext,
): Promise<void> {
  if (!canEdit(ctx.actor, row)) throw restForbidden(true);
  assertMayAssignAuthor(ctx.actor, changes.common.author);
  await writeUpdate(db, kind, row, changes, ctx);
}

/** DELETE moves the record to the trash; a second one is 410 (original 5). */
export async function trashLinkedRecord(db: Db, kind: LinkedKind, row: LinkedRow, ctx: RequestContext): Promise<void> {
  if (!canEdit(ctx.actor, row)) throw restForbidden(true);
  if (row.status === 'trash') throw linkedErrors(kind).inTrash();
  await writeUpdate(db, kind, row, { common: { status: 'trash' }, fields: {}, flags: {}, geo: {} }, ctx);
}
