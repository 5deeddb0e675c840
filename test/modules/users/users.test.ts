import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { InjectOptions } from 'fastify';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';
import { readDataVersion } from '../../../src/db/data-version.js';

const ADMIN = '/cal/admin/v1';
const USER_KEYS = ['email', 'id', 'registered', 'role', 'submission_mail', 'username'];
const PASSWORD = /^([A-Za-z0-9]{4} ){5}[A-Za-z0-9]{4}$/;
const DATE_TIME = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/;

const basic = (username: string, password: string) =>
  `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

/** Any `hash` key, at any depth. */
function hasHashKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasHashKey);
  if (value !== null && typeof value === 'object')
    return Object.entries(value).some(([k, v]) => k === 'hash' || hasHashKey(v));
  return false;
}

/** An organizer row owned by `author`, written straight to storage: only its author matters here. */
async function organizerOf(t: TestApp, author: number): Promise<number> {
  const db = t.storage.db;
  const { id } = await db.insertInto('posts').values({ type: 'organizer' }).returning('id').executeTakeFirstOrThrow();
  const now = '2030-01-01 00:00:00';
  await db
    .insertInto('organizers')
    .values({
      id,
      lang: 'en',
      trid: id,
      author,
      status: 'publish',
      slug: `org-${id}`,
      title: `Org ${id}`,
      date: now,
      date_utc: now,
      modified: now,
      modified_utc: now,
      phone: '',
      website: '',
      email: '',
    } as never)
    .execute();
  return id;
}

async function authorOf(t: TestApp, organizerId: number): Promise<number> {
  const row = await t.storage.db
    .selectFrom('organizers')
    .select('author')
    .where('id', '=', organizerId)
    .executeTakeFirstOrThrow();
  return row.author;
}

for (const backend of backends()) {
  describe(`admin users [${backend}]`, () => {
    let t: TestApp;
    let admin: { id: number; authorization: string };
    let editor: { id: number; authorization: string };
    /** Every response body of this suite, checked at the end for hashes. */
    const bodies: string[] = [];

    const call = async (options: InjectOptions & { auth?: string | undefined }) => {
      const response = await t.request(options);
      bodies.push(response.body);
      return response;
    };
    const asAdmin = (options: InjectOptions) => call({ ...options, auth: admin.authorization });
    const newUser = async (username: string, role = 'author', email?: string) => {
      const res = await asAdmin({
        method: 'POST',
        url: `${ADMIN}/users`,
        payload: { username, role, ...(email === undefined ? {} : { email }) },
      });
      assert.equal(res.statusCode, 201, res.body);
      return res.data as { id: number; username: string; role: string; email: string; application_password: string };
    };

    before(async () => {
      t = await createTestApp(backend);
      admin = await t.asUser('administrator', 'root');
      editor = await t.asUser('editor', 'ed');
    });
    after(() => t.close());

    describe('POST /cal/admin/v1/users', () => {
      it('should create a user and show its application password once', async () => {
        const res = await asAdmin({
          method: 'POST',
          url: `${ADMIN}/users`,
          payload: { username: 'alice', role: 'author', email: 'alice@example.org' },
        });
        assert.equal(res.statusCode, 201);
        assert.deepEqual(Object.keys(res.data).sort(), ['application_password', 'email', 'id', 'role', 'username']);
        assert.equal(res.data.username, 'alice');
        assert.equal(res.data.role, 'author');
        assert.equal(res.data.email, 'alice@example.org');
        assert.match(res.data.application_password, PASSWORD);

        const me = await call({ method: 'GET', url: '/', auth: basic('alice', res.data.application_password) });
        assert.equal(me.statusCode, 200);
        const stored = await t.storage.db
          .selectFrom('app_passwords')
          .select('hash')
          .where('user_id', '=', res.data.id)
          .execute();
        assert.equal(stored.length, 1);
        assert.ok(!stored[0]!.hash.includes(res.data.application_password.replace(/ /g, '')), 'only a hash is stored');
      });

      it('should accept the password without its spaces', async () => {
        const created = await newUser('spaces');
        const res = await call({
          method: 'GET',
          url: '/',
          auth: basic('spaces', created.application_password.replace(/ /g, '')),
        });
        assert.equal(res.statusCode, 200);
      });

      it('should default the email to empty', async () => {
        const created = await newUser('no-email', 'subscriber');
        assert.equal(created.email, '');
      });

      it('should answer 409 existing_user_login for a taken username', async () => {
        await newUser('dupe');
        const res = await asAdmin({
          method: 'POST',
          url: `${ADMIN}/users`,
          payload: { username: 'dupe', role: 'editor' },
        });
        assert.equal(res.statusCode, 409);
        assert.equal(res.data.code, 'existing_user_login');
        assert.equal(res.data.data.status, 409);
      });

      it('should answer 400 rest_invalid_param for an unknown role and store nothing', async () => {
        const res = await asAdmin({
          method: 'POST',
          url: `${ADMIN}/users`,
          payload: { username: 'bob', role: 'superuser' },
        });
        assert.equal(res.statusCode, 400);
        assert.equal(res.data.code, 'rest_invalid_param');
        assert.ok('role' in res.data.data.params);
        const list = await asAdmin({ method: 'GET', url: `${ADMIN}/users` });
        assert.ok(!list.data.some((u: { username: string }) => u.username === 'bob'));
      });

      it('should answer 400 rest_missing_callback_param without a username or role', async () => {
        const res = await asAdmin({ method: 'POST', url: `${ADMIN}/users`, payload: { email: 'x@example.org' } });
        assert.equal(res.statusCode, 400);
        assert.equal(res.data.code, 'rest_missing_callback_param');
        assert.deepEqual([...res.data.data.params].sort(), ['role', 'username']);
      });

      it('should answer 400 for a bad username or email', async () => {
        const badName = await asAdmin({
          method: 'POST',
          url: `${ADMIN}/users`,
          payload: { username: 'no spaces', role: 'author' },
        });
        assert.equal(badName.statusCode, 400);
        assert.ok('username' in badName.data.data.params);
        const badEmail = await asAdmin({
          method: 'POST',
          url: `${ADMIN}/users`,
          payload: { username: 'carol', role: 'author', email: 'not-an-address' },
        });
        assert.equal(badEmail.statusCode, 400);
        assert.ok('email' in badEmail.data.data.params);
      });
    });

    describe('GET /cal/admin/v1/users', () => {
      it('should list users as a JSON array of user objects', async () => {
        const created = await newUser('lister', 'contributor', 'l@example.org');
        const res = await asAdmin({ method: 'GET', url: `${ADMIN}/users` });
        assert.equal(res.statusCode, 200);
        assert.ok(Array.isArray(res.data));
        for (const user of res.data) assert.deepEqual(Object.keys(user).sort(), USER_KEYS);
        const found = res.data.find((u: { id: number }) => u.id === created.id);
        assert.deepEqual(
          { ...found, registered: 'x' },
          {
            id: created.id,
            username: 'lister',
            email: 'l@example.org',
            role: 'contributor',
            registered: 'x',
            submission_mail: 'none',
          },
        );
        assert.match(found.registered, DATE_TIME);
        const ids = res.data.map((u: { id: number }) => u.id);
        assert.deepEqual(
          ids,
          [...ids].sort((a, b) => a - b),
        );
      });
    });

    describe('GET /cal/admin/v1/users/:id', () => {
      it('should read one user', async () => {
        const created = await newUser('reader', 'editor');
        const res = await asAdmin({ method: 'GET', url: `${ADMIN}/users/${created.id}` });
        assert.equal(res.statusCode, 200);
        assert.deepEqual(Object.keys(res.data).sort(), USER_KEYS);
        assert.equal(res.data.username, 'reader');
      });

      it('should answer 404 rest_user_invalid_id for an unknown id', async () => {
        const res = await asAdmin({ method: 'GET', url: `${ADMIN}/users/999999` });
        assert.equal(res.statusCode, 404);
        assert.deepEqual(res.data, {
          code: 'rest_user_invalid_id',
          message: 'Invalid user ID.',
          data: { status: 404 },
        });
      });

      it('should answer 400 for an id that is not a number', async () => {
        const res = await asAdmin({ method: 'GET', url: `${ADMIN}/users/abc` });
        assert.equal(res.statusCode, 400);
        assert.equal(res.data.code, 'rest_invalid_param');
      });
    });

    describe('PATCH /cal/admin/v1/users/:id', () => {
      it('should change the role and email, and the new role applies', async () => {
        const created = await newUser('promoted', 'subscriber');
        const res = await asAdmin({
          method: 'PATCH',
          url: `${ADMIN}/users/${created.id}`,
          payload: { role: 'administrator', email: 'p@example.org' },
        });
        assert.equal(res.statusCode, 200);
        assert.equal(res.data.role, 'administrator');
        assert.equal(res.data.email, 'p@example.org');
        const asPromoted = await call({
          method: 'GET',
          url: `${ADMIN}/users`,
          auth: basic('promoted', created.application_password),
        });
        assert.equal(asPromoted.statusCode, 200);
      });

      it('should change only what is sent', async () => {
        const created = await newUser('partial', 'author', 'keep@example.org');
        const res = await asAdmin({
          method: 'PATCH',
          url: `${ADMIN}/users/${created.id}`,
          payload: { role: 'editor' },
        });
        assert.equal(res.statusCode, 200);
        assert.equal(res.data.email, 'keep@example.org');
        const empty = await asAdmin({ method: 'PATCH', url: `${ADMIN}/users/${created.id}`, payload: {} });
        assert.equal(empty.statusCode, 200);
        assert.equal(empty.data.role, 'editor');
      });

      it('should refuse a bad role, a bad email, and an administrator demoting themselves', async () => {
        const created = await newUser('patchy');
        const badRole = await asAdmin({
          method: 'PATCH',
          url: `${ADMIN}/users/${created.id}`,
          payload: { role: 'owner' },
        });
        assert.equal(badRole.statusCode, 400);
        assert.ok('role' in badRole.data.data.params);
        const badEmail = await asAdmin({
          method: 'PATCH',
          url: `${ADMIN}/users/${created.id}`,
          payload: { email: 'nope' },
        });
        assert.equal(badEmail.statusCode, 400);
        const self = await asAdmin({ method: 'PATCH', url: `${ADMIN}/users/${admin.id}`, payload: { role: 'editor' } });
        assert.equal(self.statusCode, 400);
        assert.ok('role' in self.data.data.params);
        const unchanged = await asAdmin({ method: 'GET', url: `${ADMIN}/users/${admin.id}` });
        assert.equal(unchanged.data.role, 'administrator');
      });

      it('should answer 404 for an unknown user', async () => {
        const res = await asAdmin({ method: 'PATCH', url: `${ADMIN}/users/999999`, payload: { role: 'editor' } });
        assert.equal(res.statusCode, 404);
        assert.equal(res.data.code, 'rest_user_invalid_id');
      });
    });

    describe('DELETE /cal/admin/v1/users/:id', () => {
      it('should delete the user and hand their records to the caller', async () => {
        const created = await newUser('leaver', 'author', 'leaver@example.org');
        const organizer = await organizerOf(t, created.id);
        const res = await asAdmin({ method: 'DELETE', url: `${ADMIN}/users/${created.id}` });
        assert.equal(res.statusCode, 200);
        assert.equal(res.data.deleted, true);
        assert.deepEqual(Object.keys(res.data.previous).sort(), USER_KEYS);
        assert.equal(res.data.previous.username, 'leaver');
        assert.equal(await authorOf(t, organizer), admin.id);
        const gone = await asAdmin({ method: 'GET', url: `${ADMIN}/users/${created.id}` });
        assert.equal(gone.statusCode, 404);
      });

      it('should hand the records to ?reassign=<id>', async () => {
        const leaving = await newUser('leaver2');
        const heir = await newUser('heir');
        const organizer = await organizerOf(t, leaving.id);
        const res = await asAdmin({ method: 'DELETE', url: `${ADMIN}/users/${leaving.id}?reassign=${heir.id}` });
        assert.equal(res.statusCode, 200);
        assert.equal(await authorOf(t, organizer), heir.id);
      });

      it('should refuse to delete the caller, or to reassign to nobody', async () => {
        const self = await asAdmin({ method: 'DELETE', url: `${ADMIN}/users/${admin.id}` });
        assert.equal(self.statusCode, 400);
        assert.equal(self.data.code, 'rest_invalid_param');
        const leaving = await newUser('stayer');
        const toUnknown = await asAdmin({ method: 'DELETE', url: `${ADMIN}/users/${leaving.id}?reassign=999999` });
        assert.equal(toUnknown.statusCode, 400);
        assert.ok('reassign' in toUnknown.data.data.params);
        const toItself = await asAdmin({
          method: 'DELETE',
          url: `${ADMIN}/users/${leaving.id}?reassign=${leaving.id}`,
        });
        assert.equal(toItself.statusCode, 400);
        const still = await asAdmin({ method: 'GET', url: `${ADMIN}/users/${leaving.id}` });
        assert.equal(still.statusCode, 200);
      });

      it('should answer 404 for an unknown user', async () => {
        const res = await asAdmin({ method: 'DELETE', url: `${ADMIN}/users/999999` });
        assert.equal(res.statusCode, 404);
        assert.equal(res.data.code, 'rest_user_invalid_id');
      });
    });

    describe('application passwords', () => {
      it('should add a password that works beside the first one', async () => {
        const created = await newUser('multi');
        const res = await asAdmin({
          method: 'POST',
          url: `${ADMIN}/users/${created.id}/application-passwords`,
          payload: { name: 'laptop' },
        });
        assert.equal(res.statusCode, 201);
        assert.deepEqual(Object.keys(res.data), ['application_password']);
        assert.match(res.data.application_password, PASSWORD);
        for (const password of [created.application_password, res.data.application_password]) {
          const me = await call({ method: 'GET', url: '/', auth: basic('multi', password) });
          assert.equal(me.statusCode, 200);
        }
      });

      it('should add a password without a body', async () => {
        const created = await newUser('nobody-body');
        const res = await asAdmin({ method: 'POST', url: `${ADMIN}/users/${created.id}/application-passwords` });
        assert.equal(res.statusCode, 201, res.body);
        assert.match(res.data.application_password, PASSWORD);
      });

      it('should list passwords by id, name and date, never their hashes', async () => {
        const created = await newUser('listed');
        await asAdmin({
          method: 'POST',
          url: `${ADMIN}/users/${created.id}/application-passwords`,
          payload: { name: 'phone' },
        });
        const res = await asAdmin({ method: 'GET', url: `${ADMIN}/users/${created.id}/application-passwords` });
        assert.equal(res.statusCode, 200);
        assert.deepEqual(
          res.data.map((p: { name: string }) => p.name),
          ['initial', 'phone'],
        );
        for (const p of res.data) {
          assert.deepEqual(Object.keys(p).sort(), ['created', 'id', 'name']);
          assert.match(p.created, DATE_TIME);
        }
      });

      it('should revoke a password: it stops working, the others keep working', async () => {
        const created = await newUser('revoker');
        const second = await asAdmin({
          method: 'POST',
          url: `${ADMIN}/users/${created.id}/application-passwords`,
          payload: { name: 'second' },
        });
        const list = await asAdmin({ method: 'GET', url: `${ADMIN}/users/${created.id}/application-passwords` });
        const initial = list.data.find((p: { name: string }) => p.name === 'initial');
        // Revoked before its first use, so no cached verification can outlive the revocation here (auth.test.ts covers that case).
        const res = await asAdmin({
          method: 'DELETE',
          url: `${ADMIN}/users/${created.id}/application-passwords/${initial.id}`,
        });
        assert.equal(res.statusCode, 200);
        assert.deepEqual(res.data, { deleted: true });
        const revoked = await call({ method: 'GET', url: '/', auth: basic('revoker', created.application_password) });
        assert.equal(revoked.statusCode, 401);
        const other = await call({ method: 'GET', url: '/', auth: basic('revoker', second.data.application_password) });
        assert.equal(other.statusCode, 200);
        const again = await asAdmin({
          method: 'DELETE',
          url: `${ADMIN}/users/${created.id}/application-passwords/${initial.id}`,
        });
        assert.equal(again.statusCode, 404);
        assert.equal(again.data.code, 'rest_application_password_not_found');
      });

      it("should not revoke another user's password through the wrong user id", async () => {
        const owner = await newUser('owner');
        const other = await newUser('other');
        const [pw] = (await asAdmin({ method: 'GET', url: `${ADMIN}/users/${owner.id}/application-passwords` })).data;
        const res = await asAdmin({
          method: 'DELETE',
          url: `${ADMIN}/users/${other.id}/application-passwords/${pw.id}`,
        });
        assert.equal(res.statusCode, 404);
        const works = await call({ method: 'GET', url: '/', auth: basic('owner', owner.application_password) });
        assert.equal(works.statusCode, 200);
      });

      it('should answer 404 rest_user_invalid_id for an unknown user', async () => {
        for (const [method, url] of [
          ['POST', `${ADMIN}/users/999999/application-passwords`],
          ['GET', `${ADMIN}/users/999999/application-passwords`],
          ['DELETE', `${ADMIN}/users/999999/application-passwords/1`],
        ] as const) {
          const res = await asAdmin({ method, url });
          assert.equal(res.statusCode, 404, `${method} ${url}`);
          assert.equal(res.data.code, 'rest_user_invalid_id');
        }
      });
    });

    describe('access to the admin routes', () => {
      const routes: { method: InjectOptions['method']; url: string; payload?: object }[] = [
        { method: 'GET', url: `${ADMIN}/users` },
        { method: 'POST', url: `${ADMIN}/users`, payload: { username: 'intruder', role: 'administrator' } },
        { method: 'GET', url: `${ADMIN}/users/1` },
        { method: 'PATCH', url: `${ADMIN}/users/1`, payload: { role: 'subscriber' } },
        { method: 'DELETE', url: `${ADMIN}/users/1` },
        { method: 'GET', url: `${ADMIN}/users/1/application-passwords` },
        { method: 'POST', url: `${ADMIN}/users/1/application-passwords`, payload: { name: 'x' } },
        { method: 'DELETE', url: `${ADMIN}/users/1/application-passwords/1` },
        { method: 'GET', url: `${ADMIN}/settings` },
        { method: 'PATCH', url: `${ADMIN}/settings`, payload: { geoloc: true } },
      ];

      it('should answer 401 rest_forbidden to anonymous callers', async () => {
        for (const route of routes) {
          const res = await call(route);
          assert.equal(res.statusCode, 401, `${route.method} ${route.url}`);
          assert.equal(res.data.code, 'rest_forbidden');
        }
      });

      it('should answer 403 rest_forbidden to every role below administrator', async () => {
        const callers = [editor, await t.asUser('author'), await t.asUser('contributor'), await t.asUser('subscriber')];
        for (const caller of callers) {
          for (const route of routes) {
            const res = await call({ ...route, auth: caller.authorization });
            assert.equal(res.statusCode, 403, `${route.method} ${route.url}`);
            assert.equal(res.data.code, 'rest_forbidden');
          }
        }
        const list = await asAdmin({ method: 'GET', url: `${ADMIN}/users` });
        assert.ok(!list.data.some((u: { username: string }) => u.username === 'intruder'));
        const settings = await asAdmin({ method: 'GET', url: `${ADMIN}/settings` });
        assert.equal(settings.data.geoloc, false);
      });

      it('should be listed under the cal/admin/v1 namespace of the REST index', async () => {
        const index = await call({ method: 'GET', url: '/' });
        assert.ok(index.data.namespaces.includes('cal/admin/v1'));
        assert.ok('/cal/admin/v1/users' in index.data.routes);
        assert.ok('/cal/admin/v1/users/(?P<id>\\d+)/application-passwords/(?P<passwordId>[^/]+)' in index.data.routes);
        assert.ok('/cal/admin/v1/settings' in index.data.routes);
      });
    });

    describe('GET|PATCH /cal/admin/v1/settings', () => {
      it('should answer the whole settings object with the defaults', async () => {
        const res = await asAdmin({ method: 'GET', url: `${ADMIN}/settings` });
        assert.equal(res.statusCode, 200);
        assert.deepEqual(res.data, {
          timezone: 'UTC',
          geoloc: false,
          geoloc_radius: 25,
          geoloc_unit: 'mi',
          site_url: null,
          submissions: 'off',
          submission_confirm: false,
          spam_block_days: 30,
        });
      });

      it('should change the settings sent and answer all of them', async () => {
        const res = await asAdmin({
          method: 'PATCH',
          url: `${ADMIN}/settings`,
          payload: {
            timezone: 'Europe/Paris',
            geoloc: true,
            geoloc_radius: 12.5,
            geoloc_unit: 'km',
            site_url: 'https://events.example.org/',
          },
        });
        assert.equal(res.statusCode, 200);
        assert.deepEqual(res.data, {
          timezone: 'Europe/Paris',
          geoloc: true,
          geoloc_radius: 12.5,
          geoloc_unit: 'km',
          site_url: 'https://events.example.org',
          submissions: 'off',
          submission_confirm: false,
          spam_block_days: 30,
        });
        const partial = await asAdmin({
          method: 'PATCH',
          url: `${ADMIN}/settings`,
          payload: { geoloc: false, site_url: null },
        });
        assert.deepEqual(partial.data, {
          timezone: 'Europe/Paris',
          geoloc: false,
          geoloc_radius: 12.5,
          geoloc_unit: 'km',
          site_url: null,
          submissions: 'off',
          submission_confirm: false,
          spam_block_days: 30,
        });
        const read = await asAdmin({ method: 'GET', url: `${ADMIN}/settings` });
        assert.deepEqual(read.data, partial.data);
        await asAdmin({
          method: 'PATCH',
          url: `${ADMIN}/settings`,
          payload: { timezone: 'UTC', geoloc_radius: 25, geoloc_unit: 'mi' },
        });
      });

      it('should refuse bad values with rest_invalid_param and change nothing', async () => {
        const before = (await asAdmin({ method: 'GET', url: `${ADMIN}/settings` })).data;
        const bad: [string, unknown][] = [
          ['timezone', 'Mars/Olympus'],
          ['geoloc', 'maybe'],
          ['geoloc_radius', 0],
          ['geoloc_radius', -3],
          ['geoloc_radius', 'far'],
          ['geoloc_unit', 'yd'],
          ['site_url', 'ftp://example.org'],
          ['site_url', 'not a url'],
        ];
        for (const [name, value] of bad) {
          const res = await asAdmin({
            method: 'PATCH',
            url: `${ADMIN}/settings`,
            payload: { timezone: 'Asia/Tokyo', [name]: value },
          });
          assert.equal(res.statusCode, 400, `${name}=${String(value)}`);
          assert.equal(res.data.code, 'rest_invalid_param');
          assert.ok(name in res.data.data.params, `${name} named in ${res.body}`);
        }
        const after = (await asAdmin({ method: 'GET', url: `${ADMIN}/settings` })).data;
        assert.deepEqual(after, before);
      });

      it('should ignore unknown keys, never writing them to the settings table', async () => {
        const version = await readDataVersion(t.storage.db);
        const res = await asAdmin({
          method: 'PATCH',
          url: `${ADMIN}/settings`,
          payload: { data_version: 'oops', colour: 'red' },
        });
        assert.equal(res.statusCode, 200);
        assert.ok(!('colour' in res.data));
        const rows = await t.storage.db.selectFrom('settings').select(['key', 'value']).execute();
        assert.ok(!rows.some((r) => r.key === 'colour'));
        assert.match(await readDataVersion(t.storage.db), /^\d+$/);
        assert.ok(Number(await readDataVersion(t.storage.db)) >= Number(version));
      });
    });

    it('should never answer a password hash', () => {
      assert.ok(bodies.length > 50);
      for (const body of bodies) {
        assert.ok(!body.includes('scrypt$'), body);
        let data: unknown;
        try {
          data = JSON.parse(body);
        } catch {
          continue;
        }
        assert.equal(hasHashKey(data), false, body);
      }
    });
  });

  describe(`admin settings with CAL_SITE_URL [${backend}]`, () => {
    let t: TestApp;
    let admin: { id: number; authorization: string };
    before(async () => {
      t = await createTestApp(backend, { CAL_SITE_URL: 'https://calendar.example.com/' });
      admin = await t.asUser('administrator');
    });
    after(() => t.close());

    it('should report the site address set by the environment and refuse to change it', async () => {
      const read = await t.request({ method: 'GET', url: `${ADMIN}/settings`, auth: admin.authorization });
      assert.equal(read.data.site_url, 'https://calendar.example.com');
      for (const site_url of ['https://other.example.com', null]) {
        const res = await t.request({
          method: 'PATCH',
          url: `${ADMIN}/settings`,
          auth: admin.authorization,
          payload: { site_url, geoloc: true },
        });
        assert.equal(res.statusCode, 400);
        assert.equal(res.data.code, 'rest_invalid_param');
        assert.match(res.data.data.params.site_url, /environment/);
      }
      const after = await t.request({ method: 'GET', url: `${ADMIN}/settings`, auth: admin.authorization });
      assert.deepEqual(after.data, read.data);
    });

    it('should still change the other settings', async () => {
      const res = await t.request({
        method: 'PATCH',
        url: `${ADMIN}/settings`,
        auth: admin.authorization,
        payload: { geoloc_unit: 'km' },
      });
      assert.equal(res.statusCode, 200);
      assert.equal(res.data.geoloc_unit, 'km');
      assert.equal(res.data.site_url, 'https://calendar.example.com');
    });
  });
}
