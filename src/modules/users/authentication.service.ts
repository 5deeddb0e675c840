import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../db/database.js';
import { readVersions } from '../../db/data-version.js';
import { ApiError } from '../../http/errors.js';
import { ticketOf } from '../../http/in-process.js';
import { DUMMY_HASH, verifyPassword } from './user.password.js';
import * as users from './user.repository.js';
import { isRole, type Actor } from '../../auth/roles.js';
import { FailureLimiter, type Limit } from './failure.service.js';

/**
 * How long a verified header is remembered. A change that takes access away does not wait for
 * this: it bumps the auth version, and a remembered header is re-checked (one indexed query, no
 * scrypt) when the version moved. The lifetime only bounds the memory of idle credentials.
 */
const VERIFIED_TTL_MS = 60_000;
const THROTTLED = 'Too many failed authentication attempts. Try again later.';

/** A header verified once: who it is, through which application password, at which auth version. */
interface Verified {
  actor: Actor;
  passwordId: number;
  authVersion: string;
}

type Refusal = 'invalid_username' | 'incorrect_password';

/**
 * The contract's codes; the message and the time taken are the same for both. No `WWW-Authenticate:
 * Basic` challenge: a browser would prompt for the credentials and then send them by itself with
 * every request to this origin, a cross-site form's included (CONTRACT, issue 25).
 */
const unauthorized = (code: Refusal = 'incorrect_password'): ApiError =>
  new ApiError(401, code, 'The username or application password you entered is incorrect.', {});

/**
 * HTTP Basic with application passwords. Verifying scrypt hashes on every request would cost tens
 * of milliseconds, so a successful verification is remembered, keyed by a hash of the header, with
 * the auth version it was made at. Every authenticated request reads the current versions (one
 * statement, which also serves the page cache's data version); when the auth version moved, the
 * remembered header is re-checked against the database before it is trusted again, so a revocation
 * made through any instance, or the CLI, takes effect on the next request everywhere.
 * Failed attempts are limited per (address, username) and per address (CONTRACT "Limits"), by
 * counts every instance shares (failure.service.ts); other guessable secrets (event passwords)
 * are limited by the same limiter.
 */
export class Authenticator {
  private readonly verified = new LRUCache<string, Verified>({ max: 10_000, ttl: VERIFIED_TTL_MS });
  private readonly pending = new Map<string, Promise<Verified | Refusal>>();
  /** Failed attempts of every guessable secret, shared by the instances on the database. */
  readonly failures: FailureLimiter;

  constructor(
    private readonly db: Db,
    private readonly failLimit: number,
  ) {
    this.failures = new FailureLimiter(db);
  }

  /** The caller, null for anonymous requests; throws 401/429 for bad or throttled credentials. */
  async authenticate(request: FastifyRequest): Promise<Actor | null> {
    const header = request.headers.authorization;
    // A request this process makes to itself (the importer) acts as its ticket says.
    const ticket = header === undefined ? ticketOf(request) : null;
    if (ticket) {
      request.versions = await readVersions(this.db);
      return ticket.actor;
    }
    if (header === undefined) return null;
    const credentials = parseBasic(header);
    if (!credentials) throw unauthorized();
    // A throttled pair is refused even with the right password (CONTRACT), so before the cache;
    // a remembered header pays no statement for it, so there this instance's knowledge decides.
    const pairKey = `auth\n${request.ip}\n${credentials.username}`;
    const ipKey = `auth\n${request.ip}\n`;
    const limits: Limit[] = [
      { key: pairKey, limit: this.failLimit },
      { key: ipKey, limit: this.failLimit * 10 },
    ];
    this.failures.refuseKnown(limits, THROTTLED);
    const key = createHash('sha256').update(header).digest('base64');
    const versions = await readVersions(this.db);
    request.versions = versions;
    const cached = this.verified.get(key);
    if (cached && cached.authVersion === versions.auth) return cached.actor;
    if (cached) {
      const still = await this.recheck(cached, versions.auth);
      if (still) {
        this.verified.set(key, still);
        return still.actor;
      }
      this.verified.delete(key);
    }

    const verified = await this.verifyShared(key, limits, credentials.username, credentials.password, versions.auth);
    if (typeof verified === 'string') throw unauthorized(verified);
    this.verified.set(key, verified);
    return verified.actor;
  }

  /**
   * A remembered header after the auth version moved: still valid when its application password
   * and its user exist, with the user's current role. No scrypt: the password was verified before.
   */
  private async recheck(cached: Verified, authVersion: string): Promise<Verified | null> {
    const user = await users.findByPassword(this.db, cached.actor.id, cached.passwordId);
    if (!user || !isRole(user.role)) return null;
    return {
      actor: { id: user.id, username: user.username, role: user.role },
      passwordId: cached.passwordId,
      authVersion,
    };
  }

  /**
   * Concurrent requests with the same header (a client's first burst) share one verification
   * instead of each paying for scrypt, and count as the one guess they are. A guess is counted
   * against every instance's failures before it is verified: a guesser meets one limit however
   * many instances answer, and however many different guesses it sends at once (checked first
   * and counted after, they all passed the check). Registered before its first await, so a burst
   * finds it.
   */
  private verifyShared(
    key: string,
    limits: Limit[],
    username: string,
    password: string,
    authVersion: string,
  ): Promise<Verified | Refusal> {
    const pending = this.pending.get(key);
    if (pending) return pending;
    const verification = (async () => {
      const attempt = await this.failures.attempt(limits, THROTTLED);
      const verified = await this.verify(username, password, authVersion);
      if (typeof verified !== 'string') await attempt.succeeded();
      return verified;
    })().finally(() => this.pending.delete(key));
    this.pending.set(key, verification);
    return verification;
  }

  /**
   * `authVersion` was read before the user and hashes: a change committed after that read leaves a
   * newer version behind, so the next request re-checks what this one verified.
   */
  private async verify(username: string, password: string, authVersion: string): Promise<Verified | Refusal> {
    const user = await users.findByUsername(this.db, username);
    const hashes = user && isRole(user.role) ? await users.passwordHashes(this.db, user.id) : [];
    // At least one scrypt whatever the username, so timing does not tell whether a user exists.
    if (!user || !isRole(user.role) || hashes.length === 0) {
      await verifyPassword(password, DUMMY_HASH);
      return user ? 'incorrect_password' : 'invalid_username';
    }
    for (const { id, hash } of hashes) {
      if (await verifyPassword(password, hash))
        return { actor: { id: user.id, username: user.username, role: user.role }, passwordId: id, authVersion };
    }
    return 'incorrect_password';
  }
}

/**
 * Authentication is this module's job: one hook, registered by the app before every route, that
 * resolves the caller (null when anonymous) or refuses bad and throttled credentials.
 */
export function registerAuthentication(app: FastifyInstance, authenticator: Authenticator): void {
  app.decorateRequest('versions', null);
  app.addHook('onRequest', async (request) => {
    const actor = await authenticator.authenticate(request);
    // A placeholder until preValidation knows the language; error responses may need the caller.
    request.ctx = { actor } as never;
  });
}

function parseBasic(header: string): { username: string; password: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return null;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}
