import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { connect, migrate, SQLITE_FILE } from '../../../src/db/connect.js';
import { backup, BackupError, restore } from '../../../src/modules/operations/backup.service.js';
import { runCli, startServer, tmpDir } from '../../helpers/ops.js';

const API = '/cal/events/v1';
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const count = (db: SQLite.Database, query: string) => (db.prepare(query).get() as { n: number }).n;

/** What a backup must hold to be usable: SQLite's checks, and every derived count agreeing with its rows. */
function assertConsistent(file: string): number {
  const db = new SQLite(file);
  try {
    assert.equal(db.pragma('integrity_check', { simple: true }), 'ok');
    assert.deepEqual(db.pragma('foreign_key_check'), []);
    db.exec("insert into events_search(events_search) values ('integrity-check')");
    const events = count(db, 'select count(*) as n from events');
    assert.equal(count(db, "select count(*) as n from posts where type = 'event'"), events, 'every event has its post');
    const listed = count(db, "select count(*) as n from events where status = 'publish' and hide_from_listings = 0");
    assert.equal(
      count(db, 'select coalesce(sum(n), 0) as n from event_window_counts'),
      listed,
      'per-day counts agree with the events',
    );
    const term = db.prepare("select id, count from terms where name = 'Backups'").get() as {
      id: number;
      count: number;
    };
    assert.equal(
      count(db, `select count(*) as n from event_terms where term_id = ${term.id}`),
      events,
      'each event came whole, with its category',
    );
    assert.equal(term.count, listed, 'the term count agrees with its events');
    return events;
  } finally {
    db.close();
  }
}

describe('backup and restore of the embedded database', () => {
  it('should back up while the service writes, refuse to restore under it, restore once it stopped, and log no secret', async () => {
    const dataDir = tmpDir('cal-running-');
    const password = 'a-long-secret-password-9';
    const auth = basic('admin', password);
    const server = await startServer({ DATA_DIR: dataDir, CAL_ADMIN_PASSWORD: password });
    // What the service writes is its user's alone: it holds password hashes and webhook secrets.
    for (const name of ['cal-events.pid', SQLITE_FILE, `${SQLITE_FILE}-wal`, `${SQLITE_FILE}-shm`]) {
      assert.equal((fs.statSync(path.join(dataDir, name)).mode & 0o777).toString(8), '600', name);
    }
    let writing = true;
    let written = 0;
    const post = (title: string, address = server.address) =>
      fetch(`${address}${API}/events`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({
          title,
          status: 'publish',
          start_date: '2030-02-01 10:00:00',
          end_date: '2030-02-01 11:00:00',
          categories: ['Backups'],
          tags: ['during'],
        }),
      });
    const writes = (async () => {
      while (writing) {
        assert.equal((await post(`Written during the backup ${written}`)).status, 201);
        written += 1;
      }
    })();
    while (written < 10) await new Promise((resolve) => setTimeout(resolve, 10));
    const before = written;
    const file = path.join(tmpDir('cal-backups-'), 'calendar.backup');
    const made = await runCli(['backup', file], { DATA_DIR: dataDir });
    const after = written;
    writing = false;
    await writes;
    assert.equal(made.code, 0, made.stderr);
    assert.match(made.stderr, /Backed up .* integrity and foreign-key checks/);
    assert.ok(after > before, 'the service wrote while the backup ran');
    assert.equal((fs.statSync(file).mode & 0o777).toString(8), '600');
    assert.deepEqual(fs.readdirSync(path.dirname(file)), ['calendar.backup'], 'nothing left beside it');
    const backedUp = assertConsistent(file);
    assert.ok(backedUp >= before && backedUp <= written, `${backedUp} events: between ${before} and ${written}`);

    const refused = await runCli(['restore', file], { DATA_DIR: dataDir });
    assert.equal(refused.code, 1);
    assert.match(
      refused.stderr,
      new RegExp(`A service \\(pid ${server.pid}\\) is running on .*: stop it first, then restore`),
    );
    const overwritten = await runCli(['copy', '--from', tmpDir('cal-other-'), '--to', dataDir], {});
    assert.equal(overwritten.code, 1);
    assert.match(overwritten.stderr, /is running on .*: stop it before copying into it/);
    assert.equal(await server.stop(), 0);

    const restored = await runCli(['restore', file], { DATA_DIR: dataDir });
    assert.equal(restored.code, 0, restored.stderr);
    const again = await startServer({ DATA_DIR: dataDir });
    try {
      const list = await fetch(`${again.address}${API}/events?start_date=2030-01-01&end_date=2030-12-31&per_page=1`);
      assert.equal(list.headers.get('x-cal-total'), String(backedUp), 'the restored service serves the backup');
      const highest = count(new SQLite(file, { readonly: true }), 'select max(id) as n from posts');
      const next = (await (await post('After the restore', again.address)).json()) as { id: number };
      assert.ok(next.id > highest, 'new ids continue after the backup');
    } finally {
      assert.equal(await again.stop(), 0);
    }

    const logged = [...server.lines, ...again.lines].join('\n');
    assert.ok(!logged.includes(password) && !logged.includes(auth.slice(6)), 'no password, no Authorization header');
    const configuration = JSON.parse(server.lines.find((l) => l.includes('"msg":"configuration"'))!);
    assert.equal(configuration.configuration.adminPassword, '***');
    assert.equal(configuration.configuration.dataDir, dataDir);
    const request = server.lines
      .map((l) => JSON.parse(l))
      .find((l) => l.msg === 'request completed' && l.method === 'POST');
    assert.equal(request.route, `${API}/events`);
    assert.equal(typeof request.user, 'number');
  });

  it('should take one snapshot of a database another process writes without pause', async () => {
    const dataDir = tmpDir('cal-busy-');
    const storage = await connect({ dataDir });
    await migrate(storage.db);
    await storage.close();
    // Some 8 MB, and a writer with a connection of its own, as a service has, committing row after row.
    const db = new SQLite(path.join(dataDir, SQLITE_FILE));
    const fill = db.prepare("insert into settings (key, value) values (?, printf('%.2000c', 'x'))");
    db.transaction(() => {
      for (let i = 0; i < 4000; i += 1) fill.run(`filler-${i}`);
    })();
    db.close();
    const writer = spawn(
      process.execPath,
      [
        '-e',
        `const db = new (require('better-sqlite3'))(${JSON.stringify(path.join(dataDir, SQLITE_FILE))}, { timeout: 5000 });
         const put = db.prepare("insert into settings (key, value) values (?, 'w')");
         // Said once some rows are committed: on a loaded machine the process may start slowly.
         for (let i = 0; ; i += 1) { put.run('written-' + i); if (i === 10) process.stdout.write('writing\\n'); }`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise((resolve) => writer.stdout!.once('data', resolve));
    const file = path.join(tmpDir('cal-busy-backup-'), 'busy.backup');
    const started = performance.now();
    try {
      await backup(dataDir, file);
    } finally {
      writer.kill();
    }
    assert.ok(performance.now() - started < 10_000);
    const copy = new SQLite(file, { readonly: true });
    assert.equal(count(copy, "select count(*) as n from settings where key like 'filler-%'"), 4000);
    // One moment's state: each row was its own commit, so the copy holds rows 0…k-1 and no other.
    const rows = count(copy, "select count(*) as n from settings where key like 'written-%'");
    const last = count(
      copy,
      "select coalesce(max(cast(substr(key, 9) as integer)), -1) as n from settings where key like 'written-%'",
    );
    assert.ok(rows > 0, 'the writer was writing');
    assert.equal(last, rows - 1);
    copy.close();
  });

  it('should restore only a sound database of this service, of this version or an earlier one', async () => {
    const dataDir = tmpDir('cal-restore-');
    const storage = await connect({ dataDir });
    await migrate(storage.db);
    await storage.close();
    const good = path.join(tmpDir('cal-good-'), 'good.backup');
    await backup(dataDir, good);
    await assert.rejects(
      backup(dataDir, good),
      (error: Error) => error instanceof BackupError && /exists/.test(error.message),
      'never overwrites a file',
    );

    const files = tmpDir('cal-bad-');
    const text = path.join(files, 'notes.txt');
    fs.writeFileSync(text, 'not a database');
    const foreign = path.join(files, 'foreign.sqlite');
    new SQLite(foreign).exec('create table notes (body text)');
    const later = path.join(files, 'later.sqlite');
    fs.copyFileSync(good, later);
    new SQLite(later).exec(
      "insert into kysely_migration (name, timestamp) values ('999_from_the_future', '2099-01-01T00:00:00.000Z')",
    );
    const target = tmpDir('cal-restore-target-');
    for (const [file, reason] of [
      [text, /cannot be read \(file is not a database\)/],
      [foreign, /not a database of this service/],
      [later, /later version \(migrations 999_from_the_future/],
      [path.join(files, 'missing.sqlite'), /cannot be opened/],
    ] as const) {
      await assert.rejects(
        restore(target, file),
        (error: Error) =>
          error instanceof BackupError && reason.test(error.message) && /nothing was changed/.test(error.message),
      );
      assert.ok(!fs.existsSync(path.join(target, SQLITE_FILE)), 'nothing was changed');
    }
    await restore(target, good);
    assert.ok(fs.existsSync(path.join(target, SQLITE_FILE)));
    // Without a pid file (a service started otherwise, a cal-events command): SQLite's lock tells.
    const holder = new SQLite(path.join(target, SQLITE_FILE));
    holder.prepare('select 1').get();
    await assert.rejects(
      restore(target, good),
      (error: Error) => error instanceof BackupError && /A process has .* open: stop it first/.test(error.message),
    );
    holder.close();
    await restore(target, good);
  });

  it('should print the pg_dump and pg_restore commands on PostgreSQL', async () => {
    const run = await runCli(['backup', 'calendar.dump'], { DATABASE_URL: 'postgres://cal@db.example:5432/calendar' });
    assert.equal(run.code, 2);
    assert.match(run.stderr, /pg_dump --format=custom --file=calendar\.dump "\$DATABASE_URL"/);
    assert.match(run.stderr, /pg_restore --clean --if-exists --no-owner --dbname="\$DATABASE_URL" calendar\.dump/);
  });
});
