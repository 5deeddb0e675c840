import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestApp, type TestApp } from '../helpers/app.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const ADMIN = '/cal/admin/v1';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI as a script would, on the embedded database in `dataDir`, with `input` on stdin (none: stdin closed). */
function cli(dataDir: string, input: string | null, ...args: string[]): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent' };
  delete env['DATABASE_URL'];
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['--import', 'tsx', 'src/cli.ts', ...args],
      { cwd: ROOT, env },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
    if (input !== null) child.stdin!.end(input);
  });
}

describe('cal-events CLI: login passwords [sqlite]', () => {
  let dataDir: string;
  let t: TestApp;

  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-cli-login-'));
    const first = await cli(dataDir, null, 'user', 'add', 'first', '--role', 'administrator');
    assert.equal(first.code, 0, first.stderr);
    t = await createTestApp('sqlite', { DATA_DIR: dataDir });
  });
  after(async () => {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const signIn = (username: string, password: string) =>
    t.request({ method: 'POST', url: `${ADMIN}/session`, payload: { username, password } });

  it('should set a login password read from stdin with --login-password-stdin, and still print only the application password', async () => {
    const run = await cli(
      dataDir,
      'carol passphrase one\n',
      'user',
      'add',
      'carol',
      '--role',
      'author',
      '--login-password-stdin',
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout.trim(), /^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/);
    assert.ok(!run.stdout.includes('carol passphrase') && !run.stderr.includes('carol passphrase'));
    const res = await signIn('carol', 'carol passphrase one');
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.data.user.role, 'author');
  });

  it('should read stdin for --login-password when it is not a terminal', async () => {
    const run = await cli(
      dataDir,
      'dan passphrase one\r\n',
      'user',
      'add',
      'dan',
      '--role',
      'editor',
      '--login-password',
    );
    assert.equal(run.code, 0, run.stderr);
    assert.equal((await signIn('dan', 'dan passphrase one')).statusCode, 200);
  });

  it('should not ask for a login password without a flag (scripts keep working), leaving none', async () => {
    const run = await cli(dataDir, null, 'user', 'add', 'erin', '--role', 'author');
    assert.equal(run.code, 0, run.stderr);
    assert.equal((await signIn('erin', 'anything at all')).statusCode, 401);
  });

  it('should refuse a short login password and create nothing', async () => {
    const run = await cli(dataDir, 'short\n', 'user', 'add', 'fred', '--role', 'author', '--login-password-stdin');
    assert.equal(run.code, 1);
    assert.match(run.stderr, /8 to 1024 characters/);
    const list = await cli(dataDir, null, 'user', 'list');
    assert.ok(!list.stdout.includes('fred'));
  });

  it("should reset a login password with `user password NAME --login`, printing nothing secret and ending the user's sessions", async () => {
    const before = await signIn('carol', 'carol passphrase one');
    assert.equal(before.statusCode, 200);
    const cookie = /^(cal_session=[^;]+);/.exec(String(before.headers['set-cookie']))![1]!;
    const me = () =>
      t.request({ method: 'GET', url: `${ADMIN}/users/me`, headers: { cookie, 'x-cal-nonce': before.data.nonce } });
    assert.equal((await me()).statusCode, 200);

    const run = await cli(dataDir, 'carol passphrase two\n', 'user', 'password', 'carol', '--login');
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, '', 'nothing on stdout');
    assert.ok(!run.stderr.includes('passphrase'));
    assert.equal((await me()).statusCode, 401, 'the running service ends the session at once');
    assert.equal((await signIn('carol', 'carol passphrase one')).statusCode, 401);
    assert.equal((await signIn('carol', 'carol passphrase two')).statusCode, 200);
  });

  it('should refuse an empty stdin for --login', async () => {
    const run = await cli(dataDir, '', 'user', 'password', 'carol', '--login');
    assert.equal(run.code, 1);
    assert.match(run.stderr, /No login password on stdin/);
  });

  it('should name the flags in the help of each command', async () => {
    const [add, password] = await Promise.all([
      cli(dataDir, null, 'user', 'add', '--help'),
      cli(dataDir, null, 'help', 'user', 'password'),
    ]);
    assert.equal(add.code, 0, add.stderr);
    for (const flag of ['--login-password ', '--login-password-stdin']) assert.ok(add.stdout.includes(flag), flag);
    assert.equal(password.code, 0, password.stderr);
    assert.match(password.stdout, /^ +--login +reset the login password/m);
  });
});
