import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { connect, migrate, SQLITE_FILE } from '../../src/db/connect.js';
import { sqliteDatabase, statementBytes } from '../../src/db/sqlite-statements.js';

describe('prepared SQLite statements', () => {
  const sqlite = new SQLite(':memory:');
  after(() => sqlite.close());

  /** A distinct statement of about `length` characters of SQL. */
  const statement = (i: number, length: number) => `select ${i} as n /* ${'x'.repeat(length)} */`;

  it('should keep statements within a budget of the memory they hold, not a number of them', () => {
    const budget = 1024 * 1024;
    const database = sqliteDatabase(sqlite, budget);
    const first = database.prepare(statement(0, 100));
    assert.equal(database.prepare(statement(0, 100)), first, 'kept');
    // Short statements: a hundred of them fit beside the first.
    for (let i = 1; i <= 100; i += 1) database.prepare(statement(i, 100));
    assert.equal(database.prepare(statement(0, 100)), first, 'still kept among short ones');
    // Long ones hold more each: a budget's worth of them pushes the first out.
    const long = 10_000;
    for (let i = 1; i <= Math.ceil(budget / statementBytes(statement(0, long))); i += 1)
      database.prepare(statement(-i, long));
    assert.notEqual(database.prepare(statement(0, 100)), first, 'dropped for long ones');
  });

  it('should build rows with the values better-sqlite3 would, whatever the columns are named', () => {
    const database = sqliteDatabase(sqlite);
    sqlite.exec(
      `create table wide (${Array.from({ length: 40 }, (_, i) => `c${i} text`).join(', ')}, "odd ""name"" \\" int)`,
    );
    sqlite
      .prepare(`insert into wide values (${Array.from({ length: 41 }, () => '?').join(', ')})`)
      .run(...Array.from({ length: 40 }, (_, i) => `v${i}`), 7);
    const statements = [
      'select * from wide',
      // Two columns of one name: the later wins, as in better-sqlite3's own rows.
      'select c0 as x, c1 as x, null as "constructor", 2 as "}); throw 1; ({" from wide',
      'select * from wide where 0',
    ];
    for (const text of statements) {
      const ours = database.prepare(text).all([]) as Record<string, unknown>[];
      const theirs = sqlite.prepare(text).all() as Record<string, unknown>[];
      assert.deepEqual(ours, theirs, text);
      for (const row of ours) assert.equal(Object.getPrototypeOf(row), Object.prototype, 'a plain object');
      assert.deepEqual([...database.prepare(text).iterate([])], theirs, `${text}, iterated`);
    }
    // A column named like the prototype is the row's own value (better-sqlite3's own rows drop it).
    const [row] = database.prepare(`select 'a' as "__proto__", 1 as n`).all([]) as Record<string, unknown>[];
    assert.deepEqual(Object.entries(row!), [
      ['__proto__', 'a'],
      ['n', 1],
    ]);
    assert.equal(Object.getPrototypeOf(row), Object.prototype);
  });
});

describe('SQLite statements that are not prepared again at each run', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-sqlite-plans-'));
  after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const open = () => connect({ dataDir: dir, statisticsIntervalMs: 0, sqliteReaders: 0 });

  it('should keep the statistics’ averages and drop their samples, which make SQLite plan each run anew', async () => {
    const file = path.join(dir, SQLITE_FILE);
    const storage = await open();
    await migrate(storage.db);
    await storage.close();
    // A skewed column, analyzed: SQLite keeps samples of its index's keys.
    const raw = new SQLite(file);
    raw.exec(
      'create table skewed (id integer primary key, kind text not null); create index skewed_kind on skewed (kind)',
    );
    const insert = raw.prepare('insert into skewed (kind) values (?)');
    raw.transaction(() => {
      for (let i = 0; i < 2000; i += 1) insert.run(i % 100 === 0 ? 'rare' : 'common');
    })();
    raw.exec('analyze');
    const count = (table: string) => (raw.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
    assert.ok(count('sqlite_stat4') > 0, 'samples kept by ANALYZE');
    raw.close();

    const again = await open();
    try {
      const n = async (table: string) =>
        Number((await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(again.db)).rows[0]!.n);
      assert.equal(await n('sqlite_stat4'), 0, 'samples dropped at start-up');
      assert.ok((await n('sqlite_stat1')) > 0, 'averages kept');
      const plan = await sql<{
        detail: string;
      }>`explain query plan select id from skewed where kind = ${'rare'}`.execute(again.db);
      assert.match(plan.rows.map((r) => r.detail).join('\n'), /USING COVERING INDEX skewed_kind/);
    } finally {
      await again.close();
    }
  });

  it('should write a LIMIT into the statement and bind the offset', async () => {
    const storage = await open();
    try {
      const compiled = storage.db.selectFrom('settings').select('key').orderBy('key').limit(5).offset(10).compile();
      assert.match(compiled.sql, / limit 5 offset \?$/);
      assert.deepEqual(compiled.parameters, [10]);
    } finally {
      await storage.close();
    }
  });
});
