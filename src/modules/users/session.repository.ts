import type { Db } from '../../db/database.js';

/**
 * The sessions table (migration 022). Every statement finds its rows by an index: the token
 * hash (unique), the user, `expires` or `last_seen`.
 */

/** A session with what its user is now: the caller a valid cookie stands for. */
export interface SessionWithUser {
  id: number;
  user_id: number;
  nonce: string;
  last_seen: string;
  expires: string;
  username: string;
  email: string;
  role: string;
  registered: string;
  submission_mail: string;
}

/** What a session list shows: never the token's hash, never the nonce. */
export interface SessionInfo {
  id: number;
  created: string;
  last_seen: string;
  expires: string;
  ip: string;
  user_agent: string;
}

export async function insert(
  db: Db,
  row: {
    token_hash: string;
    user_id: number;
    nonce: string;
    created: string;
    expires: string;
    ip: string;
    user_agent: string;
  },
): Promise<number> {
  const inserted = await db
    .insertInto('sessions')
    .values({ ...row, last_seen: row.created })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

export function findByToken(db: Db, tokenHash: string): Promise<SessionWithUser | undefined> {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.id',
      'sessions.user_id',
      'sessions.nonce',
      'sessions.last_seen',
      'sessions.expires',
      'users.username',
      'users.email',
      'users.role',
      'users.registered',
      'users.submission_mail',
    ])
    .where('sessions.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function touch(db: Db, id: number, lastSeen: string): Promise<void> {
  await db.updateTable('sessions').set({ last_seen: lastSeen }).where('id', '=', id).execute();
}

export async function removeByToken(db: Db, tokenHash: string): Promise<number> {
  const result = await db.deleteFrom('sessions').where('token_hash', '=', tokenHash).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Ends a user's sessions, but the one whose token hash is `except` (the caller's own, when it proved the password). */
export async function removeForUser(db: Db, userId: number, except?: string): Promise<number> {
  let query = db.deleteFrom('sessions').where('user_id', '=', userId);
  if (except !== undefined) query = query.where('token_hash', '!=', except);
  const result = await query.executeTakeFirst();
  return Number(result.numDeletedRows);
}

export function listForUser(db: Db, userId: number): Promise<SessionInfo[]> {
  return db
    .selectFrom('sessions')
    .select(['id', 'created', 'last_seen', 'expires', 'ip', 'user_agent'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}

/** Drops the sessions past their absolute end or idle since before `idleSince` (two statements, one index each). */
export async function purge(db: Db, now: string, idleSince: string): Promise<void> {
  await db.deleteFrom('sessions').where('expires', '<=', now).execute();
  await db.deleteFrom('sessions').where('last_seen', '<', idleSince).execute();
}
