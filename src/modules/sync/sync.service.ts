import type { Db } from '../../db/database.js';
import { dialectOf } from '../../db/dialect.js';
import type { RequestContext } from '../../http/context.js';
import { gone } from '../../http/errors.js';
import { canRead } from '../../auth/roles.js';
import { unlocked } from '../posts/post.password.js';
import { toEventObject } from '../events/event.mapper.js';
import { loadEventRelations } from '../events/event-relations.service.js';
import type { LinkedKind } from '../linked/linked.kind.js';
import { loadRelated, toLinkedObject } from '../linked/linked.service.js';
import { ORGANIZER } from '../organizers/organizer.kind.js';
import { toTermObject } from '../terms/term.mapper.js';
import { translationsOf } from '../terms/term.service.js';
import { taxonomyDef } from '../terms/term.taxonomy.js';
import { VENUE } from '../venues/venue.kind.js';
import {
  changesAfter,
  eventsByIds,
  linkedByIds,
  prunedThrough,
  settledPosition,
  termsByIds,
  type ChangeKind,
  type ChangeRow,
} from './sync.repository.js';
import type { ChangeEntry, ChangePage } from './sync.schema.js';
import { decodeToken, encodeToken } from './sync.token.js';

/**
 * The records of a page of changes as the caller's GET of each would show them now (the single
 * read's object), loaded per kind with the same mappers and a fixed number of queries. A record
 * the caller may not read is absent: its entry becomes a tombstone.
 */
export type RecordKey = `${ChangeKind}:${number}`;
export const keyOf = (kind: ChangeKind, id: number): RecordKey => `${kind}:${id}`;

export interface CurrentRecord {
  /** The object GET returns, or null when the record exists but the caller may not read it. */
  object: Record<string, unknown> | null;
  status: string;
}

async function events(db: Db, ids: number[], ctx: RequestContext, out: Map<RecordKey, CurrentRecord>): Promise<void> {
  if (ids.length === 0) return;
  const rows = await eventsByIds(db, ids);
  const readable = rows.filter((row) => canRead(ctx.actor, row));
  const relations = await loadEventRelations(db, readable, ctx, true);
  for (const row of rows) {
    const object = canRead(ctx.actor, row)
      ? toEventObject(row, relations, ctx, { single: true, blank: !unlocked(row, ctx, {}) })
      : null;
    out.set(keyOf('event', row.id), { object, status: row.status });
  }
}

async function linked(
  db: Db,
  kind: LinkedKind,
  key: ChangeKind,
  ids: number[],
  ctx: RequestContext,
  out: Map<RecordKey, CurrentRecord>,
): Promise<void> {
  if (ids.length === 0) return;
  const rows = await linkedByIds(db, kind, ids);
  const related = await loadRelated(db, kind, rows, ctx.actor);
  for (const row of rows)
    out.set(keyOf(key, row.id), {
      object: canRead(ctx.actor, row) ? toLinkedObject(kind, row, related, ctx, true) : null,
      status: row.status,
    });
}

async function terms(db: Db, ids: number[], ctx: RequestContext, out: Map<RecordKey, CurrentRecord>): Promise<void> {
  if (ids.length === 0) return;
  const rows = await termsByIds(db, ids);
  const translations = await translationsOf(db, rows);
  for (const row of rows) {
    const def = taxonomyDef(row.taxonomy);
    out.set(keyOf(row.taxonomy === 'cal_events_cat' ? 'category' : 'tag', row.id), {
      object: toTermObject(def, row, translations, ctx, true),
      status: 'publish',
    });
  }
}

/** The current records behind `entries` (deleted ones are simply not found). */
export async function currentRecords(
  db: Db,
  entries: { kind: ChangeKind; record_id: number }[],
  ctx: RequestContext,
): Promise<Map<RecordKey, CurrentRecord>> {
  const ids = (kinds: ChangeKind[]) => [
    ...new Set(entries.filter((e) => kinds.includes(e.kind)).map((e) => e.record_id)),
  ];
  const out = new Map<RecordKey, CurrentRecord>();
  await Promise.all([
    events(db, ids(['event']), ctx, out),
    linked(db, VENUE, 'venue', ids(['venue']), ctx, out),
    linked(db, ORGANIZER, 'organizer', ids(['organizer']), ctx, out),
    terms(db, ids(['category', 'tag']), ctx, out),
  ]);
  return out;
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
 * How far the feed reads on PostgreSQL (sync.repository.ts `settledPosition`), asked by every read,
 * so a client sees its own write at once; and how far the webhook worker claims (its deliveries go
 * in the feed's order per record). The position only grows; when a writer holds the lock past the
 * wait (a long import), the last one this instance learnt is read up to. `reuseMs`: the last one
 * learnt serves if it was learnt that recently (asking waits on the writers in flight and holds
 * new ones back meanwhile, so the worker, draining a backlog round after round, asks less often).
 */
const SETTLED_WAIT_MS = 50;
const settled = new WeakMap<Db, { position: number; at: number }>();

export async function readableThrough(db: Db, reuseMs = 0): Promise<number | null> {
  if (dialectOf(db) !== 'postgres') return null;
  const known = settled.get(db);
  if (known !== undefined && Date.now() - known.at < reuseMs) return known.position;
  const position = Math.max((await settledPosition(db, SETTLED_WAIT_MS)) ?? 0, known?.position ?? 0);
  settled.set(db, { position, at: Date.now() });
  return position;
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
  const rows = await changesAfter(db, ctx.lang, from, await readableThrough(db), kinds, ctx.actor, perPage);
  const page = rows.slice(0, perPage);
  const records = await currentRecords(db, page, ctx);
  const changes = page.map((row) => toEntry(row, records));
  // Past the rows read, or where the caller was: positions the caller may not see advance it too.
  const last = page.at(-1)?.position ?? from;
  return { changes, next_token: encodeToken(Number(last)), more: rows.length > perPage };
}
