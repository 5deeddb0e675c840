import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse, type HTMLElement } from 'node-html-parser';
import { loadConfig } from '../../../src/config.js';
import type { Marker } from '../../../src/modules/pages/page-map.markers.js';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';
import { planOf, statementsOf } from '../../helpers/plans.js';

const NS = '/cal/events/v1';
const HOSTILE = '<script>alert(1)</script>';
/** Later than any machine's today: every event of the fixture is upcoming. */
const YEAR = 2031;

describe('CAL_MAP_TILES', () => {
  it('should take off or an http(s) template with {z}, {x} and {y}', () => {
    assert.equal(loadConfig({ CAL_MAP_TILES: 'off' }).mapTiles.url, 'off');
    assert.match(loadConfig({}).mapTiles.url, /^https:\/\/tile\.openstreetmap\.org\//);
    for (const bad of ['ftp://tiles/{z}/{x}/{y}.png', 'https://tiles.example.org/map.png', 'OFF '])
      assert.throws(() => loadConfig({ CAL_MAP_TILES: bad }), /CAL_MAP_TILES/, bad);
  });
});

for (const backend of backends()) {
  describe(`map view [${backend}]`, () => {
    let t: TestApp;
    let admin: string;
    const ids: Record<string, number> = {};

    async function post(url: string, body: Record<string, unknown>): Promise<any> {
      const res = await t.request({ method: 'POST', url, payload: body, auth: admin });
      assert.ok(res.statusCode < 300, `${url}: ${res.statusCode} ${res.body}`);
      return res.data;
    }

    async function page(url: string): Promise<{ html: HTMLElement; body: string }> {
      const res = await t.request({ method: 'GET', url });
      assert.equal(res.statusCode, 200, `${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      return { html: parse(res.body), body: res.body };
    }

    const titles = (html: HTMLElement) => html.querySelectorAll('.cal-list h2').map((e) => e.text.trim());
    const markers = (html: HTMLElement): Marker[] =>
      JSON.parse(html.querySelector('#cal-map')!.getAttribute('data-markers')!);

    async function event(title: string, day: number, extra: Record<string, unknown> = {}): Promise<number> {
      const date = `${YEAR}-05-${String(day).padStart(2, '0')}`;
      return (
        await post(`${NS}/events`, { title, start_date: `${date} 19:00:00`, end_date: `${date} 21:00:00`, ...extra })
      ).id;
    }

    before(async () => {
      t = await createTestApp(backend, { CAL_GEOLOC: '1', CAL_MAP_TILES: 'off' });
      admin = (await t.asUser('administrator')).authorization;
      const venue = async (body: Record<string, unknown>) => (await post(`${NS}/venues`, body)).id as number;
      ids['harbour'] = await venue({
        venue: 'Harbour Hall',
        address: '1 Quay',
        city: 'Nantes',
        geo_lat: 47.2,
        geo_lng: -1.55,
      });
      ids['mill'] = await venue({ venue: 'Old Mill', city: 'Lyon', geo_lat: 45.76, geo_lng: 4.83 });
      ids['barn'] = await venue({ venue: 'Nowhere Barn', city: 'Somewhere' });
      ids['hidden'] = await venue({ venue: 'Unmapped Cellar', geo_lat: 43.6, geo_lng: 1.44, show_map: false });
      ids['draftVenue'] = await venue({ venue: 'Draft Venue', geo_lat: 44.8, geo_lng: -0.58, status: 'draft' });
      ids['hostileVenue'] = await venue({
        venue: `Venue ${HOSTILE}`,
        address: `Street ${HOSTILE}`,
        geo_lat: 50.6,
        geo_lng: 3.06,
      });
      const jazz = (await post(`${NS}/categories`, { name: 'Jazz' })).id;
      const talks = (await post(`${NS}/categories`, { name: 'Talks' })).id;
      await event('Harbour Jazz', 1, { venue: ids['harbour'], categories: [jazz] });
      await event('Harbour Talk', 2, { venue: ids['harbour'], categories: [talks] });
      await event('Mill Jazz', 3, { venue: ids['mill'], categories: [jazz] });
      await event(`Hostile ${HOSTILE}`, 4, { venue: ids['hostileVenue'] });
      // No place on the map: counted, not listed.
      await event('Barn Dance', 5, { venue: ids['barn'] });
      await event('Venueless Walk', 6);
      await event('Cellar Tasting', 8, { venue: ids['hidden'] });
      await event('Draft Venue Party', 9, { venue: ids['draftVenue'] });
      // Never on a page.
      await event('Secret Draft', 10, { venue: ids['harbour'], status: 'draft' });
      await event('Unlisted Gala', 11, { venue: ids['harbour'], hide_from_listings: true });
      ids['trashed'] = await event('Trashed Fair', 12, { venue: ids['harbour'] });
      assert.equal(
        (await t.request({ method: 'DELETE', url: `${NS}/events/${ids['trashed']}`, auth: admin })).statusCode,
        200,
      );
      await event('Past Harbour Night', 1, {
        venue: ids['harbour'],
        start_date: '2020-01-01 19:00:00',
        end_date: '2020-01-01 21:00:00',
      });
      // A second page: the map shows 50 events a page.
      for (let i = 0; i < 50; i += 1)
        await post(`${NS}/events`, {
          title: `Mill Session ${i + 1}`,
          start_date: `${YEAR + 1}-01-01 ${String(10 + Math.floor(i / 6)).padStart(2, '0')}:${String((i % 6) * 10).padStart(2, '0')}:00`,
          end_date: `${YEAR + 1}-01-01 23:00:00`,
          venue: ids['mill'],
        });
      await post(`/fr${NS}/events`, {
        title: 'Jazz au port',
        start_date: `${YEAR}-05-01 19:00:00`,
        end_date: `${YEAR}-05-01 21:00:00`,
        venue: ids['harbour'],
      });
    });

    after(async () => t.close());

    it('should list the upcoming events with a place on the map, and count those without one', async () => {
      const { html, body } = await page('/events/map/');
      assert.equal(html.querySelector('h1')!.text.trim(), 'Map of events');
      assert.deepEqual(titles(html).slice(0, 4), ['Harbour Jazz', 'Harbour Talk', 'Mill Jazz', `Hostile ${HOSTILE}`]);
      assert.equal(titles(html).length, 50);
      for (const absent of [
        'Barn Dance',
        'Venueless Walk',
        'Cellar Tasting',
        'Draft Venue Party',
        'Secret Draft',
        'Unlisted Gala',
        'Trashed Fair',
        'Past Harbour Night',
        'Jazz au port',
      ])
        assert.ok(!body.includes(absent), absent);
      assert.ok(!body.includes(HOSTILE), 'user input is escaped');
      // The list names each event's venue and address, as the list view does.
      const first = html.querySelector('.cal-list li')!;
      assert.equal(first.querySelector('.venue a')!.getAttribute('href'), '/venue/harbour-hall/');
      assert.match(first.querySelector('.venue')!.text, /1 Quay, Nantes/);
      const note = html.querySelector('.map-unmapped')!;
      assert.match(note.text, /^4 events of these dates have no place on the map: see them in the list$/);
      assert.equal(note.querySelector('a')!.getAttribute('href'), '/events/list/');
      assert.equal(html.querySelector('a[rel=next]')!.getAttribute('href'), '/events/map/?page=2');
      assert.equal(html.querySelector('a[rel=prev]'), null);

      const second = await page('/events/map/?page=2');
      assert.deepEqual(titles(second.html), [
        'Mill Session 47',
        'Mill Session 48',
        'Mill Session 49',
        'Mill Session 50',
      ]);
      assert.equal(second.html.querySelector('a[rel=prev]')!.getAttribute('href'), '/events/map/');
      assert.equal(second.html.querySelector('a[rel=next]'), null);
      assert.equal(second.html.querySelector('.map-unmapped'), null, 'no event of these dates lacks a place');
      assert.match(second.html.querySelector('meta[name=robots]')!.getAttribute('content')!, /noindex/);
    });

    it('should give the script its markers, one per venue, and its settings in data attributes', async () => {
      const { html, body } = await page('/events/map/');
      const canvas = html.querySelector('#cal-map')!;
      assert.ok(canvas.hasAttribute('hidden'), 'hidden until the script draws it: no empty box without JavaScript');
      assert.equal(canvas.getAttribute('role'), 'region');
      assert.equal(canvas.getAttribute('aria-label'), 'Map of the events listed');
      assert.equal(canvas.getAttribute('data-tiles'), 'off');
      assert.equal(canvas.getAttribute('data-attribution'), '');
      assert.match(canvas.getAttribute('data-icon')!, /^\/assets\/leaflet-marker-icon\.[0-9a-f]{10}\.png$/);
      assert.match(canvas.getAttribute('data-icon2x')!, /^\/assets\/leaflet-marker-icon-2x\.[0-9a-f]{10}\.png$/);
      assert.match(canvas.getAttribute('data-shadow')!, /^\/assets\/leaflet-marker-shadow\.[0-9a-f]{10}\.png$/);
      const all = markers(html);
      assert.deepEqual(
        all.map((m) => [m.name, m.lat, m.lng, m.events.length]),
        [
          ['Harbour Hall', 47.2, -1.55, 2],
          ['Old Mill', 45.76, 4.83, 47],
          [`Venue ${HOSTILE}`, 50.6, 3.06, 1],
        ],
      );
      assert.deepEqual(
        all[0]!.events.map((e) => [e.title, e.href]),
        [
          ['Harbour Jazz', '/event/harbour-jazz/'],
          ['Harbour Talk', '/event/harbour-talk/'],
        ],
      );
      assert.equal(all[0]!.href, '/venue/harbour-hall/');
      assert.equal(all[0]!.address, '1 Quay, Nantes');
      assert.match(all[0]!.events[0]!.when, /2031/);
      // The JSON sits in an attribute: its quotes and angle brackets are entities there.
      assert.ok(body.includes('data-markers="[{&quot;lat&quot;:47.2'));
      // No inline script: Leaflet and ours by address, deferred.
      const scripts = html.querySelectorAll('script');
      assert.equal(scripts.length, 2);
      for (const script of scripts) {
        assert.equal(script.text.trim(), '');
        assert.ok(script.hasAttribute('defer'));
      }
      assert.match(scripts[0]!.getAttribute('src')!, /^\/assets\/leaflet\.[0-9a-f]{10}\.js$/);
      assert.match(scripts[1]!.getAttribute('src')!, /^\/assets\/map\.[0-9a-f]{10}\.js$/);
    });

    it('should keep the filters: category, venue, search, and say when nothing has a place', async () => {
      const jazz = await page('/events/map/?category=jazz');
      assert.deepEqual(titles(jazz.html), ['Harbour Jazz', 'Mill Jazz']);
      assert.deepEqual(
        markers(jazz.html).map((m) => [m.name, m.events.map((e) => e.title)]),
        [
          ['Harbour Hall', ['Harbour Jazz']],
          ['Old Mill', ['Mill Jazz']],
        ],
      );
      assert.equal(jazz.html.querySelector('.map-unmapped'), null);
      assert.equal(jazz.html.querySelector('select[name=category] option[selected]')!.getAttribute('value'), 'jazz');
      assert.match(jazz.html.querySelector('meta[name=robots]')!.getAttribute('content')!, /noindex/);

      const harbour = await page('/events/map/?venue=harbour-hall');
      assert.deepEqual(titles(harbour.html), ['Harbour Jazz', 'Harbour Talk']);
      assert.equal(harbour.html.querySelector('.map-unmapped'), null);

      const none = await page('/events/map/?search=barn');
      assert.deepEqual(titles(none.html), []);
      assert.equal(none.html.querySelector('.empty')!.text.trim(), 'No upcoming event has a place on the map.');
      const note = none.html.querySelector('.map-unmapped')!;
      assert.match(note.text, /^One event of these dates has no place on the map/, 'Barn Dance');
      assert.equal(note.querySelector('a')!.getAttribute('href'), '/events/list/?search=barn');
      assert.equal(none.html.querySelectorAll('script').length, 0, 'nothing to draw: no script');
      assert.deepEqual(markers(none.html), []);
    });

    it('should answer under every language root, in its words', async () => {
      const { html } = await page('/fr/events/map/');
      assert.equal(html.querySelector('html')!.getAttribute('lang'), 'fr');
      assert.equal(html.querySelector('h1')!.text.trim(), 'Carte des événements');
      assert.deepEqual(titles(html), ['Jazz au port']);
      assert.equal(html.querySelector('#cal-map')!.getAttribute('aria-label'), 'Carte des événements de la liste');
      assert.equal(markers(html)[0]!.events[0]!.href, '/fr/event/jazz-au-port/');
      const de = await page('/de/events/map/');
      assert.equal(
        de.html.querySelector('.empty')!.text.trim(),
        'Keine kommende Veranstaltung hat einen Ort auf der Karte.',
      );
    });

    it("should serve its script and Leaflet's files under hashed names, cached for a year", async () => {
      const { html } = await page('/events/map/');
      const canvas = html.querySelector('#cal-map')!;
      const css = html.querySelector('link[rel=stylesheet][href^="/assets/leaflet."]')!.getAttribute('href')!;
      const files: [string, RegExp][] = [
        [html.querySelectorAll('script')[0]!.getAttribute('src')!, /^text\/javascript/],
        [html.querySelectorAll('script')[1]!.getAttribute('src')!, /^text\/javascript/],
        [css, /^text\/css/],
        [canvas.getAttribute('data-icon')!, /^image\/png/],
        [canvas.getAttribute('data-icon2x')!, /^image\/png/],
        [canvas.getAttribute('data-shadow')!, /^image\/png/],
      ];
      for (const [path, type] of files) {
        const res = await t.request({ method: 'GET', url: path });
        assert.equal(res.statusCode, 200, path);
        assert.match(String(res.headers['content-type']), type, path);
        assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable', path);
        const again = await t.request({
          method: 'GET',
          url: path,
          headers: { 'if-none-match': String(res.headers['etag']) },
        });
        assert.equal(again.statusCode, 304, path);
      }
      const leafletCss = (await t.request({ method: 'GET', url: css })).body;
      assert.ok(!leafletCss.includes('url(images/'), "Leaflet's images are named by their served addresses");
      assert.match(leafletCss, /url\(\/assets\/leaflet-layers\.[0-9a-f]{10}\.png\)/);
      const leaflet = (await t.request({ method: 'GET', url: files[0]![0] })).body;
      assert.match(leaflet, /window\.L/);
      assert.ok(!leaflet.includes('sourceMappingURL'), 'no address of a source map that is not served');
      const ours = (await t.request({ method: 'GET', url: files[1]![0] })).body;
      assert.match(ours, /textContent/, 'popups are built from text, never from HTML');
      assert.equal((await t.request({ method: 'GET', url: '/assets/leaflet.0000000000.js' })).statusCode, 404);
    });

    it("should answer the site's 400 page for a bad filter or page, as the other views do", async () => {
      for (const url of ['/events/map/?category=no-such', '/events/map/?venue=no-such', '/events/map/?page=0']) {
        const res = await t.request({ method: 'GET', url });
        assert.equal(res.statusCode, 400, url);
        assert.match(String(res.headers['content-type']), /^text\/html/, url);
      }
    });

    it('should read the mapped events and the count through indexes', async () => {
      // Every statement the page runs, with its parameters, explained.
      const seen = await statementsOf(t, () => page('/events/map/?category=talks&page=1'));
      const mapped = seen.filter((q) => q.sql.includes('venues.geo_lat'));
      assert.ok(mapped.length >= 2, 'the events with a place and the count of those without');
      for (const query of mapped) {
        const plan = await planOf(t, query);
        assert.doesNotMatch(plan, /SCAN events(?! USING)|Seq Scan on events/, `${query.sql}\n${plan}`);
        // A range of an index by language and start, as the list view reads; each venue by its key.
        assert.match(plan, /events_public_(start|window)|events_lang_status_start|events_lang_start/, plan);
        assert.match(plan, /venues USING INTEGER PRIMARY KEY|venues_pkey/, plan);
      }
    });
  });
}
