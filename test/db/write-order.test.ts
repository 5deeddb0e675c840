import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { backends } from '../helpers/app.js';
import { createScratchDatabase } from '../helpers/scratch-postgres.js';
import { dumpSchema, SNAPSHOTS } from '../helpers/schema.js';
import { connect, migrate, type Storage } from '../../src/db/connect.js';
import { bumpDataVersion, readDataVersion, readVersions } from '../../src/db/data-version.js';
import { WRITE_ORDER_LOCK } from '../../src/db/dialect.js';

const EXCLUSIVE = `pg_advisory_xact_lock(${WRITE_ORDER_LOCK})`;
const SHARED = `pg_advisory_xact_lock_shared(${WRITE_ORDER_LOCK})`;

/** The functions whose source holds `text`, by name. */
async function functionsWith(storage: Storage, text: string): Promise<string[]> {
  const rows = await sql<{
    proname: string;
  }>`select proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
    where n.nspname = current_schema() and position(${text} in p.prosrc) > 0 order by proname`.execute(storage.db);
  return rows.rows.map((r) => r.proname);
}

/**
 * Migration 026 on a database that ran the earlier ones as they were: writers took the
 * write-order lock exclusive, and `data_version` was one row of settings.
 */
for (const backend of backends()) {
  describe(`migration 026: writers side by side [${backend}]`, () => {
    it('should rewrite the lock shared, carry data_version on, and leave what a new database has', async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-026-'));
      const scratch =
        backend === 'postgres' ? await createScratchDatabase(process.env['TEST_DATABASE_URL']!, 'cal_026') : null;
      const storage = await connect({ dataDir, databaseUrl: scratch?.url });
      try {
        await migrate(storage.db, '025_link_order');
        if (backend === 'postgres') {
          // The functions as 016 and 019 wrote them before 026.
          const shared = await functionsWith(storage, SHARED);
          assert.ok(shared.includes('change_log_events') && shared.includes('search_window_count'));
          const definitions = await sql<{ d: string }>`select pg_get_functiondef(p.oid) as d from pg_proc p
            join pg_namespace n on n.oid = p.pronamespace
            where n.nspname = current_schema() and position(${SHARED} in p.prosrc) > 0`.execute(storage.db);
          for (const { d } of definitions.rows) await sql.raw(d.split(SHARED).join(EXCLUSIVE)).execute(storage.db);
          assert.deepEqual(await functionsWith(storage, SHARED), []);
        }
        await storage.db.updateTable('settings').set({ value: '41' }).where('key', '=', 'data_version').execute();

        await migrate(storage.db);
        if (backend === 'postgres') {
          assert.deepEqual(await functionsWith(storage, EXCLUSIVE), [], 'no writer takes the lock exclusive');
          assert.ok((await functionsWith(storage, SHARED)).includes('change_log_events'));
        }
        assert.equal(await readDataVersion(storage.db), '41', 'the version goes on from the single counter');
        await bumpDataVersion(storage.db);
        assert.deepEqual(await readVersions(storage.db), { data: '42', auth: '0' });
        assert.equal(await dumpSchema(storage), fs.readFileSync(SNAPSHOTS[backend], 'utf8'), 'as a new database');

        // And back: one counter again, with the sum.
        await migrate(storage.db, '025_link_order');
        const row = await storage.db
          .selectFrom('settings')
          .select('value')
          .where('key', '=', 'data_version')
          .executeTakeFirst();
        assert.equal(row?.value, '42');
        if (backend === 'postgres') assert.deepEqual(await functionsWith(storage, SHARED), []);
      } finally {
        await storage.close();
        await scratch?.drop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });
}
