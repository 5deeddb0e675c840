import { sql, type Expression, type SqlBool } from 'kysely';
import type { RequestContext } from '../http/context.js';
import { can, PUBLISHED_LIKE_STATUSES } from '../auth/roles.js';

// The SQL side of password-protected posts: which rows' hidden fields a list reader sees, as a
// condition that the list and filter queries of several modules (events, linked records) add to
// their WHERE. Shared SQL fragments live in src/db/, beside the schema they read; who unlocked a
// single post is src/modules/posts/post.password.ts.

/** Events without a password: those whose every field anonymous readers see (the per-day counts' rule). */
export function unprotectedSql(alias = 'events'): Expression<SqlBool> {
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
  query: { context?: string | undefined },
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
