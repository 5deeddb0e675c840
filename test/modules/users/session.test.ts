import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp } from '../../../src/app.js';
import { connect } from '../../../src/db/connect.js';
import { ensureAdministrator } from '../../../src/modules/users/user.service.js';
import { backends, createTestApp, injector, type TestApp } from '../../helpers/app.js';

const ADMIN = '/cal/admin/v1';
const EVENTS = '/cal/events/v1/events';
const PASSWORD = 'correct horse battery staple';

const basic = (username: string, password: string) =>
  `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

/** The `cal_session=…` pair of a Set-Cookie header, as a browser would send it back. */
function cookieOf(setCookie: string | string[] | number | undefined): string {
  const header = String(Array.isArray(setCookie) ? setCookie[0] : setCookie);
  const match = /^cal_session=([A-Za-z0-9_-]+);/.exec(header);
  assert.ok(match, `a session cookie in ${header}`);
  return `cal_session=${match[1]}`;
}

interface Session {
  cookie: string;
  nonce: string;
  setCookie: string;
}

for (const backend of backends()) {
  describe(`sessions [${backend}]`, () => {
    let t: TestApp;
    let admin: { id: number; authorization: string };
    let counter = 0;
    before(async () => {
      t = await createTestApp(backend, { CAL_AUTH_FAIL_LIMIT: '3' });
      admin = await t.asUser('administrator', 'root');
    });
    after(() => t.close());

    /** A user with a login password, made through the admin route. */
    const person = async (role = 'editor', password = PASSWORD): Promise<{ id: number; username: string }> => {
      counter += 1;
      const username = `person${counter}`;
      const res = await t.request({
        method: 'POST',
        url: `${ADMIN}/users`,
        auth: admin.authorization,
        payload: { username, role, password },
      });
      assert.equal(res.statusCode, 201, res.body);
      return { id: res.data.id, username };
    };

    const signIn = async (
      username: string,
      password = PASSWORD,
      headers: Record<string, string> = {},
      remoteAddress = '10.9.0.1',
    ): Promise<Session> => {
      const res = await t.request({
        method: 'POST',
        url: `${ADMIN}/session`,
        payload: { username, password },
        headers,
        remoteAddress,
      });
      assert.equal(res.statusCode, 200, res.body);
      const setCookie = String(res.headers['set-cookie']);
      return { cookie: cookieOf(setCookie), nonce: res.data.nonce, setCookie };
    };

    /** A request as the admin's pages make it: the cookie, and the nonce unless told otherwise. */
    const asSession = (
      session: Session,
      options: { method?: string; url: string; payload?: object; nonce?: string | null },
    ) =>
      t.request({
        method: (options.method ?? 'GET') as 'GET',
        url: options.url,
        ...(options.payload ? { payload: options.payload } : {}),
        headers: {
          cookie: session.cookie,
          ...(options.nonce === null ? {} : { 'x-cal-nonce': options.nonce ?? session.nonce }),
        },
      });
    const current = (session: Session) =>
      t.request({ method: 'GET', url: `${ADMIN}/session`, headers: { cookie: session.cookie } });
    const me = (session: Session) => asSession(session, { url: `${ADMIN}/users/me` });

    describe('POST /cal/admin/v1/session', () => {
      it('should answer the user and a nonce, and set an HttpOnly, SameSite=Lax cookie for the whole site, not Secure over plain HTTP', async () => {
        const user = await person();
        const res = await t.request({
          method: 'POST',
          url: `${ADMIN}/session`,
          payload: { username: user.username, password: PASSWORD },
        });
        assert.equal(res.statusCode, 200);
        assert.deepEqual(Object.keys(res.data).sort(), ['nonce', 'user']);
        assert.equal(res.data.user.id, user.id);
        assert.equal(res.data.user.role, 'editor');
        assert.match(res.data.nonce, /^[A-Za-z0-9_-]{20,}$/);
        const setCookie = String(res.headers['set-cookie']);
        assert.match(setCookie, /^cal_session=[A-Za-z0-9_-]{43}; /);
        const attributes = setCookie.split('; ').slice(1);
        assert.ok(attributes.includes('HttpOnly'), setCookie);
        assert.ok(attributes.includes('SameSite=Lax'), setCookie);
        assert.ok(attributes.includes('Path=/'), setCookie);
        assert.ok(attributes.includes(`Max-Age=${14 * 86_400}`), setCookie);
        assert.ok(!attributes.includes('Secure'), setCookie);
        assert.equal(res.headers['cache-control'], 'private, no-store');
      });

      it('should not believe X-Forwarded-Proto without CAL_TRUST_PROXY', async () => {
        const user = await person();
        const session = await signIn(user.username, PASSWORD, { 'x-forwarded-proto': 'https' });
        assert.ok(!session.setCookie.split('; ').includes('Secure'), session.setCookie);
      });

      it('should store only a hash of the token, and never the login password', async () => {
        const user = await person();
        const session = await signIn(user.username);
        const token = session.cookie.slice('cal_session='.length);
        const rows = await t.storage.db.selectFrom('sessions').selectAll().where('user_id', '=', user.id).execute();
        assert.equal(rows.length, 1);
        assert.ok(!JSON.stringify(rows).includes(token));
        const stored = await t.storage.db
          .selectFrom('users')
          .select('login_hash')
          .where('id', '=', user.id)
          .executeTakeFirstOrThrow();
        assert.match(String(stored.login_hash), /^scrypt\$/);
        assert.ok(!String(stored.login_hash).includes(PASSWORD));
      });

      it('should refuse unbounded or missing fields with 400 before checking anything', async () => {
        for (const payload of [
          { username: 'x', password: 'p'.repeat(1025) },
          { username: 'u'.repeat(255), password: PASSWORD },
          { username: 'x' },
        ]) {
          const res = await t.request({ method: 'POST', url: `${ADMIN}/session`, payload, remoteAddress: '10.9.9.9' });
          assert.equal(res.statusCode, 400, JSON.stringify(payload).slice(0, 50));
        }
      });
    });

    describe('the nonce (cookie authentication, the WordPress way)', () => {
      it('should treat a cookie without its nonce as anonymous, and with it as the user', async () => {
        await person('author');
        const user = await person('author');
        const session = await signIn(user.username);
        const event = { title: 'By cookie', start_date: '2031-05-01 10:00:00', end_date: '2031-05-01 11:00:00' };

        const without = await asSession(session, { method: 'POST', url: EVENTS, payload: event, nonce: null });
        assert.equal(without.statusCode, 401, 'a cookie-only write is anonymous');
        const wrong = await asSession(session, { method: 'POST', url: EVENTS, payload: event, nonce: 'not-the-nonce' });
        assert.equal(wrong.statusCode, 401, 'a wrong nonce is anonymous');
        const anonymous = await t.request({ method: 'POST', url: EVENTS, payload: event });
        assert.deepEqual(without.data, anonymous.data, 'the answer anyone without credentials gets');

        const created = await asSession(session, { method: 'POST', url: EVENTS, payload: event });
        assert.equal(created.statusCode, 201, created.body);
        assert.equal(created.data.author, String(user.id));
        assert.equal(created.headers['cache-control'], 'private, no-store');
        assert.match(String(created.headers['vary']), /Cookie/);
        assert.match(String(created.headers['vary']), /Authorization/);
      });

      it("should let another user's nonce not work with this cookie", async () => {
        const a = await signIn((await person()).username);
        const b = await signIn((await person()).username);
        assert.equal((await me(a)).statusCode, 200);
        assert.equal((await asSession(a, { url: `${ADMIN}/users/me`, nonce: b.nonce })).statusCode, 401);
      });

      it('should let an Authorization header win over the cookie', async () => {
        const editor = await person('editor');
        const session = await signIn(editor.username);
        const res = await t.request({
          method: 'GET',
          url: `${ADMIN}/users/me`,
          headers: { cookie: session.cookie, 'x-cal-nonce': session.nonce, authorization: admin.authorization },
        });
        assert.equal(res.statusCode, 200);
        assert.equal(res.data.id, admin.id);
      });

      it('should treat an unknown or malformed session cookie as anonymous, not as an error', async () => {
        for (const cookie of [`cal_session=${'A'.repeat(43)}`, 'cal_session=short', 'other=1; cal_session=']) {
          const res = await t.request({ method: 'GET', url: EVENTS, headers: { cookie, 'x-cal-nonce': 'whatever' } });
          assert.equal(res.statusCode, 200, cookie);
          const mine = await t.request({
            method: 'GET',
            url: `${ADMIN}/users/me`,
            headers: { cookie, 'x-cal-nonce': 'x' },
          });
          assert.equal(mine.statusCode, 401, cookie);
        }
      });
    });

    describe('GET /cal/admin/v1/session', () => {
      it('should answer the user and the same nonce with the cookie alone, and 401 without a valid session', async () => {
        const user = await person();
        const session = await signIn(user.username);
        const res = await current(session);
        assert.equal(res.statusCode, 200);
        assert.equal(res.data.user.id, user.id);
        assert.equal(res.data.nonce, session.nonce);
        assert.equal(res.headers['cache-control'], 'private, no-store');

        const none = await t.request({ method: 'GET', url: `${ADMIN}/session` });
        assert.equal(none.statusCode, 401);
        assert.equal(none.data.code, 'rest_not_logged_in');
        assert.equal(none.data.data.status, 401);
        const unknown = await t.request({
          method: 'GET',
          url: `${ADMIN}/session`,
          headers: { cookie: `cal_session=${'B'.repeat(43)}` },
        });
        assert.equal(unknown.statusCode, 401);
      });
    });

    describe('expiry', () => {
      it('should end a session idle for longer than CAL_SESSION_IDLE_MINUTES (default 720)', async () => {
        const user = await person();
        const session = await signIn(user.username);
        const idle = new Date(Date.now() - 721 * 60_000).toISOString().slice(0, 19).replace('T', ' ');
        await t.storage.db.updateTable('sessions').set({ last_seen: idle }).where('user_id', '=', user.id).execute();
        assert.equal((await me(session)).statusCode, 401);
        assert.equal((await current(session)).statusCode, 401);
        const rows = await t.storage.db.selectFrom('sessions').select('id').where('user_id', '=', user.id).execute();
        assert.equal(rows.length, 0, 'an expired session found in use is deleted');
      });

      it('should keep a session used within the idle limit, however old', async () => {
        const user = await person();
        const session = await signIn(user.username);
        const recent = new Date(Date.now() - 719 * 60_000).toISOString().slice(0, 19).replace('T', ' ');
        await t.storage.db.updateTable('sessions').set({ last_seen: recent }).where('user_id', '=', user.id).execute();
        assert.equal((await me(session)).statusCode, 200);
        const row = await t.storage.db
          .selectFrom('sessions')
          .select('last_seen')
          .where('user_id', '=', user.id)
          .executeTakeFirstOrThrow();
        assert.ok(row.last_seen > recent, 'the use was recorded');
      });

      it('should end a session at its absolute end however recently used', async () => {
        const user = await person();
        const session = await signIn(user.username);
        const past = new Date(Date.now() - 1000).toISOString().slice(0, 19).replace('T', ' ');
        await t.storage.db.updateTable('sessions').set({ expires: past }).where('user_id', '=', user.id).execute();
        assert.equal((await me(session)).statusCode, 401);
        assert.equal((await current(session)).statusCode, 401);
      });

      it('should record a use at most once a minute, not on every request', async () => {
        const user = await person();
        const session = await signIn(user.username);
        assert.equal((await me(session)).statusCode, 200);
        const { texts } = await t.queries.during(async () => {
          for (let i = 0; i < 5; i += 1) assert.equal((await me(session)).statusCode, 200);
        });
        assert.ok(texts.length >= 5, 'the requests were counted');
        assert.equal(texts.filter((q) => /update "sessions"/i.test(q)).length, 0);
      });
    });

    describe('rotation and revocation', () => {
      it('should end the session presented at sign-in and issue a new token', async () => {
        const user = await person();
        const first = await signIn(user.username);
        assert.equal((await me(first)).statusCode, 200);
        const second = await signIn(user.username, PASSWORD, { cookie: first.cookie });
        assert.notEqual(second.cookie, first.cookie);
        assert.equal((await me(first)).statusCode, 401, 'the old token is dead');
        assert.equal((await current(first)).statusCode, 401);
        assert.equal((await me(second)).statusCode, 200);
      });

      it("should end a user's sessions when an administrator changes their login password or role, or deletes them", async () => {
        const cases = [
          { method: 'PATCH', payload: { password: 'a brand new password' } },
          { method: 'PATCH', payload: { role: 'author' } },
          { method: 'DELETE', url: (id: number) => `${ADMIN}/users/${id}?reassign=${admin.id}` },
        ];
        for (const change of cases) {
          const user = await person();
          const session = await signIn(user.username);
          // Used twice: now remembered by this instance, which must still notice.
          assert.equal((await me(session)).statusCode, 200);
          assert.equal((await me(session)).statusCode, 200);
          const res = await t.request({
            method: change.method as 'PATCH',
            url: change.url ? change.url(user.id) : `${ADMIN}/users/${user.id}`,
            auth: admin.authorization,
            ...(change.payload ? { payload: change.payload } : {}),
          });
          assert.equal(res.statusCode, 200, res.body);
          assert.equal((await me(session)).statusCode, 401, JSON.stringify(change.payload ?? 'deleted'));
          assert.equal((await current(session)).statusCode, 401);
        }
      });

      it('should keep the sessions when only the email changes', async () => {
        const user = await person();
        const session = await signIn(user.username);
        const res = await t.request({
          method: 'PATCH',
          url: `${ADMIN}/users/${user.id}`,
          auth: admin.authorization,
          payload: { email: 'kept@example.org' },
        });
        assert.equal(res.statusCode, 200);
        assert.equal((await me(session)).statusCode, 200);
      });

      it('should sign out one session, clearing the cookie, and "everywhere" every session of the caller', async () => {
        const user = await person();
        const [a, b, c] = [await signIn(user.username), await signIn(user.username), await signIn(user.username)];
        for (const s of [a, b, c]) assert.equal((await me(s)).statusCode, 200);

        const out = await asSession(a, { method: 'DELETE', url: `${ADMIN}/session`, nonce: null });
        assert.equal(out.statusCode, 200);
        assert.deepEqual(out.data, { deleted: true, sessions: 1 });
        assert.match(String(out.headers['set-cookie']), /^cal_session=; Path=\/; Max-Age=0; HttpOnly; SameSite=Lax$/);
        assert.equal((await me(a)).statusCode, 401);
        assert.equal((await me(b)).statusCode, 200);

        const anonymous = await asSession(b, {
          method: 'DELETE',
          url: `${ADMIN}/session?everywhere=true`,
          nonce: null,
        });
        assert.equal(anonymous.statusCode, 401, 'everywhere needs the nonce');
        const everywhere = await asSession(b, { method: 'DELETE', url: `${ADMIN}/session?everywhere=true` });
        assert.equal(everywhere.statusCode, 200);
        assert.deepEqual(everywhere.data, { deleted: true, sessions: 2 });
        assert.equal((await me(b)).statusCode, 401);
        assert.equal((await me(c)).statusCode, 401);
      });

      it("should list a user's sessions for administrators without tokens or nonces, and end them all", async () => {
        const user = await person();
        const session = await signIn(user.username, PASSWORD, { 'user-agent': `Browser/1 ${'x'.repeat(400)}` });
        await signIn(user.username);
        const list = await t.request({
          method: 'GET',
          url: `${ADMIN}/users/${user.id}/sessions`,
          auth: admin.authorization,
        });
        assert.equal(list.statusCode, 200);
        assert.equal(list.data.length, 2);
        assert.deepEqual(Object.keys(list.data[0]).sort(), [
          'created',
          'expires',
          'id',
          'ip',
          'last_seen',
          'user_agent',
        ]);
        assert.equal(list.data[0].ip, '10.9.0.1');
        assert.equal(list.data[0].user_agent.length, 256, 'the user agent is bounded');
        assert.ok(!list.body.includes(session.nonce));
        assert.ok(!list.body.includes(session.cookie.slice('cal_session='.length)));

        const forbidden = await asSession(session, { url: `${ADMIN}/users/${user.id}/sessions` });
        assert.equal(forbidden.statusCode, 403, 'an editor may not list sessions');
        const ended = await t.request({
          method: 'DELETE',
          url: `${ADMIN}/users/${user.id}/sessions`,
          auth: admin.authorization,
        });
        assert.deepEqual(ended.data, { deleted: true, sessions: 2 });
        assert.equal((await me(session)).statusCode, 401);
        const missing = await t.request({
          method: 'GET',
          url: `${ADMIN}/users/999999/sessions`,
          auth: admin.authorization,
        });
        assert.equal(missing.statusCode, 404);
      });
    });

    describe('/cal/admin/v1/users/me', () => {
      it('should read and change your own account, a new password needing the current one', async () => {
        const user = await person('subscriber');
        const session = await signIn(user.username);
        const other = await signIn(user.username);
        assert.equal((await me(session)).data.username, user.username);

        const patch = (payload: object) => asSession(session, { method: 'PATCH', url: `${ADMIN}/users/me`, payload });
        const email = await patch({ email: 'me@example.org' });
        assert.equal(email.statusCode, 200);
        assert.equal(email.data.email, 'me@example.org');
        assert.equal((await patch({ password: 'my new password' })).statusCode, 400);
        const wrong = await patch({ password: 'my new password', current_password: 'not it at all' });
        assert.equal(wrong.statusCode, 400);
        assert.equal(wrong.data.code, 'rest_invalid_param');
        assert.equal((await patch({ password: 'short', current_password: PASSWORD })).statusCode, 400);

        const changed = await patch({ password: 'my new password', current_password: PASSWORD });
        assert.equal(changed.statusCode, 200, changed.body);
        assert.equal((await me(session)).statusCode, 200, 'the session that changed it stays');
        assert.equal((await me(other)).statusCode, 401, 'every other session ends');
        const old = await t.request({
          method: 'POST',
          url: `${ADMIN}/session`,
          payload: { username: user.username, password: PASSWORD },
          remoteAddress: '10.9.1.1',
        });
        assert.equal(old.statusCode, 401);
        await signIn(user.username, 'my new password');
      });

      it('should answer 401 to anonymous callers', async () => {
        assert.equal((await t.request({ method: 'GET', url: `${ADMIN}/users/me` })).statusCode, 401);
      });
    });

    describe('the login password', () => {
      it('should never appear in any answer', async () => {
        const secret = 'a very secret login password';
        const created = await t.request({
          method: 'POST',
          url: `${ADMIN}/users`,
          auth: admin.authorization,
          payload: { username: 'secretive', role: 'author', password: secret },
        });
        assert.equal(created.statusCode, 201);
        const session = await signIn('secretive', secret);
        const answers = [
          created,
          await t.request({ method: 'GET', url: `${ADMIN}/users`, auth: admin.authorization }),
          await t.request({ method: 'GET', url: `${ADMIN}/users/${created.data.id}`, auth: admin.authorization }),
          await t.request({
            method: 'PATCH',
            url: `${ADMIN}/users/${created.data.id}`,
            auth: admin.authorization,
            payload: { password: `${secret} 2` },
          }),
          await t.request({
            method: 'POST',
            url: `${ADMIN}/session`,
            payload: { username: 'secretive', password: `${secret} 2` },
          }),
          await current(session),
        ];
        for (const res of answers) {
          assert.ok(!res.body.includes(secret), res.body);
          assert.ok(!res.body.includes('scrypt'), res.body);
          assert.ok(!/login_hash|"password"/.test(res.body), res.body);
        }
      });

      it('should refuse a login password shorter than 8 or longer than 1024 characters', async () => {
        for (const password of ['short', 'p'.repeat(1025)]) {
          const res = await t.request({
            method: 'POST',
            url: `${ADMIN}/users`,
            auth: admin.authorization,
            payload: { username: `bounded${password.length}`, role: 'author', password },
          });
          assert.equal(res.statusCode, 400);
        }
        const none = await t.request({ method: 'GET', url: `${ADMIN}/users`, auth: admin.authorization });
        assert.ok(!none.data.some((u: { username: string }) => u.username.startsWith('bounded')));
      });

      it('should keep spaces: a passphrase is not an application password', async () => {
        const user = await person('author', 'with inner spaces');
        const res = await t.request({
          method: 'POST',
          url: `${ADMIN}/session`,
          payload: { username: user.username, password: 'withinnerspaces' },
          remoteAddress: '10.9.2.1',
        });
        assert.equal(res.statusCode, 401);
        await signIn(user.username, 'with inner spaces');
      });

      it('should not be an application password, nor an application password a login password', async () => {
        const user = await t.asUser('editor', 'programmatic');
        const appPassword = Buffer.from(user.authorization.slice(6), 'base64').toString().split(':')[1]!;
        const res = await t.request({
          method: 'POST',
          url: `${ADMIN}/session`,
          payload: { username: 'programmatic', password: appPassword },
          remoteAddress: '10.9.2.2',
        });
        assert.equal(res.statusCode, 401);
        const loginUser = await person();
        const asBasic = await t.request({
          method: 'GET',
          url: '/',
          auth: basic(loginUser.username, PASSWORD),
          remoteAddress: '10.9.2.3',
        });
        assert.equal(asBasic.statusCode, 401);
      });
    });

    describe('failed sign-ins (CAL_AUTH_FAIL_LIMIT=3)', () => {
      const attempt = (username: string, password: string, remoteAddress: string) =>
        t.request({ method: 'POST', url: `${ADMIN}/session`, payload: { username, password }, remoteAddress });

      it('should answer one 401 invalid_credentials whichever part was wrong', async () => {
        const user = await person();
        const noLogin = await t.asUser('editor', 'no-login-password');
        const answers = [
          await attempt(user.username, 'wrong password', '10.8.0.1'),
          await attempt('nobody-at-all', PASSWORD, '10.8.0.2'),
          await attempt('no-login-password', PASSWORD, '10.8.0.3'),
        ];
        assert.ok(noLogin.id > 0);
        for (const res of answers) {
          assert.equal(res.statusCode, 401);
          assert.deepEqual(res.data, {
            code: 'invalid_credentials',
            message: 'The username or password you entered is incorrect.',
            data: { status: 401 },
          });
          assert.equal(res.headers['set-cookie'], undefined);
        }
      });

      it('should answer 429 after the limit, for the right password too, sharing the budget with Basic', async () => {
        const user = await person();
        const address = '10.8.1.1';
        const wrongBasic = await t.request({
          method: 'GET',
          url: '/',
          auth: basic(user.username, 'wrong'),
          remoteAddress: address,
        });
        assert.equal(wrongBasic.statusCode, 401);
        assert.equal((await attempt(user.username, 'wrong', address)).statusCode, 401);
        assert.equal((await attempt(user.username, 'wrong', address)).statusCode, 401);
        for (const password of ['wrong', PASSWORD]) {
          const res = await attempt(user.username, password, address);
          assert.equal(res.statusCode, 429);
          assert.equal(res.data.code, 'rest_too_many_requests');
          assert.ok(Number(res.headers['retry-after']) > 0);
        }
        // Another address is not throttled for that user.
        assert.equal((await attempt(user.username, PASSWORD, '10.8.1.2')).statusCode, 200);
      });

      it('should clear the count of its pair on a successful sign-in', async () => {
        const user = await person();
        const address = '10.8.2.1';
        assert.equal((await attempt(user.username, 'wrong', address)).statusCode, 401);
        assert.equal((await attempt(user.username, 'wrong', address)).statusCode, 401);
        assert.equal((await attempt(user.username, PASSWORD, address)).statusCode, 200);
        assert.equal((await attempt(user.username, 'wrong', address)).statusCode, 401);
        assert.equal((await attempt(user.username, 'wrong', address)).statusCode, 401);
        assert.equal((await attempt(user.username, PASSWORD, address)).statusCode, 200);
      });
    });

    describe('two instances on one database', () => {
      it('should accept a session made on one on the other, and end it there on the next request after a revocation', async () => {
        const storage = await connect({ dataDir: t.config.dataDir, databaseUrl: t.config.databaseUrl });
        const other = await buildApp(t.config, { storage, logger: false });
        const ask = injector(other);
        try {
          const user = await person();
          const session = await signIn(user.username);
          const meThere = () =>
            ask({
              method: 'GET',
              url: `${ADMIN}/users/me`,
              headers: { cookie: session.cookie, 'x-cal-nonce': session.nonce },
            });
          assert.equal((await meThere()).statusCode, 200);
          assert.equal((await meThere()).statusCode, 200, 'now remembered by the other instance');
          const there = await ask({ method: 'GET', url: `${ADMIN}/session`, headers: { cookie: session.cookie } });
          assert.equal(there.data.nonce, session.nonce);

          const out = await asSession(session, { method: 'DELETE', url: `${ADMIN}/session?everywhere=true` });
          assert.equal(out.statusCode, 200);
          assert.equal((await meThere()).statusCode, 401, 'no waiting: the next request on the other instance');

          // And the other way: a password changed on the other instance ends a session this one remembers.
          const second = await signIn(user.username);
          assert.equal((await me(second)).statusCode, 200);
          const changed = await ask({
            method: 'PATCH',
            url: `${ADMIN}/users/${user.id}`,
            headers: { authorization: admin.authorization },
            payload: { password: 'changed elsewhere' },
          });
          assert.equal(changed.statusCode, 200);
          assert.equal((await me(second)).statusCode, 401);
        } finally {
          await other.close();
          await storage.close();
        }
      });
    });
  });

  describe(`sessions behind a proxy [${backend}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(backend, { CAL_TRUST_PROXY: '1' });
      await ensureAdministrator(t.storage.db, 'boss', 'the operator password');
    });
    after(() => t.close());

    it('should set Secure when a trusted proxy says the request came over HTTPS', async () => {
      const res = await t.request({
        method: 'POST',
        url: `${ADMIN}/session`,
        payload: { username: 'boss', password: 'the operator password' },
        headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.7' },
      });
      assert.equal(res.statusCode, 200, res.body);
      assert.ok(String(res.headers['set-cookie']).split('; ').includes('Secure'));
      const plain = await t.request({
        method: 'POST',
        url: `${ADMIN}/session`,
        payload: { username: 'boss', password: 'the operator password' },
      });
      assert.ok(!String(plain.headers['set-cookie']).split('; ').includes('Secure'));
    });

    it("should give CAL_ADMIN_PASSWORD's administrator that login password, kept with its sessions across restarts", async () => {
      const signIn = () =>
        t.request({
          method: 'POST',
          url: `${ADMIN}/session`,
          payload: { username: 'boss', password: 'the operator password' },
        });
      const res = await signIn();
      assert.equal(res.statusCode, 200);
      assert.equal(res.data.user.role, 'administrator');
      const session = { cookie: cookieOf(res.headers['set-cookie']), nonce: res.data.nonce };
      const users = () =>
        t.request({
          method: 'GET',
          url: `${ADMIN}/users`,
          headers: { cookie: session.cookie, 'x-cal-nonce': session.nonce },
        });
      assert.equal((await users()).statusCode, 200);
      // A restart with the same password rewrites nothing, so the session lives on.
      assert.equal(await ensureAdministrator(t.storage.db, 'boss', 'the operator password'), 'present');
      assert.equal((await users()).statusCode, 200);
      // A new CAL_ADMIN_PASSWORD is a new login password: the old sessions end.
      assert.equal(await ensureAdministrator(t.storage.db, 'boss', 'the new operator password'), 'password-added');
      assert.equal((await users()).statusCode, 401);
      assert.equal((await signIn()).statusCode, 401);
    });
  });
}
