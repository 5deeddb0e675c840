import type { Kysely } from 'kysely';

/**
 * A second counter beside the data version: every change that takes access away (a revoked
 * application password, a deleted user, a changed role) bumps it in its own transaction, and each
 * instance re-checks a remembered credential when it moves (src/modules/users/authentication.service.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.insertInto('settings').values({ key: 'auth_version', value: '0' }).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('settings').where('key', '=', 'auth_version').execute();
}
