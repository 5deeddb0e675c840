import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse, type HTMLElement } from 'node-html-parser';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';

const NS = '/cal/events/v1';
const HOSTILE = '<script>alert(1)</script>';

for (const backend of backends()) {
  describe(`public pages [${backend}]`, () => {
    let t: TestApp;
    let admin: string;
    const ids: Record<string, number> = {};

    async function post(url: string, body: Record<string, unknown>): Promise<any> {
      const res = await t.request({ method: 'POST', url, payload: body, auth: admin });
      assert.ok(res.statusCode < 300, `${url}: ${res.statusCode} ${res.body}`);
      return res.data;
    }

    async function page(
      url: string,
      status = 200,
    ): Promise<{ html: HTMLElement; body: string; headers: Record<string, unknown> }> {
      const res = await t.request({ method: 'GET', url });
      assert.equal(res.statusCode, status, `${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8/);
      return { html: parse(res.body), body: res.body, headers: res.headers };
    }

    const texts = (html: HTMLElement, selector: string) => html.querySelectorAll(selector).map((e) => e.text.trim());
    const hrefs = (html: HTMLElement, selector: string) =>
      html.querySelectorAll(selector).map((e) => e.getAttribute('href'));

    before(async () => {
      t = await createTestApp(backend);
      admin = (await t.asUser('administrator')).authorization;
      ids['venue'] = (
        await post(`${NS}/venues`, {
          venue: 'Town Hall',
          address: '1 Main St',
          city: 'Springfield',
          country: 'USA',
          show_map_link: true,
        })
      ).id;
      ids['venueFr'] = (
        await post(`/fr${NS}/venues`, { venue: 'Mairie', city: 'Springfield', translation_of: ids['venue'] })
      ).id;
      ids['organizer'] = (
        await post(`${NS}/organizers`, { organizer: 'Jazz Club', email: 'club@example.org', phone: '555-0100' })
      ).id;
      ids['jazz'] = (await post(`${NS}/categories`, { name: 'Jazz' })).id;
      ids['jazzFr'] = (
        await post(`${NS}/categories?i18n_language=fr`, {
          name: 'Jazz FR',
          slug: 'jazz-fr',
          translation_of: ids['jazz'],
        })
      ).id;
      ids['talks'] = (await post(`${NS}/categories`, { name: 'Talks' })).id;
      ids['tag'] = (await post(`${NS}/tags`, { name: 'outdoor' })).id;
      const concert = await post(`${NS}/events`, {
        title: 'Spring Concert',
        description: '<p>An evening of <strong>jazz</strong>.</p>',
        start_date: '2027-03-14 19:00:00',
        end_date: '2027-03-14 21:30:00',
        timezone: 'Europe/Paris',
        venue: ids['venue'],
        organizer: [ids['organizer']],
        categories: [ids['jazz']],
        tags: [ids['tag']],
        cost: '15',
        website: 'https://tickets.example.org/spring',
        show_map_link: true,
      });
      ids['concert'] = concert.id;
      ids['concertFr'] = (
        await post(`/fr${NS}/events`, {
          title: 'Concert de printemps',
          start_date: '2027-03-14 19:00:00',
          end_date: '2027-03-14 21:30:00',
          timezone: 'Europe/Paris',
          translation_of: ids['concert'],
        })
      ).id;
      ids['lecture'] = (
        await post(`${NS}/events`, {
          title: 'Lecture on Stars',
          start_date: '2027-03-20 10:00:00',
          end_date: '2027-03-20 11:00:00',
          categories: [ids['talks']],
        })
      ).id;
      ids['festival'] = (
        await post(`${NS}/events`, {
          title: 'Three-day Festival',
          all_day: true,
          start_date: '2027-03-30',
          end_date: '2027-04-01',
          venue: ids['venue'],
        })
      ).id;
      ids['draft'] = (
        await post(`${NS}/events`, {
          title: 'Secret Draft',
          status: 'draft',
          start_date: '2027-03-15 10:00:00',
          end_date: '2027-03-15 11:00:00',
        })
      ).id;
      ids['hostile'] = (
        await post(`${NS}/events`, {
          title: `Hostile ${HOSTILE}`,
          start_date: '2027-03-16 10:00:00',
          end_date: '2027-03-16 11:00:00',
          venue: { venue: `Venue ${HOSTILE}`, address: `Street ${HOSTILE}` },
          organizer: [{ organizer: `Org ${HOSTILE}` }],
        })
      ).id;
      ids['crafts'] = (await post(`${NS}/categories`, { name: 'Crafts' })).id;
      for (let day = 1; day <= 5; day += 1) {
        await post(`${NS}/events`, {
          title: `Busy ${day}`,
          start_date: `2027-03-22 0${day}:00:00`,
          end_date: `2027-03-22 0${day}:30:00`,
          categories: day <= 4 ? [ids['crafts']] : [],
        });
      }
      ids['gone'] = (
        await post(`${NS}/events`, {
          title: 'Cancelled Gig',
          start_date: '2027-03-18 20:00:00',
          end_date: '2027-03-18 22:00:00',
        })
      ).id;
      const del = await t.request({ method: 'DELETE', url: `${NS}/events/${ids['gone']}`, auth: admin });
      assert.equal(del.statusCode, 200);
    });

    after(async () => t.close());

    it('shows a month grid with the events of each day, previous and next months', async () => {
      const { html } = await page('/events/month/2027-03/');
      assert.equal(html.querySelector('html')!.getAttribute('lang'), 'en');
      const cell = html.querySelector('td[data-date="2027-03-14"]')!;
      assert.deepEqual(texts(cell, 'a.cal-event'), ['7:00 PM Spring Concert']);
      assert.equal(hrefs(cell, 'a.cal-event')[0], '/event/spring-concert/');
      assert.deepEqual(hrefs(html, 'a[rel=prev]'), ['/events/month/2027-02/']);
      assert.deepEqual(hrefs(html, 'a[rel=next]'), ['/events/month/2027-04/']);
      // A three-day event on each of its days, into the next month's first row.
      for (const day of ['2027-03-30', '2027-03-31'])
        assert.ok(
          texts(html.querySelector(`td[data-date="${day}"]`)!, 'a.cal-event').includes('Three-day Festival'),
          day,
        );
      const april = await page('/events/month/2027-04/');
      assert.ok(
        texts(april.html.querySelector('td[data-date="2027-04-01"]')!, 'a.cal-event').includes('Three-day Festival'),
        'a continuing event shows in the next month',
      );
      // Three a day at most; the day view has the rest.
      const busy = html.querySelector('td[data-date="2027-03-22"]')!;
      assert.equal(busy.querySelectorAll('a.cal-event').length, 3);
      assert.equal(busy.querySelector('a.cal-more')!.text.trim(), '2 more');
      // Filtered: counted from one category's day counts, or day by day with any other filter.
      for (const [query, more] of [
        ['category=crafts', '1 more'],
        ['search=busy', '2 more'],
        ['category=crafts&search=busy', '1 more'],
      ] as const) {
        const filtered = (await page(`/events/month/2027-03/?${query}`)).html.querySelector(
          'td[data-date="2027-03-22"]',
        )!;
        assert.equal(filtered.querySelectorAll('a.cal-event').length, 3, query);
        assert.equal(filtered.querySelector('a.cal-more')!.text.trim(), more, query);
      }
      assert.equal(html.querySelector('caption')!.text.trim(), 'March 2027');
    });

    it('never shows drafts or trashed events, and never escapes user input into markup', async () => {
      for (const url of ['/events/month/2027-03/', '/events/day/2027-03-15/', '/events/list/']) {
        const { body } = await page(url);
        assert.ok(!body.includes('Secret Draft'), url);
        assert.ok(!body.includes('Cancelled Gig'), url);
      }
      const admin200 = await t.request({ method: 'GET', url: '/events/day/2027-03-15/', auth: admin });
      assert.ok(!admin200.body.includes('Secret Draft'), 'pages are the public view whoever asks');
      assert.equal((await t.request({ method: 'GET', url: '/event/secret-draft/' })).statusCode, 404);
      for (const url of ['/events/month/2027-03/', '/events/day/2027-03-16/', `/event/hostile-scriptalert1script/`]) {
        const res = await t.request({ method: 'GET', url });
        if (res.statusCode !== 200) continue;
        assert.ok(!res.body.includes(HOSTILE), `${url} holds the raw script`);
      }
    });

    it('shows an event page with its dates, zone, venue, organizers, terms, calendar links and JSON-LD', async () => {
      const slug = (await t.request({ method: 'GET', url: `${NS}/events/${ids['hostile']}` })).data.slug;
      const hostile = await page(`/event/${slug}/`);
      assert.ok(!hostile.body.includes(HOSTILE));
      assert.equal(hostile.html.querySelector('h1')!.text, `Hostile ${HOSTILE}`);
      assert.equal(hostile.html.querySelector('a.cal-venue-link')!.text, `Venue ${HOSTILE}`);
      assert.equal(hostile.html.querySelector('a.cal-organizer-link')!.text, `Org ${HOSTILE}`);
      assert.equal(hostile.html.querySelectorAll('script').length, 1, 'only the JSON-LD script');

      const { html } = await page('/event/spring-concert/');
      assert.equal(html.querySelector('h1')!.text, 'Spring Concert');
      assert.match(html.querySelector('.dates')!.text, /Sunday, March 14, 2027/);
      assert.match(html.querySelector('.dates')!.text, /7:00.*9:30/);
      assert.match(html.querySelector('.zone')!.text, /Europe\/Paris/);
      assert.equal(html.querySelector('time')!.getAttribute('datetime'), '2027-03-14T18:00:00Z');
      assert.equal(html.querySelector('a.cal-venue-link')!.getAttribute('href'), '/venue/town-hall/');
      assert.match(html.querySelector('.cal-venue')!.text, /1 Main St, Springfield, USA/);
      assert.ok(hrefs(html, '.cal-venue a').some((h) => h!.startsWith('https://www.google.com/maps/search/')));
      assert.equal(html.querySelector('a.cal-organizer-link')!.getAttribute('href'), '/organizer/jazz-club/');
      assert.deepEqual(hrefs(html, 'a[rel=tag]'), ['/events/category/jazz/', '/tag/outdoor/']);
      assert.equal(html.querySelector('.description strong')!.text, 'jazz');
      assert.equal(
        html.querySelector('a.cal-add-ics')!.getAttribute('href'),
        `/cal/events/v1/events/${ids['concert']}?format=ical`,
      );
      const google = new URL(html.querySelector('a.cal-add-google')!.getAttribute('href')!);
      assert.equal(google.searchParams.get('dates'), '20270314T180000Z/20270314T203000Z');
      assert.equal(google.searchParams.get('text'), 'Spring Concert');
      const ld = JSON.parse(html.querySelector('script[type="application/ld+json"]')!.text);
      assert.equal(ld['@type'], 'Event');
      assert.equal(ld.name, 'Spring Concert');
      const ics = await t.request({ method: 'GET', url: `/cal/events/v1/events/${ids['concert']}?format=ical` });
      assert.equal(ics.statusCode, 200);
      assert.match(ics.body, /SUMMARY:Spring Concert/);
    });

    it('links translations: hreflang alternates and a language switcher to the same page', async () => {
      const { html } = await page('/event/spring-concert/');
      const alternates = Object.fromEntries(
        html
          .querySelectorAll('link[rel=alternate][hreflang]')
          .map((l) => [l.getAttribute('hreflang'), new URL(l.getAttribute('href')!).pathname]),
      );
      assert.deepEqual(alternates, {
        en: '/event/spring-concert/',
        fr: '/fr/event/concert-de-printemps/',
        'x-default': '/event/spring-concert/',
      });
      const fr = await page('/fr/event/concert-de-printemps/');
      assert.equal(fr.html.querySelector('html')!.getAttribute('lang'), 'fr');
      assert.match(fr.html.querySelector('.dates')!.text, /dimanche 14 mars 2027/);
      assert.equal(
        fr.html.querySelector('nav.cal-languages a[hreflang=en]')!.getAttribute('href'),
        '/event/spring-concert/',
      );
      assert.equal(fr.html.querySelector('nav.cal-languages a[aria-current]')!.getAttribute('hreflang'), 'fr');
      // A view: the same view under the other root; a language without the record: its calendar.
      const month = await page('/fr/events/month/2027-03/');
      assert.equal(month.html.querySelector('caption')!.text.trim(), 'mars 2027');
      assert.equal(
        month.html.querySelector('nav.cal-languages a[hreflang=en]')!.getAttribute('href'),
        '/events/month/2027-03/',
      );
      assert.deepEqual(texts(month.html, 'td[data-date="2027-03-14"] a.cal-event'), ['19:00 Concert de printemps']);
      const lecture = await page('/event/lecture-on-stars/');
      assert.equal(lecture.html.querySelector('nav.cal-languages a[hreflang=fr]')!.getAttribute('href'), '/fr/events/');
      assert.equal(lecture.html.querySelectorAll('link[rel=alternate][hreflang]').length, 0);
    });

    it('filters every view by category, tag, venue and search in plain query parameters', async () => {
      const jazz = await page('/events/month/2027-03/?category=jazz');
      assert.deepEqual(texts(jazz.html, 'a.cal-event'), ['7:00 PM Spring Concert']);
      assert.equal(jazz.html.querySelector('select[name=category] option[selected]')!.getAttribute('value'), 'jazz');
      assert.equal(hrefs(jazz.html, 'a[rel=next]')[0], '/events/month/2027-04/?category=jazz');
      const search = await page('/events/month/2027-03/?search=stars');
      assert.deepEqual(texts(search.html, 'a.cal-event'), ['10:00 AM Lecture on Stars']);
      const venue = await page('/events/month/2027-03/?venue=town-hall');
      assert.deepEqual(
        texts(venue.html, 'a.cal-event').filter((x) => !x.includes('Festival')),
        ['7:00 PM Spring Concert'],
      );
      const tag = await page('/events/day/2027-03-14/?tag=outdoor');
      assert.deepEqual(texts(tag.html, '.cal-list h2'), ['Spring Concert']);
      const bad = await page('/events/month/2027-03/?category=no-such-category', 400);
      assert.equal(bad.html.querySelector('html')!.getAttribute('lang'), 'en');
    });

    it('lists upcoming events page by page, with the past reachable', async () => {
      const { html } = await page('/events/list/');
      const titles = texts(html, '.cal-list h3');
      assert.equal(titles[0], 'Spring Concert');
      assert.ok(titles.includes('Three-day Festival'));
      assert.ok(!titles.includes('Secret Draft'));
      assert.ok(hrefs(html, 'a.past-link')[0]!.includes('past=1'));
      const past = await page('/events/list/?past=1');
      assert.deepEqual(texts(past.html, '.cal-list h3'), []);
    });

    it('shows a day, venue, organizer, category and tag page', async () => {
      const day = await page('/events/day/2027-03-22/');
      assert.deepEqual(texts(day.html, '.cal-list h2'), ['Busy 1', 'Busy 2', 'Busy 3', 'Busy 4', 'Busy 5']);
      const festival = await page('/events/day/2027-03-31/');
      assert.deepEqual(texts(festival.html, '.cal-list h2'), ['Three-day Festival'], 'an event going on that day');
      const venue = await page('/venue/town-hall/');
      assert.equal(venue.html.querySelector('h1')!.text, 'Town Hall');
      assert.deepEqual(texts(venue.html, '.cal-list h3'), ['Spring Concert', 'Three-day Festival']);
      assert.equal(
        venue.html.querySelector('nav.cal-languages a[hreflang=fr]')!.getAttribute('href'),
        '/fr/venue/mairie/',
      );
      const organizer = await page('/organizer/jazz-club/');
      assert.match(organizer.html.querySelector('.details')!.text, /club@example\.org/);
      assert.deepEqual(texts(organizer.html, '.cal-list h3'), ['Spring Concert']);
      const category = await page('/events/category/jazz/');
      assert.equal(category.html.querySelector('h1')!.text, 'Events: Jazz');
      assert.deepEqual(texts(category.html, '.cal-list h3'), ['Spring Concert']);
      assert.equal(
        category.html.querySelector('nav.cal-languages a[hreflang=fr]')!.getAttribute('href'),
        '/fr/events/category/jazz-fr/',
      );
      const tag = await page('/tag/outdoor/');
      assert.deepEqual(texts(tag.html, '.cal-list h3'), ['Spring Concert']);
    });

    it('answers 404 in the site look and language, 410 for a trashed event, JSON for the API', async () => {
      for (const url of [
        '/event/no-such-event/',
        '/venue/nowhere/',
        '/organizer/nobody/',
        '/events/category/none/',
        '/tag/none/',
        '/events/month/2027-13/',
        '/events/day/2027-02-30/',
        '/events/nothing-here/',
      ]) {
        const { html } = await page(url, 404);
        assert.equal(html.querySelector('h1')!.text, 'Page not found', url);
      }
      const fr = await page('/fr/event/nope/', 404);
      assert.equal(fr.html.querySelector('h1')!.text, 'Page introuvable');
      const gone = await page('/event/cancelled-gig/', 410);
      assert.equal(gone.html.querySelector('h1')!.text, 'Event removed');
      const api = await t.request({ method: 'GET', url: `${NS}/nothing` });
      assert.equal(api.statusCode, 404);
      assert.equal(api.data.code, 'rest_no_route');
    });

    it('goes through the page cache with ETag and 304, and serves its stylesheet for a year', async () => {
      const first = await t.request({ method: 'GET', url: '/events/month/2027-03/' });
      const etag = first.headers['etag'] as string;
      assert.ok(etag);
      const again = await t.request({
        method: 'GET',
        url: '/events/month/2027-03/',
        headers: { 'if-none-match': etag },
      });
      assert.equal(again.statusCode, 304);
      await post(`${NS}/events`, {
        title: 'Late Addition',
        start_date: '2027-03-25 10:00:00',
        end_date: '2027-03-25 11:00:00',
      });
      const changed = await t.request({
        method: 'GET',
        url: '/events/month/2027-03/',
        headers: { 'if-none-match': etag },
      });
      assert.equal(changed.statusCode, 200, 'a write makes the page new');
      assert.ok(changed.body.includes('Late Addition'));
      const css = parse(changed.body).querySelector('link[rel=stylesheet]')!.getAttribute('href')!;
      assert.match(css, /^\/assets\/calendar\.[0-9a-f]{10}\.css$/);
      const sheet = await t.request({ method: 'GET', url: css });
      assert.equal(sheet.statusCode, 200);
      assert.match(String(sheet.headers['cache-control']), /max-age=31536000, immutable/);
      assert.match(String(sheet.headers['content-type']), /^text\/css/);
      assert.equal((await t.request({ method: 'GET', url: '/assets/calendar.0000000000.css' })).statusCode, 404);
    });
  });
}
