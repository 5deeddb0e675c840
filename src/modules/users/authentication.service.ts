import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db, UserRow } from '../../db/database.js';
import { readVersions } from '../../db/data-version.js';
import { ApiError, invalidParam } from '../../http/errors.js';
import { ticketOf } from '../../http/in-process.js';
import type { Config } from '../../config.js';
import { DUMMY_HASH, verifyPassword } from './user.password.js';
import * as users from './user.repository.js';
import { isRole, type Actor } from '../../auth/roles.js';
import { FailureLimiter, type Limit } from './failure.service.js';
import { readSessionCookie } from './session.cookie.js';
import {
  dropExpired,
  endSession,
  findSession,
  hashToken,
  millisOf,
  openSession,
  presentedSession,
  purgeSessions,
  sameNonce,
  sessionPolicy,
  signOutEverywhere,
  touchIntervalMs,
  touchSession,
  type OpenedSession,
  type SessionPolicy,
} from './session.service.js';
import { updateUser, verifyLogin } from './user.service.js';
import { entryBoundedCache } from '../../lib/cache-budget.js';

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

/** A session verified once: who it is now, its nonce and limits, at which auth version. */
export interface RememberedSession {
  id: number;
  user: UserRow;
  actor: Actor;
  nonce: string;
  /** Milliseconds: the last use written to the database, as this instance knows it. */
  lastSeen: number;
  expires: number;
  authVersion: string;
}

/** Sign-in's one answer, whichever part was wrong (and in the same time: one scrypt). */
const invalidCredentials = (): ApiError =>
  new ApiError(401, 'invalid_credentials', 'The username or password you entered is incorrect.', {});
const notSignedIn = (): ApiError => new ApiError(401, 'rest_not_logged_in', 'You are not currently logged in.', {});
/** Kept of a User-Agent header for the session list: enough to recognise a browser. */
const USER_AGENT_MAX = 256;
/** Expired sessions are purged by a sign-in at most this often per instance. */
const PURGE_EVERY_MS = 10 * 60_000;

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
  private readonly verified = entryBoundedCache<string, Verified>(10_000, { ttl: VERIFIED_TTL_MS });
  private readonly pending = new Map<string, Promise<Verified | Refusal>>();
  /** Sessions by token hash, remembered as Basic headers are (see {@link sessionOf}). */
  private readonly sessions = entryBoundedCache<string, RememberedSession>(10_000, { ttl: VERIFIED_TTL_MS });
  /** Failed attempts of every guessable secret, shared by the instances on the database. */
  readonly failures: FailureLimiter;
  private readonly failLimit: number;
  readonly sessionPolicy: SessionPolicy;
  private lastPurge = 0;

  constructor(
    private readonly db: Db,
    config: Pick<Config, 'authFailLimit' | 'sessionIdleMinutes' | 'sessionMaxDays'>,
  ) {
    this.failures = new FailureLimiter(db);
    this.failLimit = config.authFailLimit;
    this.sessionPolicy = sessionPolicy(config);
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
    // An Authorization header wins over a session cookie: a program's credentials say who it is.
    if (header === undefined) return this.cookieActor(request);
    const credentials = parseBasic(header);
    if (!credentials) throw unauthorized();
    // A throttled pair is refused even with the right password (CONTRACT), so before the cache;
    // a remembered header pays no statement for it, so there this instance's knowledge decides.
    const limits = this.limitsOf(request.ip, credentials.username);
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
   * The limits of authentication attempts for a username from an address: Basic headers,
   * sign-ins and current-password checks share them, so each path spends the same budget.
   */
  private limitsOf(ip: string, username: string): Limit[] {
    return [
      { key: `auth\n${ip}\n${username}`, limit: this.failLimit },
      { key: `auth\n${ip}\n`, limit: this.failLimit * 10 },
    ];
  }

  /**
   * The caller a session cookie stands for, only with the session's nonce in `X-Cal-Nonce` (as
   * WordPress's cookie authentication needs X-WP-Nonce): a request another site's page makes the
   * browser send carries the cookie but not the nonce, and is anonymous. So is a request with an
   * ended, expired or unknown session: neither is an error, the answer is what anyone gets.
   */
  private async cookieActor(request: FastifyRequest): Promise<Actor | null> {
    const token = readSessionCookie(request.headers.cookie);
    const nonce = request.headers['x-cal-nonce'];
    if (token === null || typeof nonce !== 'string' || nonce === '' || nonce.length > 64) return null;
    const session = await this.sessionOf(request, token);
    return session !== null && sameNonce(session.nonce, nonce) ? session.actor : null;
  }

  /**
   * The valid session of a token, remembered like a Basic header: while the auth version has not
   * moved and the session is neither past its end nor idle by what this instance knows, no
   * statement beyond the versions read every authenticated request pays. Otherwise the row is
   * read again (one indexed query): another instance may have used the session since, or it was
   * ended. Its last use is written at most once per {@link touchIntervalMs}.
   */
  async sessionOf(request: FastifyRequest, token?: string | null): Promise<RememberedSession | null> {
    const presented = token ?? readSessionCookie(request.headers.cookie);
    if (presented === null) return null;
    const key = hashToken(presented);
    const versions = request.versions ?? (await readVersions(this.db));
    request.versions = versions;
    const now = Date.now();
    const { idleMs } = this.sessionPolicy;
    let session = this.sessions.get(key);
    if (!session || session.authVersion !== versions.auth || now - session.lastSeen >= idleMs) {
      const row = await findSession(this.db, key);
      if (!row || !isRole(row.role)) {
        this.sessions.delete(key);
        return null;
      }
      const user = {
        id: row.user_id,
        username: row.username,
        email: row.email,
        role: row.role,
        registered: row.registered,
        submission_mail: row.submission_mail,
      };
      session = {
        id: row.id,
        user,
        actor: { id: row.user_id, username: row.username, role: row.role },
        nonce: row.nonce,
        lastSeen: millisOf(row.last_seen),
        expires: millisOf(row.expires),
        authVersion: versions.auth,
      };
    }
    if (session.expires <= now || now - session.lastSeen >= idleMs) {
      this.sessions.delete(key);
      await dropExpired(this.db, key);
      return null;
    }
    if (now - session.lastSeen >= touchIntervalMs(this.sessionPolicy)) {
      await touchSession(this.db, session.id, now);
      // Stored to the second: remember what a re-read would find.
      session = { ...session, lastSeen: Math.floor(now / 1000) * 1000 };
    }
    this.sessions.set(key, session);
    return session;
  }

  /**
   * A login password checked against the shared failure budget: counted before it is checked (as
   * {@link verifyShared} does), refused with 429 past the limit, logged when wrong.
   */
  private async checkLogin(request: FastifyRequest, username: string, password: string): Promise<UserRow | null> {
    const limits = this.limitsOf(request.ip, username);
    this.failures.refuseKnown(limits, THROTTLED);
    const attempt = await this.failures.attempt(limits, THROTTLED);
    const user = await verifyLogin(this.db, username, password);
    if (user) await attempt.succeeded();
    else request.log.warn({ username, ip: request.ip }, 'failed sign-in');
    return user;
  }

  /**
   * `POST /session`: a new session for the right username and login password. The session the
   * browser presented, if any, ends (rotation), valid or not, whoever it was for.
   */
  async signIn(
    request: FastifyRequest,
    username: string,
    password: string,
  ): Promise<OpenedSession & { user: UserRow }> {
    const user = await this.checkLogin(request, username, password);
    if (!user) throw invalidCredentials();
    const replacing = presentedSession(request.headers.cookie);
    if (replacing !== null) this.sessions.delete(replacing);
    const userAgent = String(request.headers['user-agent'] ?? '').slice(0, USER_AGENT_MAX);
    const opened = await openSession(
      this.db,
      { userId: user.id, ip: request.ip, userAgent, replacing },
      this.sessionPolicy,
    );
    const now = Date.now();
    if (now - this.lastPurge >= PURGE_EVERY_MS) {
      this.lastPurge = now;
      await purgeSessions(this.db, this.sessionPolicy, now);
    }
    return { ...opened, user };
  }

  /** `GET /session`: the cookie's session (no nonce needed: this is how the admin learns it), else 401. */
  async currentSession(request: FastifyRequest): Promise<{ user: UserRow; nonce: string }> {
    const session = await this.sessionOf(request);
    if (!session) throw notSignedIn();
    return { user: session.user, nonce: session.nonce };
  }

  /**
   * `DELETE /session`: ends the cookie's session; with `everywhere`, every session of the caller
   * (who must be authenticated: cookie and nonce, or Basic). Returns how many ended.
   */
  async signOut(request: FastifyRequest, everywhere: boolean): Promise<number> {
    const presented = presentedSession(request.headers.cookie);
    if (presented !== null) this.sessions.delete(presented);
    if (everywhere) {
      const actor = request.ctx.actor;
      if (actor === null) throw notSignedIn();
      return signOutEverywhere(this.db, actor.id);
    }
    return presented === null ? 0 : endSession(this.db, presented);
  }

  /**
   * `PATCH /users/me`: a signed-in user's own email and login password. A new password needs the
   * current one (checked against the failure budget, so a borrowed session cannot guess it), and
   * ends every other session of the user; the one making the change stays.
   */
  async updateOwnAccount(
    request: FastifyRequest,
    actor: Actor,
    input: {
      email?: string | undefined;
      password?: string | undefined;
      current_password?: string | undefined;
      submission_mail?: string | undefined;
    },
  ): Promise<UserRow> {
    if (input.password !== undefined) {
      if (input.current_password === undefined)
        throw invalidParam('current_password', 'Your current password is needed to set a new one.');
      if (!(await this.checkLogin(request, actor.username, input.current_password)))
        throw invalidParam('current_password', 'The current password you entered is incorrect.');
    }
    const keep = request.headers.authorization === undefined ? presentedSession(request.headers.cookie) : null;
    const { email, password, submission_mail } = input;
    return updateUser(this.db, actor.id, actor.id, { email, password, submission_mail }, keep ?? undefined);
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
