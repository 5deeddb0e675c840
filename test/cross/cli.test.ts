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
    assert.equal(noRole.code, 2, 'a usage error');
    assert.match(noRole.stderr, /^cal-events user add: required option '-r, --role <role>' not specified/);
    assert.equal(unknownHeir.code, 1);
    assert.match(unknownHeir.stderr, /No user named "nobody"/);
    assert.equal(unknownCommand.code, 2);
    assert.match(unknownCommand.stderr, /^cal-events user: unknown command 'frobnicate'/);
    assert.match(unknownCommand.stderr, /^Usage: cal-events user /m, 'followed by the help of `user`');
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

  it('should answer --help and help COMMAND with the options of each command, on stdout, exit 0', async () => {
    const options: Record<string, string[]> = {
      user: ['add', 'list', 'remove', 'password'],
      'user add': ['<name>', '-r, --role <role>', '--email <address>', '--login-password', '--login-password-stdin'],
      'user list': [],
      'user remove': ['<name>', '--reassign <name>'],
      'user password': ['<name>', '--label <label>', '--login'],
      import: [
        ...['--from <url>', '--ics <file or url>', '--user <name>', '--password <app-password>', '--languages <list>'],
        ...['--since <YYYY-MM-DD>', '--calendar-name <name>', '--category <name>', '--language <code>'],
        ...[
          '--author <name>',
          '--dry-run',
          '--prune',
          '--report <file>',
          'Exit status: 0 imported; 3 finished with skips',
        ],
      ],
      copy: ['--to <location>', '--from <location>', '--replace'],
      backup: ['<file>'],
      restore: ['<file>'],
    };
    const commands = Object.keys(options);
    const [top, ...runs] = await Promise.all([
      cli(dataDir, '--help'),
      ...commands.map((command) => cli(dataDir, ...command.split(' '), '--help')),
    ]);
    assert.equal(top!.code, 0, top!.stderr);
    assert.equal(top!.stderr, '');
    for (const command of ['user', 'import', 'copy', 'backup', 'restore', 'help'])
      assert.match(top!.stdout, new RegExp(`^  ${command}\\b`, 'm'), `${command} listed`);
    assert.match(top!.stdout, /Exit status: 0 done; 1 .*; 2 a usage error .*; 3 import finished with skips/s);
    runs.forEach((run, i) => {
      const command = commands[i]!;
      assert.equal(run.code, 0, `${command}: ${run.stderr}`);
      assert.equal(run.stderr, '', command);
      assert.ok(run.stdout.startsWith(`Usage: cal-events ${command} `), run.stdout);
      for (const option of options[command]!) assert.ok(run.stdout.includes(option), `${command}: ${option}`);
    });
    // The help command gives the same text, however deep the command.
    const viaHelp = await Promise.all(['import', 'user add'].map((c) => cli(dataDir, 'help', ...c.split(' '))));
    for (const [i, command] of ['import', 'user add'].entries()) {
      assert.equal(viaHelp[i]!.code, 0, viaHelp[i]!.stderr);
      assert.equal(viaHelp[i]!.stdout, runs[commands.indexOf(command)]!.stdout, command);
    }
  });

  it('should name the command in a usage error, exit 2 and change nothing', async () => {
    const [unknownOption, unknownUserOption, missingFile, unknownHelp, bothSources, noCommand] = await Promise.all([
      cli(dataDir, 'import', '--ics', 'calendar.ics', '--frobnicate'),
      cli(dataDir, 'user', 'add', 'bob', '--role', 'editor', '--frobnicate'),
      cli(dataDir, 'backup'),
      cli(dataDir, 'help', 'user', 'frobnicate'),
      cli(dataDir, 'import', '--from', 'https://example.org/wp-json/', '--ics', 'calendar.ics'),
      cli(dataDir),
    ]);
    const expected: [Run, RegExp][] = [
      [unknownOption, /^cal-events import: unknown option '--frobnicate'/],
      [unknownUserOption, /^cal-events user add: unknown option '--frobnicate'/],
      [missingFile, /^cal-events backup: missing required argument 'file'/],
      [unknownHelp, /^cal-events help: unknown command 'cal-events user frobnicate'/],
      [
        bothSources,
        /^cal-events import: Give either --from or --ics\.\n\(cal-events import --help lists its options\)/,
      ],
      [noCommand, /^Usage: cal-events \[options\] \[command\]/],
    ];
    for (const [run, message] of expected) {
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, message);
      assert.equal(run.stdout, '');
    }
    const list = await cli(dataDir, 'user', 'list');
    assert.ok(!list.stdout.includes('bob'), 'bob was not created');
  });

  it('should exit 3 when an import finishes with skips, and 0 when nothing was skipped', async () => {
    const file = path.join(dataDir, 'one-bad.ics');
    const vevent = (uid: string, lines: string[]) => ['BEGIN:VEVENT', `UID:${uid}`, ...lines, 'END:VEVENT'];
    const calendar = (...events: string[][]) =>
      ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//cli test//EN', ...events.flat(), 'END:VCALENDAR', ''].join('\r\n');
    const good = vevent('good@cli.test', ['DTSTAMP:20300101T000000Z', 'DTSTART:20300105T100000Z', 'SUMMARY:Good']);
    // RFC 5545 requires DTSTART in a calendar without METHOD: no event can be made of this one.
    const bad = vevent('bad@cli.test', ['DTSTAMP:20300101T000000Z', 'SUMMARY:No start']);
    fs.writeFileSync(file, calendar(good, bad));
    const withSkip = await cli(dataDir, 'import', '--ics', file);
    assert.equal(withSkip.code, 3, withSkip.stderr);
    assert.match(withSkip.stdout, /^event +\S+ +1 +0 +0 +1 +0$/m, 'one created, one skipped');
    assert.match(withSkip.stdout, /^skipped event bad@cli\.test /m);
    fs.writeFileSync(file, calendar(good));
    const clean = await cli(dataDir, 'import', '--ics', file);
    assert.equal(clean.code, 0, clean.stderr);
    assert.match(clean.stdout, /^event +\S+ +0 +0 +1 +0 +0$/m, 'the good event unchanged');
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
