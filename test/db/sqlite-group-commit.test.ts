import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { connect, type Storage } from '../../src/db/connect.js';
import { groupLimits } from '../../src/db/sqlite-dialect.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

/**
 * Group commit on SQLite (src/db/sqlite-dialect.ts): write transactions that queue while one runs
 * share its SQLite transaction, each in a savepoint, and commit with it. Through Kysely on a
 * storage of its own (tables of the test's own), and over HTTP with concurrent creates.
 */

interface Opened {
  storage: Storage;
  dataDir: string;
  /** Every statement onQuery saw, in order. */
  statements: string[];
}

async function open(readers: number): Promise<Opened> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-test-'));
  const statements: string[] = [];
  const storage = await connect({ dataDir, sqliteReaders: readers, onQuery: (text) => statements.push(text) });
  await sql`create table gc_rows (value text not null)`.execute(storage.db);
  await sql`create table gc_parent (id integer primary key)`.execute(storage.db);
  await sql`create table gc_child (id integer primary key, parent integer not null references gc_parent (id))`.execute(
    storage.db,
  );
  return { storage, dataDir, statements };
}

async function close(opened: Opened): Promise<void> {
  await opened.storage.close();
  fs.rmSync(opened.dataDir, { recursive: true, force: true });
}

/** A promise and the function that settles it: a transaction holds the connection until then. */
function gate(): { opened: Promise<void>; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** A transaction that writes `value` and holds the connection until `held` opens. */
function holding(db: Storage['db'], value: string) {
  const held = gate();
  const first = db.transaction().execute(async (trx) => {
    await insert(trx, value);
    await held.opened;
  });
  return { held, first };
}

/** Lets queued work reach the connection's line (several turns of the event loop). */
const turns = async (n = 5) => {
  for (let i = 0; i < n; i += 1) await new Promise((resolve) => setImmediate(resolve));
};

const insert = (db: Storage['db'], value: string) => sql`insert into gc_rows (value) values (${value})`.execute(db);
const values = async (db: Storage['db']) =>
  (await sql<{ value: string }>`select value from gc_rows order by value`.execute(db)).rows.map((r) => r.value);

/** The transaction statements onQuery saw since `from`, by their first words. */
const control = (statements: string[], from: number) =>
  statements
    .slice(from)
    .map((text) => text.split(' ').slice(0, 2).join(' '))
    .filter((words) => /^(begin|commit|rollback|savepoint|release)\b/.test(words));

/**
 * A loaded machine may take the process off the CPU for more than the few milliseconds a group is
 * given, even between a group's start and the check that lets the next member in (a CI run's
 * reader-thread test saw its first member committed alone): the groups these tests build wait for
 * their members. Answers the restore.
 */
function widenGroupLimits(): () => void {
  const limits = { ...groupLimits };
  groupLimits.ms = 60_000;
  groupLimits.streamMs = 60_000;
  return () => void Object.assign(groupLimits, limits);
}

describe('SQLite group commit', () => {
  let s: Opened;
  let restore: () => void;
  before(async () => {
    s = await open(0);
    restore = widenGroupLimits();
  });
  after(async () => {
    restore();
    await close(s);
  });
  beforeEach(async () => {
    await sql`delete from gc_rows`.execute(s.storage.db);
  });

  it('should commit the writers queued behind a transaction with it, once, each in a savepoint', async () => {
    const from = s.statements.length;
    const happened: string[] = [];
    const { held, first } = holding(s.storage.db, 'a');
    void first.then(() => happened.push('a committed'));
    await turns();
    const others = ['b', 'c', 'd'].map((value) =>
      s.storage.db.transaction().execute(async (trx) => {
        await insert(trx, value);
        happened.push(`${value} ran`);
      }),
    );
    await turns();
    held.open();
    await Promise.all([first, ...others]);
    assert.deepEqual(await values(s.storage.db), ['a', 'b', 'c', 'd']);
    assert.deepEqual(control(s.statements, from), [
      'begin',
      'savepoint cal_group_member',
      'release cal_group_member',
      'savepoint cal_group_member',
      'release cal_group_member',
      'savepoint cal_group_member',
      'release cal_group_member',
      'commit',
    ]);
    // The first member's commit resolved with the group's, once the last member had run.
    assert.deepEqual(happened, ['b ran', 'c ran', 'd ran', 'a committed']);
  });

  it('should commit a lone transaction by itself, as before', async () => {
    const from = s.statements.length;
    await s.storage.db.transaction().execute((trx) => insert(trx, 'alone'));
    assert.deepEqual(control(s.statements, from), ['begin', 'commit']);
    assert.deepEqual(await values(s.storage.db), ['alone']);
  });

  it("should lose only a failing member's work, and tell only that member", async () => {
    const { held, first } = holding(s.storage.db, 'a');
    await turns();
    const failing = assert.rejects(
      s.storage.db.transaction().execute(async (trx) => {
        await insert(trx, 'b');
        throw new Error('the member changed its mind');
      }),
      /changed its mind/,
    );
    const third = s.storage.db.transaction().execute((trx) => insert(trx, 'c'));
    await turns();
    held.open();
    await Promise.all([first, failing, third]);
    assert.deepEqual(await values(s.storage.db), ['a', 'c']);
  });

  it('should end a group for a statement waiting in line: it runs in its turn and reads only what has committed', async () => {
    const from = s.statements.length;
    const { held, first } = holding(s.storage.db, 'a');
    await turns();
    // Asked before the second writer: the first commits alone, the read runs, then the second.
    const read = values(s.storage.db);
    const second = s.storage.db.transaction().execute((trx) => insert(trx, 'b'));
    await turns();
    held.open();
    assert.deepEqual(await read, ['a']);
    await Promise.all([first, second]);
    assert.deepEqual(control(s.statements, from), ['begin', 'commit', 'begin', 'commit']);
    assert.deepEqual(await values(s.storage.db), ['a', 'b']);
  });

  it('should let a read asked while a writer waits its turn to start a group run first', async () => {
    // A write just ended: the next is taken for a stream of writes and waits a turn for others.
    await s.storage.db.transaction().execute((trx) => insert(trx, 'before'));
    const happened: string[] = [];
    const writer = s.storage.db.transaction().execute(async (trx) => {
      happened.push('writer began');
      await insert(trx, 'a');
    });
    const read = values(s.storage.db).then((rows) => {
      happened.push('read');
      return rows;
    });
    assert.deepEqual(await read, ['before']);
    await writer;
    assert.deepEqual(happened, ['read', 'writer began']);
  });

  it('should fail every member when the group cannot commit, and leave no transaction open', async () => {
    await sql`delete from gc_child`.execute(s.storage.db);
    const holder = holding(s.storage.db, 'a');
    const held = holder.held;
    const first = assert.rejects(holder.first, /FOREIGN KEY/);
    await turns();
    // A foreign key checked at the commit (deferred), naming no parent: the commit itself fails.
    const breaking = assert.rejects(
      s.storage.db.transaction().execute(async (trx) => {
        await sql`pragma defer_foreign_keys = on`.execute(trx);
        await sql`insert into gc_child (id, parent) values (1, 404)`.execute(trx);
      }),
      /FOREIGN KEY/,
    );
    await turns();
    held.open();
    await Promise.all([first, breaking]);
    assert.deepEqual(await values(s.storage.db), []);
    // The connection is usable: the next transaction commits by itself.
    await s.storage.db.transaction().execute((trx) => insert(trx, 'after'));
    assert.deepEqual(await values(s.storage.db), ['after']);
  });
});

describe('SQLite group commit with reader threads', () => {
  let s: Opened;
  let restore: () => void;
  before(async () => {
    s = await open(1);
    await s.storage.readers!.warm();
    restore = widenGroupLimits();
  });
  after(async () => {
    restore();
    await close(s);
  });

  it('should show a reader thread nothing of an open group, and all of it once committed', async () => {
    const { held, first } = holding(s.storage.db, 'a');
    await turns();
    const secondRan = gate();
    const secondHeld = gate();
    const second = s.storage.db.transaction().execute(async (trx) => {
      await insert(trx, 'b');
      secondRan.open();
      await secondHeld.opened;
    });
    await turns();
    held.open();
    await secondRan.opened;
    // The first member has ended (released into the group), the group is not committed: a thread reads the state before it.
    assert.deepEqual(await values(s.storage.db), []);
    secondHeld.open();
    await Promise.all([first, second]);
    assert.deepEqual(await values(s.storage.db), ['a', 'b']);
  });
});

describe('SQLite group commit over HTTP', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp('sqlite');
  });
  after(() => t.close());

  it('should answer every one of concurrent creates once its own event is committed', async () => {
    const editor = await t.asUser('editor');
    const titles = Array.from({ length: 24 }, (_, i) => `Grouped ${i}`);
    const answers = await Promise.all(
      titles.map((title, i) =>
        t.request({
          method: 'POST',
          url: '/cal/events/v1/events',
          auth: editor.authorization,
          payload: {
            title,
            start_date: `2031-03-${String(1 + i).padStart(2, '0')} 10:00:00`,
            end_date: `2031-03-${String(1 + i).padStart(2, '0')} 11:00:00`,
            categories: ['Grouped'],
          },
        }),
      ),
    );
    assert.deepEqual(
      answers.map((a) => a.statusCode),
      titles.map(() => 201),
    );
    const list = await t.request({
      method: 'GET',
      url: '/cal/events/v1/events?start_date=2031-03-01&end_date=2031-03-31&per_page=50',
    });
    assert.equal(list.json().total, titles.length);
    assert.deepEqual(
      list
        .json()
        .events.map((e: { title: string }) => e.title)
        .sort(),
      [...titles].sort(),
    );
    const category = list.json().events[0].categories[0];
    const term = await t.request({ method: 'GET', url: `/cal/events/v1/categories/${category.id}` });
    assert.equal(term.json().count, titles.length);
  });
});
