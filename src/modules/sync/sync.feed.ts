import type { Db } from '../../db/database.js';
import type { RequestContext } from '../../http/context.js';
import { gone } from '../../http/errors.js';
import { changesAfter, prunedThrough, type ChangeKind, type ChangeRow } from './sync.repository.js';
import { currentRecords, keyOf, type CurrentRecord, type RecordKey } from './sync.records.js';
import { decodeToken, encodeToken } from './sync.token.js';

export interface ChangeEntry {
  kind: ChangeKind;
  id: number;
  change: 'created' | 'updated' | 'trashed' | 'deleted';
  modified_utc: string;
  record?: Record<string, unknown>;
}

export interface ChangePage {
  changes: ChangeEntry[];
  next_token: string;
  more: boolean;
}

/** The entry of a logged change for a reader, from the records as they are now (currentRecords). */
export function toEntry(
  row: Pick<ChangeRow, 'kind' | 'record_id' | 'change' | 'at_utc'>,
  records: Map<RecordKey, CurrentRecord>,
): ChangeEntry {
  const current = records.get(keyOf(row.kind, row.record_id));
  const entry: ChangeEntry = { kind: row.kind, id: row.record_id, change: row.change, modified_utc: row.at_utc };
  if (!current) return Object.assign(entry, { change: 'deleted' as const });
  if (current.object === null) return Object.assign(entry, { change: 'trashed' as const });
  return Object.assign(entry, { record: current.object });
}

/**
 * One page of the change feed of the caller's language after `since` (or from the start of the
 * retained history). Each entry carries the record as GET returns it *now* (a client applying the
 * entries in order ends with the current state); a record gone is a `deleted` tombstone, and one
 * the caller may no longer read (unpublished, made private, trashed for readers who cannot see
 * the trash) a `trashed` tombstone.
 */
export async function readChanges(
  db: Db,
  ctx: RequestContext,
  since: string | undefined,
  kinds: readonly ChangeKind[],
  perPage: number,
): Promise<ChangePage> {
  const pruned = await prunedThrough(db);
  const from = since === undefined ? pruned : decodeToken(since);
  if (from < pruned)
    throw gone('sync-token-expired', 'This sync token is older than the retained history: start over without since.');
  const rows = await changesAfter(db, ctx.lang, from, kinds, ctx.actor, perPage);
  const page = rows.slice(0, perPage);
  const records = await currentRecords(db, page, ctx);
  const changes = page.map((row) => toEntry(row, records));
  // Past the rows read, or where the caller was: positions the caller may not see advance it too.
  const last = page.at(-1)?.position ?? from;
  return { changes, next_token: encodeToken(Number(last)), more: rows.length > perPage };
}
