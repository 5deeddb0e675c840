import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestApp, type TestApp } from '../helpers/app.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const PASSWORD = /^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/;

const basic = (username: string, password: string) =>
  `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI as an operator would, on the embedded database in `dataDir`. */
function cli(dataDir: string, ...args: string[]): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  delete env['DATABASE_URL'];
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli.ts', ...args],
      { cwd: ROOT, env },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

/** The printed application password: alone on stdout, so a script can capture it. */
function printedPassword(run: Run): string {
  assert.equal(run.code, 0, run.stderr);
  const password = run.stdout.trim();
  assert.match(password, PASSWORD);
  return password;
}

describe('cal-events CLI [sqlite]', () => {
  let dataDir: string;
  let t: TestApp;
  let alice: string;
  let root: string;

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-cli-'));
    alice = printedPassword(
      await cli(dataDir, 'user', 'add', 'alice', '--role', 'editor', '--email', 'alice@example.org'),
    );
    root = printedPassword(await cli(dataDir, 'user', 'add', 'root', '--role', 'administrator'));
    // The service on the same DATA_DIR, as `npm start` would open it.
    t = await createTestApp('sqlite', { DATA_DIR: dataDir });
  });
  after(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('should print an application password the service accepts', async () => {
    const asAlice = await t.request({ method: 'GET', url: '/', auth: basic('alice', alice) });
    assert.equal(asAlice.statusCode, 200);
    const forbidden = await t.request({ method: 'GET', url: '/cal/admin/v1/users', auth: basic('alice', alice) });
    assert.equal(forbidden.statusCode, 403, 'alice is an editor');
    const list = await t.request({ method: 'GET', url: '/cal/admin/v1/users', auth: basic('root', root) });
    assert.equal(list.statusCode, 200);
    const created = list.data.find((u: { username: string }) => u.username === 'alice');
    assert.deepEqual({ role: created.role, email: created.email }, { role: 'editor', email: 'alice@example.org' });
  });

  it('should list users', async () => {
    const run = await cli(dataDir, 'user', 'list');
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('\t'));
    assert.deepEqual(
      lines.map((l) => [l[1], l[2]]),
      [
        ['alice', 'editor'],
        ['root', 'administrator'],
      ],
    );
  });

  it('should add an application password beside the first', async () => {
    const second = printedPassword(await cli(dataDir, 'user', 'password', 'alice'));
    assert.notEqual(second, alice);
    for (const password of [alice, second]) {
      assert.equal((await t.request({ method: 'GET', url: '/', auth: basic('alice', password) })).statusCode, 200);
    }
  });

  it('should exit non-zero with a message on mistakes, changing nothing', async () => {
    // Each run costs a process start, so one of each kind of mistake.
    const [duplicate, badRole, noRole, unknownHeir, unknownCommand] = await Promise.all([
      cli(dataDir, 'user', 'add', 'alice', '--role', 'editor'),
      cli(dataDir, 'user', 'add', 'bob', '--role', 'boss'),
      cli(dataDir, 'user', 'add', 'bob'),
      cli(dataDir, 'user', 'remove', 'alice', '--reassign', 'nobody'),
      cli(dataDir, 'user', 'frobnicate', 'alice'),
    ]);
    assert.equal(duplicate.code, 1);
    assert.match(duplicate.stderr, /already exists/);
    assert.equal(badRole.code, 1);
    assert.match(badRole.stderr, /Unknown role "boss"/);
    assert.notEqual(noRole.code, 0);
    assert.match(noRole.stderr, /--role/);
    assert.equal(unknownHeir.code, 1);
    assert.match(unknownHeir.stderr, /No user named "nobody"/);
    assert.notEqual(unknownCommand.code, 0);
    assert.match(unknownCommand.stderr, /Usage/);
    for (const run of [duplicate, badRole, noRole, unknownHeir, unknownCommand])
      assert.equal(run.stdout, '', 'no password printed');

    const list = await cli(dataDir, 'user', 'list');
    assert.deepEqual(
      list.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t')[1]),
      ['alice', 'root'],
    );
  });

  it('should remove a user: their passwords stop working', async () => {
    // A password never used, so no cached verification of it can exist in the service.
    const unused = printedPassword(await cli(dataDir, 'user', 'password', 'alice'));
    const run = await cli(dataDir, 'user', 'remove', 'alice', '--reassign', 'root');
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /alice/);
    assert.equal((await t.request({ method: 'GET', url: '/', auth: basic('alice', unused) })).statusCode, 401);
  });

  it("should hand a removed user's records to the first other administrator by default, and refuse when there is none", async () => {
    printedPassword(await cli(dataDir, 'user', 'add', 'carl', '--role', 'author'));
    const removed = await cli(dataDir, 'user', 'remove', 'carl');
    assert.equal(removed.code, 0, removed.stderr);
    const lastAdmin = await cli(dataDir, 'user', 'remove', 'root');
    assert.equal(lastAdmin.code, 1);
    assert.match(lastAdmin.stderr, /reassign/);
  });
});
