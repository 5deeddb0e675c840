import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Db } from '../../db/database.js';
import { bumpAuthVersion } from '../../db/data-version.js';
import { nowUtc } from '../../lib/clock.js';
import * as sessions from './session.repository.js';
import { readSessionCookie } from './session.cookie.js';

/**
 * Sessions of people signed in with their login password (issue 27): rows in the database, so
 * that a session made through one instance works on every other, and ended by deleting the row
 * and bumping the auth version in the same transaction, so every instance's remembered sessions
 * are re-checked on their next use (authentication.service.ts).
 */

export interface SessionPolicy {
  /** A session unused for this long has ended. */
  idleMs: number;
  /** A session ends this long after sign-in, however much it is used. */
  maxMs: number;
}

export function sessionPolicy(config: { sessionIdleMinutes: number; sessionMaxDays: number }): SessionPolicy {
  return { idleMs: config.sessionIdleMinutes * 60_000, maxMs: config.sessionMaxDays * 86_400_000 };
}

/**
 * How stale `last_seen` may be before a use writes it again: once a minute at most, so a busy
 * admin does not write on every request; shorter for a short idle limit, whose precision it bounds.
 */
export const touchIntervalMs = (policy: SessionPolicy): number => Math.min(60_000, Math.floor(policy.idleMs / 4));

export const hashToken = (token: string): string => createHash('sha256').update(token).digest('base64url');

/** Compared in constant time (both sides hashed first, so neither length nor content shows). */
export function sameNonce(expected: string, given: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(expected), digest(given));
}

/** The hash of the session cookie a request carries, if any (whether or not that session is valid). */
export function presentedSession(cookieHeader: string | string[] | undefined): string | null {
  const token = readSessionCookie(cookieHeader);
  return token === null ? null : hashToken(token);
}

/** `YYYY-MM-DD HH:MM:SS` (UTC) → milliseconds. */
export const millisOf = (stored: string): number => Date.parse(`${stored.replace(' ', 'T')}Z`);

export interface OpenedSession {
  token: string;
  nonce: string;
  maxAgeSeconds: number;
}

/**
 * A new session for `userId`. The session the browser presented, if any, ends in the same
 * transaction (rotation: a token known before sign-in, planted or stolen, is worth nothing after it).
 */
export async function openSession(
  db: Db,
  input: { userId: number; ip: string; userAgent: string; replacing: string | null },
  policy: SessionPolicy,
  now = Date.now(),
): Promise<OpenedSession> {
  const token = randomBytes(32).toString('base64url');
  const nonce = randomBytes(18).toString('base64url');
  const created = nowUtc(new Date(now));
  await db.transaction().execute(async (trx) => {
    if (input.replacing !== null && (await sessions.removeByToken(trx, input.replacing)) > 0)
      await bumpAuthVersion(trx);
    await sessions.insert(trx, {
      token_hash: hashToken(token),
      user_id: input.userId,
      nonce,
      created,
      expires: nowUtc(new Date(now + policy.maxMs)),
      ip: input.ip,
      user_agent: input.userAgent,
    });
  });
  return { token, nonce, maxAgeSeconds: Math.floor(policy.maxMs / 1000) };
}

/** The session a token hash stands for, with its user as they are now. */
export function findSession(db: Db, tokenHash: string): Promise<sessions.SessionWithUser | undefined> {
  return sessions.findByToken(db, tokenHash);
}

/** Records a use; called at most once per {@link touchIntervalMs} per session and instance. */
export function touchSession(db: Db, id: number, at: number): Promise<void> {
  return sessions.touch(db, id, nowUtc(new Date(at)));
}

/** Drops a session found expired: every instance judges expiry by itself, so no version bump is needed. */
export async function dropExpired(db: Db, tokenHash: string): Promise<void> {
  await sessions.removeByToken(db, tokenHash);
}

/** Signs out one session; every instance forgets it on its next request. Returns how many ended (0 or 1). */
export async function endSession(db: Db, tokenHash: string): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const ended = await sessions.removeByToken(trx, tokenHash);
    if (ended > 0) await bumpAuthVersion(trx);
    return ended;
  });
}

/**
 * Ends a user's sessions ("sign out everywhere", an administrator's revocation), but `except`
 * (a token hash) when given. Runs in the caller's transaction when given one.
 */
export async function endUserSessions(db: Db, userId: number, except?: string): Promise<number> {
  const ended = await sessions.removeForUser(db, userId, except);
  if (ended > 0) await bumpAuthVersion(db);
  return ended;
}

/** A user's sessions that have not ended, oldest first (rows past their limits may wait for a purge). */
export async function listSessions(
  db: Db,
  userId: number,
  policy: SessionPolicy,
  now = Date.now(),
): Promise<sessions.SessionInfo[]> {
  const rows = await sessions.listForUser(db, userId);
  return rows.filter((row) => millisOf(row.expires) > now && now - millisOf(row.last_seen) < policy.idleMs);
}

/** Deletes the sessions that have ended by either limit. */
export function purgeSessions(db: Db, policy: SessionPolicy, now = Date.now()): Promise<void> {
  return sessions.purge(db, nowUtc(new Date(now)), nowUtc(new Date(now - policy.idleMs)));
}

/** Ends every session of a user, in its own transaction ("sign out everywhere"). */
export function signOutEverywhere(db: Db, userId: number): Promise<number> {
  return db.transaction().execute((trx) => endUserSessions(trx, userId));
}
