import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import { ApiError } from './errors.js';
import { DUMMY_HASH, verifyPassword } from '../modules/users/passwords.js';
import * as users from '../modules/users/user.repository.js';
import { isRole, type Actor } from '../auth/roles.js';

/** How long a verified header is trusted: a revoked password or a changed role takes effect within this. */
const VERIFIED_TTL_MS = 2_000;
const WINDOW_MS = 60_000;

interface Failures {
  count: number;
  resetAt: number;
}

type Refusal = 'invalid_username' | 'incorrect_password';

/** The contract's codes; the message and the time taken are the same for both. */
const unauthorized = (code: Refusal = 'incorrect_password'): ApiError =>
  new ApiError(401, code, 'The username or application password you entered is incorrect.', {}, { 'WWW-Authenticate': 'Basic realm="cal-events"' });

/**
 * HTTP Basic with application passwords. Verifying scrypt hashes on every request would cost tens
 * of milliseconds, so a successful verification is remembered briefly, keyed by a hash of the header.
 * Failed attempts are limited per (address, username) and per address (CONTRACT "Limits").
 */
export class Authenticator {
  private readonly verified = new LRUCache<string, Actor>({ max: 10_000, ttl: VERIFIED_TTL_MS });
  private readonly failures = new LRUCache<string, Failures>({ max: 100_000, ttl: WINDOW_MS });
  private readonly pending = new Map<string, Promise<Actor | Refusal>>();

  constructor(
    private readonly db: Db,
    private readonly failLimit: number,
  ) {}

  /**
   * Forgets every verified header: called when a user is deleted, changes role or loses a password,
   * so this instance stops accepting it at once (others within the cache's two seconds).
   */
  forget(): void {
    this.verified.clear();
  }

  /** The caller, null for anonymous requests; throws 401/429 for bad or throttled credentials. */
  async authenticate(request: FastifyRequest): Promise<Actor | null> {
    const header = request.headers.authorization;
    if (header === undefined) return null;
    const credentials = parseBasic(header);
    if (!credentials) throw unauthorized();
    // A throttled pair is refused even with the right password (CONTRACT), so before the cache.
    const pairKey = `${request.ip}\n${credentials.username}`;
    const ipKey = `${request.ip}\n`;
    this.refuseWhenThrottled(pairKey, this.failLimit);
    this.refuseWhenThrottled(ipKey, this.failLimit * 10);
    const key = createHash('sha256').update(header).digest('base64');
    const cached = this.verified.get(key);
    if (cached) return cached;

    const actor = await this.verifyShared(key, credentials.username, credentials.password);
    if (typeof actor === 'string') {
      this.countFailure(pairKey);
      this.countFailure(ipKey);
      throw unauthorized(actor);
    }
    this.failures.delete(pairKey);
    this.verified.set(key, actor);
    return actor;
  }

  /**
   * Concurrent requests with the same header (a client's first burst) share one verification
   * instead of each paying for scrypt; each still counts its own failure.
   */
  private verifyShared(key: string, username: string, password: string): Promise<Actor | Refusal> {
    const pending = this.pending.get(key);
    if (pending) return pending;
    const verification = this.verify(username, password).finally(() => this.pending.delete(key));
    this.pending.set(key, verification);
    return verification;
  }

  private async verify(username: string, password: string): Promise<Actor | Refusal> {
    const user = await users.findByUsername(this.db, username);
    const hashes = user && isRole(user.role) ? await users.passwordHashes(this.db, user.id) : [];
    // At least one scrypt whatever the username, so timing does not tell whether a user exists.
    if (!user || !isRole(user.role) || hashes.length === 0) {
      await verifyPassword(password, DUMMY_HASH);
      return user ? 'incorrect_password' : 'invalid_username';
    }
    for (const { hash } of hashes) {
      if (await verifyPassword(password, hash)) return { id: user.id, username: user.username, role: user.role };
    }
    return 'incorrect_password';
  }

  private refuseWhenThrottled(key: string, limit: number): void {
    const entry = this.failures.get(key);
    if (entry && entry.count >= limit && entry.resetAt > Date.now()) {
      const retryAfter = Math.max(1, Math.ceil((entry.resetAt - Date.now()) / 1000));
      throw new ApiError(429, 'rest_too_many_requests', 'Too many failed authentication attempts. Try again later.', {}, { 'Retry-After': String(retryAfter) });
    }
  }

  private countFailure(key: string): void {
    const entry = this.failures.get(key);
    if (entry && entry.resetAt > Date.now()) {
      entry.count += 1;
    } else {
      this.failures.set(key, { count: 1, resetAt: Date.now() + WINDOW_MS });
    }
  }
}

function parseBasic(header: string): { username: string; password: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
