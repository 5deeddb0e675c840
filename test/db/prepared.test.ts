import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { prepared, statementName } from '../../src/db/prepared.js';
import { backends, createTestApp, type TestApp } from '../helpers/app.js';

/** Settings rows are the simplest table to play with: key → value. */
const byKeys = prepared((db, args: { keys: string[]; notLike: string }) =>
  db
    .selectFrom('settings')
    .select(['key', 'value'])
    .where('key', 'in', args.keys)
    .where('value', 'not like', args.notLike)
    .orderBy('key'),
);

for (const backend of backends()) {
  describe(`prepared queries [${backend}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(backend);
      await t.storage.db
        .insertInto('settings')
        .values(['a', 'b', 'c'].map((key) => ({ key: `prep_${key}`, value: `value ${key}` })))
        .execute();
    });
    after(() => t.close());

    it('should bind new arguments on every call, with one statement per list length', async () => {
      const db = t.storage.db;
      const keys = (rows: { key: string }[]) => rows.map((r) => r.key);
      assert.deepEqual(keys(await byKeys(db, { keys: ['prep_a'], notLike: '%x' })), ['prep_a']);
      assert.deepEqual(keys(await byKeys(db, { keys: ['prep_b'], notLike: '%x' })), ['prep_b']);
      assert.deepEqual(keys(await byKeys(db, { keys: ['prep_a', 'prep_c'], notLike: '%x' })), ['prep_a', 'prep_c']);
      assert.deepEqual(keys(await byKeys(db, { keys: ['prep_a', 'prep_c'], notLike: '%c' })), ['prep_a']);
      assert.deepEqual(keys(await byKeys(db, { keys: ['prep_b'], notLike: '%b' })), []);
    });

    it('should run inside a transaction and see its writes', async () => {
      await t.storage.db.transaction().execute(async (trx) => {
        await trx.updateTable('settings').set({ value: 'changed' }).where('key', '=', 'prep_a').execute();
        const [row] = await byKeys(trx, { keys: ['prep_a'], notLike: '%x' });
        assert.equal(row?.value, 'changed');
      });
    });

    it("should fail with the database's own error code, which a write's retry reads", async () => {
      const insert = prepared((db, args: { key: string; value: string }) =>
        db.insertInto('settings').values({ key: args.key, value: args.value }),
      );
      // Twice, so that on PostgreSQL the second runs the named statement the first parsed.
      for (const key of ['prep_a', 'prep_b']) {
        await assert.rejects(insert(t.storage.db, { key, value: 'again' }), (err: { code?: string }) => {
          assert.equal(err.code, backend === 'postgres' ? '23505' : 'SQLITE_CONSTRAINT_PRIMARYKEY');
          return true;
        });
      }
      assert.equal((await insert(t.storage.db, { key: 'prep_d', value: 'new' })).length, 0);
      assert.deepEqual(await byKeys(t.storage.db, { keys: ['prep_d'], notLike: '%x' }), [
        { key: 'prep_d', value: 'new' },
      ]);
    });

    it(
      'should refuse, in the test suite, a build that reads a value from outside its arguments',
      { skip: process.env['CAL_VERIFY_PREPARED'] !== '1' },
      async () => {
        let outside = 'prep_a';
        const frozen = prepared((db) => db.selectFrom('settings').select('key').where('key', '=', outside));
        assert.equal((await frozen(t.storage.db, {})).length, 1);
        outside = 'prep_b';
        await assert.rejects(frozen(t.storage.db, {}), /differs from its fresh build/);
      },
    );

    it(
      'should run as a named statement on PostgreSQL, and unnamed once its table changed columns',
      { skip: backend !== 'postgres' },
      async () => {
        const whole = prepared((db, args: { key: string }) =>
          db.selectFrom('settings').selectAll().where('key', '=', args.key),
        );
        const text = t.storage.db.selectFrom('settings').selectAll().where('key', '=', 'x').compile().sql;
        // One connection throughout: named statements are a connection's own.
        await t.storage.db.connection().execute(async (conn) => {
          assert.deepEqual(await whole(conn, { key: 'prep_b' }), [{ key: 'prep_b', value: 'value b' }]);
          const { rows } = await sql<{
            name: string;
          }>`select name from pg_prepared_statements where statement = ${text}`.execute(conn);
          assert.deepEqual(
            rows.map((r) => r.name),
            [statementName(text)],
          );
          // Another instance's migration: the statement's `*` no longer has the table's columns.
          await sql`alter table settings add column prep_extra text default 'x'`.execute(conn);
          try {
            const [row] = await whole(conn, { key: 'prep_b' });
            assert.equal((row as Record<string, unknown>)['prep_extra'], 'x');
            assert.equal((await whole(conn, { key: 'prep_c' })).length, 1);
          } finally {
            await sql`alter table settings drop column prep_extra`.execute(conn);
          }
        });
      },
    );
  });
}
