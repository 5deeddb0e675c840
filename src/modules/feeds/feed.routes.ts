import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { EventRow } from '../../db/database.js';
import type { RequestContext } from '../../http/context.js';
import { totalHeaders } from '../../http/pagination.js';
import { attemptKey, type PasswordAttempts } from '../events/event.access.js';
import { unlocked } from '../posts/post.password.js';
import { windowKey } from '../events/event-list.service.js';
import { toEventObject } from '../events/event.mapper.js';
import { loadEventRelations } from '../events/event-relations.service.js';
import type { EventListParams, EventReadParams } from '../events/event.schema.js';
import { globalId } from '../posts/post.mapper.js';
import { MEDIA_TYPES, type Format } from '../events/event.format.js';
import type { EventFeeds } from '../events/event.routes.js';
import { feedToday, loadFeedSeries, selectFeedEvents, seriesZones } from './feed.service.js';
import { loadFeedRows } from './feed.repository.js';
import { CALENDAR_TAIL, calendarHead, renderCancelled, renderEvent, type SeriesLines } from './ical.render.js';
import { timezoneBlocks } from './ical.timezones.js';
import { exceptionLines, masterLines, type SeriesWritten } from './ical.series.js';
import { eventLd, jsonLdList } from './jsonld.list.js';

/**
 * The event list and single events in the formats besides JSON (events/event.format.ts): the GET
 * handlers of event.routes.ts hand them over here. Feeds depends on events, never the reverse:
 * src/app.ts gives eventRoutes these responders (eventFeeds) as its options. Every answer goes
 * through the page cache (respondRaw: ETag, Last-Modified, 304, HEAD) and is the caller's view, as
 * the JSON is.
 */

/**
 * Events rendered per database round (rows, then their venues, organizers, terms, images): the
 * JSON list's largest page, the size its relation queries are made for. PostgreSQL plans their
 * IN lists much worse beyond it (a 500-event feed took 3-4 times as long in batches of 100-200).
 */
const BATCH = 50;
const SITE_NAME = 'Event Calendar';

/** Parameters that narrow a list, named in the calendar's name. */
const NAMED_FILTERS = [
  'categories',
  'tags',
  'venue',
  'organizer',
  'search',
  'featured',
  'geoloc',
  'include',
  'status',
  'start_date',
  'end_date',
] as const;

/** NAME / X-WR-CALNAME: the site, the language and the filter. */
function calendarName(ctx: RequestContext, q: EventListParams): string {
  const host = ctx.globalHost;
  const filters = NAMED_FILTERS.flatMap((name) => {
    const value = q[name];
    if (value === undefined || (Array.isArray(value) && value.length === 0)) return [];
    return [`${name}: ${Array.isArray(value) ? value.join(', ') : String(value)}`];
  });
  return `${SITE_NAME} (${host}, ${ctx.lang})${filters.length > 0 ? ` · ${filters.join(' · ')}` : ''}`;
}

/** The address of the request at its language's REST root (for SOURCE and the ItemList's url). */
function selfUrl(request: FastifyRequest): string {
  // request.url is the path under the REST root (languageRootRewriter took the prefix off).
  return `${request.ctx.restRoot}${request.url.replace(/^\/+/, '')}`;
}

/** The head of a VCALENDAR: the site's zone for X-WR-TIMEZONE, a VTIMEZONE per zone used. */
function head(request: FastifyRequest, name: string, zones: Iterable<string>): string {
  const { ctx } = request;
  return calendarHead({
    name,
    timezone: ctx.settings.timezone,
    source: selfUrl(request),
    url: `${ctx.site}/`,
    timezones: timezoneBlocks(zones),
  });
}

/**
 * VEVENTs of rows as the caller sees them; `q` holds the reader's `password` / `context`. An
 * occurrence of a series the caller may read brings its series' VEVENT (once per feed, `written`)
 * with the exceptions; its other occurrences are in the rule. `seriesOnly`: only a series row
 * itself is written as a series (the .ics of one occurrence is that date alone).
 */
async function renderRows(
  app: FastifyInstance,
  rows: EventRow[],
  ctx: RequestContext,
  q: { password?: string; context?: string },
  written: SeriesWritten,
  seriesOnly = false,
): Promise<string> {
  const { db } = app.services.storage;
  const inSeries = seriesOnly ? rows.filter((r) => r.series_id === r.id) : rows;
  const series = await loadFeedSeries(db, inSeries, ctx, written);
  const shown: EventRow[] = [];
  const parts: (() => string)[] = [];
  for (const row of rows) {
    const sid = row.series_id ?? null;
    const own = sid !== null && (!seriesOnly || sid === row.id) ? series.get(sid) : undefined;
    if (sid !== null && written.has(sid)) continue;
    if (own?.cancelled) {
      written.add(own.master.id);
      const cancel = (row: EventRow, { uid, lines }: SeriesLines) => parts.push(() => renderCancelled(row, uid, lines));
      cancel(own.master, masterLines(own, ctx));
      for (const exception of own.exceptions) cancel(exception, exceptionLines(own, exception, ctx));
    } else if (own) {
      written.add(own.master.id);
      shown.push(own.master, ...own.exceptions);
      parts.push(() => renderEvent(own.master, objects.get(own.master.id)!, masterLines(own, ctx)));
      for (const exception of own.exceptions)
        parts.push(() => renderEvent(exception, objects.get(exception.id)!, exceptionLines(own, exception, ctx)));
    } else if (row.status === 'trash') {
      parts.push(() => renderCancelled(row, globalId(ctx, row.id).global_id));
    } else {
      shown.push(row);
      parts.push(() => renderEvent(row, objects.get(row.id)!));
    }
  }
  const relations = await loadEventRelations(db, shown, ctx, false);
  const objects = new Map(
    shown.map((row) => [row.id, toEventObject(row, relations, ctx, { single: false, blank: !unlocked(row, ctx, q) })]),
  );
  return parts.map((part) => part()).join('');
}

/** GET /events?format=ical|jsonld (or by Accept). */
async function respondEventListFeed(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  q: EventListParams,
  format: Exclude<Format, 'json'>,
): Promise<FastifyReply> {
  const { db } = app.services.storage;
  const { pageCache, counts, config } = app.services;
  const ctx = request.ctx;
  if (format === 'jsonld') {
    // The list's own default window, so the list's own cache-key part.
    return pageCache.respondRaw(request, reply, [request.url, format, windowKey(q, ctx)], async (version) => {
      const { body, page } = await jsonLdList(db, counts, q, ctx, version, selfUrl(request));
      return { type: MEDIA_TYPES.jsonld, headers: totalHeaders(page), body: Buffer.from(JSON.stringify(body)) };
    });
  }
  const today = feedToday(ctx);
  return pageCache.respondRaw(request, reply, [request.url, format, today], async (version) => {
    const selection = await selectFeedEvents(db, counts, q, ctx, version, today, config.feedMaxEvents);
    const calendar = head(
      request,
      calendarName(ctx, q),
      new Set([...selection.zones, ...(await seriesZones(db, selection.ids))]),
    );
    async function* chunks(): AsyncGenerator<string> {
      yield calendar;
      const written: SeriesWritten = new Set();
      for (let i = 0; i < selection.ids.length; i += BATCH) {
        yield renderRows(app, await loadFeedRows(db, selection.ids.slice(i, i + BATCH)), ctx, q, written);
      }
      yield CALENDAR_TAIL;
    }
    return {
      type: MEDIA_TYPES.ical,
      headers: { 'X-Cal-Total': String(selection.total), 'Content-Disposition': 'inline; filename="events.ics"' },
      body: chunks(),
    };
  });
}

/** GET /events/{id} and /events/by-slug/{slug} as iCalendar or JSON-LD: the same checks as the JSON read. */
async function respondEventFeed(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  q: EventReadParams,
  format: Exclude<Format, 'json'>,
  locate: () => Promise<EventRow>,
  attempts: PasswordAttempts,
): Promise<FastifyReply> {
  const { db } = app.services.storage;
  const ctx = request.ctx;
  return app.services.pageCache.respondRaw(
    request,
    reply,
    [request.url, format, attemptKey(q, request.ip)],
    async () => {
      const row = await locate();
      await attempts.assertReadable(row, ctx, q, request.ip);
      if (format === 'jsonld') {
        const relations = await loadEventRelations(db, [row], ctx, true);
        const event = toEventObject(row, relations, ctx, { single: true, blank: false });
        return { type: MEDIA_TYPES.jsonld, body: Buffer.from(JSON.stringify(eventLd(row, event, false))) };
      }
      const zones = new Set([
        ...(row.all_day === 1 ? [] : [row.timezone]),
        ...(row.series_id === row.id ? await seriesZones(db, [row.id]) : []),
      ]);
      const body =
        head(request, row.title, zones) + (await renderRows(app, [row], ctx, q, new Set(), true)) + CALENDAR_TAIL;
      return {
        type: MEDIA_TYPES.ical,
        headers: { 'Content-Disposition': `inline; filename="${row.slug.replace(/[^A-Za-z0-9._-]/g, '_')}.ics"` },
        body: Buffer.from(body),
      };
    },
  );
}

/** The responders the event routes call for a format besides JSON (src/app.ts hands them over). */
export function eventFeeds(app: FastifyInstance): EventFeeds {
  return {
    list: (request, reply, query, format) => respondEventListFeed(app, request, reply, query, format),
    one: (request, reply, query, format, locate, attempts) =>
      respondEventFeed(app, request, reply, query, format, locate, attempts),
  };
}
