import type { Db, UserRow } from '../../db/database.js';
import { bumpAuthVersion, bumpDataVersion } from '../../db/data-version.js';
import { conflict, invalidParam, notFound } from '../../http/errors.js';
import {
  DUMMY_HASH,
  generateApplicationPassword,
  hashLoginPassword,
  hashPassword,
  verifyLoginPassword,
  verifyPassword,
} from './user.password.js';
import * as users from './user.repository.js';
import { isRole, type Role } from '../../auth/roles.js';
import { endUserSessions, listSessions, signOutEverywhere, type SessionPolicy } from './session.service.js';
import type { SessionInfo } from './session.repository.js';
import { isEmailAddress } from '../../lib/url.js';

/** The module's errors, in one place; the HTTP routes and the CLI both surface them. */
const userNotFound = () => notFound('rest_user_invalid_id', 'Invalid user ID.');
const passwordNotFound = () => notFound('rest_application_password_not_found', 'Application password not found.');
const duplicateUser = () => conflict('existing_user_login', 'Sorry, that username already exists!');

export interface NewUserResult {
  user: UserRow;
  application_password: string;
}

const USERNAME = /^[A-Za-z0-9_.@-]{1,60}$/;

function checkEmail(email: string | undefined): void {
  if (email !== undefined && email !== '' && !isEmailAddress(email))
    throw invalidParam('email', 'Invalid email address.');
}

/** The bounds the routes' schemas also state; checked here for the CLI, before any hashing. */
export const LOGIN_PASSWORD_MIN = 8;
export const LOGIN_PASSWORD_MAX = 1024;

function checkLoginPassword(password: string | undefined, name = 'password'): void {
  if (password === undefined) return;
  if (password.length < LOGIN_PASSWORD_MIN || password.length > LOGIN_PASSWORD_MAX)
    throw invalidParam(name, `A login password has ${LOGIN_PASSWORD_MIN} to ${LOGIN_PASSWORD_MAX} characters.`);
}

const loginHashOf = (password: string | undefined): Promise<string | null> =>
  password === undefined ? Promise.resolve(null) : hashLoginPassword(password);

/** A unique-constraint failure on either back end: two writers raced past our own check. */
function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

/**
 * Creates a user with a first application password (returned once, stored hashed) and, when
 * given, a login password. Used by the admin route and the CLI.
 */
export async function createUser(
  db: Db,
  input: { username: string; role: Role; email?: string | undefined; password?: string | undefined },
): Promise<NewUserResult> {
  if (!USERNAME.test(input.username))
    throw invalidParam('username', 'Usernames use letters, digits and _ . @ - only (at most 60).');
  checkEmail(input.email);
  checkLoginPassword(input.password);
  if (await users.usernameTaken(db, input.username)) throw duplicateUser();
  const password = generateApplicationPassword();
  const hash = await hashPassword(password);
  const loginHash = await loginHashOf(input.password);
  try {
    const user = await db.transaction().execute(async (trx) => {
      const created = await users.create(trx, {
        username: input.username,
        role: input.role,
        email: input.email ?? '',
        login_hash: loginHash,
      });
      await users.addPassword(trx, created.id, hash, 'initial');
      return created;
    });
    return { user, application_password: password };
  } catch (error) {
    if (isUniqueViolation(error)) throw duplicateUser();
    throw error;
  }
}

/** The user with this id, if any (other modules check an `author` they are given). */
export function findUser(db: Db, id: number): Promise<UserRow | undefined> {
  return users.findById(db, id);
}

/** Every user, by id. */
export function listUsers(db: Db): Promise<UserRow[]> {
  return users.list(db);
}

/** The user with this login name, if any. */
export function findUserByName(db: Db, username: string): Promise<UserRow | undefined> {
  return users.findByUsername(db, username);
}

/** The administrator with the lowest id other than `exceptId` (0: any): who owns what no one else does. */
export function firstAdministrator(db: Db, exceptId = 0): Promise<UserRow | undefined> {
  return users.firstAdministrator(db, exceptId);
}

/** The user, or 404 `rest_user_invalid_id`. */
export async function getUser(db: Db, id: number): Promise<UserRow> {
  const user = await users.findById(db, id);
  if (!user) throw userNotFound();
  return user;
}

/**
 * Changes a user's role, email or login password. An administrator cannot take away their own
 * role: that would leave them locked out of the routes they are using. A new role or login
 * password ends the user's sessions in the same transaction, but `keepSession` (the token hash of
 * the session making the change, which has just proved who it is).
 */
export async function updateUser(
  db: Db,
  callerId: number,
  id: number,
  patch: {
    role?: Role | undefined;
    email?: string | undefined;
    password?: string | undefined;
    submission_mail?: string | undefined;
  },
  keepSession?: string,
): Promise<UserRow> {
  const user = await getUser(db, id);
  checkEmail(patch.email);
  checkLoginPassword(patch.password);
  if (id === callerId && patch.role !== undefined && patch.role !== user.role)
    throw invalidParam('role', 'You cannot change your own role.');
  const loginHash = await loginHashOf(patch.password);
  const roleChanged = patch.role !== undefined && patch.role !== user.role;
  return db.transaction().execute(async (trx) => {
    const { role, email, submission_mail } = patch;
    const updated = (await users.update(trx, id, { role, email, submission_mail })) ?? user;
    if (loginHash !== null) await users.setLoginHash(trx, id, loginHash);
    if (roleChanged || loginHash !== null) await endUserSessions(trx, id, roleChanged ? undefined : keepSession);
    // Every instance re-checks remembered credentials of this user before trusting the old role.
    if (roleChanged) await bumpAuthVersion(trx);
    return updated;
  });
}

/** A user's sessions that have not ended (an administrator's view: never a token or nonce). */
export async function listUserSessions(db: Db, id: number, policy: SessionPolicy): Promise<SessionInfo[]> {
  await getUser(db, id);
  return listSessions(db, id, policy);
}

/** Ends every session of a user (an administrator's "sign out everywhere"); returns how many ended. */
export async function endAllUserSessions(db: Db, id: number): Promise<number> {
  await getUser(db, id);
  return signOutEverywhere(db, id);
}

/** Sets a user's login password (the CLI's reset): every session of theirs ends. */
export async function setLoginPassword(db: Db, id: number, password: string): Promise<void> {
  checkLoginPassword(password);
  await writeLoginPassword(db, id, password);
}

async function writeLoginPassword(db: Db, id: number, password: string): Promise<void> {
  const hash = await hashLoginPassword(password);
  await db.transaction().execute(async (trx) => {
    await users.setLoginHash(trx, id, hash);
    await endUserSessions(trx, id);
  });
}

/**
 * The user whose login password this is, null otherwise. Exactly one scrypt whatever the
 * username: an unknown user, or one without a login password, takes as long as a wrong password.
 */
export async function verifyLogin(db: Db, username: string, password: string): Promise<UserRow | null> {
  const found = await users.findLogin(db, username);
  const hash = found && isRole(found.role) ? found.login_hash : null;
  const right = await verifyLoginPassword(password, hash ?? DUMMY_HASH);
  if (!right || hash === null || !found) return null;
  const { login_hash: _hash, ...user } = found;
  return user;
}

export async function addApplicationPassword(db: Db, userId: number, name = ''): Promise<string> {
  await getUser(db, userId);
  const password = generateApplicationPassword();
  await users.addPassword(db, userId, await hashPassword(password), name);
  return password;
}

export async function listApplicationPasswords(
  db: Db,
  userId: number,
): Promise<{ id: number; name: string; created: string }[]> {
  await getUser(db, userId);
  return users.passwordList(db, userId);
}

/** Revokes one application password; it stops working on the next request at every instance. */
export async function revokeApplicationPassword(db: Db, userId: number, passwordId: number): Promise<void> {
  await getUser(db, userId);
  await db.transaction().execute(async (trx) => {
    if (!(await users.revokePassword(trx, userId, passwordId))) throw passwordNotFound();
    await bumpAuthVersion(trx);
  });
}

/** Deletes a user and hands their events, venues and organizers to `heir` (SPEC item 25). */
export async function deleteUser(db: Db, id: number, heir: number): Promise<UserRow> {
  const user = await getUser(db, id);
  if (heir === id || !(await users.findById(db, heir)))
    throw invalidParam('reassign', 'Invalid user ID for reassignment.');
  await db.transaction().execute(async (trx) => {
    await users.reassignRecords(trx, id, heir);
    await endUserSessions(trx, id);
    // Application passwords go with the user (ON DELETE CASCADE).
    await users.remove(trx, id);
    await bumpDataVersion(trx);
    await bumpAuthVersion(trx);
  });
  return user;
}

/**
 * Deletes a user on someone's behalf: the records go to `reassign`, else to the caller (an
 * administrator deleting through the API), else (the CLI has no caller) to the oldest other
 * administrator. Nobody may delete themselves: their request would lose its own credentials.
 */
export async function removeUser(
  db: Db,
  id: number,
  options: { callerId?: number | undefined; reassign?: number | undefined },
): Promise<UserRow> {
  if (id === options.callerId) throw invalidParam('id', 'You cannot delete the user you are authenticated as.');
  await getUser(db, id);
  const heir = options.reassign ?? options.callerId ?? (await users.firstAdministrator(db, id))?.id;
  if (heir === undefined)
    throw invalidParam(
      'reassign',
      "No other administrator can receive this user's records: name a user to reassign them to.",
    );
  return deleteUser(db, id, heir);
}

/**
 * With CAL_ADMIN_PASSWORD set, makes sure the administrator exists, that password is one of their
 * application passwords and it is their login password. The login password is written only when
 * it does not already verify, so a restart does not end the administrator's sessions (a new
 * login password ends them). Returns what it did, for the start-up log.
 */
export async function ensureAdministrator(
  db: Db,
  username: string,
  password: string | undefined,
): Promise<'created' | 'password-added' | 'login-password-set' | 'present' | 'missing'> {
  if (password === undefined) {
    return (await users.countAdministrators(db)) > 0 ? 'present' : 'missing';
  }
  const existing = await users.findLogin(db, username);
  if (!existing) {
    const hash = await hashPassword(password);
    const loginHash = await hashLoginPassword(password);
    try {
      await db.transaction().execute(async (trx) => {
        const user = await users.create(trx, { username, role: 'administrator', email: '', login_hash: loginHash });
        await users.addPassword(trx, user.id, hash, 'CAL_ADMIN_PASSWORD');
      });
      return 'created';
    } catch (error) {
      // Another instance starting at the same moment created it first: check its password instead.
      if (isUniqueViolation(error)) return ensureAdministrator(db, username, password);
      throw error;
    }
  }
  if (existing.role !== 'administrator') await users.updateRole(db, existing.id, 'administrator');
  // Not held to the length rule: an operator's existing CAL_ADMIN_PASSWORD must not stop the start.
  const loginSet = existing.login_hash === null || !(await verifyLoginPassword(password, existing.login_hash));
  if (loginSet) await writeLoginPassword(db, existing.id, password);
  for (const { hash } of await users.passwordHashes(db, existing.id)) {
    if (await verifyPassword(password, hash)) return loginSet ? 'login-password-set' : 'present';
  }
  await users.addPassword(db, existing.id, await hashPassword(password), 'CAL_ADMIN_PASSWORD');
  return 'password-added';
}
