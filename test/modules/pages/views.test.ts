import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DateTime } from 'luxon';
import { parse, type HTMLElement } from 'node-html-parser';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';

/**
 * The list and photo views, the Subscribe menu of every view, embeds (`?embed=1`) and the snippet
 * page, over HTTP on each database. Dates are relative to now in a site zone where it is between
 * 04:00 and 20:00, so "an event over this morning" is today's whenever the test runs.
 */

const NS = '/cal/events/v1';
const ZONES = ['UTC', 'Asia/Tokyo', 'America/New_York', 'Asia/Kolkata', 'Pacific/Auckland', 'America/Los_Angeles'];
const zone = ZONES.find((z) => {
  const hour = DateTime.now().setZone(z).hour;
  return hour >= 4 && hour <= 20;
})!;

const now = DateTime.now().setZone(zone).startOf('minute');
const sqlTime = (d: DateTime) => d.toFormat('yyyy-MM-dd HH:mm:ss');
const dayAt = (days: number, hour: number) => now.startOf('day').plus({ days, hours: hour });
const dayOf = (days: number) => now.plus({ days }).toISODate()!;

for (const backend of backends()) {
  describe(`list, photo, subscribe and embeds [${backend}]`, () => {
    let t: TestApp;
    let admin: string;

    async function post(url: string, body: Record<string, unknown>, method: 'POST' | 'PATCH' = 'POST'): Promise<any> {
      const res = await t.request({ method, url, payload: body, auth: admin });
      assert.ok(res.statusCode < 300, `${url}: ${res.statusCode} ${res.body}`);
      return res.data;
    }

    async function page(url: string, status = 200): Promise<HTMLElement> {
      const res = await t.request({ method: 'GET', url });
      assert.equal(res.statusCode, status, `${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      return parse(res.body);
    }

    const texts = (html: HTMLElement, selector: string) => html.querySelectorAll(selector).map((e) => e.text.trim());
    const event = (title: string, start: DateTime, end: DateTime, extra: Record<string, unknown> = {}) =>
      post(`${NS}/events`, { title, start_date: sqlTime(start), end_date: sqlTime(end), timezone: zone, ...extra });

    before(async () => {
      t = await createTestApp(backend);
      admin = (await t.asUser('administrator')).authorization;
      await post('/cal/admin/v1/settings', { timezone: zone }, 'PATCH');
      const venue = (await post(`${NS}/venues`, { venue: 'Harbour Hall', city: 'Springfield' })).id;
      const jazz = (await post(`${NS}/categories`, { name: 'Jazz' })).id;
      const tag = (await post(`${NS}/tags`, { name: 'outdoor' })).id;
      await event('Finished This Morning', now.minus({ hours: 3 }), now.minus({ hours: 2 }));
      await event('Going On Now', now.minus({ hours: 1 }), now.plus({ hours: 1 }));
      await event('Jazz Night', dayAt(2, 20), dayAt(2, 22), {
        categories: [jazz],
        tags: [tag],
        venue,
        excerpt: '<p>Bring <b>friends</b> &amp; chairs.</p>',
        image: 'https://img.example.org/jazz.jpg',
      });
      await event('Morning Talk', dayAt(2, 10), dayAt(2, 11), { description: `<p>${'word '.repeat(400)}</p>` });
      for (let i = 1; i <= 5; i++)
        await event(`Picture ${i}`, dayAt(7, 9 + i), dayAt(7, 10 + i), { image: `https://img.example.org/p${i}.jpg` });
    });

    after(async () => {
      await t.close();
    });

    it('lists upcoming events under a heading per day, with plain excerpts and sized pictures', async () => {
      const html = await page('/events/list/');
      const headings = html.querySelectorAll('h2.cal-date time').map((e) => e.getAttribute('datetime'));
      assert.deepEqual(headings, [dayOf(0), dayOf(2), dayOf(7)]);
      // Titles are h3 under the day's h2: never a heading under one of its own level.
      assert.deepEqual(texts(html, '.cal-list-day')[0]!.includes('Going On Now'), true);
      const titles = texts(html, '.cal-list h3');
      assert.deepEqual(titles.slice(0, 3), ['Going On Now', 'Morning Talk', 'Jazz Night']);
      assert.ok(!titles.includes('Finished This Morning'), 'an event over this morning is not upcoming');
      assert.equal(html.querySelectorAll('.cal-list h2').length, 0);
      const jazz = html.querySelectorAll('article').find((a) => a.querySelector('h3')!.text === 'Jazz Night')!;
      assert.equal(jazz.querySelector('.excerpt')!.text, 'Bring friends & chairs.');
      assert.equal(jazz.querySelector('.venue a')!.text, 'Harbour Hall');
      // Under its day's heading, an event of that day says its hours only.
      assert.match(jazz.querySelector('.dates time')!.text, /^8:00\s*–\s*10:00\s*PM$/u);
      const talk = html.querySelectorAll('article').find((a) => a.querySelector('h3')!.text === 'Morning Talk')!;
      const excerpt = talk.querySelector('.excerpt')!.text;
      assert.ok(excerpt.endsWith('…') && excerpt.length <= 220 && !excerpt.includes('<'), excerpt);
      const images = html.querySelectorAll('img.cal-thumb');
      assert.equal(images.length, 6);
      for (const img of images) {
        assert.equal(img.getAttribute('alt'), '');
        assert.ok(Number(img.getAttribute('width')) > 0 && Number(img.getAttribute('height')) > 0);
      }
      // The first three events of a page are on the first screen: their pictures load at once.
      assert.deepEqual(
        images.map((img) => img.getAttribute('loading') ?? 'eager'),
        ['eager', 'lazy', 'lazy', 'lazy', 'lazy', 'lazy'],
      );
      const past = await page('/events/list/?past=1');
      assert.deepEqual(texts(past, '.cal-list h3'), ['Finished This Morning']);
      assert.deepEqual(
        past.querySelectorAll('h2.cal-date time').map((e) => e.getAttribute('datetime')),
        [dayOf(0)],
      );
    });

    it('shows the header views with the current one marked, and folds the filter form until used', async () => {
      const html = await page('/events/list/');
      assert.deepEqual(texts(html, 'nav.cal-views a'), ['Month', 'Week', 'List', 'Photo', 'Map', 'Day']);
      assert.deepEqual(texts(html, 'nav.cal-views a[aria-current=page]'), ['List']);
      assert.equal(html.querySelector('details.cal-filter-box')!.getAttribute('open'), undefined);
      assert.equal(html.querySelector('details.cal-filter-box summary')!.text, 'Filter events');
      const filtered = await page('/events/list/?category=jazz');
      assert.ok(filtered.querySelector('details.cal-filter-box')!.hasAttribute('open'));
      assert.deepEqual(texts(filtered, '.cal-list h3'), ['Jazz Night']);
      const photo = await page('/events/photo/');
      assert.deepEqual(texts(photo, 'nav.cal-views a[aria-current=page]'), ['Photo']);
    });

    it('shows the photo view as cards, a placeholder where an event has no picture', async () => {
      const html = await page('/events/photo/');
      const cards = html.querySelectorAll('.cal-photos article.cal-card');
      assert.deepEqual(
        cards.map((c) => c.querySelector('h2')!.text),
        ['Going On Now', 'Morning Talk', 'Jazz Night', 'Picture 1', 'Picture 2', 'Picture 3', 'Picture 4', 'Picture 5'],
      );
      const jazz = cards[2]!;
      const img = jazz.querySelector('img.cal-card-image')!;
      assert.equal(img.getAttribute('src'), 'https://img.example.org/jazz.jpg');
      assert.equal(img.getAttribute('alt'), '');
      assert.ok(img.getAttribute('width') && img.getAttribute('height'));
      assert.equal(jazz.querySelector('.venue')!.text, 'Harbour Hall');
      assert.ok(jazz.querySelector('time')!.getAttribute('datetime'));
      assert.equal(cards[0]!.querySelector('img'), null);
      assert.ok(cards[0]!.querySelector('.cal-card-blank'));
      const french = await page('/fr/events/photo/?category=jazz');
      assert.equal(french.querySelector('html')!.getAttribute('lang'), 'fr');
      assert.equal(french.querySelectorAll('.cal-card').length, 0, 'Jazz has no French events');
      const jazzOnly = await page('/events/photo/?category=jazz');
      assert.deepEqual(texts(jazzOnly, '.cal-card h2'), ['Jazz Night']);
    });

    it('offers a Subscribe menu on every view, keeping its filters', async () => {
      const venueSlug = 'harbour-hall';
      const views: [string, Record<string, string>][] = [
        ['/events/?category=jazz', { categories: 'jazz' }],
        ['/events/list/?category=jazz', { categories: 'jazz' }],
        ['/events/photo/?tag=outdoor', { tags: 'outdoor' }],
        [`/events/day/${dayOf(2)}/?category=jazz`, { categories: 'jazz' }],
        ['/events/category/jazz/', { categories: 'jazz' }],
        ['/tag/outdoor/', { tags: 'outdoor' }],
        [`/venue/${venueSlug}/`, {}],
      ];
      const routes = t.app.printRoutes();
      if (routes.includes('week')) views.push(['/events/week/?category=jazz', { categories: 'jazz' }]);
      if (routes.includes('map')) views.push(['/events/map/?category=jazz', { categories: 'jazz' }]);
      for (const [url, filters] of views) {
        const html = await page(url);
        const menu = html.querySelector('details.cal-subscribe');
        assert.ok(menu, `${url}: a Subscribe menu`);
        assert.equal(menu.querySelector('summary')!.text, 'Subscribe');
        const link = (cls: string) => menu.querySelector(`a.${cls}`)!.getAttribute('href')!;
        const ics = new URL(link('sub-ics'));
        assert.equal(ics.protocol, 'http:');
        assert.equal(ics.pathname, `${NS}/events`);
        assert.equal(ics.searchParams.get('format'), 'ical');
        for (const [name, value] of Object.entries(filters)) assert.equal(ics.searchParams.get(name), value, url);
        const webcal = link('sub-webcal');
        assert.equal(webcal, ics.toString().replace(/^http:/, 'webcal:'));
        const google = new URL(link('sub-google'));
        assert.equal(`${google.origin}${google.pathname}`, 'https://calendar.google.com/calendar/r');
        assert.equal(google.searchParams.get('cid'), webcal);
        const outlook = new URL(link('sub-outlook'));
        assert.equal(`${outlook.origin}${outlook.pathname}`, 'https://outlook.live.com/calendar/0/addfromweb');
        assert.equal(outlook.searchParams.get('url'), ics.toString());
        assert.equal(outlook.searchParams.get('name'), 'Events');
        if (url.includes('jazz')) {
          const feed = await t.request({ method: 'GET', url: `${ics.pathname}${ics.search}` });
          assert.equal(feed.statusCode, 200);
          assert.match(feed.body, /SUMMARY:Jazz Night/);
          assert.doesNotMatch(feed.body, /SUMMARY:Morning Talk/);
        }
      }
    });

    it('renders a view at ?embed=1 without the site chrome, its own links staying in the frame', async () => {
      const list = await page('/events/list/?embed=1');
      assert.equal(list.querySelector('header.site-header'), null);
      assert.equal(list.querySelector('footer'), null);
      assert.equal(list.querySelector('body')!.getAttribute('class'), 'is-embed');
      assert.equal(list.querySelector('meta[name=robots]')!.getAttribute('content'), 'noindex');
      const past = list.querySelector('a.past-link')!;
      assert.ok(past.getAttribute('href')!.includes('embed=1'));
      assert.equal(past.getAttribute('target'), undefined);
      const eventLink = list.querySelector('.cal-list h3 a')!;
      assert.equal(eventLink.getAttribute('target'), '_top');
      assert.equal(list.querySelector('form.cal-filters input[name=embed]')!.getAttribute('value'), '1');
      const month = await page('/events/?embed=1&category=jazz');
      const next = month.querySelector('.month-nav a[rel=next]')!.getAttribute('href')!;
      assert.ok(next.includes('embed=1') && next.includes('category=jazz'), next);
      for (const a of month.querySelectorAll('a.cal-event')) assert.equal(a.getAttribute('target'), '_top');
      for (const a of month.querySelectorAll('a.cal-day-link')) {
        assert.ok(a.getAttribute('href')!.includes('embed=1'));
        assert.equal(a.getAttribute('target'), undefined);
      }
      for (const url of [`/events/day/${dayOf(2)}/?embed=1`, '/events/week/?embed=1', '/events/photo/?embed=1']) {
        const html = await page(url);
        assert.equal(html.querySelector('header.site-header'), null, url);
        const nav = html.querySelectorAll('a[rel=prev], a[rel=next], a.past-link');
        assert.ok(nav.length > 0, url);
        for (const a of nav) {
          assert.ok(a.getAttribute('href')!.includes('embed=1'), `${url}: ${a.getAttribute('href')}`);
          assert.equal(a.getAttribute('target'), undefined);
        }
        for (const a of html.querySelectorAll('a[href^="/event/"]')) assert.equal(a.getAttribute('target'), '_top');
      }
      const plain = await page('/events/list/');
      assert.ok(plain.querySelector('header.site-header'));
      assert.equal(plain.querySelector('.cal-list h3 a')!.getAttribute('target'), undefined);
    });

    it('writes the <iframe> of a view and its filters on the snippet page', async () => {
      const html = await page('/events/embed/?view=list&category=jazz&height=600');
      assert.equal(html.querySelector('meta[name=robots]')!.getAttribute('content'), 'noindex');
      const res = await t.request({ method: 'GET', url: '/events/embed/' });
      assert.match(String(res.headers['content-security-policy']), /frame-src 'self' /, 'the preview frames our page');
      const code = html.querySelector('textarea#e-code')!;
      assert.ok(code.hasAttribute('readonly'));
      assert.ok(html.querySelector('label[for=e-code]'));
      const frame = parse(
        code.text
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&quot;/g, '"'),
      ).querySelector('iframe')!;
      const src = new URL(frame.getAttribute('src')!.replace(/&amp;/g, '&'));
      assert.equal(src.pathname, '/events/list/');
      assert.equal(src.searchParams.get('category'), 'jazz');
      assert.equal(src.searchParams.get('embed'), '1');
      assert.equal(frame.getAttribute('height'), '600');
      assert.equal(frame.getAttribute('style'), 'width:100%;border:0');
      assert.equal(frame.getAttribute('loading'), 'lazy');
      assert.ok(frame.getAttribute('title'));
      const preview = html.querySelector('iframe.cal-embed-preview')!;
      assert.equal(preview.getAttribute('src'), '/events/list/?category=jazz&amp;embed=1'.replace('&amp;', '&'));
      assert.equal(html.querySelector('#e-view option[selected]')!.getAttribute('value'), 'list');
      assert.equal(html.querySelector('#e-category option[selected]')!.getAttribute('value'), 'jazz');
      const embedded = await page(`${src.pathname}${src.search}`);
      assert.deepEqual(texts(embedded, '.cal-list h3'), ['Jazz Night']);
      const month = await page('/fr/events/embed/');
      assert.ok(month.querySelector('iframe.cal-embed-preview')!.getAttribute('src')!.startsWith('/fr/events/'));
      const footer = (await page('/events/photo/?category=jazz')).querySelector('footer a')!;
      assert.equal(footer.getAttribute('href'), '/events/embed/?view=photo&amp;category=jazz'.replace('&amp;', '&'));
      await page('/events/embed/?view=admin', 400);
      await page('/events/embed/?height=99999', 400);
      await page('/events/embed/?category=no-such', 400);
    });
  });
}
