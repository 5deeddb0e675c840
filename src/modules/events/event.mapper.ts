import type { EventRow } from '../../db/database.js';
import type { RequestContext } from '../../http/context.js';
import { costDetails, formatCost } from '../../lib/cost.js';
import { dateDetails } from '../../lib/dates.js';
import { blankProtected, globalId, languageFields, postHead, renderHtml } from '../posts/post.mapper.js';
import { eventJsonLd } from './event.jsonld.js';
import { recurrenceFields } from '../recurrence/recurrence.mapper.js';
import type { EventRelations } from './event-relations.service.js';

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
