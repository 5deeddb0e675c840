import type { Db, EventRow } from '../../db/database.js';
import type { RequestContext } from '../../http/context.js';
import { loadImages } from '../images/image.service.js';
import type { LinkedKind, LinkedRow } from '../linked/linked.kind.js';
import { toLinkedObject } from '../linked/linked.service.js';
import { ORGANIZER } from '../organizers/organizer.kind.js';
import type { Related } from '../posts/post.mapper.js';
import { loadShownMembers, loadTranslations, type ShownMembers } from '../posts/post.service.js';
import type { SeriesRelations } from '../recurrence/recurrence.mapper.js';
import { loadSeriesRelations } from '../recurrence/recurrence.service.js';
import { loadEmbeddedTerms } from '../terms/term.embed.js';
import { VENUE } from '../venues/venue.kind.js';
import * as events from './event.repository.js';

// What a page of events embeds (venues, organizers, terms, images, translations, series rules),
// read in a fixed number of queries before event.mapper.ts turns each row into its object.

/** Everything embedded in a page of events, loaded with a fixed number of queries. */
export interface EventRelations extends Related {
  /** Event id → its venue object, in the request's language when it has a translation. */
  venueOf: Map<number, Record<string, unknown>>;
  organizersOf: Map<number, Record<string, unknown>[]>;
  terms: Awaited<ReturnType<typeof loadEmbeddedTerms>>;
  /** The rules of the series among the rows, and their exceptions for callers who may edit them. */
  recurrences: SeriesRelations;
}

/** What a create has just written, so its response need not read it back. */
export interface Written {
  organizerIds: number[];
}

/**
 * Loads venues, organizers, terms, images and translations for `rows`: at most six queries,
 * whatever the number of events. `written`: `rows` is one event just created with these links.
 */
export async function loadEventRelations(
  db: Db,
  rows: EventRow[],
  ctx: RequestContext,
  single: boolean,
  written?: Written,
): Promise<EventRelations> {
  const ids = rows.map((r) => r.id);
  const links = written
    ? written.organizerIds.map((organizer_id) => ({ event_id: rows[0]!.id, organizer_id }))
    : await events.organizerLinks(db, ids);
  // A new event outside any group (trid = its own new id) is alone in it.
  const grouped = rows.filter((r) => !(written && r.trid === r.id));
  const [venues, organizers, terms, translations, recurrences] = await Promise.all([
    loadShownMembers<LinkedRow>(
      db,
      'venues',
      rows.flatMap((r) => (r.venue_id === null ? [] : [r.venue_id])),
      ctx.lang,
      ctx.actor,
    ),
    loadShownMembers<LinkedRow>(
      db,
      'organizers',
      links.map((l) => l.organizer_id),
      ctx.lang,
      ctx.actor,
    ),
    loadEmbeddedTerms(db, ids, ctx),
    loadTranslations(
      db,
      'events',
      grouped.map((r) => r.trid),
      ctx.actor,
    ),
    loadSeriesRelations(db, rows, ctx),
  ]);
  const images = await loadImages(
    db,
    [...rows, ...venues.shown.values(), ...organizers.shown.values()].map((r) => r.image_id),
  );
  // One object per record shown, whichever of its group's ids the events link.
  const objects = (kind: LinkedKind, members: ShownMembers<LinkedRow>) => {
    const shown = new Map<number, Record<string, unknown>>();
    const byLinkedId = new Map<number, Record<string, unknown>>();
    for (const [id, row] of members.shown) {
      let object = shown.get(row.id);
      if (!object)
        shown.set(
          row.id,
          (object = toLinkedObject(kind, row, { images, translations: members.translations }, ctx, single)),
        );
      byLinkedId.set(id, object);
    }
    return byLinkedId;
  };
  const venueObjects = objects(VENUE, venues);
  const organizerObjects = objects(ORGANIZER, organizers);

  const venueOf = new Map<number, Record<string, unknown>>();
  for (const row of rows) {
    const venue = row.venue_id === null ? undefined : venueObjects.get(row.venue_id);
    if (venue) venueOf.set(row.id, venue);
  }
  const organizersOf = new Map<number, Record<string, unknown>[]>();
  for (const link of links) {
    const organizer = organizerObjects.get(link.organizer_id);
    if (!organizer) continue;
    const list = organizersOf.get(link.event_id) ?? [];
    // Two linked organizers of one group show once, as their translation.
    if (!list.includes(organizer)) list.push(organizer);
    organizersOf.set(link.event_id, list);
  }
  return { images, translations, venueOf, organizersOf, terms, recurrences };
}
