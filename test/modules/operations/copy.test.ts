import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import SQLite from 'better-sqlite3';
import { connect, migrate, SQLITE_FILE } from '../../../src/db/connect.js';
import { copyDatabase, CopyError } from '../../../src/modules/operations/copy.service.js';
import { createTestApp, type TestApp } from '../../helpers/app.js';
import { createScratchDatabase } from '../../helpers/scratch-postgres.js';
import { appOn, runCli, tmpDir } from '../../helpers/ops.js';

const API = '/cal/events/v1';
const ADMIN = '/cal/admin/v1';
const ADMIN_URL = process.env['TEST_DATABASE_URL'];
const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** Answers every webhook delivery at once, so the deliveries settle before the walk. */
async function webhookReceiver(): Promise<{ url: string; close(): void }> {
  const server = http.createServer((request, response) =>
    request.resume().on('end', () => response.writeHead(204).end()),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, close: () => server.close() };
}

/** Serves one iCalendar file, for an import through the admin route. */
async function icsServer(): Promise<{ url: string; close(): void }> {
  const file = fileURLToPath(new URL('../../fixtures/ics/outlook-export.ics', import.meta.url));
  const server = http.createServer((_request, response) =>
    response.writeHead(200, { 'content-type': 'text/calendar' }).end(fs.readFileSync(file)),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/calendar.ics`,
    close: () => server.close(),
  };
}

interface Filled {
  /** Basic headers of users whose passwords were made on the source (their hashes travel with the copy). */
  walkers: Record<string, string | undefined>;
  /** A record of each kind the walk reads one by one. */
  slugs: { event: string; venue: string };
}

/** Fills a database with every kind of record the service keeps, through the API, as users would. */
async function fill(t: TestApp): Promise<Filled> {
  const adminUser = await t.asUser('administrator', 'copyadmin');
  const auth = adminUser.authorization;
  const send = async (
    method: 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    url: string,
    payload?: Record<string, unknown>,
    as = auth,
  ) => {
    const res = await t.request({ method, url, auth: as, ...(payload ? { payload } : {}) });
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
    return res.data;
  };
  // Users of every role, passwords added and revoked, a user removed.
  await send('PATCH', `${ADMIN}/settings`, {
    timezone: 'Europe/Paris',
    geoloc: true,
    geoloc_radius: 40,
    geoloc_unit: 'km',
  });
  const author = await send('POST', `${ADMIN}/users`, {
    username: 'copyauthor',
    role: 'author',
    email: 'author@example.com',
  });
  const authorAuth = basic('copyauthor', author.application_password);
  for (const role of ['editor', 'contributor', 'subscriber'])
    await send('POST', `${ADMIN}/users`, { username: `copy${role}`, role });
  const spare = await send('POST', `${ADMIN}/users/${author.id}/application-passwords`, { name: 'spare' });
  assert.ok(spare.application_password);
  const passwords = (await t.request({ method: 'GET', url: `${ADMIN}/users/${author.id}/application-passwords`, auth }))
    .data;
  await send('DELETE', `${ADMIN}/users/${author.id}/application-passwords/${passwords.at(-1).id}`);
  const leaving = await send('POST', `${ADMIN}/users`, { username: 'copyleaving', role: 'author' });
  const leavingAuth = basic('copyleaving', leaving.application_password);

  // Linked records and terms, with translations and a hierarchy.
  const venue = await send('POST', `${API}/venues`, {
    venue: 'Copy hall',
    address: '1 quai',
    city: 'Lyon',
    country: 'France',
    geo_lat: 45.76,
    geo_lng: 4.83,
    status: 'publish',
  });
  await send('POST', `/fr${API}/venues`, { venue: 'Salle copiée', city: 'Lyon', translation_of: venue.id });
  await send('POST', `${API}/venues`, { venue: 'Draft cellar', status: 'draft' });
  const organizer = await send('POST', `${API}/organizers`, {
    organizer: 'Copy org',
    email: 'org@example.com',
    website: 'https://org.example.com',
  });
  await send('POST', `/it${API}/organizers`, { organizer: 'Organizzatore', translation_of: organizer.id });
  const music = await send('POST', `${API}/categories`, { name: 'Music', description: 'All music' });
  const jazz = await send('POST', `${API}/categories`, { name: 'Jazz', parent: music.id });
  await send('POST', `/fr${API}/categories`, { name: 'Musique', translation_of: music.id });
  const gone = await send('POST', `${API}/tags`, { name: 'gone-tag' });

  // Events of every shape.
  const day = (d: string, from: string, to: string) => ({
    start_date: `2030-03-${d} ${from}:00`,
    end_date: `2030-03-${d} ${to}:00`,
  });
  const concert = await send('POST', `${API}/events`, {
    title: 'Copied concert',
    description: '<p>An evening of <strong>jazz</strong> by the river.</p>',
    status: 'publish',
    ...day('01', '20:00', '22:00'),
    timezone: 'Europe/Paris',
    venue: venue.id,
    organizer: [organizer.id],
    categories: [jazz.id],
    tags: ['copy', 'river'],
    image: 'https://example.com/poster.jpg',
    cost: '12',
    featured: true,
    sticky: true,
  });
  await send('POST', `/fr${API}/events`, {
    title: 'Concert copié',
    status: 'publish',
    ...day('01', '20:00', '22:00'),
    timezone: 'Europe/Paris',
    translation_of: concert.id,
    venue: venue.id,
  });
  await send('POST', `${API}/events`, {
    title: 'Same poster',
    status: 'publish',
    ...day('02', '10:00', '11:00'),
    image: concert.image.id,
    categories: [music.id],
  });
  await send('POST', `${API}/events`, {
    title: 'Whole day fair',
    status: 'publish',
    all_day: true,
    ...day('03', '00:00', '23:59'),
    tags: [gone.id],
  });
  await send('POST', `${API}/events`, {
    title: 'Private rehearsal',
    status: 'private',
    ...day('04', '18:00', '19:00'),
  });
  await send('POST', `${API}/events`, {
    title: 'Members only',
    status: 'publish',
    password: 'open-sesame',
    ...day('05', '18:00', '19:00'),
  });
  await send(
    'POST',
    `${API}/events`,
    { title: 'Author draft', status: 'draft', ...day('06', '18:00', '19:00') },
    authorAuth,
  );
  await send(
    'POST',
    `${API}/events`,
    { title: 'Left behind', status: 'publish', ...day('07', '18:00', '19:00') },
    leavingAuth,
  );
  const trashed = await send('POST', `${API}/events`, {
    title: 'Trashed copy',
    status: 'publish',
    ...day('08', '18:00', '19:00'),
  });
  await send('DELETE', `${API}/events/${trashed.id}`);
  const series = await send('POST', `${API}/events`, {
    title: 'Copied series',
    status: 'publish',
    start_date: '2027-04-05 18:00:00',
    end_date: '2027-04-05 19:00:00',
    recurrence: { rrule: 'FREQ=WEEKLY;COUNT=4', exdates: ['2027-04-19'] },
  });
  const occurrences = (
    await t.request({
      method: 'GET',
      url: `${API}/events?post_parent=${series.id}&start_date=2027-04-01&end_date=2027-05-31`,
      auth,
    })
  ).data.events;
  await send('POST', `${API}/events/${occurrences[0].id}`, { title: 'Copied series (moved room)' });
  await send('DELETE', `${ADMIN}/users/${leaving.id}?reassign=${adminUser.id}`);
  // Deleted for good: the copy must not hand its id out again.
  await send('DELETE', `${API}/tags/${gone.id}?force=true`);

  // An import (its job, report and mappings) and a webhook whose deliveries have all been made.
  const ics = await icsServer();
  const receiver = await webhookReceiver();
  try {
    const hook = await send('POST', `${ADMIN}/webhooks`, { url: receiver.url, events: ['*'] });
    let job = await send('POST', `${ADMIN}/imports`, { ics: ics.url, category: 'Imported' });
    while (job.status === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 50));
      job = (await t.request({ method: 'GET', url: `${ADMIN}/imports/${job.id}`, auth })).data;
    }
    assert.equal(job.status, 'done', JSON.stringify(job));
    await send('POST', `${API}/events`, { title: 'After the hook', status: 'publish', ...day('09', '09:00', '10:00') });
    for (;;) {
      const deliveries = (
        await t.request({ method: 'GET', url: `${ADMIN}/webhooks/${hook.id}/deliveries?per_page=100`, auth })
      ).data;
      const all = Array.isArray(deliveries) ? deliveries : deliveries.deliveries;
      if (all.length > 0 && all.every((d: { status: string }) => d.status === 'delivered')) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    ics.close();
    receiver.close();
  }
  return {
    walkers: { anonymous: undefined, author: authorAuth, admin: auth },
    slugs: { event: concert.slug, venue: venue.slug },
  };
}

/** The records of an admin list, or none where the reader may not list them. */
const asList = (data: unknown): { id: number }[] => (Array.isArray(data) ? data : []);

/** Every answer of a scripted walk through the API and the pages, for each kind of reader. */
async function walk(t: TestApp, filled: Filled): Promise<Record<string, unknown>> {
  const answers: Record<string, unknown> = {};
  const read = async (who: string, url: string) => {
    const res = await t.request({ method: 'GET', url, auth: filled.walkers[who] });
    // iCalendar stamps each answer with the time it was made.
    const body = res.data ?? res.body.replace(/^DTSTAMP.*$/gm, '');
    answers[`${who} ${url}`] = { status: res.statusCode, total: res.headers['x-cal-total'], body };
    return res.data;
  };
  const window = 'start_date=2000-01-01&end_date=2100-01-01';
  for (const who of Object.keys(filled.walkers)) {
    for (const root of ['', '/fr', '/it']) {
      for (const list of ['venues', 'organizers', 'categories', 'tags']) {
        for (const record of (await read(who, `${root}${API}/${list}?per_page=50`))?.[list] ?? [])
          await read(who, `${root}${API}/${list}/${record.id}`);
      }
      // Every status for those who may ask (anonymous readers get the 400), then the plain list.
      const all = await read(who, `${root}${API}/events?${window}&status=publish,draft,private,pending,trash`);
      const listed = await read(who, `${root}${API}/events?${window}`);
      const ids = new Set([...(all?.events ?? []), ...(listed?.events ?? [])].map((event: { id: number }) => event.id));
      for (const id of ids) await read(who, `${root}${API}/events/${id}`);
      await read(who, `${root}${API}/changes?per_page=1000`);
    }
    for (const query of [
      'search=river',
      'search=jazz',
      'featured=true',
      'categories=music',
      'tags=copy',
      'page=2&per_page=3',
    ])
      await read(who, `${API}/events?${window}&${query}`);
    await read(who, `${API}/events?${window}&format=ical`);
    await read(who, `${API}/events/by-slug/members-only?password=open-sesame`);
    for (const page of [
      '/events/month/2030-03/',
      '/events/list/',
      `/event/${filled.slugs.event}/`,
      `/venue/${filled.slugs.venue}/`,
      '/events/category/jazz/',
    ])
      await read(who, page);
    for (const url of [`${ADMIN}/settings`, `${ADMIN}/imports`]) await read(who, url);
    for (const user of asList(await read(who, `${ADMIN}/users`)))
      await read(who, `${ADMIN}/users/${user.id}/application-passwords`);
    for (const hook of asList(await read(who, `${ADMIN}/webhooks`)))
      await read(who, `${ADMIN}/webhooks/${hook.id}/deliveries?per_page=100`);
  }
  return answers;
}

/** The highest id each kind of record has had on `t` (deleted ones included). */
async function highestIds(t: TestApp): Promise<Record<string, number>> {
  const highest: Record<string, number> = {};
  for (const table of ['posts', 'terms', 'users', 'app_passwords', 'webhooks', 'imports', 'change_log']) {
    const key = table === 'change_log' ? 'position' : 'id';
    highest[table] = Number(
      (
        await t.storage.db
          .selectFrom(table as 'posts')
          .select((eb) => eb.fn.max(key as 'id').as('m'))
          .executeTakeFirstOrThrow()
      ).m,
    );
  }
  return highest;
}

/** A PostgreSQL database owned by a role that is not a superuser, as on a managed server. */
async function unprivilegedDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const scratch = await createScratchDatabase(adminUrl, 'cal_owned');
  const name = new URL(scratch.url).pathname.slice(1);
  const asAdmin = async (statements: string[]) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    for (const statement of statements) await client.query(statement);
    await client.end();
  };
  await asAdmin([
    `create role ${name} login password 'copy-test' nosuperuser`,
    `alter database ${name} owner to ${name}`,
  ]);
  const url = new URL(scratch.url);
  url.username = name;
  url.password = 'copy-test';
  return {
    url: url.toString(),
    async drop() {
      await scratch.drop();
      await asAdmin([`drop role if exists ${name}`]);
    },
  };
}

describe('cal-events copy', () => {
  let source: TestApp;
  let filled: Filled;
  let expected: Record<string, unknown>;
  let highest: Record<string, number>;

  before(async () => {
    // The webhook receiver and the iCalendar server of the fill are on this machine.
    source = await createTestApp('sqlite', { CAL_WEBHOOKS_ALLOW_PRIVATE: '1', CAL_IMPORT_ALLOW_PRIVATE: '1' });
    filled = await fill(source);
    expected = await walk(source, filled);
    highest = await highestIds(source);
  });
  after(() => source.close());

  it(`should copy SQLite to ${ADMIN_URL ? 'PostgreSQL' : 'SQLite'} and back with every answer the same and every id continuing`, async () => {
    const middle = ADMIN_URL ? await createScratchDatabase(ADMIN_URL, 'cal_copy') : null;
    const middleLocation = middle?.url ?? tmpDir('cal-copy-middle-');
    const backDir = tmpDir('cal-copy-back-');
    try {
      // There as an operator does it; the source service goes on running meanwhile.
      const there = await runCli(['copy', '--from', source.config.dataDir, '--to', middleLocation], {});
      assert.equal(there.code, 0, there.stderr);
      for (const table of [
        'posts',
        'events',
        'event_terms',
        'event_window_counts',
        'event_term_window_counts',
        'change_log',
        'webhook_deliveries',
        'import_map',
        'imports',
        'event_recurrence',
        'app_passwords',
        'settings',
      ]) {
        assert.match(
          there.stdout,
          new RegExp(`^${table} +[1-9]\\d* +[0-9a-f]{32} +same$`, 'm'),
          `${table} copied and checked`,
        );
      }
      assert.match(there.stdout, /^total +\d+ +in [\d.]+ s \(\d+ rows\/s\)$/m);
      assert.doesNotMatch(there.stdout, /kysely_migration|events_search/, 'bookkeeping and indexes are not copied');

      const refused = await runCli(['copy', '--from', source.config.dataDir, '--to', middleLocation], {});
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /not empty \(\w+ has rows\): add --replace to overwrite it\. Nothing was written\./);

      const middleStorage = await connect(
        middle ? { dataDir: '', databaseUrl: middle.url } : { dataDir: middleLocation },
      );
      const backStorage = await connect({ dataDir: backDir });
      await migrate(backStorage.db);
      const back = await copyDatabase(middleStorage.db, backStorage.db, { replace: false, progress: false });
      assert.ok(back.tables.every((table) => table.same));
      await middleStorage.close();
      await backStorage.close();

      // The FTS5 index of the copy back was rebuilt, and nothing broke a foreign key.
      const file = new SQLite(path.join(backDir, SQLITE_FILE));
      file.exec("insert into events_search(events_search) values ('integrity-check')");
      assert.deepEqual(file.pragma('foreign_key_check'), []);
      file.close();

      for (const [label, env] of [
        ['the first copy', middle ? { DATABASE_URL: middle.url } : { DATA_DIR: middleLocation }],
        ['the copy back', { DATA_DIR: backDir }],
      ] as const) {
        const copy = await appOn({ ...env, CAL_WEBHOOKS_ALLOW_PRIVATE: '1' });
        try {
          assert.deepEqual(await walk(copy, filled), expected, label);
          const auth = filled.walkers['admin']!;
          const created = {
            posts: await copy.request({
              method: 'POST',
              url: `${API}/events`,
              auth,
              payload: { title: 'After the copy', start_date: '2031-01-01 10:00:00', end_date: '2031-01-01 11:00:00' },
            }),
            terms: await copy.request({
              method: 'POST',
              url: `${API}/tags`,
              auth,
              payload: { name: 'after-the-copy' },
            }),
            users: await copy.request({
              method: 'POST',
              url: `${ADMIN}/users`,
              auth,
              payload: { username: 'aftercopy', role: 'subscriber' },
            }),
            webhooks: await copy.request({
              method: 'POST',
              url: `${ADMIN}/webhooks`,
              auth,
              payload: { url: 'http://127.0.0.1:9/after', events: ['*'] },
            }),
          };
          for (const [table, res] of Object.entries(created)) {
            assert.equal(res.statusCode, 201, `${label}: ${table} ${res.body}`);
            assert.ok(
              res.data.id > highest[table]!,
              `${label}: a new ${table} id (${res.data.id}) continues after ${highest[table]}`,
            );
          }
        } finally {
          await copy.close();
        }
      }
    } finally {
      await middle?.drop();
    }
  });

  it('should overwrite a target with --replace, and refuse one at another version', async () => {
    const targetDir = tmpDir('cal-copy-replace-');
    const target = await connect({ dataDir: targetDir });
    try {
      await migrate(target.db);
      await copyDatabase(source.storage.db, target.db, { replace: false, progress: false });
      await target.db
        .updateTable('settings')
        .set({ value: 'changed on the target' })
        .where('key', '=', 'timezone')
        .execute();
      await target.db.deleteFrom('app_passwords').execute();
      const again = await copyDatabase(source.storage.db, target.db, { replace: true, progress: false });
      assert.ok(again.tables.every((table) => table.same));
      assert.equal(
        (await target.db.selectFrom('settings').select('value').where('key', '=', 'timezone').executeTakeFirst())
          ?.value,
        '"Europe/Paris"',
      );
    } finally {
      await target.close();
    }

    const olderDir = tmpDir('cal-copy-older-');
    const older = await connect({ dataDir: olderDir });
    try {
      await migrate(older.db, '016_change_log');
      await assert.rejects(
        copyDatabase(source.storage.db, older.db, { replace: true, progress: false }),
        (error: Error) =>
          error instanceof CopyError && /not at the same version \(target lacks 017_webhooks, /.test(error.message),
      );
    } finally {
      await older.close();
    }
    const sameDir = await runCli(['copy', '--from', olderDir, '--to', `${olderDir}/`], {});
    assert.equal(sameDir.code, 2);
    assert.match(sameDir.stderr, /--from and --to name the same database/);
  });

  it(`should take both databases from CAL_COPY_FROM and CAL_COPY_TO (${ADMIN_URL ? 'PostgreSQL with a password' : 'SQLite'}), keeping a password out of ps`, async () => {
    const owned = ADMIN_URL ? await unprivilegedDatabase(ADMIN_URL) : null;
    const location = owned?.url ?? tmpDir('cal-copy-env-');
    try {
      const run = await runCli(['copy'], { CAL_COPY_FROM: source.config.dataDir, CAL_COPY_TO: location });
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /^events +[1-9]\d* +[0-9a-f]{32} +same$/m);
      assert.doesNotMatch(run.stderr, /visible to other users|copy-test/, 'no note, and the password is never printed');
      const copied = await connect(owned ? { dataDir: '', databaseUrl: owned.url } : { dataDir: location });
      try {
        const users = async (db: typeof copied.db) =>
          (await db.selectFrom('users').select('username').orderBy('id').execute()).map((u) => u.username);
        assert.deepEqual(await users(copied.db), await users(source.storage.db));
      } finally {
        await copied.close();
      }
    } finally {
      await owned?.drop();
    }
    // Given in the arguments, a password is visible to every user of the machine: the command says so.
    const exposed = await runCli(
      ['copy', '--from', source.config.dataDir, '--to', 'postgres://cal:hunter2@127.0.0.1:1/calendar'],
      {},
    );
    assert.equal(exposed.code, 1);
    assert.match(exposed.stderr, /the password in --to is visible to other users \(ps\); set CAL_COPY_TO instead/);
    assert.doesNotMatch(exposed.stderr, /hunter2/);
  });

  it(
    'should copy into PostgreSQL as the owner of the database, without being a superuser',
    { skip: !ADMIN_URL },
    async () => {
      const owned = await unprivilegedDatabase(ADMIN_URL!);
      try {
        const target = await connect({ dataDir: '', databaseUrl: owned.url });
        try {
          await migrate(target.db);
          const report = await copyDatabase(source.storage.db, target.db, { replace: false, progress: false });
          assert.ok(report.tables.every((table) => table.same));
          // The triggers are back on: a write through them still counts and logs.
          const before = Number(
            (
              await target.db
                .selectFrom('change_log')
                .select((eb) => eb.fn.countAll().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          );
          const copy = await appOn({ DATABASE_URL: owned.url });
          const res = await copy.request({
            method: 'POST',
            url: `${API}/tags`,
            auth: filled.walkers['admin'],
            payload: { name: 'owner-made' },
          });
          await copy.close();
          assert.equal(res.statusCode, 201);
          const afterCount = Number(
            (
              await target.db
                .selectFrom('change_log')
                .select((eb) => eb.fn.countAll().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          );
          assert.ok(afterCount > before, 'the change log trigger runs again');
        } finally {
          await target.close();
        }
      } finally {
        await owned.drop();
      }
    },
  );
});
