import type { Db, EventRow, TermRow } from '../../db/database.js';
import type { RequestContext } from '../../http/context.js';
import { canRead } from '../../auth/roles.js';
import { unlocked } from '../posts/post.password.js';
import { loadEventRelations, toEventObject } from '../events/event.mapper.js';
import type { LinkedKind, LinkedRow } from '../linked/linked-kind.js';
import { loadRelated, toLinkedObject } from '../linked/linked.service.js';
import { ORGANIZER } from '../organizers/organizer.kind.js';
import { toTermObject } from '../terms/term.mapper.js';
import { translationsOf } from '../terms/term.service.js';
import { taxonomyDef } from '../terms/term.taxonomy.js';
import { VENUE } from '../venues/venue.kind.js';
import type { ChangeKind } from './sync.repository.js';

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
  const rows = (await db.selectFrom('events').selectAll().where('id', 'in', ids).execute()) as EventRow[];
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
  const rows = (await db.selectFrom(kind.table).selectAll().where('id', 'in', ids).execute()) as LinkedRow[];
  const related = await loadRelated(db, kind, rows, ctx.actor);
  for (const row of rows)
    out.set(keyOf(key, row.id), {
      object: canRead(ctx.actor, row) ? toLinkedObject(kind, row, related, ctx, true) : null,
      status: row.status,
    });
}

async function terms(db: Db, ids: number[], ctx: RequestContext, out: Map<RecordKey, CurrentRecord>): Promise<void> {
  if (ids.length === 0) return;
  const rows = (await db.selectFrom('terms').selectAll().where('id', 'in', ids).execute()) as TermRow[];
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
