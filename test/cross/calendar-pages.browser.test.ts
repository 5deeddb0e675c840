import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';
import { axeFindings, capture, sidewaysOverflow } from '../helpers/admin-browser.js';
import { browserBackends, createTestApp, type TestApp } from '../helpers/app.js';

/**
 * The public pages in a real browser: Debian's Chromium driven by playwright-core (no browser
 * download; `.ci/run` installs the package). Mouse and keyboard walks, axe-core on every kind of
 * page, and screenshots at phone and desktop widths written to test-output/screenshots/.
 */

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const NS = '/cal/events/v1';
const SHOTS = new URL('../../test-output/screenshots/', import.meta.url);
/** The little of the DOM the checks read, typed here (the project's types have no DOM). */
interface Dom {
  document: {
    activeElement: { className: string; textContent: string | null } | null;
  };
  getComputedStyle(element: unknown): { outlineStyle: string; outlineWidth: string };
}

const skip = fs.existsSync(CHROMIUM) ? false : `no browser at ${CHROMIUM} (apt-get install chromium)`;

for (const backend of browserBackends()) {
  describe(`public pages in a browser [${backend}]`, { skip }, () => {
    let t: TestApp;
    let base: string;
    let browser: Browser;
    let admin: string;

    async function post(url: string, body: Record<string, unknown>): Promise<any> {
      const res = await t.request({ method: 'POST', url, payload: body, auth: admin });
      assert.ok(res.statusCode < 300, `${url}: ${res.statusCode} ${res.body}`);
      return res.data;
    }

    async function open(path: string, width = 1280, status = 200): Promise<Page> {
      // A context per page: axe-core's Playwright builder needs one it can add frames to.
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();
      // Closed with its page; after the browser itself has gone, there is nothing left to close.
      page.on('close', () => void context.close().catch(() => undefined));
      const response = await page.goto(`${base}${path}`);
      assert.equal(response?.status(), status, path);
      return page;
    }

    before(async () => {
      t = await createTestApp(backend);
      base = await t.app.listen({ port: 0, host: '127.0.0.1' });
      admin = (await t.asUser('administrator')).authorization;
      const venue = (
        await post(`${NS}/venues`, {
          venue: 'Town Hall',
          address: '1 Main St',
          city: 'Springfield',
          country: 'USA',
          show_map_link: true,
        })
      ).id;
      await post(`/fr${NS}/venues`, { venue: 'Mairie', city: 'Springfield', translation_of: venue });
      const organizer = (await post(`${NS}/organizers`, { organizer: 'Jazz Club', email: 'club@example.org' })).id;
      const jazz = (await post(`${NS}/categories`, { name: 'Jazz' })).id;
      const talks = (await post(`${NS}/categories`, { name: 'Talks' })).id;
      const concert = (
        await post(`${NS}/events`, {
          title: 'Spring Concert',
          description: '<p>An evening of <strong>jazz</strong> in the great hall.</p>',
          start_date: '2027-03-14 19:00:00',
          end_date: '2027-03-14 21:30:00',
          timezone: 'Europe/Paris',
          venue,
          organizer: [organizer],
          categories: [jazz],
          cost: '15',
          show_map_link: true,
        })
      ).id;
      await post(`/fr${NS}/events`, {
        title: 'Concert de printemps',
        start_date: '2027-03-14 19:00:00',
        end_date: '2027-03-14 21:30:00',
        timezone: 'Europe/Paris',
        venue,
        translation_of: concert,
      });
      await post(`${NS}/events`, {
        title: 'Lecture on Stars',
        start_date: '2027-03-20 10:00:00',
        end_date: '2027-03-20 11:00:00',
        categories: [talks],
        venue,
      });
      await post(`${NS}/events`, {
        title: 'Three-day Festival',
        all_day: true,
        start_date: '2027-03-26',
        end_date: '2027-03-28',
        featured: true,
      });
      for (let i = 1; i <= 4; i += 1)
        await post(`${NS}/events`, {
          title: `Workshop ${i}`,
          start_date: `2027-03-09 0${i + 5}:00:00`,
          end_date: `2027-03-09 0${i + 5}:45:00`,
        });
      await post(`${NS}/events`, {
        title: 'Spring into April',
        start_date: '2027-04-02 18:00:00',
        end_date: '2027-04-02 20:00:00',
      });
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        // As root in CI; and no calls home from a machine without a network.
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
        ],
      });
    });

    after(async () => {
      await browser?.close();
      await t?.close();
    });

    it('walks from the month to the next month, an event, its venue, French and back', async () => {
      const page = await open('/events/month/2027-03/');
      assert.equal(await page.locator('caption').textContent(), 'March 2027');
      await page.click('a[rel=next]');
      await page.waitForURL(/\/events\/month\/2027-04\/$/);
      assert.equal(await page.locator('h1').textContent(), 'April 2027');
      assert.ok(await page.locator('a.cal-event', { hasText: 'Spring into April' }).isVisible());
      await page.click('a[rel=prev]');
      await page.waitForURL(/\/events\/month\/2027-03\/$/);
      await page.click('a.cal-event:has-text("Spring Concert")');
      await page.waitForURL(/\/event\/spring-concert\/$/);
      assert.equal(await page.locator('h1').textContent(), 'Spring Concert');
      assert.match((await page.locator('.dates').textContent()) ?? '', /Europe\/Paris/);
      await page.click('a.cal-venue-link');
      await page.waitForURL(/\/venue\/town-hall\/$/);
      assert.equal(await page.locator('h1').textContent(), 'Town Hall');
      await page.click('nav.cal-languages a[hreflang=fr]');
      await page.waitForURL(/\/fr\/venue\/mairie\/$/);
      assert.equal(await page.locator('html').getAttribute('lang'), 'fr');
      assert.equal(await page.locator('h1').textContent(), 'Mairie');
      await page.click('nav.cal-languages a[hreflang=en]');
      await page.waitForURL(/\/venue\/town-hall\/$/);
      assert.equal(await page.locator('html').getAttribute('lang'), 'en');
      await page.close();
    });

    it('filters the month by category with the form', async () => {
      const page = await open('/events/month/2027-03/');
      // The form is folded until asked for (it would take a phone's first screen).
      await page.getByText('Filter events', { exact: true }).click();
      await page.selectOption('select[name=category]', 'jazz');
      await page.click('.cal-filters button[type=submit]');
      await page.waitForURL(/category=jazz/);
      assert.deepEqual(await page.locator('a.cal-event').allTextContents(), ['7:00 PM Spring Concert']);
      // The filter follows to the next month.
      assert.match((await page.locator('a[rel=next]').getAttribute('href')) ?? '', /category=jazz/);
      await page.close();
    });

    it('reaches an event with the keyboard alone, with a visible focus', async () => {
      const page = await open('/events/month/2027-03/');
      let focused = '';
      for (let i = 0; i < 80 && !focused.includes('cal-event'); i += 1) {
        await page.keyboard.press('Tab');
        focused = await page.evaluate(() => (globalThis as unknown as Dom).document.activeElement?.className ?? '');
      }
      assert.ok(focused.includes('cal-event'), 'an event link takes the focus');
      const outline = await page.evaluate(() => {
        const dom = globalThis as unknown as Dom;
        const style = dom.getComputedStyle(dom.document.activeElement);
        return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
      });
      assert.ok(outline.style !== 'none' && outline.width >= 2, `focus visible: ${JSON.stringify(outline)}`);
      const title = await page.evaluate(() => (globalThis as unknown as Dom).document.activeElement?.textContent ?? '');
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/event\//);
      assert.ok(title.includes((await page.locator('h1').textContent())!));
      // The skip link is the first stop and leads to the content.
      await page.keyboard.press('Tab');
      assert.equal(
        await page.evaluate(() => (globalThis as unknown as Dom).document.activeElement?.className),
        'skip-link',
      );
      await page.close();
    });

    // Axe takes seconds a page.
    it('has no serious or critical axe-core violation on any kind of page', async () => {
      const pages = [
        '/events/month/2027-03/',
        '/events/list/',
        '/events/day/2027-03-09/',
        '/event/spring-concert/',
        '/venue/town-hall/',
        '/organizer/jazz-club/',
        '/events/category/jazz/',
        '/fr/events/month/2027-03/',
        '/event/no-such-event/',
      ];
      const found: string[] = [];
      // Every kind of page wide; the two busiest at phone width too (the grid becomes a list).
      const runs = [
        ...pages.map((path) => [path, 1280] as const),
        ['/events/month/2027-03/', 375] as const,
        ['/event/spring-concert/', 375] as const,
      ];
      for (const [path, width] of runs) {
        const page = await open(path, width, path.includes('no-such') ? 404 : 200);
        found.push(...(await axeFindings(page, `${path} @${width}`)));
        await page.close();
      }
      console.log(`axe: ${runs.length} pages, ${found.length} serious or critical violations`);
      assert.deepEqual(found, []);
    });

    it('renders at phone and desktop widths without horizontal scrolling, and takes screenshots', async () => {
      fs.mkdirSync(SHOTS, { recursive: true });
      for (const [path, name] of [
        ['/events/month/2027-03/', 'month'],
        ['/event/spring-concert/', 'event'],
      ] as const) {
        for (const width of [375, 1280]) {
          const page = await open(path, width);
          const overflow = await sidewaysOverflow(page);
          assert.ok(overflow <= 0, `${path} at ${width}px scrolls sideways by ${overflow}px`);
          const file = new URL(`${backend}-${name}-${width}.png`, SHOTS);
          await capture(page, file.pathname);
          assert.ok(fs.statSync(file).size > 5000);
          await page.close();
        }
      }
      // 320 px, the narrowest the pages are made for.
      const narrow = await open('/events/month/2027-03/', 320);
      const narrowOverflow = await sidewaysOverflow(narrow);
      assert.ok(narrowOverflow <= 0, `320 px scrolls sideways by ${narrowOverflow}px`);
      await narrow.close();
    });

    it('runs no script that reached the stored HTML, with its styles and images still shown (the CSP as a second wall)', async () => {
      // The sanitizer removes these on every write; written straight to the table, they stand for
      // HTML stored before it, or a sanitizer bug. The Content-Security-Policy must stop them all.
      const created = await post(`${NS}/events`, {
        title: 'Guarded',
        start_date: '2027-03-22 10:00:00',
        end_date: '2027-03-22 11:00:00',
      });
      const attacks =
        '<p id="kept">Kept</p><script>document.title="pwned-inline"</script>' +
        '<img src="/assets/nothing.png" onerror="document.title=\'pwned-handler\'">' +
        '<a id="js" href="javascript:document.title=\'pwned-url\'">x</a>' +
        '<iframe srcdoc="<script>parent.document.title=\'pwned-frame\'</script>"></iframe>' +
        '<script src="data:text/javascript,document.title=%22pwned-data%22"></script>';
      await t.storage.db.updateTable('events').set({ description: attacks }).where('id', '=', created.id).execute();
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      const blocked: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) blocked.push(message.text());
      });
      const response = await page.goto(`${base}/event/${created.slug}/`);
      assert.equal(response?.status(), 200);
      await page.click('#js').catch(() => undefined);
      await page.waitForTimeout(300);
      assert.equal(await page.title().then((title) => /pwned/.test(title)), false, await page.title());
      assert.equal(await page.locator('#kept').textContent(), 'Kept');
      assert.ok(blocked.length >= 2, `CSP reports: ${blocked.join(' | ')}`);
      // The site's own stylesheet still applies under the policy.
      const styled = await page.evaluate(
        () => (globalThis as unknown as { document: { styleSheets: { length: number } } }).document.styleSheets.length,
      );
      assert.ok(styled >= 1);
      await context.close();
    });
  });
}
