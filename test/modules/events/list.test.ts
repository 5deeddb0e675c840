import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DateTime } from 'luxon';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';

const EVENTS = '/cal/events/v1/events';

for (const backend of backends()) {
  describe(`GET /cal/events/v1/events [${backend}]`, () => {
    let t: TestApp;
    let editor: { id: number; authorization: string };
    const ids: Record<string, number> = {};

    const create = async (key: string, payload: Record<string, unknown>, auth = editor.authorization) => {
      const res = await t.request({ method: 'POST', url: EVENTS, auth, payload });
      assert.equal(res.statusCode, 201, res.body);
      ids[key] = res.data.id;
      return res.data;
    };
    const list = async (query: string, auth?: string) => t.request({ method: 'GET', url: `${EVENTS}?${query}`, auth });

    before(async () => {
      t = await createTestApp(backend);
      editor = await t.asUser('editor');
      const parent = await t.request({
        method: 'POST',
        url: '/cal/events/v1/categories',
        auth: editor.authorization,
        payload: { name: 'Music' },
      });
      const child = await t.request({
        method: 'POST',
        url: '/cal/events/v1/categories',
        auth: editor.authorization,
        payload: { name: 'Jazz', parent: parent.data.id },
      });
      ids['music'] = parent.data.id;
      ids['jazz'] = child.data.id;
      await create('a', {
        title: 'Alpha concert',
        start_date: '2030-01-01 15:00:00',
        end_date: '2030-01-01 17:00:00',
        categories: [parent.data.id],
        tags: ['outdoor'],
        venue: { venue: 'Main Hall' },
        featured: true,
      });
      await create('b', {
        title: 'Beta concert',
        start_date: '2030-01-01 16:00:00',
        end_date: '2030-01-01 18:00:00',
        categories: [child.data.id],
        organizer: [{ organizer: 'Org B' }],
      });
      await create('c', {
        title: 'Gamma talk',
        start_date: '2030-01-01 20:00:00',
        end_date: '2030-01-01 21:00:00',
        tags: ['outdoor'],
        description: 'A quiet evening talk',
      });
      await create('d', {
        title: 'Delta festival',
        start_date: '2029-12-30 10:00:00',
        end_date: '2030-01-02 22:00:00',
        categories: ['Festivals'],
      });
      await create('e', {
        title: 'Epsilon hidden',
        start_date: '2030-01-01 16:00:00',
        end_date: '2030-01-01 18:00:00',
        hide_from_listings: true,
      });
      await create('f', {
        title: 'Phi draft',
        status: 'draft',
        start_date: '2030-01-01 16:30:00',
        end_date: '2030-01-01 18:00:00',
      });
    });
    after(() => t.close());

    it('should answer the envelope in the original key order, with the total headers', async () => {
      const res = await list('start_date=2030-01-01&end_date=2030-01-01');
      assert.equal(res.statusCode, 200);
      assert.deepEqual(Object.keys(res.data), ['events', 'rest_url', 'total', 'total_pages']);
      assert.deepEqual(titles(res), ['Alpha concert', 'Beta concert', 'Gamma talk']);
      assert.equal(res.headers['x-cal-total'], '3');
      assert.equal(res.headers['x-cal-totalpages'], '1');
      assert.equal(
        res.data.rest_url,
        'http://localhost:80/cal/events/v1/events/?page=1&per_page=50&start_date=2030-01-01 00:00:00&end_date=2030-01-01 23:59:59&status=publish',
      );
      assert.equal(res.data.events[0].json_ld, undefined);
    });

    it('should apply whole days unless strict_dates', async () => {
      const whole = await list('start_date=2030-01-01 15:30:00&end_date=2030-01-01 18:00:00');
      assert.deepEqual(titles(whole), ['Alpha concert', 'Beta concert', 'Gamma talk']);
      const strict = await list('start_date=2030-01-01 15:30:00&end_date=2030-01-01 18:00:00&strict_dates=true');
      assert.deepEqual(titles(strict), ['Beta concert']);
    });

    it('should drop the default window when a relative bound is given', async () => {
      const spanning = await list('ends_after=2029-12-31&starts_before=2029-12-31');
      assert.deepEqual(titles(spanning), ['Delta festival']);
      const narrowed = await list(
        'ends_after=2029-12-31&starts_before=2030-01-02&start_date=2029-12-30&end_date=2030-01-02',
      );
      assert.deepEqual(titles(narrowed), ['Delta festival', 'Alpha concert', 'Beta concert', 'Gamma talk']);
    });

    it('should paginate with next and previous links and 404 past the end', async () => {
      const first = await list('start_date=2029-12-01&end_date=2030-02-01&per_page=2');
      assert.equal(first.data.total, 4);
      assert.equal(first.data.total_pages, 2);
      assert.ok(first.data.next_rest_url.endsWith('&page=2'));
      assert.equal(first.data.previous_rest_url, undefined);
      const second = await list('start_date=2029-12-01&end_date=2030-02-01&per_page=2&page=2');
      assert.deepEqual(titles(second), ['Beta concert', 'Gamma talk']);
      assert.ok(second.data.previous_rest_url);
      assert.equal(second.data.next_rest_url, undefined);
      const past = await list('start_date=2029-12-01&end_date=2030-02-01&per_page=2&page=3');
      assert.equal(past.statusCode, 404);
      assert.equal(past.data.code, 'event-archive-page-not-found');
      const empty = await list('start_date=2040-01-01&end_date=2040-01-02');
      assert.deepEqual(
        [empty.statusCode, empty.data.total, empty.data.total_pages, empty.headers['x-cal-total']],
        [200, 0, 0, '0'],
      );
      const clamped = await list('start_date=2029-12-01&end_date=2030-02-01&per_page=500');
      assert.match(clamped.data.rest_url, /per_page=50&/);
      for (const bad of ['per_page=0', 'per_page=-1', 'per_page=foo', 'page=0'])
        assert.equal((await list(bad)).statusCode, 400, bad);
    });

    it('should filter by categories (children included), tags, and both', async () => {
      assert.deepEqual(titles(await list(`start_date=2029-12-01&end_date=2030-12-31&categories=${ids['music']}`)), [
        'Alpha concert',
        'Beta concert',
      ]);
      assert.deepEqual(titles(await list('start_date=2029-12-01&end_date=2030-12-31&categories=jazz')), [
        'Beta concert',
      ]);
      assert.deepEqual(
        titles(await list('start_date=2029-12-01&end_date=2030-12-31&categories[]=jazz&categories[]=festivals')),
        ['Delta festival', 'Beta concert'],
      );
      assert.deepEqual(titles(await list('start_date=2029-12-01&end_date=2030-12-31&tags=outdoor')), [
        'Alpha concert',
        'Gamma talk',
      ]);
      assert.deepEqual(
        titles(await list(`start_date=2029-12-01&end_date=2030-12-31&tags=outdoor&categories=${ids['music']}`)),
        ['Alpha concert'],
      );
      const bad = await list('categories=nope');
      assert.equal(bad.statusCode, 400);
      assert.ok(bad.data.data.params.categories);
    });

    it('should filter by venue, organizer, featured and search', async () => {
      const alpha = await t.request({ method: 'GET', url: `${EVENTS}/${ids['a']}` });
      const beta = await t.request({ method: 'GET', url: `${EVENTS}/${ids['b']}` });
      assert.deepEqual(titles(await list(`start_date=2029-12-01&end_date=2030-12-31&venue=${alpha.data.venue.id}`)), [
        'Alpha concert',
      ]);
      assert.deepEqual(
        titles(await list(`start_date=2029-12-01&end_date=2030-12-31&organizer=${beta.data.organizer[0].id}`)),
        ['Beta concert'],
      );
      assert.equal((await list('venue=999999')).statusCode, 400);
      assert.equal((await list('organizer=999999')).statusCode, 400);
      assert.deepEqual(titles(await list('start_date=2029-12-01&end_date=2030-12-31&featured=true')), [
        'Alpha concert',
      ]);
      assert.equal((await list('start_date=2029-12-01&end_date=2030-12-31&featured=false')).data.total, 3);
      assert.deepEqual(titles(await list('start_date=2029-12-01&end_date=2030-12-31&search=CONCERT alpha')), [
        'Alpha concert',
      ]);
      assert.deepEqual(titles(await list('start_date=2029-12-01&end_date=2030-12-31&search=quiet')), ['Gamma talk']);
    });

    it('should never list hidden events, and show drafts to their readers only', async () => {
      assert.ok(
        !titles(await list('start_date=2029-12-01&end_date=2030-12-31', editor.authorization)).includes(
          'Epsilon hidden',
        ),
      );
      assert.ok(!titles(await list('start_date=2029-12-01&end_date=2030-12-31')).includes('Phi draft'));
      assert.ok(
        titles(await list('start_date=2029-12-01&end_date=2030-12-31', editor.authorization)).includes('Phi draft'),
      );
      const drafts = await list('start_date=2029-12-01&end_date=2030-12-31&status=draft', editor.authorization);
      assert.deepEqual(titles(drafts), ['Phi draft']);
      const other = await t.asUser('contributor');
      assert.equal(
        (await list('start_date=2029-12-01&end_date=2030-12-31&status=draft', other.authorization)).data.total,
        0,
      );
      assert.equal((await list('status=draft')).statusCode, 400);
      assert.equal((await list('status=foo', editor.authorization)).statusCode, 400);
      assert.equal((await list('status=publish')).statusCode, 200);
    });

    it('should ignore the date window with include and order by publication date', async () => {
      const res = await list(`include=${ids['c']},${ids['a']}&start_date=2040-01-01`);
      assert.deepEqual(titles(res), ['Alpha concert', 'Gamma talk']);
    });

    it('should validate post_parent, ticketed and the geolocation filters', async () => {
      assert.equal((await list('post_parent=999999')).statusCode, 400);
      const ticketed = await list('ticketed=true');
      assert.equal(ticketed.statusCode, 400);
      assert.deepEqual(Object.keys(ticketed.data.data.details), ['ticketed']);
      assert.equal(ticketed.data.data.details.ticketed.code, 'tickets-not-available');
      assert.equal(typeof ticketed.data.data.details.ticketed.message, 'string');
      assert.equal(ticketed.data.data.details.ticketed.data, null);
      assert.equal((await list('start_date=2029-12-01&end_date=2030-12-31&ticketed=false')).data.total, 4);
      const geo = await list('geoloc=true');
      assert.equal(geo.statusCode, 400);
      assert.equal(geo.data.data.details.geoloc.code, 'geoloc-extension-not-active');
      // Only one of the pair names the missing one, with the extension's code while it is off.
      const half = await list('geoloc_lat=48.85');
      assert.equal(half.statusCode, 400);
      assert.deepEqual(Object.keys(half.data.data.params), ['geoloc_lng']);
      assert.equal(half.data.data.details.geoloc_lng.code, 'geoloc-extension-not-active');
      const otherHalf = await list('geoloc_lng=2.35');
      assert.deepEqual(Object.keys(otherHalf.data.data.params), ['geoloc_lat']);
      // Without a validator's code, details stays the original's empty list.
      assert.deepEqual((await list('start_date=foo')).data.data.details, []);
      assert.equal((await list('start_date=foo')).statusCode, 400);
    });

    it('should answer the French root with French events only', async () => {
      const fr = await t.request({
        method: 'POST',
        url: `/fr${EVENTS}`,
        auth: editor.authorization,
        payload: {
          title: 'Concert français',
          start_date: '2030-01-01 15:00:00',
          end_date: '2030-01-01 16:00:00',
          translation_of: ids['a'],
        },
      });
      assert.equal(fr.statusCode, 201, fr.body);
      assert.equal(fr.data.i18n_language, 'fr');
      assert.deepEqual(fr.data.translations, { en: ids['a'], fr: fr.data.id });
      const res = await t.request({ method: 'GET', url: `/fr${EVENTS}?start_date=2029-12-01&end_date=2030-12-31` });
      assert.deepEqual(titles(res), ['Concert français']);
      assert.ok(res.data.rest_url.startsWith('http://localhost:80/fr/cal/events/v1/events/'));
      assert.deepEqual(
        titles(
          await t.request({
            method: 'GET',
            url: `${EVENTS}?start_date=2029-12-01&end_date=2030-12-31&i18n_language=fr`,
          }),
        ),
        ['Concert français'],
      );
      const again = await t.request({
        method: 'POST',
        url: `/fr${EVENTS}`,
        auth: editor.authorization,
        payload: {
          title: 'Doublon',
          start_date: '2030-01-01 15:00:00',
          end_date: '2030-01-01 16:00:00',
          translation_of: ids['a'],
        },
      });
      assert.equal(again.statusCode, 409);
      assert.equal(again.data.code, 'translation-exists');
    });

    it('should include every level of a category below the one named, and none above', async () => {
      const bebop = await t.request({
        method: 'POST',
        url: '/cal/events/v1/categories',
        auth: editor.authorization,
        payload: { name: 'Bebop', parent: ids['jazz'] },
      });
      assert.equal(bebop.statusCode, 201, bebop.body);
      await create('bebop', {
        title: 'Bebop night',
        start_date: '2031-06-01 20:00:00',
        end_date: '2031-06-01 22:00:00',
        categories: [bebop.data.id],
      });
      await create('jazz-too', {
        title: 'Jazz brunch',
        start_date: '2031-06-01 11:00:00',
        end_date: '2031-06-01 13:00:00',
        categories: [ids['jazz']],
      });
      const window = 'start_date=2031-06-01&end_date=2031-06-01';
      assert.deepEqual(titles(await list(`${window}&categories=${ids['music']}`)), ['Jazz brunch', 'Bebop night']);
      assert.deepEqual(titles(await list(`${window}&categories=jazz`)), ['Jazz brunch', 'Bebop night']);
      assert.deepEqual(titles(await list(`${window}&categories=bebop`)), ['Bebop night']);
      assert.equal((await list(`${window}&categories=music`)).data.total, 2);
    });
  });

  describe(`default window far from UTC [${backend}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(backend, { CAL_TIMEZONE: 'Pacific/Kiritimati' });
    });
    after(() => t.close());

    it('should start at the beginning of the site-local day of yesterday 23:59 UTC', async () => {
      const editor = await t.asUser('editor');
      const zone = 'Pacific/Kiritimati';
      const boundDay = DateTime.utc().minus({ days: 1 }).set({ hour: 23, minute: 59 }).setZone(zone).startOf('day');
      const fmt = (d: DateTime) => d.toFormat('yyyy-MM-dd HH:mm:ss');
      for (const [title, start] of [
        ['Just before', boundDay.minus({ minutes: 1 })],
        ['Just after', boundDay.plus({ minutes: 1 })],
      ] as const) {
        const res = await t.request({
          method: 'POST',
          url: EVENTS,
          auth: editor.authorization,
          payload: { title, start_date: fmt(start), end_date: fmt(start.plus({ hours: 1 })) },
        });
        assert.equal(res.statusCode, 201);
        assert.equal(res.data.timezone, zone);
      }
      const res = await t.request({ method: 'GET', url: EVENTS });
      assert.deepEqual(titles(res), ['Just after']);
      assert.match(res.data.rest_url, new RegExp(`start_date=${fmt(boundDay)}`));
    });
  });
}

function titles(res: { data: { events: { title: string }[] } }): string[] {
  return res.data.events.map((e) => e.title);
}

for (const backend of backends()) {
  describe(`geolocation filters with the extension on [${backend}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(backend, { CAL_GEOLOC: '1' });
    });
    after(() => t.close());

    it('should keep events whose venue has coordinates, and those within the radius', async () => {
      const editor = await t.asUser('editor');
      const post = (title: string, venue: Record<string, unknown>) =>
        t.request({
          method: 'POST',
          url: EVENTS,
          auth: editor.authorization,
          payload: { title, start_date: '2030-03-01 10:00:00', end_date: '2030-03-01 11:00:00', venue },
        });
      const paris = await post('In Paris', { venue: 'Louvre', geo_lat: 48.8606, geo_lng: 2.3376 });
      assert.equal(paris.statusCode, 201, paris.body);
      assert.equal(paris.data.venue.geo_lat, 48.8606);
      await post('In Versailles', { venue: 'Chateau', geo_lat: 48.8049, geo_lng: 2.1204 });
      await post('In Lyon', { venue: 'Fourviere', geo_lat: 45.7623, geo_lng: 4.8221 });
      await post('Nowhere', { venue: 'Unknown place' });
      const window = 'start_date=2030-03-01&end_date=2030-03-01';
      assert.deepEqual(titles(await t.request({ method: 'GET', url: `${EVENTS}?${window}&geoloc=true` })), [
        'In Paris',
        'In Versailles',
        'In Lyon',
      ]);
      const near = await t.request({ method: 'GET', url: `${EVENTS}?${window}&geoloc_lat=48.8566&geoloc_lng=2.3522` });
      assert.equal(near.statusCode, 200, near.body);
      assert.deepEqual(titles(near), ['In Paris', 'In Versailles']);
      const half = await t.request({ method: 'GET', url: `${EVENTS}?${window}&geoloc_lat=48.8566` });
      assert.equal(half.statusCode, 400);
      assert.ok(half.data.data.params.geoloc_lng);
      const bad = await t.request({ method: 'GET', url: `${EVENTS}?${window}&geoloc_lat=148&geoloc_lng=2` });
      assert.equal(bad.statusCode, 400);
      const badVenue = await t.request({
        method: 'POST',
        url: '/cal/events/v1/venues',
        auth: editor.authorization,
        payload: { venue: 'Off the map', geo_lat: 91 },
      });
      assert.equal(badVenue.statusCode, 400);
    });
  });
}
