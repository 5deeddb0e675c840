import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Frame, Page } from 'playwright-core';
import { backends, createTestApp, type TestApp } from '../helpers/app.js';
import { browserSkip, launchChromium, newContext } from '../helpers/admin-browser.js';

/**
 * The calendar inside another site's `<iframe>`, in Chromium: two other sites (servers on other
 * ports of 127.0.0.1, so other origins), one named by CAL_EMBED_ORIGINS and one not, each serving
 * a page that frames the calendar. The allowed site shows the embed; the other is refused by the
 * embed's `frame-ancestors`, and so is the allowed site framing a page that is not an embed.
 */

const NS = '/cal/events/v1';

/** A site of its own: one page framing `src`. */
async function hostSite(): Promise<{ origin: string; frame(src: string): void; close(): Promise<void> }> {
  let src = 'about:blank';
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(
      `<!doctype html><html lang="en"><head><title>Partner</title></head><body><h1>Partner site</h1>` +
        `<iframe title="Calendar" src="${src}" width="800" height="600"></iframe></body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    frame: (next) => (src = next),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

for (const backend of backends()) {
  describe(`the calendar embedded in another site [${backend}]`, { skip: browserSkip }, () => {
    let t: TestApp;
    let base: string;
    let browser: Browser;
    let allowed: Awaited<ReturnType<typeof hostSite>>;
    let refused: Awaited<ReturnType<typeof hostSite>>;

    before(async () => {
      allowed = await hostSite();
      refused = await hostSite();
      t = await createTestApp(backend, { CAL_EMBED_ORIGINS: allowed.origin, CAL_MAP_TILES: 'off' });
      base = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const admin = (await t.asUser('administrator')).authorization;
      const res = await t.request({
        method: 'POST',
        url: `${NS}/events`,
        auth: admin,
        payload: { title: 'Embedded Concert', start_date: '2027-03-14 19:00:00', end_date: '2027-03-14 21:00:00' },
      });
      assert.equal(res.statusCode, 201, res.body);
      browser = await launchChromium();
    });

    after(async () => {
      await browser?.close();
      await t?.close();
      await allowed?.close();
      await refused?.close();
    });

    /** The partner's page framing `path`, and the calendar's frame once it has loaded (or failed to). */
    async function framed(
      site: typeof allowed,
      path: string,
    ): Promise<{ page: Page; frame: Frame; blocked: string[] }> {
      site.frame(`${base}${path}`);
      const context = await newContext(browser);
      const page = await context.newPage();
      const blocked: string[] = [];
      page.on('console', (message) => {
        if (/frame-ancestors|Refused to (display|frame)/i.test(message.text())) blocked.push(message.text());
      });
      await page.goto(site.origin, { waitUntil: 'load' });
      const frame = page.frames().find((f) => f !== page.mainFrame());
      assert.ok(frame, 'the partner page has its frame');
      return { page, frame, blocked };
    }

    /** What the frame shows of the calendar: its body's class and text, or null when nothing of it is there. */
    async function calendarIn(frame: Frame): Promise<{ className: string; text: string } | null> {
      try {
        const body = frame.locator('body');
        if ((await body.count()) === 0) return null;
        const className = (await body.getAttribute('class', { timeout: 2000 })) ?? '';
        const text = await body.innerText({ timeout: 2000 });
        return text.includes('Embedded Concert') || className.includes('is-embed') ? { className, text } : null;
      } catch {
        return null;
      }
    }

    it('shows the embed inside a frame of a site CAL_EMBED_ORIGINS names', async () => {
      const { page, frame, blocked } = await framed(allowed, '/events/list/?embed=1');
      try {
        const calendar = await calendarIn(frame);
        assert.ok(calendar, `the calendar is shown (${frame.url()})`);
        assert.match(calendar.className, /is-embed/);
        assert.match(calendar.text, /Embedded Concert/);
        assert.deepEqual(blocked, []);
      } finally {
        await page.context().close();
      }
    });

    it('is refused inside a frame of a site CAL_EMBED_ORIGINS does not name', async () => {
      const { page, frame, blocked } = await framed(refused, '/events/list/?embed=1');
      try {
        assert.equal(await calendarIn(frame), null, `nothing of the calendar is shown (${frame.url()})`);
        // Chromium replaces a refused frame by its error page and says why on the console.
        assert.ok(
          frame.url().startsWith('chrome-error://') || blocked.some((m) => /frame-ancestors/.test(m)),
          `refused: ${frame.url()} ${blocked.join(' | ')}`,
        );
      } finally {
        await page.context().close();
      }
    });

    it('keeps a page that is not an embed out of other sites’ frames, the allowed one included', async () => {
      const { page, frame } = await framed(allowed, '/events/list/');
      try {
        assert.equal(await calendarIn(frame), null, `not shown (${frame.url()})`);
      } finally {
        await page.context().close();
      }
    });
  });
}
