import type { Db, EventRow } from '../../db/database.js';
import type { CountCache } from '../../db/count-cache.js';
import type { RequestContext } from '../../http/context.js';
import { clampPerPage, offsetOf, type Page } from '../../http/pagination.js';
import { unlocked } from '../posts/post.password.js';
import { eventJsonLd } from '../events/event.jsonld.js';
import { listEvents } from '../events/event-list.service.js';
import { toEventObject } from '../events/event.mapper.js';
import { loadEventRelations } from '../events/event-relations.service.js';
import type { EventListParams } from '../events/event.schema.js';
import { loadFeedRows } from './feed.repository.js';

/**
 * The schema.org JSON-LD of an event as a single read has it (`json_ld`). A password-protected
 * event the reader has not unlocked keeps only what a list shows of it: name, dates and page.
 */
export function eventLd(row: EventRow, event: Record<string, unknown>, blank: boolean): Record<string, unknown> {
  if (!blank && event['json_ld']) return event['json_ld'] as Record<string, unknown>;
  const ld = eventJsonLd(event, undefined, []);
  delete ld['description'];
  return ld;
}

/**
 * GET /events as a schema.org ItemList: the JSON list's page (same filters, order, page, total and
 * 404 past the end, by the same code), each item the event's JSON-LD. `numberOfItems` is the total
 * of the list; `position` counts from the first event of the list, not of the page.
 */
export async function jsonLdList(
  db: Db,
  counts: CountCache,
  q: EventListParams,
  ctx: RequestContext,
  version: string,
  self: string,
): Promise<{ body: Record<string, unknown>; page: Page<'events'> }> {
  const page = await listEvents(db, counts, q, ctx, version);
  const ids = (page.events as { id: number }[]).map((e) => e.id);
  const rows = await loadFeedRows(db, ids);
  const relations = await loadEventRelations(db, rows, ctx, true);
  const first = offsetOf(q.page ?? 1, clampPerPage(q.per_page));
  const items = rows.map((row, index) => {
    const blank = !unlocked(row, ctx, q);
    const event = toEventObject(row, relations, ctx, { single: true, blank });
    const { '@context': _context, ...item } = eventLd(row, event, blank);
    return { '@type': 'ListItem', position: first + index + 1, url: event['url'], item };
  });
  const body: Record<string, unknown> = {
    '@context': 'http://schema.org',
    '@type': 'ItemList',
    url: self,
    numberOfItems: page.total,
    itemListOrder: 'https://schema.org/ItemListOrderAscending',
    itemListElement: items,
  };
  return { body, page };
}
