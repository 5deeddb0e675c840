import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { CountCache } from '../../src/db/count-cache.js';

interface Tables {
  numbers: { n: number };
}

describe('CountCache', () => {
  let db: Kysely<Tables>;
  let statements = 0;
  before(async () => {
    db = new Kysely<Tables>({
      dialect: new SqliteDialect({ database: new SQLite(':memory:') }),
      log: () => void (statements += 1),
    });
    await db.schema.createTable('numbers').addColumn('n', 'integer').execute();
    await db
      .insertInto('numbers')
      .values(Array.from({ length: 100 }, (_, n) => ({ n })))
      .execute();
  });
  after(() => db.destroy());

  /** Numbers from `from`, with a long list of excluded ones: SQL of some 2 KB, as a filtered list's. */
  const countFrom = (from: number) =>
    db
      .selectFrom('numbers')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('n', '>=', from)
      .where((eb) => eb.and(Array.from({ length: 100 }, (_, i) => eb('n', '<>', -1 - i))));

  it('should stay within its budget in bytes, however long the statements', async () => {
    const budget = 16 * 1024;
    const counts = new CountCache(budget);
    for (let from = 0; from < 300; from += 1) {
      assert.equal(await counts.count(countFrom(from % 100), `v${from}`), 100 - (from % 100));
      assert.ok(counts.bytes <= budget, `${counts.bytes} bytes after ${from + 1} totals`);
    }
    // Each total keeps a digest of its statement, not its 2 KB of SQL: dozens fit where 8 would.
    const before = statements;
    for (let from = 299; from >= 250; from -= 1) await counts.count(countFrom(from % 100), `v${from}`);
    assert.equal(statements, before, 'the last 50 totals are still kept');
  });

  it('should count again when the version or a parameter differs', async () => {
    const counts = new CountCache();
    assert.equal(await counts.count(countFrom(10), 'v1'), 90);
    const before = statements;
    assert.equal(await counts.count(countFrom(10), 'v1'), 90);
    assert.equal(statements, before);
    assert.equal(await counts.count(countFrom(20), 'v1'), 80);
    assert.equal(await counts.count(countFrom(10), 'v2'), 90);
    assert.equal(statements, before + 2);
  });
});
