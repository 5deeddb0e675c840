import type { Db, EventRow } from '../../db/database.js';
import type { RequestContext } from '../../http/context.js';
import { canRead } from '../../auth/roles.js';
import { imageObjectsOf } from '../images/image.service.js';
import type { LinkedKind, LinkedRow } from '../linked/linked.kind.js';
import { toLinkedObject } from '../linked/linked.service.js';
import { ORGANIZER } from '../organizers/organizer.kind.js';
import type { Related } from '../posts/post.mapper.js';
import { shownMembersOf, translationGroupsOf, type ShownMembers } from '../posts/post.service.js';
import type { SeriesRelations } from '../recurrence/recurrence.mapper.js';
import { loadSeriesRelations } from '../recurrence/recurrence.service.js';
import { embeddedTermsOf, type EventTerms } from '../terms/term.embed.js';
import { VENUE } from '../venues/venue.kind.js';
import * as events from './event.repository.js';
import type { EmbeddedRows } from './event.repository.js';

// What a page of events embeds (venues, organizers, terms, images, translations, series rules),
// read in one statement (two with series) before event.mapper.ts turns each row into its object.

/** Everything embedded in a page of events, loaded with one statement (two when series are among them). */
export interface EventRelations extends Related {
  /** Event id → its venue object, in the request's language when it has a translation. */
  venueOf: Map<number, Record<string, unknown>>;
  organizersOf: Map<number, Record<string, unknown>[]>;
  terms: Map<number, EventTerms>;
  /** The rules of the series among the rows, and their exceptions for callers who may edit them. */
  recurrences: SeriesRelations;
}

/**
 * Loads venues, organizers, terms, images and translations for `rows` in one statement (a round
 * trip on PostgreSQL), whatever the number of events, and the rules of the series among them.
 * `embedded`: those records, read already with the row (a single read: findEventToRead).
 */
export async function loadEventRelations(
  db: Db,
  rows: EventRow[],
  ctx: RequestContext,
  single: boolean,
  embedded?: EmbeddedRows,
): Promise<EventRelations> {
  const ids = rows.map((r) => r.id);
  const [found, recurrences] = await Promise.all([
    embedded ?? events.findEmbedded(db, [...new Set(ids)], ctx.lang),
    loadSeriesRelations(db, rows, ctx),
  ]);
  const { links } = found;
  const venues = shownMembersOf(
    found.venues,
    rows.flatMap((r) => (r.venue_id === null ? [] : [r.venue_id])),
    ctx.lang,
    ctx.actor,
  );
  const organizers = shownMembersOf(
    found.organizers,
    links.map((l) => l.organizer_id),
    ctx.lang,
    ctx.actor,
  );
  const terms = embeddedTermsOf(found.terms, ids, ctx);
  const translations = translationGroupsOf(found.translations.filter((row) => canRead(ctx.actor, row)));
  const images = imageObjectsOf(found.images);
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
