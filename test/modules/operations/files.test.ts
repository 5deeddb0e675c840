import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { connect, migrate, SQLITE_FILE } from '../../../src/db/connect.js';
import { backup, BackupError, restore } from '../../../src/modules/operations/backup.service.js';
import { holdPidFile, PidFileError } from '../../../src/modules/operations/operations.pid-file.js';
import { createUser } from '../../../src/modules/users/user.service.js';
import { tmpDir } from '../../helpers/ops.js';

/**
 * The embedded database's files on disk (issue #25): who may read them, and what a file put in
 * the service's way (a symbolic link, a name taken meanwhile, a crafted backup) can make it do.
 * SQLite only: these are SQLite's files.
 */

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;
const octal = (mode: number) => mode.toString(8);

/** A migrated database in a new DATA_DIR, with a write so that SQLite has made its WAL and shared memory. */
async function database(dataDir = tmpDir('cal-files-')): Promise<string> {
  const storage = await connect({ dataDir });
  await migrate(storage.db);
  await createUser(storage.db, { username: 'keeper', role: 'author' });
  await storage.close();
  return dataDir;
}

/** Every process warning emitted while `work` runs. */
async function warningsOf(work: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const listen = (warning: Error) => seen.push(warning.message);
  process.on('warning', listen);
  try {
    await work();
    // Warnings are emitted on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('warning', listen);
  }
  return seen;
}

/** The schema as sqlite_master holds it: every table, index, trigger and view with its SQL. */
function schemaOf(file: string): { type: string; name: string; sql: string | null }[] {
  const db = new SQLite(file, { readonly: true });
  try {
    return db
      .prepare("select type, name, sql from sqlite_master where name not like 'sqlite_%' order by type, name")
      .all() as { type: string; name: string; sql: string | null }[];
  } finally {
    db.close();
  }
}

describe('files of the embedded database', () => {
  it('should make DATA_DIR 0700 and the database, its WAL and shared memory 0600', async () => {
    const dataDir = path.join(tmpDir('cal-files-parent-'), 'data');
    await database(dataDir);
    assert.equal(octal(modeOf(dataDir)), '700');
    const file = path.join(dataDir, SQLITE_FILE);
    // Held open, as a running service holds it: SQLite keeps its WAL and shared memory meanwhile.
    const open = new SQLite(file);
    open.prepare('select count(*) from users').get();
    try {
      for (const name of [file, `${file}-wal`, `${file}-shm`]) assert.equal(octal(modeOf(name)), '600', name);
    } finally {
      open.close();
    }
  });

  it('should narrow the DATA_DIR and files an earlier version made readable by all', async () => {
    const dataDir = await database();
    const file = path.join(dataDir, SQLITE_FILE);
    fs.chmodSync(dataDir, 0o755);
    for (const name of [file, `${file}-wal`, `${file}-shm`]) if (fs.existsSync(name)) fs.chmodSync(name, 0o644);
    fs.writeFileSync(`${file}-wal`, '', { flag: 'a', mode: 0o644 });
    const storage = await connect({ dataDir });
    await storage.close();
    assert.equal(octal(modeOf(dataDir)), '700');
    for (const name of [file, `${file}-wal`].filter((n) => fs.existsSync(n)))
      assert.equal(octal(modeOf(name)), '600', name);
  });

  it(
    'should leave a DATA_DIR it does not own as it is, and warn',
    { skip: process.getuid?.() !== 0 && 'needs root to give a directory away' },
    async () => {
      const dataDir = tmpDir('cal-files-theirs-');
      fs.chmodSync(dataDir, 0o755);
      fs.chownSync(dataDir, 65534, 65534);
      const warnings = await warningsOf(async () => (await connect({ dataDir })).close());
      assert.equal(octal(modeOf(dataDir)), '755', 'not ours to change');
      assert.ok(
        warnings.some((w) => w.includes(dataDir) && /readable by others \(mode 755\)/.test(w)),
        warnings.join('\n'),
      );
    },
  );
});

describe('the pid file', () => {
  it('should be made 0600, replacing a stale one', () => {
    const dataDir = tmpDir('cal-pid-');
    const pidFile = path.join(dataDir, 'cal-events.pid');
    fs.writeFileSync(pidFile, '999999', { mode: 0o644 });
    holdPidFile(dataDir);
    assert.equal(fs.readFileSync(pidFile, 'utf8'), String(process.pid));
    assert.equal(octal(modeOf(pidFile)), '600');
    assert.ok(!fs.lstatSync(pidFile).isSymbolicLink());
  });

  it('should refuse a symbolic link in its place, and never write through it', () => {
    const dataDir = tmpDir('cal-pid-link-');
    const victim = path.join(tmpDir('cal-pid-victim-'), 'important.conf');
    fs.writeFileSync(victim, 'keep me\n', { mode: 0o644 });
    fs.symlinkSync(victim, path.join(dataDir, 'cal-events.pid'));
    assert.throws(
      () => holdPidFile(dataDir),
      (error: Error) => error instanceof PidFileError && /is a symbolic link/.test(error.message),
    );
    assert.equal(fs.readFileSync(victim, 'utf8'), 'keep me\n');
    assert.equal(octal(modeOf(victim)), '644');
    // A dangling link (to a file the service could create) is refused too.
    const dangling = tmpDir('cal-pid-dangling-');
    const wouldBe = path.join(tmpDir('cal-pid-elsewhere-'), 'created');
    fs.symlinkSync(wouldBe, path.join(dangling, 'cal-events.pid'));
    assert.throws(() => holdPidFile(dangling), PidFileError);
    assert.ok(!fs.existsSync(wouldBe));
  });
});

describe('backup files', () => {
  it('should write a 0600 backup and leave nothing else beside it', async () => {
    const dataDir = await database();
    const dir = tmpDir('cal-backup-files-');
    const file = path.join(dir, 'calendar.backup');
    await backup(dataDir, file);
    assert.equal(octal(modeOf(file)), '600');
    assert.deepEqual(fs.readdirSync(dir), ['calendar.backup'], 'no partial copy, no -wal or -shm');
    // Opening it (read-only, as a check or a restore does) makes nothing beside it either.
    new SQLite(file, { readonly: true }).prepare('select count(*) from users').get();
    assert.deepEqual(fs.readdirSync(dir), ['calendar.backup']);
  });

  it('should never overwrite a file that takes the name while the backup is made', async () => {
    const dataDir = await database();
    const dir = tmpDir('cal-backup-race-');
    const file = path.join(dir, 'calendar.backup');
    const making = backup(dataDir, file);
    making.catch(() => undefined);
    // Once the copy is under way beside it, someone takes the name.
    while (!fs.readdirSync(dir).some((name) => name.includes('.partial')))
      await new Promise((resolve) => setImmediate(resolve));
    fs.writeFileSync(file, 'not yours');
    await assert.rejects(
      making,
      (error: Error) => error instanceof BackupError && /appeared while the backup was made/.test(error.message),
    );
    assert.equal(fs.readFileSync(file, 'utf8'), 'not yours');
    assert.deepEqual(fs.readdirSync(dir), ['calendar.backup'], 'the partial copy is gone');
  });

  it('should back up and restore names SQLite alone would fold wrongly', async () => {
    // Expression indexes on lower(): SQLite's integrity check recomputes them with the service's lower().
    const dataDir = tmpDir('cal-backup-unicode-');
    const storage = await connect({ dataDir });
    await migrate(storage.db);
    await storage.db
      .insertInto('terms')
      .values({
        taxonomy: 'cal_events_cat',
        lang: 'fr',
        trid: 1,
        name: 'ÉTÉ',
        slug: 'ete',
        description: '',
        parent: 0,
        count: 0,
      })
      .execute();
    await storage.close();
    const file = path.join(tmpDir('cal-backup-unicode-file-'), 'calendar.backup');
    await backup(dataDir, file);
    await restore(tmpDir('cal-restore-unicode-'), file);
  });
});

describe('restore of a crafted backup', () => {
  it("should put the backup's rows in place, never its triggers, views or changed definitions", async () => {
    const dataDir = await database();
    const file = path.join(tmpDir('cal-crafted-'), 'crafted.backup');
    await backup(dataDir, file);
    const reference = schemaOf(path.join(dataDir, SQLITE_FILE));
    // What someone who can hand an operator a backup could add: a trigger that promotes every
    // user, a view exposing the password hashes, and one of the service's own triggers rewritten.
    const crafted = new SQLite(file);
    const ours = crafted
      .prepare("select name, tbl_name as tableName from sqlite_master where type = 'trigger' order by name limit 1")
      .get() as { name: string; tableName: string };
    crafted.exec(`
      create trigger promote after insert on users begin update users set role = 'administrator'; end;
      create view leaked as select user_id, password from app_passwords;
      drop trigger ${ours.name};
      create trigger ${ours.name} after insert on ${ours.tableName} begin update users set role = 'administrator'; end;
    `);
    crafted.close();

    const target = tmpDir('cal-crafted-target-');
    await restore(target, file);
    const restored = path.join(target, SQLITE_FILE);
    assert.deepEqual(schemaOf(restored), reference, "the schema is this version's, to the letter");
    assert.equal(octal(modeOf(restored)), '600');
    assert.deepEqual(
      fs.readdirSync(target).filter((name) => !name.startsWith(SQLITE_FILE)),
      [],
      'no work files left',
    );

    const storage = await connect({ dataDir: target });
    try {
      await migrate(storage.db);
      await createUser(storage.db, { username: 'newcomer', role: 'subscriber' });
      const roles = await storage.db.selectFrom('users').select(['username', 'role']).orderBy('username').execute();
      assert.deepEqual(roles, [
        { username: 'keeper', role: 'author' },
        { username: 'newcomer', role: 'subscriber' },
      ]);
    } finally {
      await storage.close();
    }
  });

  it('should refuse a backup with tables or columns the migrations do not make, changing nothing', async () => {
    const dataDir = await database();
    const backups = tmpDir('cal-altered-');
    for (const [name, alteration, reason] of [
      ['table', 'create table stash (secret text)', /no place for stash/],
      ['column', "alter table users add column note text default 'x'", /no place for users\.note/],
    ] as const) {
      const file = path.join(backups, `${name}.backup`);
      await backup(dataDir, file);
      const altered = new SQLite(file);
      altered.exec(alteration);
      altered.close();
      const target = path.join(tmpDir('cal-altered-target-'), 'data');
      await assert.rejects(
        restore(target, file),
        (error: Error) =>
          error instanceof BackupError && reason.test(error.message) && /Nothing was changed/.test(error.message),
      );
      assert.ok(!fs.existsSync(target), 'not even the DATA_DIR was made');
    }
  });

  it('should restore a backup of an earlier version at its version, for the service to migrate', async () => {
    const dataDir = tmpDir('cal-earlier-');
    const storage = await connect({ dataDir });
    await migrate(storage.db, '016_change_log');
    await createUser(storage.db, { username: 'veteran', role: 'editor' });
    await storage.close();
    const file = path.join(tmpDir('cal-earlier-file-'), 'earlier.backup');
    await backup(dataDir, file);
    const target = tmpDir('cal-earlier-target-');
    await restore(target, file);
    assert.deepEqual(schemaOf(path.join(target, SQLITE_FILE)), schemaOf(path.join(dataDir, SQLITE_FILE)));
    const restored = await connect({ dataDir: target });
    try {
      await migrate(restored.db);
      assert.ok(await restored.db.selectFrom('webhooks').select('id').execute(), 'the later migrations ran');
    } finally {
      await restored.close();
    }
  });
});
