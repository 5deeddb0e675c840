import type { Db, EventRow, EventTable } from '../../db/database.js';
import { bumpDataVersion } from '../../db/data-version.js';
import type { RequestContext } from '../../http/context.js';
import { restForbidden } from '../../http/errors.js';
import { insertLinked } from '../linked/linked.service.js';
import { ORGANIZER } from '../organizers/organizer.kind.js';
import { assertMayAssignAuthor, newPostColumns, updatedPostColumns } from '../posts/post.service.js';
import { applyTermInputs, shiftTermCounts } from '../terms/term.embed.js';
import { canEdit } from '../../auth/roles.js';
import { VENUE } from '../venues/venue.kind.js';
import { eventErrors } from './event.errors.js';
import type { EventChanges, LinkPlan } from './event.input.js';
import * as events from './event.repository.js';
import type { EmbeddedRows } from './event.repository.js';
import { inTransaction } from '../../db/transaction.js';
import { etagOfBody } from '../../http/conditional.js';
import { lockRow } from '../../db/dialect.js';
import { toEventObject } from './event.mapper.js';
import { loadEventRelations } from './event-relations.service.js';
import type { RecurrencePolicy } from '../recurrence/recurrence.input.js';
import { startSeries } from '../recurrence/recurrence.service.js';

async function applyLink(trx: Db, plan: LinkPlan, kind: typeof VENUE, ctx: RequestContext): Promise<number> {
  return plan.kind === 'id' ? plan.id : (await insertLinked(trx, kind, plan.changes, ctx)).id;
}

/** The venue column of a checked payload (creating an inline venue), folded into the event's own write. */
async function venueColumn(trx: Db, changes: EventChanges, ctx: RequestContext): Promise<Partial<EventTable>> {
  if (changes.venue === undefined) return {};
  return { venue_id: changes.venue === null ? null : await applyLink(trx, changes.venue, VENUE, ctx) };
}

/**
 * Organizers and terms of a checked payload, inside the write transaction, with the term counts
 * moved accordingly. `before` is the stored event (status and terms), null for a new one.
 * Returns the organizer ids when they were set.
 */
async function applyLinks(
  trx: Db,
  eventId: number,
  changes: EventChanges,
  ctx: RequestContext,
  before: { status: string } | null,
): Promise<number[] | undefined> {
  let organizerIds: number[] | undefined;
  if (changes.organizers !== undefined) {
    organizerIds = [];
    for (const plan of changes.organizers) {
      const id = await applyLink(trx, plan, ORGANIZER, ctx);
      if (!organizerIds.includes(id)) organizerIds.push(id);
    }
    if (before !== null) await events.setOrganizers(trx, eventId, organizerIds);
  }
  const termsChange = changes.categories !== undefined || changes.tags !== undefined;
  const statusBefore = before?.status ?? null;
  const statusAfter = changes.common.status ?? statusBefore;
  const countsMove = termsChange || (statusAfter === 'publish') !== (statusBefore === 'publish');
  const termsBefore = before === null || !countsMove ? [] : await events.allTermIds(trx, eventId);
  const applied: number[] = [];
  for (const [key, taxonomy] of [
    ['categories', 'cal_events_cat'],
    ['tags', 'post_tag'],
  ] as const) {
    const input = changes[key];
    if (input === undefined) continue;
    const next = await applyTermInputs(trx, taxonomy, input, ctx.lang);
    if (before !== null) await events.setTerms(trx, eventId, await events.termIds(trx, eventId, taxonomy), next);
    applied.push(...next);
  }
  // A new event's links all at once (one statement on PostgreSQL).
  if (before === null) await events.linkNew(trx, eventId, organizerIds ?? [], applied);
  if (!countsMove) return organizerIds;
  // A new event's terms are exactly those just applied; an update's need reading back.
  const termsAfter = !termsChange ? termsBefore : before === null ? applied : await events.allTermIds(trx, eventId);
  await shiftTermCounts(
    trx,
    { termIds: termsBefore, published: statusBefore === 'publish' },
    { termIds: termsAfter, published: statusAfter === 'publish' },
  );
  return organizerIds;
}

/** Every author a write sets (the event's and its inline venue's and organizers') must be allowed. */
function assertAuthors(changes: EventChanges, ctx: RequestContext): void {
  const inline = [changes.venue, ...(changes.organizers ?? [])].flatMap((plan) =>
    plan?.kind === 'new' ? [plan.changes.common.author] : [],
  );
  for (const author of [changes.common.author, ...inline]) assertMayAssignAuthor(ctx.actor, author);
}

/** What a new event stores for the fields a create did not send (the dates and flags always are). */
const NEW_EVENT: Pick<
  EventTable,
  'cost' | 'currency_symbol' | 'currency_code' | 'currency_position' | 'website' | 'venue_id' | 'post_parent'
> = {
  cost: '[]',
  currency_symbol: '',
  currency_code: '',
  currency_position: '',
  website: null,
  venue_id: null,
  post_parent: null,
};

/**
 * POST /events: writes a checked event and its links in one transaction, and for a series its
 * occurrences. Returns the stored row (every column is written explicitly) and its organizers, so
 * the response needs no read back.
 */
export async function createEvent(
  db: Db,
  changes: EventChanges,
  ctx: RequestContext,
  policy: RecurrencePolicy,
): Promise<{ row: EventRow; organizerIds: number[] }> {
  assertAuthors(changes, ctx);
  return inTransaction(db, async (trx) => {
    const post = await newPostColumns(trx, 'events', changes.common, ctx, changes.title ?? '');
    // Object.assign, not a literal that starts with a spread: V8 builds those property by property, at
    // about a microsecond each (see post.mapper.ts).
    let row = Object.assign({}, NEW_EVENT, post, changes.columns, await venueColumn(trx, changes, ctx)) as EventRow;
    await events.insert(trx, row);
    const organizerIds = (await applyLinks(trx, post.id, changes, ctx, null)) ?? [];
    if (changes.recurrence) row = await startSeries(trx, row, changes.recurrence, policy);
    await bumpDataVersion(trx);
    return { row, organizerIds };
  });
}

/**
 * Updates only what was sent (SPEC item 1), inside the caller's transaction; the caller must be
 * allowed to edit this event. Returns the row as written.
 */
export async function updateEventIn(
  trx: Db,
  existing: EventRow,
  changes: EventChanges,
  ctx: RequestContext,
): Promise<EventRow> {
  if (!canEdit(ctx.actor, existing)) throw restForbidden(ctx.actor !== null);
  assertAuthors(changes, ctx);
  const columns = Object.assign(
    {},
    await updatedPostColumns(trx, 'events', changes.common, ctx, existing, changes.title),
    changes.columns,
    await venueColumn(trx, changes, ctx),
  );
  await events.update(trx, existing.id, columns);
  await events.bumpRevision(trx, existing.id);
  await applyLinks(trx, existing.id, changes, ctx, existing);
  await bumpDataVersion(trx);
  return Object.assign({}, existing, columns);
}

/** DELETE: to the trash (a second delete is 410), inside the caller's transaction; term counts follow. */
export async function trashEventIn(trx: Db, existing: EventRow, ctx: RequestContext): Promise<EventRow> {
  if (!canEdit(ctx.actor, existing)) throw restForbidden(ctx.actor !== null);
  if (existing.status === 'trash') throw eventErrors.inTrash();
  await events.update(trx, existing.id, { status: 'trash', trashed_from: existing.status });
  await events.bumpRevision(trx, existing.id);
  const termIds = await events.allTermIds(trx, existing.id);
  await shiftTermCounts(trx, { termIds, published: existing.status === 'publish' }, { termIds, published: false });
  await bumpDataVersion(trx);
  return Object.assign({}, existing, { status: 'trash' });
}

/**
 * The event object of one row, with its relations (one statement, two for a series; none more
 * when findEventToRead gave them as `embedded`).
 */
export async function eventObject(
  db: Db,
  row: EventRow,
  ctx: RequestContext,
  single: boolean,
  embedded?: EmbeddedRows,
): Promise<Record<string, unknown>> {
  const relations = await loadEventRelations(db, [row], ctx, single, embedded);
  return toEventObject(row, relations, ctx, { single, blank: false });
}

/**
 * A write's answer and the single read's object of the same row (whose tag the answer carries),
 * from one read of the records the event embeds.
 */
export async function writtenObjects(
  db: Db,
  row: EventRow,
  ctx: RequestContext,
): Promise<{ body: Record<string, unknown>; single: Record<string, unknown> }> {
  const embedded = await events.findEmbedded(db, [row.id], ctx.lang);
  const [body, single] = await Promise.all([
    eventObject(db, row, ctx, false, embedded),
    eventObject(db, row, ctx, true, embedded),
  ]);
  return { body, single };
}

/**
 * The event's entity tag as a GET answers it to the caller (the single read's object), for
 * `If-Match` and for the `ETag` of a write's answer. Null when the event no longer exists.
 */
export async function currentEtag(db: Db, id: number, ctx: RequestContext): Promise<string | null> {
  await lockRow(db, 'events', id);
  const row = await events.findById(db, id);
  return row ? etagOfBody(await eventObject(db, row, ctx, true)) : null;
}

/** An unknown id is a 404; the id of a venue, organizer or image is a 400, as in the original. */
export async function findEvent(db: Db, id: number): Promise<EventRow> {
  return (await events.findById(db, id)) ?? notAnEvent(db, id);
}

/**
 * findEvent for a single read, with the records the event embeds in the same statement (for
 * eventObject): one round trip in all for an event that is not a series.
 */
export async function findEventToRead(
  db: Db,
  id: number,
  lang: string,
): Promise<{ row: EventRow; embedded?: EmbeddedRows }> {
  return (await events.findWithEmbedded(db, id, lang)) ?? notAnEvent(db, id);
}

async function notAnEvent(db: Db, id: number): Promise<never> {
  if (await events.isOtherPost(db, id)) throw eventErrors.notAnEvent();
  throw eventErrors.notFound(id);
}

export async function findEventBySlug(db: Db, slug: string, lang: string): Promise<EventRow> {
  const row = await events.findBySlug(db, slug, lang);
  if (!row) throw eventErrors.notFoundBySlug(slug);
  return row;
}
