import type { Db, UserRow } from '../../db/database.js';
import { bumpDataVersion } from '../../db/data-version.js';
import { conflict, invalidParam, notFound } from '../../http/errors.js';
import { generateApplicationPassword, hashPassword, verifyPassword } from './passwords.js';
import * as users from './user.repository.js';
import type { Role } from './roles.js';

export interface NewUserResult {
  user: UserRow;
  application_password: string;
}

const USERNAME = /^[A-Za-z0-9_.@-]{1,60}$/;

/** Creates a user with a first application password (returned once, stored hashed). Used by the admin route and the CLI. */
export async function createUser(db: Db, input: { username: string; role: Role; email?: string | undefined }): Promise<NewUserResult> {
  if (!USERNAME.test(input.username)) throw invalidParam('username', 'Usernames use letters, digits and _ . @ - only (at most 60).');
  if (await users.findByUsername(db, input.username)) throw conflict('existing_user_login', 'Sorry, that username already exists!');
  const password = generateApplicationPassword();
  const hash = await hashPassword(password);
  const user = await db.transaction().execute(async (trx) => {
    const created = await users.create(trx, { username: input.username, role: input.role, email: input.email ?? '' });
    await users.addPassword(trx, created.id, hash, 'initial');
    return created;
  });
  return { user, application_password: password };
}

export async function addApplicationPassword(db: Db, userId: number, name = ''): Promise<string> {
  if (!(await users.findById(db, userId))) throw notFound('rest_user_invalid_id', 'Invalid user ID.');
  const password = generateApplicationPassword();
  await users.addPassword(db, userId, await hashPassword(password), name);
  return password;
}

/** Deletes a user and hands their events, venues and organizers to `heir` (SPEC item 25). */
export async function deleteUser(db: Db, id: number, heir: number): Promise<UserRow> {
  const user = await users.findById(db, id);
  if (!user) throw notFound('rest_user_invalid_id', 'Invalid user ID.');
  if (heir === id || !(await users.findById(db, heir))) throw invalidParam('reassign', 'Invalid user ID for reassignment.');
  await db.transaction().execute(async (trx) => {
    for (const table of ['events', 'venues', 'organizers'] as const) {
      await trx.updateTable(table).set({ author: heir }).where('author', '=', id).execute();
    }
    await users.remove(trx, id);
    await bumpDataVersion(trx);
  });
  return user;
}

/**
 * With CAL_ADMIN_PASSWORD set, makes sure the administrator exists and that password is one of
 * theirs. Returns what it did, for the start-up log.
 */
export async function ensureAdministrator(db: Db, username: string, password: string | undefined): Promise<'created' | 'password-added' | 'present' | 'missing'> {
  const existing = await users.findByUsername(db, username);
  if (password === undefined) {
    return (await users.countAdministrators(db)) > 0 ? 'present' : 'missing';
  }
  if (!existing) {
    const hash = await hashPassword(password);
    await db.transaction().execute(async (trx) => {
      const user = await users.create(trx, { username, role: 'administrator', email: '' });
      await users.addPassword(trx, user.id, hash, 'CAL_ADMIN_PASSWORD');
    });
    return 'created';
  }
  if (existing.role !== 'administrator') await users.updateRole(db, existing.id, 'administrator');
  for (const { hash } of await users.passwordHashes(db, existing.id)) {
    if (await verifyPassword(password, hash)) return 'present';
  }
  await users.addPassword(db, existing.id, await hashPassword(password), 'CAL_ADMIN_PASSWORD');
  return 'password-added';
}
