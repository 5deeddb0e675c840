import { createHash, timingSafeEqual } from 'node:crypto';
import { sql, type Expression, type SqlBool } from 'kysely';
import type { EventRow } from '../../db/database.js';
import type { RequestContext } from '../../http/context.js';
import { can, canEdit, canRead, PUBLISHED_LIKE_STATUSES, type Owned } from '../../auth/roles.js';
import type { FailureLimiter, Limit } from '../users/failure-limiter.js';
import { eventErrors } from './event.errors.js';
import type { EventReadParams } from './event.schema.js';

// Who may see an event's content: single reads, the list's blanking of protected events, and
// the filters that must not tell what the blanking hides.

/** What a read says about unlocking: the reader's password attempt and context. */
interface Unlocking {
  password?: string | undefined;
  context?: string | undefined;
}

function sameSecret(given: string, stored: string): boolean {
  // Hash both sides so the comparison is constant-time whatever the lengths.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(stored).digest();
  return timingSafeEqual(a, b);
}

/** What unlocking looks at in an event. */
type Protected = Owned & { password: string };

/** `context=edit` by a reader allowed to edit the event opens it without its password (the original's rule). */
function openedForEditing(row: Protected, ctx: RequestContext, query: Unlocking): boolean {
  return query.context === 'edit' && canEdit(ctx.actor, row);
}

/** Whether the reader unlocked a password-protected event (right password, or edit context with the right). */
export function unlocked(row: Protected, ctx: RequestContext, query: Unlocking): boolean {
  if (row.password === '') return true;
  if (query.password !== undefined && sameSecret(query.password, row.password)) return true;
  return openedForEditing(row, ctx, query);
}

/** Events without a password: those whose every field anonymous readers see (the per-day counts' rule). */
function unprotectedSql(alias = 'events'): Expression<SqlBool> {
  return sql<SqlBool>`${sql.ref(`${alias}.password`)} = ''`;
}

/**
 * The events whose hidden fields (description, excerpt, venue, organizers, terms, flags: what a
 * protected event's blanking empties) a list reader sees, as SQL on `alias`: unprotected events,
 * and with `context=edit` those the reader may edit (canEdit's rule). Search and the filters on
 * hidden fields match the other events only by what they show (their title), so a filter never
 * tells what the blanking hides. A list's `password` opens nothing here: a filter would test it
 * against every protected event at once, where single reads limit guesses per event.
 * `public`: the anonymous rule, the one the per-day counts hold (migration 021).
 */
export function shownFieldsSql(
  ctx: RequestContext,
  query: Unlocking,
  alias = 'events',
): { clause: Expression<SqlBool>; public: boolean } {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  const unprotected = unprotectedSql(alias);
  const actor = ctx.actor;
  if (query.context !== 'edit' || actor === null || !can(actor, 'edit_posts'))
    return { clause: unprotected, public: true };
  if (can(actor, 'edit_others_posts')) return { clause: sql<SqlBool>`1 = 1`, public: false };
  const unpublished = can(actor, 'publish_posts')
    ? sql``
    : sql` and ${column('status')} not in (${sql.join([...PUBLISHED_LIKE_STATUSES])})`;
  return { clause: sql<SqlBool>`(${unprotected} or (${column('author')} = ${actor.id}${unpublished}))`, public: false };
}

const THROTTLED = 'Too many wrong passwords. Try again later.';

/**
 * Guesses of event passwords, limited as failed authentications are (CONTRACT "Limits"), by the
 * same limiter and counts: after `limit` wrong passwords within a minute from one address for one
 * event, further attempts at it, right or wrong, are 429 until the minute has passed; an address
 * is limited at ten times that across events. A right password clears its pair; a read without
 * a password is never limited. Lists test a password against every protected event they show:
 * one that opens none of them counts as one attempt of its address, limited like one event.
 */
export class PasswordAttempts {
  constructor(
    private readonly limiter: FailureLimiter,
    private readonly limit: number,
  ) {}

  private limits(ip: string, eventId: number): Limit[] {
    return [
      { key: `event-password\n${ip}\n${eventId}`, limit: this.limit },
      { key: `event-password\n${ip}\n`, limit: this.limit * 10 },
    ];
  }

  /** Single reads: trash, visibility and password checks, in the original's order; a password tried counts. */
  async assertReadable(row: EventRow, ctx: RequestContext, query: EventReadParams, ip: string): Promise<void> {
    if (row.status === 'trash') throw eventErrors.noLongerAvailable();
    if (!canRead(ctx.actor, row)) throw eventErrors.notAccessible();
    if (row.password === '' || openedForEditing(row, ctx, query)) return;
    if (query.password === undefined) throw eventErrors.passwordProtected();
    const limits = this.limits(ip, row.id);
    if (sameSecret(query.password, row.password)) {
      await this.limiter.refuse(limits, THROTTLED);
      return this.limiter.clear(limits[0]!.key);
    }
    // A wrong guess is counted and judged by its own count in one step, so guesses sent all at
    // once meet the limit too (read first and counted after, they all passed the read).
    await this.limiter.attempt(limits, THROTTLED);
    throw eventErrors.passwordProtected();
  }

  /** A list request carrying a password, before it is read: refused while its address is throttled. */
  async beforeList(query: Unlocking, ip: string): Promise<void> {
    if (query.password === undefined || query.password === '') return;
    await this.limiter.refuse([{ key: listKey(ip), limit: this.limit }], THROTTLED);
  }

  /**
   * A list whose rows are not judged: a feed (iCalendar, JSON-LD), read in batches and streamed.
   * Any password it carries counts as a guess; who knows the password reads the event itself.
   */
  async guess(query: Unlocking, ip: string): Promise<void> {
    if (query.password === undefined || query.password === '') return;
    await this.limiter.fail([listKey(ip)]);
  }

  /**
   * The same list once its rows are read: a guess when it showed protected events the password
   * opened none of (counted), a right password when it opened one (its count cleared), nothing
   * when no protected event was shown (the password was tested against nothing). A site that
   * lists its members' events with their password is then never limited; a guesser is, after
   * as many wrong lists as wrong single reads.
   */
  async afterList(rows: readonly Protected[], ctx: RequestContext, query: Unlocking, ip: string): Promise<void> {
    if (query.password === undefined || query.password === '') return;
    const tested = rows.filter((row) => row.password !== '' && !openedForEditing(row, ctx, query));
    if (tested.length === 0) return;
    if (tested.some((row) => sameSecret(query.password!, row.password))) await this.limiter.clear(listKey(ip));
    else await this.limiter.fail([listKey(ip)]);
  }
}

const listKey = (ip: string): string => `event-password\n${ip}\nlist`;

/**
 * A part of a page-cache key for a read carrying a password: its address, so an answer a password
 * opened is served again only to the address that sent it (others must pass the limit first).
 */
export function attemptKey(query: Unlocking, ip: string): string {
  return query.password === undefined ? '' : `password-from:${ip}`;
}
