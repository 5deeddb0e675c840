import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { axeFindings, capture, sidewaysOverflow } from '../helpers/admin-browser.js';
import { browserBackends, createTestApp, type TestApp } from '../helpers/app.js';
import { seedGridCalendar } from '../helpers/grid-seed.js';

/**
 * The month grid's bars and the week view in Chromium, on the seeded calendar of long events: a
 * bar is drawn across its days (as wide as the cells it spans), the pages pass axe and do not
 * scroll sideways at phone or desktop width, where the grid and the week become lists of days;
 * screenshots go to test-output/screenshots/.
 */

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const SHOTS = new URL('../../test-output/screenshots/', import.meta.url);
const skip = fs.existsSync(CHROMIUM) ? false : `no browser at ${CHROMIUM} (apt-get install chromium)`;

/** The little of the DOM the checks read, typed here (the project's types have no DOM). */
interface Box {
  left: number;
  right: number;
  top: number;
  width: number;
}
interface Dom {
  document: {
    querySelector(selector: string): { getBoundingClientRect(): Box } | null;
  };
}

for (const backend of browserBackends()) {
  describe(`month and week grids in a browser [${backend}]`, { skip }, () => {
    let t: TestApp;
    let base: string;
    let browser: Browser;

    async function open(path: string, width: number): Promise<Page> {
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      page.on('close', () => void context.close().catch(() => undefined));
      const response = await page.goto(`${base}${path}`);
      assert.equal(response?.status(), 200, path);
      return page;
    }

    const box = (page: Page, selector: string) =>
      page.evaluate((s) => {
        const r = (globalThis as unknown as Dom).document.querySelector(s)?.getBoundingClientRect();
        return r ? { left: r.left, right: r.right, top: r.top, width: r.width } : null;
      }, selector);

    before(async () => {
      t = await createTestApp(backend);
      await seedGridCalendar(t);
      base = await t.app.listen({ port: 0, host: '127.0.0.1' });
      browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    });

    after(async () => {
      await browser?.close();
      await t.close();
    });

    it('draws a bar across the days it spans, in the month and in the week', async () => {
      for (const [path, bar, from, to] of [
        ['/events/month/2026-12/', 'td[data-date="2026-12-06"] li.bar.span-7 a', '2026-12-06', '2026-12-12'],
        ['/events/week/2026-12-13/', 'li.week-day[data-date="2026-12-13"] li.bar.span-7 a', '2026-12-13', '2026-12-19'],
      ] as const) {
        const page = await open(path, 1280);
        const drawn = (await box(page, bar))!;
        const cell = path.includes('month') ? 'td' : 'li.week-day';
        const first = (await box(page, `${cell}[data-date="${from}"]`))!;
        const last = (await box(page, `${cell}[data-date="${to}"]`))!;
        assert.ok(drawn.left >= first.left && drawn.left - first.left < 12, `${path}: starts in its first day`);
        assert.ok(
          Math.abs(last.right - drawn.right) < 12,
          `${path}: ends in its last day (${drawn.right} / ${last.right})`,
        );
        await page.close();
      }
    });

    it('passes axe and fits phone and desktop widths, with screenshots', async () => {
      fs.mkdirSync(SHOTS, { recursive: true });
      const found: string[] = [];
      for (const [path, name] of [
        ['/events/month/2026-12/', 'grid-month'],
        ['/events/week/2026-12-13/', 'grid-week'],
      ] as const) {
        for (const width of [375, 1280]) {
          const page = await open(path, width);
          const overflow = await sidewaysOverflow(page);
          assert.ok(overflow <= 0, `${path} at ${width}px scrolls sideways by ${overflow}px`);
          found.push(...(await axeFindings(page, `${path} @${width}`)));
          await capture(page, new URL(`${backend}-${name}-${width}.png`, SHOTS).pathname);
          await page.close();
        }
      }
      assert.deepEqual(found, []);
    });
  });
}
