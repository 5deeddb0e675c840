import type { Db, UserRow } from '../../db/database.js';
import { nowUtc } from '../../lib/clock.js';
import type { Role } from '../../auth/roles.js';

const USER_COLUMNS = ['id', 'username', 'email', 'role', 'registered', 'submission_mail'] as const;

export function findById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();
}

export function findByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').select(USER_COLUMNS).where('username', '=', username).executeTakeFirst();
}

/** Whether a username is taken (reads the id only: works on a database of any version, as create does). */
export async function usernameTaken(db: Db, username: string): Promise<boolean> {
  return (await db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirst()) !== undefined;
}

export function list(db: Db): Promise<UserRow[]> {
  return db.selectFrom('users').select(USER_COLUMNS).orderBy('id').execute();
}

export async function create(
  db: Db,
  user: { username: string; email: string; role: Role; login_hash?: string | null },
): Promise<UserRow> {
  // The column is named only when set: a database before migration 022 (a restored backup's, the CLI's
  // tests of one) has no login_hash, and a user made there has no login password anyway.
  // Nor submission_mail (migration 024): a new user has its default, so it is not read back.
  const { login_hash, ...rest } = user;
  const row = await db
    .insertInto('users')
    .values({ ...rest, ...(login_hash ? { login_hash } : {}), registered: nowUtc() })
    .returning(['id', 'username', 'email', 'role', 'registered'])
    .executeTakeFirstOrThrow();
  return { ...row, submission_mail: 'none' };
}

export async function updateRole(db: Db, id: number, role: Role): Promise<void> {
  await db.updateTable('users').set({ role }).where('id', '=', id).execute();
}

/** Changes the given fields only; returns the updated user, undefined when there is none. */
export function update(
  db: Db,
  id: number,
  patch: { role?: Role | undefined; email?: string | undefined; submission_mail?: string | undefined },
): Promise<UserRow | undefined> {
  const set = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
  if (Object.keys(set).length === 0) return findById(db, id);
  return db.updateTable('users').set(set).where('id', '=', id).returning(USER_COLUMNS).executeTakeFirst();
}

/** Hands a user's events, venues and organizers to another (before the user is deleted). */
export async function reassignRecords(trx: Db, from: number, to: number): Promise<void> {
  for (const table of ['events', 'venues', 'organizers'] as const) {
    await trx.updateTable(table).set({ author: to }).where('author', '=', from).execute();
  }
}

export async function remove(db: Db, id: number): Promise<boolean> {
  const result = await db.deleteFrom('users').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The user an application password belongs to, if both still exist. */
export function findByPassword(db: Db, userId: number, passwordId: number): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .innerJoin('app_passwords', 'app_passwords.user_id', 'users.id')
    .select(['users.id', 'users.username', 'users.email', 'users.role', 'users.registered', 'users.submission_mail'])
    .where('users.id', '=', userId)
    .where('app_passwords.id', '=', passwordId)
    .executeTakeFirst();
}

export function passwordHashes(db: Db, userId: number): Promise<{ id: number; hash: string }[]> {
  return db.selectFrom('app_passwords').select(['id', 'hash']).where('user_id', '=', userId).execute();
}

export async function addPassword(db: Db, userId: number, hash: string, name = ''): Promise<number> {
  const row = await db
    .insertInto('app_passwords')
    .values({ user_id: userId, hash, name, created: nowUtc() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function revokePassword(db: Db, userId: number, passwordId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('app_passwords')
    .where('user_id', '=', userId)
    .where('id', '=', passwordId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

export function passwordList(db: Db, userId: number): Promise<{ id: number; name: string; created: string }[]> {
  return db
    .selectFrom('app_passwords')
    .select(['id', 'name', 'created'])
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
}

/** The oldest administrator other than `exceptId`: who inherits records when nobody is named. */
export function firstAdministrator(db: Db, exceptId: number): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .where('role', '=', 'administrator')
    .where('id', '!=', exceptId)
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

export async function countAdministrators(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('role', '=', 'administrator')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** A user with their login password's hash, for signing in; never an answer's source. */
export function findLogin(db: Db, username: string): Promise<(UserRow & { login_hash: string | null }) | undefined> {
  return db
    .selectFrom('users')
    .select([...USER_COLUMNS, 'login_hash'])
    .where('username', '=', username)
    .executeTakeFirst()
    .then((row) => row && { ...row, login_hash: row.login_hash ?? null });
}

export async function setLoginHash(db: Db, id: number, hash: string): Promise<void> {
  await db.updateTable('users').set({ login_hash: hash }).where('id', '=', id).execute();
}
