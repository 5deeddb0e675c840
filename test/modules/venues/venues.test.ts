import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../../helpers/app.js';
import { describeLinkedKind, insertEvent, linksOf, token, useKindApp } from '../../helpers/linked-suite.js';

const VENUES = '/cal/events/v1/venues';

describeLinkedKind({
  table: 'venues',
  nameField: 'venue',
  label: 'Venue',
  fullPayload: {
    description: 'A description',
    excerpt: 'An excerpt',
    date: '2024-02-03 04:05:06',
    status: 'publish',
    image: 'https://img.example.com/a.jpg',
    address: '1 Rue de Rivoli',
    city: 'Paris',
    country: 'France',
    province: 'Ile-de-France',
    state: 'IDF',
    zip: '75001',
    phone: '+33 1 23 45 67 89',
    website: 'https://venue.example.com',
    stateprovince: 'Ile-de-France',
    show_map: true,
    show_map_link: false,
  },
  fullKeys: [
    'id',
    'author',
    'status',
    'date',
    'date_utc',
    'modified',
    'modified_utc',
    'url',
    'venue',
    'description',
    'excerpt',
    'slug',
    'image',
    'address',
    'city',
    'country',
    'province',
    'state',
    'zip',
    'phone',
    'website',
    'stateprovince',
    'show_map',
    'show_map_link',
    'global_id',
    'global_id_lineage',
    'i18n_language',
    'translations',
  ],
  badField: ['website', 'not a url'],
});

for (const backend of backends()) {
  describe(`venue fields [${backend}]`, () => {
    const fx = useKindApp(backend, { table: 'venues', nameField: 'venue' });
    const create = (payload: Record<string, unknown>) => fx.create(payload);
    const patch = (id: number, payload: Record<string, unknown>) =>
      fx.t.request({ method: 'PATCH', url: `${VENUES}/${id}`, auth: fx.editor.authorization, payload });

    describe(`POST ${VENUES}`, () => {
      it("should answer the shape of the original's sample", async () => {
        const data = await create({
          venue: 'Golden Venue',
          address: '1 Rue de Rivoli',
          city: 'Paris',
          country: 'France',
          province: 'Ile-de-France',
          zip: '75001',
          phone: '+33 1 23 45 67 89',
          website: 'https://venue.example.com',
          show_map_link: false,
        });
        const { id, author, date, date_utc, modified, modified_utc, ...rest } = data;
        assert.equal(typeof id, 'number');
        assert.equal(author, String(fx.editor.id));
        for (const d of [date, date_utc, modified, modified_utc]) assert.match(d, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
        assert.deepEqual(rest, {
          status: 'publish',
          url: 'http://localhost:80/venue/golden-venue/',
          venue: 'Golden Venue',
          slug: 'golden-venue',
          address: '1 Rue de Rivoli',
          city: 'Paris',
          country: 'France',
          province: 'Ile-de-France',
          zip: '75001',
          phone: '+33 1 23 45 67 89',
          website: 'https://venue.example.com',
          stateprovince: 'Ile-de-France',
          show_map: true,
          show_map_link: false,
          global_id: `localhost?id=${id}`,
          global_id_lineage: [`localhost?id=${id}`],
          i18n_language: 'en',
          translations: { en: id },
        });
        const single = await fx.t.request({ method: 'GET', url: `${VENUES}/${id}` });
        assert.deepEqual(single.data.json_ld, {
          '@type': 'Place',
          name: 'Golden Venue',
          description: '',
          url: '',
          address: {
            '@type': 'PostalAddress',
            streetAddress: '1 Rue de Rivoli',
            addressLocality: 'Paris',
            addressRegion: 'Ile-de-France',
            postalCode: '75001',
            addressCountry: 'France',
          },
          telephone: '+33 1 23 45 67 89',
          sameAs: 'https://venue.example.com',
        });
      });

      it('should derive stateprovince from state in the US and from province elsewhere, unless sent', async () => {
        assert.equal((await create({ state: 'CA', province: 'Nope', country: 'US' })).stateprovince, 'CA');
        assert.equal((await create({ state: 'NY' })).stateprovince, 'NY');
        assert.equal((await create({ state: 'X', province: 'Ontario', country: 'Canada' })).stateprovince, 'Ontario');
        assert.equal((await create({ state: 'CA', stateprovince: 'Given' })).stateprovince, 'Given');
      });

      it('should read show_map and show_map_link as booleans or their strings, true by default', async () => {
        const plain = await create({});
        assert.equal(plain.show_map, true);
        assert.equal(plain.show_map_link, true);
        for (const value of [false, 'false', '0', 0, 'no'])
          assert.equal((await create({ show_map: value })).show_map, false, String(value));
        for (const value of [true, 'true', '1', 'yes'])
          assert.equal((await create({ show_map_link: value })).show_map_link, true, String(value));
        const bad = await fx.t.request({
          method: 'POST',
          url: VENUES,
          auth: fx.editor.authorization,
          payload: { venue: 'Bad map', show_map: 'maybe' },
        });
        assert.equal(bad.statusCode, 400);
        assert.deepEqual(Object.keys(bad.data.data.params), ['show_map']);
      });

      it('should ignore geo_lat and geo_lng while the geolocation extension is off', async () => {
        const data = await create({ geo_lat: 48.85, geo_lng: 2.35 });
        assert.equal('geo_lat' in data, false);
        const row = await fx.t.storage.db
          .selectFrom('venues')
          .select(['geo_lat', 'geo_lng'])
          .where('id', '=', data.id)
          .executeTakeFirstOrThrow();
        assert.deepEqual(row, { geo_lat: null, geo_lng: null });
        // Not validated either: any value is ignored unread, as in the original without the extension.
        for (const junk of [{ geo_lng: 'east' }, { geo_lat: true, geo_lng: { x: 1 } }, { geo_lat: 1e300 }]) {
          const ignored = await create(junk);
          assert.equal('geo_lng' in ignored, false, JSON.stringify(junk));
        }
      });
    });

    describe(`POST|PUT|PATCH ${VENUES}/:id`, () => {
      it('should leave the map flags alone when they are not sent', async () => {
        const made = await create({ show_map: false, show_map_link: false });
        const res = await patch(made.id, { city: 'Lyon' });
        assert.equal(res.data.show_map, false);
        assert.equal(res.data.show_map_link, false);
        assert.equal(res.data.city, 'Lyon');
      });

      it('should derive stateprovince with the stored country when it is not sent', async () => {
        const made = await create({ country: 'France', province: 'Bretagne' });
        assert.equal((await patch(made.id, { state: 'S', province: 'Normandie' })).data.stateprovince, 'Normandie');
        const us = await create({ country: 'US', state: 'CA' });
        assert.equal((await patch(us.id, { state: 'NY' })).data.stateprovince, 'NY');
      });
    });

    describe(`GET ${VENUES}`, () => {
      it('should search the address fields, and not the country or website', async () => {
        const word = token();
        // Distinct prefixes: "province" would also be found inside "stateprovince".
        const prefixes: Record<string, string> = {
          address: 'adr',
          city: 'cty',
          province: 'prv',
          state: 'stt',
          stateprovince: 'spv',
          zip: 'zp',
          phone: 'phn',
        };
        const made: Record<string, number> = {};
        for (const [field, prefix] of Object.entries(prefixes))
          made[field] = (await create({ [field]: `${prefix}-${word} x` })).id;
        for (const [field, prefix] of Object.entries(prefixes)) {
          const res = await fx.t.request({ method: 'GET', url: `${VENUES}?search=${prefix}-${word}` });
          assert.deepEqual(
            res.data.venues.map((v: any) => v.id),
            [made[field]],
            field,
          );
        }
        await create({ country: `country-${word}`, website: `https://${word}.example.com` });
        assert.equal((await fx.t.request({ method: 'GET', url: `${VENUES}?search=country-${word}` })).data.total, 0);
        assert.equal((await fx.t.request({ method: 'GET', url: `${VENUES}?search=${word}.example` })).data.total, 0);
      });

      it('should match words in any order ("temple avenue" finds "100, Avenue du Temple")', async () => {
        const word = token();
        const made = await create({ address: `100, Avenue du Temple ${word}` });
        const res = await fx.t.request({
          method: 'GET',
          url: `${VENUES}?search=${encodeURIComponent(`temple avenue ${word}`)}`,
        });
        assert.deepEqual(
          res.data.venues.map((v: any) => v.id),
          [made.id],
        );
      });
    });

    describe(`DELETE ${VENUES}/:id`, () => {
      it('should clear the venue of its events only', async () => {
        const doomed = await create({});
        const kept = await create({});
        const one = await insertEvent(fx.t, { venueId: doomed.id });
        const two = await insertEvent(fx.t, { venueId: doomed.id, status: 'draft' });
        const other = await insertEvent(fx.t, { venueId: kept.id });
        await fx.t.request({ method: 'DELETE', url: `${VENUES}/${doomed.id}`, auth: fx.editor.authorization });
        assert.deepEqual(await linksOf(fx.t, 'venues', one), []);
        assert.deepEqual(await linksOf(fx.t, 'venues', two), []);
        assert.deepEqual(await linksOf(fx.t, 'venues', other), [kept.id]);
      });
    });
  });

  describe(`venue coordinates with the geolocation extension [${backend}]`, () => {
    const fx = useKindApp(backend, { table: 'venues', nameField: 'venue' }, { CAL_GEOLOC: '1' });
    const send = (method: 'POST' | 'PATCH', url: string, payload: Record<string, unknown>) =>
      fx.t.request({ method, url, auth: fx.editor.authorization, payload });

    it('should store and return geo_lat and geo_lng, after stateprovince', async () => {
      const res = await send('POST', VENUES, {
        venue: `Geo ${token()}`,
        stateprovince: 'IDF',
        geo_lat: 48.8566,
        geo_lng: '2.3522',
      });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.data.geo_lat, 48.8566);
      assert.equal(res.data.geo_lng, 2.3522);
      const keys = Object.keys(res.data);
      assert.deepEqual(keys.slice(keys.indexOf('stateprovince'), keys.indexOf('stateprovince') + 4), [
        'stateprovince',
        'geo_lat',
        'geo_lng',
        'show_map',
      ]);
      const single = await fx.t.request({ method: 'GET', url: `${VENUES}/${res.data.id}` });
      assert.deepEqual(single.data.json_ld.geo, { '@type': 'GeoCoordinates', latitude: 48.8566, longitude: 2.3522 });
      const cleared = await send('PATCH', `${VENUES}/${res.data.id}`, { geo_lat: null, geo_lng: null });
      assert.equal('geo_lat' in cleared.data, false);
    });

    it('should answer 400 for coordinates out of range or not numbers', async () => {
      const res = await send('POST', VENUES, { venue: `Geo ${token()}`, geo_lat: 91, geo_lng: -181 });
      assert.equal(res.statusCode, 400);
      assert.deepEqual(Object.keys(res.data.data.params).sort(), ['geo_lat', 'geo_lng']);
      const text = await send('POST', VENUES, { venue: `Geo ${token()}`, geo_lng: 'east' });
      assert.equal(text.statusCode, 400);
      assert.deepEqual(Object.keys(text.data.data.params), ['geo_lng']);
    });
  });
}
