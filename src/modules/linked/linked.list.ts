import type { Expression, SqlBool } from 'kysely';
import type { Db } from '../../db/database.js';
import { dialectOf } from '../../db/dialect.js';
import type { RequestContext } from '../../http/context.js';
import { buildPage, clampPerPage, isPastTheEnd, offsetOf, type Page } from '../../http/pagination.js';
import { parseTruthy } from '../../http/params.js';
import { Problems } from '../../http/problems.js';
import { TEXT_LIMITS } from '../../http/schemas.js';
import { checkStatusFilter, statusEcho, visibleTo } from '../posts/post.service.js';
import { canRead, defaultListStatuses, POST_STATUSES } from '../../auth/roles.js';
import type { LinkedKind } from './linked.kind.js';
import { linkedErrors } from './linked.errors.js';
import {
  countLinked,
  eventOwnership,
  hasListedEvent,
  hasUpcomingEvent,
  linkedToEvent,
  matchesEveryWord,
  pageLinked,
} from './linked.repository.js';
import type { LinkedListParams } from './linked.schema.js';
import { loadRelated, toLinkedObject } from './linked.service.js';
import { shownFieldsSql } from '../../db/visibility.js';

/** The filters of a list request once checked: the SQL conditions and what rest_url echoes. */
interface LinkedFilter {
  where: Expression<SqlBool>[];
  echo: [string, string][];
}

/** Every status a reader may see an event in (a trashed event is no longer available). */
const READABLE_EVENT_STATUSES = POST_STATUSES.filter((s) => s !== 'trash');

/** A boolean list parameter, or undefined when absent; a bad one is added to `problems`. */
function truthy(value: unknown, name: string, problems: Problems): boolean | undefined {
  if (value === undefined) return undefined;
  const parsed = parseTruthy(value);
  if (parsed === null) problems.add(name, `${name} is not of type boolean.`);
  return parsed ?? undefined;
}

/**
 * Search (original 3.2): the words are the runs of letters, digits and `-`; a record matches when
 * one of its searched fields contains every word, case-insensitively. The searched fields are
 * those the original's find_like compares, which are also its duplicate-avoidance fields.
 */
function searchCondition(db: Db, kind: LinkedKind, search: string, problems: Problems): Expression<SqlBool> | null {
  const words = [...new Set(search.split(/[^\p{L}\p{N}-]+/u).filter((w) => w !== ''))];
  // A condition per word and field: a hundred words made a statement PostgreSQL refuses to plan.
  if (words.length > TEXT_LIMITS.searchWords)
    problems.add('search', `search has more than ${TEXT_LIMITS.searchWords} different words.`);
  if (words.length === 0 || words.length > TEXT_LIMITS.searchWords) return null;
  return matchesEveryWord(db, kind, ['title', 'description', 'excerpt', ...kind.dedupeFields], words);
}

/** Linked to an event starting now or later that the caller may read, and whose links it sees (SPEC item 19). */
function upcomingCondition(
  kind: LinkedKind,
  ctx: RequestContext,
  shown: Expression<SqlBool>,
  now: Date,
): Expression<SqlBool> {
  return hasUpcomingEvent(kind, now, visibleTo(ctx.actor, [...READABLE_EVENT_STATUSES], 'e'), shown);
}

async function buildFilter(
  db: Db,
  kind: LinkedKind,
  q: LinkedListParams,
  ctx: RequestContext,
  now: Date,
): Promise<LinkedFilter> {
  const problems = new Problems();
  const where: Expression<SqlBool>[] = [];
  const echo: [string, string][] = [];
  // A password-protected event's venue and organizers are blanked for readers who have not opened
  // it: no filter through its links tells them (event.access.ts).
  const shown = shownFieldsSql(ctx, q, 'e').clause;

  if (q.event !== undefined) {
    // An event the reader may not read is answered as one that does not exist: its links, and its
    // id, are not told (a draft's venue is not public).
    const event = await eventOwnership(db, q.event);
    if (event && canRead(ctx.actor, event)) where.push(linkedToEvent(kind, q.event, shown));
    else problems.add('event', 'event is not the id of an existing event.');
    echo.push(['event', String(q.event)]);
  }
  const hasEvents = truthy(q.has_events, 'has_events', problems);
  if (hasEvents !== undefined) {
    // false is the complement of true: records whose only events are drafts or pending count as without.
    where.push(hasListedEvent(kind, shown, hasEvents));
    echo.push(['has_events', String(q.has_events)]);
  }
  // False or absent is no filter: it does not mean "without upcoming events" (original 3.2).
  if (truthy(q.only_with_upcoming, 'only_with_upcoming', problems))
    where.push(upcomingCondition(kind, ctx, shown, now));

  const statuses = checkStatusFilter(q.status, ctx.actor, problems) ?? defaultListStatuses(ctx.actor);
  where.push(visibleTo(ctx.actor, statuses, kind.table));
  echo.push(['status', statusEcho(q.status, statuses)]);

  const search = q.search ? searchCondition(db, kind, q.search, problems) : null;
  if (search) where.push(search);

  problems.throwIfAny();
  return { where, echo };
}

/**
 * GET /venues and /organizers: a COUNT, one page query, then a fixed number of queries for images
 * and translations. On PostgreSQL, where each statement is a round trip, the count and the page
 * run at once (a page past the end is read for nothing); SQLite's one connection would run them
 * one after the other anyway, and skips the page then.
 */
export async function listLinked(
  db: Db,
  kind: LinkedKind,
  q: LinkedListParams,
  ctx: RequestContext,
  now: Date = new Date(),
): Promise<Page<LinkedKind['table']>> {
  const page = q.page ?? 1;
  const perPage = clampPerPage(q.per_page);
  const filter = await buildFilter(db, kind, q, ctx, now);
  const pageRows = () => pageLinked(db, kind, ctx.lang, filter.where, perPage, offsetOf(page, perPage));
  const [total, rows] =
    dialectOf(db) === 'postgres'
      ? await Promise.all([countLinked(db, kind, ctx.lang, filter.where), pageRows()])
      : await countLinked(db, kind, ctx.lang, filter.where).then(
          async (n) => [n, isPastTheEnd(page, perPage, n) || n === 0 ? [] : await pageRows()] as const,
        );
  if (isPastTheEnd(page, perPage, total)) throw linkedErrors(kind).archivePageNotFound();
  const related = await loadRelated(db, kind, rows, ctx.actor);
  const items = rows.map((row) => toLinkedObject(kind, row, related, ctx, false));
  return buildPage(kind.table, items, { base: `${ctx.base}/${kind.table}/`, page, perPage, total, echo: filter.echo });
}
