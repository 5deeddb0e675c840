import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/app.js';
import { loadConfig } from '../../../src/config.js';
import { connect, migrate, type Storage } from '../../../src/db/connect.js';
import { isValidTimezone } from '../../../src/lib/dates.js';

/**
 * How /admin/ is served, on a small stand-in for the built application (the real build is
 * driven in Chromium by test/cross/admin.browser.test.ts): the page with a fresh nonce in its
 * CSP and in its meta element each time, the hashed files immutable, a missing file a 404 (never
 * the page), deep paths answered with the page, and the public pages' policy untouched.
 */

const PAGE = `<!doctype html><html><head><meta name="csp-nonce" content="__CAL_CSP_NONCE__">
<script type="module" crossorigin src="/admin/assets/index-abc123.js"></script></head><body><div id="root"></div></body></html>`;

async function serviceWith(adminDir: string): Promise<{ app: FastifyInstance; storage: Storage; dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-admin-app-'));
  const config = loadConfig(
    { DATA_DIR: dataDir, LOG_LEVEL: 'silent', CAL_MAX_EVENT_LOOP_DELAY_MS: '0' },
    isValidTimezone,
  );
  const storage = await connect({ dataDir, databaseUrl: undefined });
  await migrate(storage.db);
  const app = await buildApp(config, { storage, logger: false, adminDir });
  await app.ready();
  return { app, storage, dataDir };
}

function nonceOf(policy: string): string {
  const match = /style-src-elem 'self' 'nonce-([A-Za-z0-9+/=]+)'/.exec(policy);
  assert.ok(match, policy);
  return match[1]!;
}

describe('the admin application at /admin/', () => {
  let service: Awaited<ReturnType<typeof serviceWith>>;
  const built = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-admin-build-'));

  before(async () => {
    fs.mkdirSync(path.join(built, 'assets'));
    fs.writeFileSync(path.join(built, 'index.html'), PAGE);
    fs.writeFileSync(path.join(built, 'assets', 'index-abc123.js'), 'console.log("admin");\n');
    service = await serviceWith(built);
  });

  after(async () => {
    await service.app.close();
    await service.storage.close();
    fs.rmSync(service.dataDir, { recursive: true, force: true });
    fs.rmSync(built, { recursive: true, force: true });
  });

  it('answers the page with its own policy: scripts from the origin only, style elements by a fresh nonce', async () => {
    const first = await service.app.inject({ url: '/admin/' });
    const second = await service.app.inject({ url: '/admin' });
    for (const answer of [first, second]) {
      assert.equal(answer.statusCode, 200);
      assert.match(String(answer.headers['content-type']), /^text\/html/);
      assert.equal(answer.headers['cache-control'], 'no-store');
      const policy = String(answer.headers['content-security-policy']);
      assert.match(policy, /script-src 'self'(;|$)/);
      assert.doesNotMatch(policy, /script-src[^;]*unsafe/);
      assert.match(policy, /frame-ancestors 'none'/);
      assert.match(policy, /connect-src 'self'/);
      // The page carries the same nonce its policy names, for emotion and FullCalendar to use.
      assert.ok(answer.body.includes(`content="${nonceOf(policy)}"`));
      assert.ok(!answer.body.includes('__CAL_CSP_NONCE__'));
    }
    assert.notEqual(
      nonceOf(String(first.headers['content-security-policy'])),
      nonceOf(String(second.headers['content-security-policy'])),
    );
  });

  it("answers the application's own paths with the page: its router reads them", async () => {
    for (const url of ['/admin/events', '/admin/events/12', '/admin/calendar?view=week']) {
      const answer = await service.app.inject({ url });
      assert.equal(answer.statusCode, 200, url);
      assert.ok(answer.body.includes('<div id="root">'), url);
    }
  });

  it('serves the hashed files for a year, and a missing one as a 404, never as the page', async () => {
    const script = await service.app.inject({ url: '/admin/assets/index-abc123.js' });
    assert.equal(script.statusCode, 200);
    assert.match(String(script.headers['content-type']), /javascript/);
    assert.match(String(script.headers['cache-control']), /max-age=31536000/);
    assert.match(String(script.headers['cache-control']), /immutable/);
    const missing = await service.app.inject({ url: '/admin/assets/index-000000.js' });
    assert.equal(missing.statusCode, 404);
    assert.equal(missing.json().code, 'rest_no_route');
    for (const url of ['/admin/assets/..%2f..%2findex.html', '/admin/assets/.env', '/admin/assets/index.html']) {
      const outside = await service.app.inject({ url });
      assert.ok([400, 404].includes(outside.statusCode), `${url}: ${outside.statusCode}`);
      assert.ok(!outside.body.includes('csp-nonce'), url);
    }
  });

  it("leaves the public pages' policy its own: their files' scripts only, no nonce", async () => {
    const page = await service.app.inject({ url: '/events/' });
    const policy = String(page.headers['content-security-policy']);
    assert.doesNotMatch(policy, /nonce-/);
    assert.match(policy, /script-src 'self'(;|$)/);
    assert.doesNotMatch(policy, /unsafe-inline/);
    assert.match(policy, /default-src 'none'/);
  });
});

describe('the admin before it is built', () => {
  it('answers 503 in the contract body, saying how to build it', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-admin-none-'));
    const service = await serviceWith(empty);
    try {
      const answer = await service.app.inject({ url: '/admin/' });
      assert.equal(answer.statusCode, 503);
      assert.equal(answer.json().code, 'cal_admin_not_built');
      assert.match(answer.json().message, /npm run build/);
    } finally {
      await service.app.close();
      await service.storage.close();
      fs.rmSync(service.dataDir, { recursive: true, force: true });
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });
});
