import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';
import { capture } from '../helpers/admin-browser.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

/**
 * The map view in Debian's Chromium, without tiles (CAL_MAP_TILES=off: this machine has no
 * network, and a tile failing to load would be a console error): Leaflet draws one marker per
 * venue on a blank background, a marker opens its popup from the keyboard, nothing is logged as an
 * error; with JavaScript off the page is the list, and the map's box takes no room. SQLite only:
 * the browser sees the same markup from either database (test/modules/pages/map.test.ts runs both).
 */

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const NS = '/cal/events/v1';
const SHOTS = new URL('../../test-output/screenshots/', import.meta.url);
const skip = fs.existsSync(CHROMIUM) ? false : `no browser at ${CHROMIUM} (apt-get install chromium)`;

/** The little of the DOM the checks read, typed here (the project's types have no DOM). */
interface Dom {
  document: {
    activeElement: { className: string } | null;
    documentElement: { scrollWidth: number; clientWidth: number };
  };
}

describe('map view in a browser [sqlite]', { skip }, () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  /** Whether the pages' policy lets the site's own scripts run (script-src 'self'). */
  let scripts = false;

  async function post(auth: string, url: string, body: Record<string, unknown>): Promise<any> {
    const res = await t.request({ method: 'POST', url, payload: body, auth });
    assert.ok(res.statusCode < 300, `${url}: ${res.statusCode} ${res.body}`);
    return res.data;
  }

  async function open(width: number, javaScriptEnabled = true): Promise<{ page: Page; errors: string[] }> {
    const context = await browser.newContext({ viewport: { width, height: 900 }, javaScriptEnabled });
    const page = await context.newPage();
    page.on('close', () => void context.close().catch(() => undefined));
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('requestfailed', (request) => errors.push(`${request.url()}: ${request.failure()?.errorText}`));
    const response = await page.goto(`${base}/events/map/`);
    assert.equal(response?.status(), 200);
    return { page, errors };
  }

  before(async () => {
    t = await createTestApp('sqlite', { CAL_GEOLOC: '1', CAL_MAP_TILES: 'off' });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const admin = (await t.asUser('administrator')).authorization;
    const venue = async (body: Record<string, unknown>) => (await post(admin, `${NS}/venues`, body)).id as number;
    const harbour = await venue({
      venue: 'Harbour Hall',
      address: '1 Quay',
      city: 'Nantes',
      geo_lat: 47.2,
      geo_lng: -1.55,
    });
    const mill = await venue({ venue: 'Old Mill', city: 'Lyon', geo_lat: 45.76, geo_lng: 4.83 });
    const barn = await venue({ venue: 'Nowhere Barn', city: 'Somewhere' });
    const events: [string, string, number][] = [
      ['Harbour Jazz', '2031-05-01', harbour],
      ['Harbour Talk', '2031-05-02', harbour],
      ['Mill Jazz', '2031-05-03', mill],
      ['Barn Dance', '2031-05-04', barn],
    ];
    for (const [title, day, at] of events)
      await post(admin, `${NS}/events`, {
        title,
        start_date: `${day} 19:00:00`,
        end_date: `${day} 21:00:00`,
        venue: at,
      });
    const policy = String((await t.request({ method: 'GET', url: '/events/map/' })).headers['content-security-policy']);
    scripts = /script-src[^;]*'self'/.test(policy);
    fs.mkdirSync(SHOTS, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });

  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('draws a marker per venue without tiles, opens a popup from the keyboard, logs no error', async (test) => {
    if (!scripts) {
      test.skip("the pages' Content-Security-Policy does not allow the site's own scripts yet (script-src 'self')");
      return;
    }
    const { page, errors } = await open(1280);
    await page.locator('.leaflet-marker-icon').first().waitFor();
    assert.equal(await page.locator('.leaflet-marker-icon').count(), 2);
    assert.equal(await page.locator('.leaflet-tile').count(), 0, 'no tile asked for');
    assert.ok(await page.locator('#cal-map').isVisible());
    // The map beside the list on a wide screen.
    const map = (await page.locator('#cal-map').boundingBox())!;
    const list = (await page.locator('.map-list').boundingBox())!;
    assert.ok(map.x + map.width <= list.x + 1, `map ${JSON.stringify(map)} beside list ${JSON.stringify(list)}`);
    // A marker is a focusable button named by its venue; Enter opens its popup with the events' links.
    const marker = page.locator('.leaflet-marker-icon[alt="Harbour Hall"]');
    assert.equal(await marker.getAttribute('tabindex'), '0');
    await marker.focus();
    await page.keyboard.press('Enter');
    const popup = page.locator('.leaflet-popup-content');
    await popup.waitFor();
    assert.deepEqual(await popup.locator('.map-popup-events a').allTextContents(), ['Harbour Jazz', 'Harbour Talk']);
    assert.equal(await popup.locator('.map-popup-venue a').getAttribute('href'), '/venue/harbour-hall/');
    const results = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
    const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    assert.deepEqual(
      serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      [],
    );
    await capture(page, new URL('map-1280.png', SHOTS).pathname);
    assert.deepEqual(errors, []);
    await page.close();
  });

  it('is the list alone without JavaScript, and fits a phone', async () => {
    for (const [width, js] of [
      [1280, false],
      [375, false],
      [375, true],
    ] as const) {
      const { page, errors } = await open(width, js);
      assert.deepEqual(await page.locator('.cal-list h2').allTextContents(), [
        'Harbour Jazz',
        'Harbour Talk',
        'Mill Jazz',
      ]);
      assert.match((await page.locator('.map-unmapped').textContent()) ?? '', /^One event of these dates/);
      if (!js || !scripts) {
        assert.equal(await page.locator('#cal-map').isVisible(), false, 'the empty box takes no room');
        assert.equal((await page.locator('#cal-map').boundingBox()) ?? null, null);
      } else {
        await page.locator('.leaflet-marker-icon').first().waitFor();
        const map = (await page.locator('#cal-map').boundingBox())!;
        const list = (await page.locator('.map-list').boundingBox())!;
        assert.ok(map.y + map.height <= list.y + 1, 'on a phone the map is above the list');
        assert.deepEqual(errors, []);
      }
      const overflow = await page.evaluate(() => {
        const { documentElement } = (globalThis as unknown as Dom).document;
        return documentElement.scrollWidth - documentElement.clientWidth;
      });
      assert.ok(overflow <= 0, `${width}px: ${overflow}px of horizontal scrolling`);
      if (js) await capture(page, new URL(`map-${width}.png`, SHOTS).pathname);
      await page.close();
    }
  });
});
