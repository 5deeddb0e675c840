import type { Db, EventRow } from '../../db/database.js';
import type { RequestContext } from '../../http/context.js';
import { costDetails, formatCost } from '../../lib/cost.js';
import { dateDetails } from '../../lib/dates.js';
import { loadImages } from '../images/image.service.js';
import type { LinkedKind, LinkedRow } from '../linked/linked-kind.js';
import { toLinkedObject } from '../linked/linked.service.js';
import { ORGANIZER } from '../organizers/organizer.kind.js';
import { blankProtected, globalId, languageFields, postHead, renderHtml, type Related } from '../posts/post.mapper.js';
import { loadShownMembers, loadTranslations, type ShownMembers } from '../posts/post.service.js';
import { loadEmbeddedTerms } from '../terms/term.embed.js';
import { VENUE } from '../venues/venue.kind.js';
import { eventJsonLd } from './event.jsonld.js';
import * as events from './event.repository.js';
import { loadSeriesRelations, recurrenceFields, type SeriesRelations } from '../recurrence/recurrence.mapper.js';

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

export interface MapOptions {
  /** Single reads add json_ld. */
  single: boolean;
  /** Password-protected and not unlocked: blank the protected fields. */
  blank: boolean;
}

/** The event object, in the original's key order (section 1.1). */
export function toEventObject(
  row: EventRow,
  rel: EventRelations,
  ctx: RequestContext,
  options: MapOptions,
): Record<string, unknown> {
  const { id, ...head } = postHead(row, ctx, 'event');
  const url = head.url;
  const raw = JSON.parse(row.cost) as string[];
  const venue = rel.venueOf.get(row.id);
  const organizers = rel.organizersOf.get(row.id) ?? [];
  const terms = rel.terms.get(row.id) ?? { categories: [], tags: [] };
  const event: Record<string, unknown> = {
    id,
    ...globalId(ctx, id),
    ...head,
    rest_url: `${ctx.base}/events/${row.id}`,
    title: row.title,
    description: renderHtml(row.description),
    excerpt: renderHtml(row.excerpt),
    slug: row.slug,
    image: row.image_id !== null ? (rel.images.get(row.image_id) ?? false) : false,
    all_day: row.all_day === 1,
    start_date: row.start_local,
    start_date_details: dateDetails(row.start_local),
    end_date: row.end_local,
    end_date_details: dateDetails(row.end_local),
    utc_start_date: row.start_utc,
    utc_start_date_details: dateDetails(row.start_utc),
    utc_end_date: row.end_utc,
    utc_end_date_details: dateDetails(row.end_utc),
    timezone: row.timezone,
    timezone_abbr: row.timezone_abbr,
    cost: formatCost(raw, row.currency_symbol, row.currency_position),
    cost_details: costDetails(raw, row.currency_symbol, row.currency_code, row.currency_position),
    website: row.website ?? url,
    show_map: row.show_map === 1,
    show_map_link: row.show_map_link === 1,
    hide_from_listings: row.hide_from_listings === 1,
    sticky: row.sticky === 1,
    featured: row.featured === 1,
    categories: terms.categories,
    tags: terms.tags,
    venue: venue ?? [],
    organizer: organizers,
    custom_fields: [],
  };
  if (options.single && !options.blank) event['json_ld'] = eventJsonLd(event, venue, organizers);
  Object.assign(event, languageFields(row, rel), recurrenceFields(row, rel.recurrences, ctx));
  return options.blank ? blankProtected(event) : event;
}
