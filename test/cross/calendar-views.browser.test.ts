import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DateTime } from 'luxon';
import type { Browser, Page } from 'playwright-core';
import { axeFindings, browserSkip, launchChromium, sidewaysOverflow } from '../helpers/admin-browser.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

/**
 * The calendar's views in Chromium, reached as a visitor does, by the header's links: month,
 * week, list, photo and map (without tiles), each without a serious or critical axe violation,
 * each with its Subscribe menu opened by its name, at phone and desktop widths; on a phone the
 * chrome leaves the first screen to the events. The markup does not depend on the database: SQLite only.
 */

const NS = '/cal/events/v1';

interface Dom {
  document: {
    querySelector(selector: string): { getBoundingClientRect(): { top: number } } | null;
  };
}

describe('calendar views in a browser [sqlite]', { skip: browserSkip }, () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let admin: string;

  async function post(url: string, body: Record<string, unknown>): Promise<any> {
    const res = await t.request({ method: 'POST', url, payload: body, auth: admin });
    assert.ok(res.statusCode < 300, `${url}: ${res.statusCode} ${res.body}`);
    return res.data;
  }

  async function open(path: string, width: number): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: 812 } });
    const page = await context.newPage();
    page.on('close', () => void context.close().catch(() => undefined));
    const response = await page.goto(`${base}${path}`);
    assert.equal(response?.status(), 200, path);
    return page;
  }

  before(async () => {
    t = await createTestApp('sqlite');
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    admin = (await t.asUser('administrator')).authorization;
    const venue = (
      await post(`${NS}/venues`, {
        venue: 'Harbour Hall',
        city: 'Springfield',
        geo_lat: 48.85,
        geo_lng: 2.35,
        show_map: true,
      })
    ).id;
    const jazz = (await post(`${NS}/categories`, { name: 'Jazz' })).id;
    // This week and the next few days, so every view has events whatever day the test runs.
    const day = DateTime.utc().startOf('day');
    for (let i = 0; i < 6; i += 1)
      await post(`${NS}/events`, {
        title: `Harbour Concert ${i + 1}`,
        excerpt: 'An evening of music by the water.',
        start_date: day.plus({ days: i, hours: 19 }).toFormat('yyyy-MM-dd HH:mm:ss'),
        end_date: day.plus({ days: i, hours: 21 }).toFormat('yyyy-MM-dd HH:mm:ss'),
        venue,
        categories: [jazz],
        ...(i % 2 === 0 ? { image: `${base}/assets/none-${i}.jpg` } : {}),
      });
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('opens each view by its link, passes axe, and subscribes from its menu, at 375 and 1280 px', async () => {
    const found: string[] = [];
    for (const width of [375, 1280]) {
      const page = await open('/events/', width);
      for (const [name, path] of [
        ['Week', /\/events\/week\/$/],
        ['List', /\/events\/list\/$/],
        ['Photo', /\/events\/photo\/$/],
        ['Map', /\/events\/map\/$/],
        ['Month', /\/events\/$/],
      ] as const) {
        await page.locator('nav.cal-views').getByRole('link', { name, exact: true }).click();
        await page.waitForURL(path);
        assert.equal(
          await page.locator('nav.cal-views a[aria-current=page]').textContent(),
          name,
          `${name}: marked as the current view`,
        );
        found.push(...(await axeFindings(page, `${name} @${width}`)));
        // The Subscribe menu, opened by its name, without a script of ours.
        const google = page.getByRole('link', { name: 'Google Calendar' });
        assert.equal(await google.isVisible(), false);
        await page.locator('summary', { hasText: 'Subscribe' }).click();
        assert.ok(await google.isVisible(), `${name}: the menu opens`);
        const cid = new URL((await google.getAttribute('href'))!).searchParams.get('cid')!;
        assert.match(cid, /^webcal:\/\/127\.0\.0\.1:\d+\/cal\/events\/v1\/events\?format=ical/);
        assert.equal(await page.getByRole('link', { name: 'Apple Calendar / iCalendar' }).getAttribute('href'), cid);
        assert.ok(await page.getByRole('link', { name: 'Outlook' }).isVisible());
        const ics = (await page.getByRole('link', { name: 'Download .ics' }).getAttribute('href'))!;
        const feed = await page.request.get(ics);
        assert.equal(feed.status(), 200);
        assert.match(await feed.text(), /BEGIN:VCALENDAR/);
        await page.locator('summary', { hasText: 'Subscribe' }).click();
        const overflow = await sidewaysOverflow(page);
        assert.ok(overflow <= 0, `${name} at ${width}px scrolls sideways by ${overflow}px`);
      }
      await page.close();
    }
    assert.deepEqual(found, []);
  });

  it('leaves most of a phone’s first screen to the events, the filters one tap away', async () => {
    const page = await open('/events/list/', 375);
    const top = await page.evaluate(
      () => (globalThis as unknown as Dom).document.querySelector('.cal-list')?.getBoundingClientRect().top ?? 9999,
    );
    assert.ok(top < 812 / 2, `the list starts at ${top}px of 812`);
    assert.equal(await page.getByLabel('Category').isVisible(), false);
    await page.locator('summary', { hasText: 'Filter events' }).click();
    await page.getByLabel('Category').selectOption('jazz');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/category=jazz/);
    assert.ok(await page.getByLabel('Category').isVisible(), 'the form stays open while filtered');
    await page.close();
  });

  it('shows the snippet page with its code and a live preview of the embedded view', async () => {
    const page = await open('/events/embed/', 1280);
    await page.getByLabel('View', { exact: true }).selectOption('photo');
    await page.getByLabel('Category').selectOption('jazz');
    await page.getByRole('button', { name: 'Show the code' }).click();
    await page.waitForURL(/view=photo/);
    const code = await page.getByLabel('Code to paste into your page').inputValue();
    assert.match(
      code,
      /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/events\/photo\/\?category=jazz&embed=1" title="[^"]+" /,
    );
    const frame = page.frameLocator('iframe.cal-embed-preview');
    await frame.locator('.cal-card').first().waitFor();
    assert.equal(await frame.locator('header.site-header').count(), 0);
    assert.ok((await frame.locator('.cal-card h2 a').first().getAttribute('target')) === '_top');
    assert.deepEqual(await axeFindings(page, 'embed'), []);
    await page.close();
  });
});
