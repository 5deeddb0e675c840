import type { EventRow } from '../../db/database.js';
import type { RequestContext } from '../../http/context.js';
import { canRead } from '../../auth/roles.js';
import { openedForEditing, sameSecret, type Protected, type Unlocking } from '../posts/post.password.js';
import type { FailureLimiter, Limit } from '../users/failure.service.js';
import { eventErrors } from './event.errors.js';
import type { EventReadParams } from './event.schema.js';

// Guesses of protected events' passwords, limited; who unlocked what is posts/post.password.ts.

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
