import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import SQLite from 'better-sqlite3';
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
});
