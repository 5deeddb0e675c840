import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import { withPrecondition } from '../db/transaction.js';
import { ApiError } from './errors.js';

/**
 * Conditional requests on records (RFC 9110 §13). A record's entity tag is a strong hash of its
 * representation as a GET answers it to the caller (the page cache hashes the same bytes), so a
 * tag from a read, or from a write's answer, can be sent back as `If-Match` on the next write.
 */

/** The strong entity tag of a JSON representation: the hash of the bytes a GET sends. */
export function etagOf(bytes: Buffer | string): string {
  return `"${createHash('sha1').update(bytes).digest('base64url')}"`;
}

export const etagOfBody = (body: unknown): string => etagOf(JSON.stringify(body));

export const preconditionFailed = (): ApiError =>
  new ApiError(
    412,
    'rest_precondition_failed',
    'The record has changed since the given ETag was read: read it again and retry.',
  );

/**
 * Whether `If-Match` holds for a record whose current tag is `current` (null: the record does not
 * exist). `*` asks only that it exists; a list holds when one of its tags is the current one, by
 * strong comparison, so a weak tag (`W/"…"`) never matches.
 */
export function ifMatchHolds(header: string, current: string | null): boolean {
  if (current === null) return false;
  const value = header.trim();
  if (value === '*') return true;
  for (const match of value.matchAll(/(W\/)?("[^"]*")/g)) {
    if (match[1] === undefined && match[2] === current) return true;
  }
  return false;
}

/** The `If-Match` header of a request, when it sent one. */
export function ifMatchOf(request: FastifyRequest): string | undefined {
  const header = request.headers['if-match'];
  return header === undefined ? undefined : Array.isArray(header) ? header.join(', ') : header;
}

/** Sends a write's new entity tag with its answer. */
export function withEtag<T>(reply: FastifyReply, tag: string, body: T): T {
  void reply.header('ETag', tag);
  return body;
}

/**
 * Runs a record's write under the request's `If-Match`, when it sent one: inside the write
 * transaction, before anything is written, `current(trx)` gives the record's tag as of now (the
 * record locked first) and a mismatch is 412, leaving everything as it was. Validation, 404 and
 * permission answers come before it, as RFC 9110 §13.2.1 asks. On a collection (a create) the
 * header is not about a record and is ignored.
 */
export function underIfMatch<T>(
  request: FastifyRequest,
  current: (trx: Db) => Promise<string | null>,
  work: () => Promise<T>,
): Promise<T> {
  const header = ifMatchOf(request);
  if (header === undefined) return work();
  return withPrecondition(async (trx) => {
    if (!ifMatchHolds(header, await current(trx))) throw preconditionFailed();
  }, work);
}
