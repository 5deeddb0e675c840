import type { Db, EventRow } from '../../db/database.js';
import type { RequestContext } from '../../http/context.js';
import { costDetails, formatCost } from '../../lib/cost.js';
import { dateDetails } from '../../lib/dates.js';
import { loadImages } from '../images/image.service.js';
import { loadLinkedObjects } from '../linked/linked.service.js';
import { ORGANIZER } from '../organizers/organizer.kind.js';
import { blankProtected, globalId, languageFields, postHead, renderHtml, type Related } from '../posts/post.mapper.js';
import { loadTranslations, translateIds } from '../posts/post.service.js';
import { loadEmbeddedTerms } from '../terms/term.embed.js';
import { VENUE } from '../venues/venue.kind.js';
import { eventJsonLd } from './event.jsonld.js';

/** Everything embedded in a page of events, loaded with a fixed number of queries. */
export interface EventRelations extends Related {
  venues: Map<number, Record<string, unknown>>;
  /** Event id → venue id in the request's language. */
  venueOf: Map<number, number>;
  organizers: Map<number, Record<string, unknown>>;
  organizersOf: Map<number, number[]>;
  terms: Awaited<ReturnType<typeof loadEmbeddedTerms>>;
}

/**
 * Loads venues, organizers, terms, images and translations for `rows`: one query each (plus the
 * language mapping of linked records), whatever the number of events.
 */
export async function loadEventRelations(db: Db, rows: EventRow[], ctx: RequestContext, single: boolean): Promise<EventRelations> {
  const ids = rows.map((r) => r.id);
  const links = ids.length === 0 ? [] : await db.selectFrom('event_organizers').select(['event_id', 'organizer_id']).where('event_id', 'in', ids).orderBy('event_id').orderBy('position').execute();
  const [venueMap, organizerMap, terms, images, translations] = await Promise.all([
    translateIds(db, 'venues', rows.flatMap((r) => (r.venue_id === null ? [] : [r.venue_id])), ctx.lang),
    translateIds(db, 'organizers', links.map((l) => l.organizer_id), ctx.lang),
    loadEmbeddedTerms(db, ids, ctx),
    loadImages(db, rows.map((r) => r.image_id)),
    loadTranslations(db, 'events', rows.map((r) => r.trid)),
  ]);
  const venueOf = new Map<number, number>();
  for (const row of rows) if (row.venue_id !== null) venueOf.set(row.id, venueMap.get(row.venue_id) ?? row.venue_id);
  const organizersOf = new Map<number, number[]>();
  for (const link of links) {
    const list = organizersOf.get(link.event_id) ?? [];
    list.push(organizerMap.get(link.organizer_id) ?? link.organizer_id);
    organizersOf.set(link.event_id, list);
  }
  const [venues, organizers] = await Promise.all([
    loadLinkedObjects(db, VENUE, [...venueOf.values()], ctx, single),
    loadLinkedObjects(db, ORGANIZER, [...organizersOf.values()].flat(), ctx, single),
  ]);
  return { images, translations, venues, venueOf, organizers, organizersOf, terms };
}

export interface MapOptions {
  /** Single reads add json_ld. */
  single: boolean;
  /** Password-protected and not unlocked: blank the protected fields. */
  blank: boolean;
}

/** The event object, in the original's key order (section 1.1). */
export function toEventObject(row: EventRow, rel: EventRelations, ctx: RequestContext, options: MapOptions): Record<string, unknown> {
  const { id, ...head } = postHead(row, ctx, 'event');
  const url = head.url;
  const raw = JSON.parse(row.cost) as string[];
  const venueId = rel.venueOf.get(row.id);
  const venue = venueId !== undefined ? rel.venues.get(venueId) : undefined;
  const organizers = (rel.organizersOf.get(row.id) ?? []).flatMap((id) => rel.organizers.get(id) ?? []) as Record<string, unknown>[];
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
  Object.assign(event, languageFields(row, rel));
  return options.blank ? blankProtected(event) : event;
}
