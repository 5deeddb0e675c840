import { invalidParam } from '../../http/errors.js';

/**
 * Sync tokens: opaque to clients, a position in the change log to us. Positions are shared by
 * every instance on the database and survive restarts, so a token is good anywhere until the
 * history before it is pruned. The version prefix leaves room to change the form.
 */
const PREFIX = 'c1.';

export function encodeToken(position: number): string {
  return Buffer.from(`${PREFIX}${position}`).toString('base64url');
}

/** The position a token names; a 400 naming `since` when it is not one of ours. */
export function decodeToken(token: string): number {
  const text = /^[A-Za-z0-9_-]{1,40}$/.test(token) ? Buffer.from(token, 'base64url').toString('utf8') : '';
  const position =
    text.startsWith(PREFIX) && /^\d{1,15}$/.test(text.slice(PREFIX.length)) ? Number(text.slice(PREFIX.length)) : NaN;
  if (!Number.isSafeInteger(position)) throw invalidParam('since', 'since is not a sync token given by this service.');
  return position;
}
