/**
 * The session cookie, read and written here rather than through @fastify/cookie: the service
 * needs one cookie of one fixed shape and never signs or encrypts cookies (the token is random
 * and only its hash is stored), so a dependency would add parsing of everything else for nothing.
 * The reader is bounded: it scans a Cookie header of at most 8 KiB for one name, and accepts only
 * a value of exactly a token's shape.
 */

export const SESSION_COOKIE = 'cal_session';
/** 32 random bytes, base64url without padding. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/;
/** Longer Cookie headers are not read: the node's own header limit is 16 KiB, a session cookie 55 bytes. */
const MAX_HEADER = 8192;

/** The session token in a Cookie header; null when there is none or it has not a token's shape. */
export function readSessionCookie(header: string | string[] | undefined): string | null {
  if (typeof header !== 'string' || header.length > MAX_HEADER) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== SESSION_COOKIE) continue;
    const value = part.slice(eq + 1).trim();
    return TOKEN.test(value) ? value : null;
  }
  return null;
}

/**
 * `Set-Cookie` for a new session: the whole site (the admin calls the API at the root and in the
 * language roots), out of scripts' reach, not sent by other sites' forms or frames, over HTTPS
 * only when the request came that way.
 */
export function sessionCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${token}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}

/** `Set-Cookie` that makes the browser forget the session cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
}
