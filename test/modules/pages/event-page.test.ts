import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse, type HTMLElement } from 'node-html-parser';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';

const NS = '/cal/events/v1';
const ADMIN = '/cal/admin/v1';

type Ld = Record<string, any>;

/** Every path in a JSON value whose value is empty: '', null, [] or {}. */
function emptyValues(value: unknown, at = '$'): string[] {
  if (value === '' || value === null) return [at];
  if (Array.isArray(value))
    return value.length === 0 ? [at] : value.flatMap((item, i) => emptyValues(item, `${at}[${i}]`));
  if (typeof value === 'object')
    return Object.keys(value!).length === 0
      ? [at]
      : Object.entries(value!).flatMap(([key, item]) => emptyValues(item, `${at}.${key}`));
  return [];
}

for (const backend of backends()) {
  describe(`event, venue and organizer pages [${backend}]`, () => {
    let t: TestApp;
    let admin: string;
    const slugs: Record<string, string> = {};

    async function post(url: string, body: Record<string, unknown>): Promise<any> {
      const res = await t.request({ method: 'POST', url, payload: body, auth: admin });
      assert.ok(res.statusCode < 300, `${url}: ${res.statusCode} ${res.body}`);
      return res.data;
    }

    async function page(url: string, status = 200): Promise<{ html: HTMLElement; body: string }> {
      const res = await t.request({ method: 'GET', url });
      assert.equal(res.statusCode, status, `${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      return { html: parse(res.body), body: res.body };
    }

    async function event(name: string, body: Record<string, unknown>): Promise<any> {
      const created = await post(`${NS}/events`, {
        start_date: '2027-05-14 19:00:00',
        end_date: '2027-05-14 22:00:00',
        timezone: 'Europe/Paris',
        ...body,
      });
      slugs[name] = created.slug;
      return created;
    }

    const eventPage = (name: string) => page(`/event/${encodeURIComponent(slugs[name]!)}/`);

    function jsonLd(html: HTMLElement): Ld {
      const scripts = html.querySelectorAll('script[type="application/ld+json"]');
      assert.equal(scripts.length, 1);
      const ld = JSON.parse(scripts[0]!.text) as Ld;
      assert.deepEqual(emptyValues(ld), [], 'no empty value anywhere');
      return ld;
    }

    /** The page's "Cost" detail. */
    function shownCost(html: HTMLElement): string | undefined {
      const terms = html.querySelectorAll('.details dt');
      const at = terms.findIndex((dt) => dt.text.trim() === 'Cost');
      return at < 0 ? undefined : html.querySelectorAll('.details dd')[at]!.text.trim();
    }

    before(async () => {
      t = await createTestApp(backend, { CAL_SITE_URL: 'https://cal.example.org' });
      admin = (await t.asUser('administrator')).authorization;
      const settings = await t.request({
        method: 'PATCH',
        url: `${ADMIN}/settings`,
        payload: { geoloc: true },
        auth: admin,
      });
      assert.equal(settings.statusCode, 200, settings.body);
      const venue = await post(`${NS}/venues`, {
        venue: 'Salle Pleyel',
        address: '252 Rue du Faubourg Saint-Honoré',
        city: 'Paris',
        zip: '75008',
        country: 'France',
        geo_lat: 48.8777,
        geo_lng: 2.3007,
        website: 'https://pleyel.example.org',
        description: '<p>The concert hall of <em>Paris</em>.</p>',
      });
      const club = await post(`${NS}/organizers`, {
        organizer: 'Jazz Club',
        website: 'https://club.example.org',
        email: 'club@example.org',
      });
      await event('fair', {
        title: 'Jazz Fair',
        description: '<p>An <strong>evening</strong> of jazz &amp; blues.</p>',
        venue: venue.id,
        organizer: [club.id],
        cost: '25–60 €',
        website: 'https://club.example.org',
        image: 'https://img.example.org/fair.jpg',
      });
      // Image sizes are known for uploaded and imported images; this URL image gets its size here.
      await t.storage.db.updateTable('images').set({ width: 1200, height: 800 }).execute();
      await event('market', {
        title: 'Christmas Market',
        all_day: true,
        start_date: '2027-05-02',
        end_date: '2027-05-03',
        cost: 'Free',
        venue: venue.id,
      });
      await event('stream', { title: 'Live Stream', website: 'https://stream.example.org/live', cost: '$10 - $20' });
      await event('brunch', {
        title: 'Brunch',
        cost: '29 € incl. brunch',
        excerpt: 'x'.repeat(20) + ' word'.repeat(80),
      });
      await event('pass', { title: 'Festival', cost: 'Pass 5 jours : 30 €' });
      await event('zero', { title: 'Open Day', cost: '0' });
      await event('latin', {
        title: `${'Very long title of a concert '.repeat(8)}end`,
        start_date: '2027-05-20 19:00:00',
        end_date: '2027-05-20 21:00:00',
      });
      await event('japanese', {
        title: '東京ジャズ・ナイト'.repeat(30),
        start_date: '2027-05-21 19:00:00',
        end_date: '2027-05-21 21:00:00',
      });
      await event('korean', { title: '서울 재즈 페스티벌' });
      await event('secret', {
        title: 'Members Night',
        password: 'club',
        description: '<p>Members only.</p>',
        cost: '25 €',
        venue: venue.id,
      });
    });

    after(() => t.close());

    it('makes slugs that keep other scripts whole, and reaches 200-character slugs from the list and the month', async () => {
      assert.equal(slugs['latin']!.length, 200);
      assert.equal(Array.from(slugs['japanese']!).length, 200);
      assert.ok(slugs['japanese']!.startsWith('東京ジャズナイト東京'), slugs['japanese']);
      assert.equal(slugs['korean'], '서울-재즈-페스티벌');
      const emoji = await event('emoji', { title: '🎉🎶' });
      assert.equal(emoji.slug, String(emoji.id), 'nothing to make a slug of: the id, as before');
      await eventPage('emoji');
      assert.ok(encodeURIComponent(slugs['japanese']!).length > 1000, 'far over the router’s old 100');
      for (const name of ['latin', 'japanese', 'korean']) await eventPage(name);
      for (const view of ['/events/list/?page=1', '/events/month/2027-05/']) {
        const { html } = await page(view.replace('?page=1', ''));
        for (const name of ['latin', 'japanese']) {
          const href = `/event/${encodeURIComponent(slugs[name]!)}/`;
          const link = html.querySelectorAll('a').find((a) => a.getAttribute('href') === href);
          assert.ok(link, `${view} links ${name}`);
          await page(link.getAttribute('href')!);
        }
      }
    });

    it('shows costs as written unless they are only a price or a range', async () => {
      const expected: [string, string][] = [
        ['fair', '25–60 €'],
        ['stream', '$10–$20'],
        ['brunch', '29 € incl. brunch'],
        ['pass', 'Pass 5 jours : 30 €'],
        ['zero', 'Free'],
        ['market', 'Free'],
      ];
      for (const [name, cost] of expected) assert.equal(shownCost((await eventPage(name)).html), cost, name);
    });

    it('describes an event for search engines: JSON-LD per schema.org and Google', async () => {
      const ld = jsonLd((await eventPage('fair')).html);
      assert.equal(ld['@context'], 'https://schema.org');
      assert.equal(ld['@type'], 'Event');
      assert.equal(ld.name, 'Jazz Fair');
      assert.equal(ld.description, 'An evening of jazz & blues.');
      assert.equal(ld.url, `https://cal.example.org/event/${slugs['fair']}/`);
      assert.deepEqual(ld.image, ['https://img.example.org/fair.jpg']);
      assert.equal(ld.startDate, '2027-05-14T19:00:00+02:00');
      assert.equal(ld.endDate, '2027-05-14T22:00:00+02:00');
      assert.equal(ld.eventStatus, 'https://schema.org/EventScheduled');
      assert.equal(ld.eventAttendanceMode, 'https://schema.org/OfflineEventAttendanceMode');
      assert.equal(ld.location['@type'], 'Place');
      assert.equal(ld.location.name, 'Salle Pleyel');
      assert.deepEqual(ld.location.address, {
        '@type': 'PostalAddress',
        streetAddress: '252 Rue du Faubourg Saint-Honoré',
        addressLocality: 'Paris',
        postalCode: '75008',
        addressCountry: 'France',
      });
      assert.deepEqual(ld.location.geo, { '@type': 'GeoCoordinates', latitude: 48.8777, longitude: 2.3007 });
      assert.equal(ld.location.url, 'https://cal.example.org/venue/salle-pleyel/');
      assert.deepEqual(ld.organizer, {
        '@type': 'Organization',
        name: 'Jazz Club',
        url: 'https://club.example.org',
        email: 'club@example.org',
      });
      assert.equal(ld.performer, undefined);
      assert.equal(ld.offers['@type'], 'AggregateOffer');
      assert.equal(ld.offers.lowPrice, 25);
      assert.equal(ld.offers.highPrice, 60);
      assert.equal(ld.offers.priceCurrency, 'EUR');
      assert.equal(ld.offers.availability, 'https://schema.org/InStock');
      assert.equal(ld.offers.url, ld.url);
    });

    it('gives all-day events as dates, a free event a price of 0, an online event its address', async () => {
      const market = jsonLd((await eventPage('market')).html);
      assert.equal(market.startDate, '2027-05-02');
      assert.equal(market.endDate, '2027-05-03');
      assert.equal(market.offers['@type'], 'Offer');
      assert.equal(market.offers.price, 0);
      assert.equal(jsonLd((await eventPage('zero')).html).offers.price, 0);

      const stream = jsonLd((await eventPage('stream')).html);
      assert.equal(stream.eventAttendanceMode, 'https://schema.org/OnlineEventAttendanceMode');
      assert.deepEqual(stream.location, { '@type': 'VirtualLocation', url: 'https://stream.example.org/live' });
      assert.deepEqual(
        [stream.offers['@type'], stream.offers.lowPrice, stream.offers.highPrice, stream.offers.priceCurrency],
        ['AggregateOffer', 10, 20, 'USD'],
      );

      const brunch = jsonLd((await eventPage('brunch')).html);
      assert.deepEqual([brunch.offers.price, brunch.offers.priceCurrency], [29, 'EUR']);
      assert.ok(brunch.description.length <= 300 && brunch.description.endsWith('…'), brunch.description);

      const secret = await eventPage('secret');
      assert.deepEqual(Object.keys(jsonLd(secret.html)).sort(), [
        '@context',
        '@type',
        'endDate',
        'eventStatus',
        'name',
        'startDate',
        'url',
      ]);
      assert.equal(
        secret.html.querySelector('meta[name=description]')!.getAttribute('content')!.includes('Members only'),
        false,
      );
      assert.equal(shownCost(secret.html), undefined);

      const pass = jsonLd((await eventPage('pass')).html);
      assert.equal(pass.offers, undefined, 'two numbers in words are no price');
      assert.equal(pass.eventAttendanceMode, undefined, 'no venue, no website: not known');
      assert.equal(pass.location, undefined);
    });

    it('gives the event page a meta description, a sized picture, one organizer address and titles in their language', async () => {
      const fair = await eventPage('fair');
      const meta = (html: HTMLElement) => html.querySelector('meta[name=description]')!.getAttribute('content');
      assert.equal(meta(fair.html), 'An evening of jazz & blues.');
      const img = fair.html.querySelector('img.event-image')!;
      assert.deepEqual([img.getAttribute('width'), img.getAttribute('height')], ['1200', '800']);
      const linked = fair.html
        .querySelectorAll('main a')
        .filter((a) => a.getAttribute('href') === 'https://club.example.org');
      assert.equal(linked.length, 1, 'the organizer’s website once, with the organizer');
      assert.ok(linked[0]!.closest('.cal-organizers'));
      const brunch = meta((await eventPage('brunch')).html)!;
      assert.ok(brunch.length <= 155 && brunch.endsWith('…'), brunch);
      const pass = await eventPage('pass');
      assert.match(meta(pass.html)!, /^Friday, May 14, 2027, 7:00\s–\s10:00\sPM$/u, 'no text: its dates');

      const japanese = await eventPage('japanese');
      assert.equal(japanese.html.querySelector('h1')!.getAttribute('lang'), 'ja');
      assert.equal((await eventPage('korean')).html.querySelector('h1')!.getAttribute('lang'), 'ko');
      assert.equal(fair.html.querySelector('h1')!.getAttribute('lang'), undefined);
    });

    it('describes venues as Places and organizers as Organizations, their events as h3 under the h2', async () => {
      const venue = await page('/venue/salle-pleyel/');
      const place = jsonLd(venue.html);
      assert.equal(place['@context'], 'https://schema.org');
      assert.equal(place['@type'], 'Place');
      assert.equal(place.url, 'https://cal.example.org/venue/salle-pleyel/');
      assert.equal(place.address.addressLocality, 'Paris');
      assert.deepEqual(place.geo, { '@type': 'GeoCoordinates', latitude: 48.8777, longitude: 2.3007 });
      assert.equal(place.sameAs, 'https://pleyel.example.org');
      assert.equal(place.description, 'The concert hall of Paris.');
      assert.equal(
        venue.html.querySelector('meta[name=description]')!.getAttribute('content'),
        'The concert hall of Paris.',
      );
      assert.deepEqual(
        venue.html.querySelectorAll('h1, h2, h3').map((h) => h.tagName),
        ['H1', 'H2', ...venue.html.querySelectorAll('.cal-list h3').map(() => 'H3')],
      );
      assert.deepEqual(
        venue.html.querySelectorAll('.cal-list h3').map((h) => h.text.trim()),
        ['Christmas Market', 'Jazz Fair'],
      );

      const organizer = await page('/organizer/jazz-club/');
      const org = jsonLd(organizer.html);
      assert.equal(org['@type'], 'Organization');
      assert.equal(org.url, 'https://club.example.org');
      assert.equal(org.email, 'club@example.org');
      assert.deepEqual(
        organizer.html.querySelectorAll('.cal-list h3').map((h) => h.text.trim()),
        ['Jazz Fair'],
      );
    });
  });
}
