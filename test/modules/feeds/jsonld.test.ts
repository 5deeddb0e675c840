import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';

const EVENTS = '/cal/events/v1/events';
const WINDOW = 'start_date=2027-04-01&end_date=2027-04-30';

for (const backend of backends()) {
  describe(`calendar feeds: JSON-LD [${backend}]`, () => {
    let t: TestApp;
    let editor: { id: number; authorization: string };
    const ids: Record<string, number> = {};

    const jsonld = (query: string, headers: Record<string, string> = {}, auth?: string) =>
      t.request({
        method: 'GET',
        url: `${EVENTS}?${query}`,
        headers: { accept: 'application/ld+json', ...headers },
        auth,
      });

    before(async () => {
      t = await createTestApp(backend, { CAL_TIMEZONE: 'Europe/Paris' });
      editor = await t.asUser('editor');
      const make = async (key: string, payload: Record<string, unknown>) => {
        const res = await t.request({ method: 'POST', url: EVENTS, auth: editor.authorization, payload });
        assert.equal(res.statusCode, 201, res.body);
        ids[key] = res.data.id;
      };
      await make('a', {
        title: 'Alpha',
        start_date: '2027-04-02 10:00:00',
        end_date: '2027-04-02 12:00:00',
        excerpt: 'The first',
        venue: { venue: 'Hall A', city: 'Lyon' },
        organizer: [{ organizer: 'Org A' }],
        cost: '10',
      });
      await make('b', { title: 'Beta', start_date: '2027-04-03 10:00:00', end_date: '2027-04-03 12:00:00' });
      await make('c', {
        title: 'Gamma',
        start_date: '2027-04-04 10:00:00',
        end_date: '2027-04-04 12:00:00',
        excerpt: 'Hush',
      });
      await make('d', {
        title: 'Delta',
        start_date: '2027-04-05 10:00:00',
        end_date: '2027-04-05 12:00:00',
        timezone: 'America/New_York',
      });
      await make('e', {
        title: 'Epsilon draft',
        status: 'draft',
        start_date: '2027-04-06 10:00:00',
        end_date: '2027-04-06 12:00:00',
      });
      await t.request({
        method: 'POST',
        url: `${EVENTS}/${ids['c']}`,
        auth: editor.authorization,
        payload: { password: 'pw' },
      });
    });
    after(() => t.close());

    it('should answer a schema.org ItemList of the list page, in its order, each item the single read json_ld', async () => {
      const res = await jsonld(WINDOW);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-type'], 'application/ld+json; charset=utf-8');
      assert.equal(res.headers['x-cal-total'], '4');
      const body = res.data;
      assert.equal(body['@context'], 'http://schema.org');
      assert.equal(body['@type'], 'ItemList');
      assert.equal(body.numberOfItems, 4);
      assert.equal(body.url, `http://localhost:80${EVENTS}?${WINDOW}`);
      const json = await t.request({ method: 'GET', url: `${EVENTS}?${WINDOW}` });
      const names = body.itemListElement.map((e: { item: { name: string } }) => e.item.name);
      assert.deepEqual(
        names,
        json.data.events.map((e: { title: string }) => e.title),
      );
      assert.deepEqual(
        body.itemListElement.map((e: { position: number }) => e.position),
        [1, 2, 3, 4],
      );
      const single = await t.request({ method: 'GET', url: `${EVENTS}/${ids['a']}` });
      const { '@context': _context, ...expected } = single.data.json_ld;
      assert.deepEqual(body.itemListElement[0].item, expected);
      assert.equal(body.itemListElement[0]['@type'], 'ListItem');
      assert.equal(body.itemListElement[0].url, single.data.url);
      assert.equal(body.itemListElement[0].item.location.name, 'Hall A');
      assert.equal(body.itemListElement[3].item.startDate, '2027-04-05T10:00:00-04:00');
      assert.ok(!names.includes('Epsilon draft'));
    });

    it('should page as the JSON list does, with positions counted from the start of the list', async () => {
      const res = await jsonld(`${WINDOW}&per_page=2&page=2`);
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['x-cal-totalpages'], '2');
      assert.deepEqual(
        res.data.itemListElement.map((e: { position: number; item: { name: string } }) => [e.position, e.item.name]),
        [
          [3, 'Gamma'],
          [4, 'Delta'],
        ],
      );
      const past = await jsonld(`${WINDOW}&per_page=2&page=3`);
      assert.equal(past.statusCode, 404);
      assert.equal(past.data.code, 'event-archive-page-not-found');
      assert.match(String(past.headers['content-type']), /^application\/json/);
    });

    it('should leave out the description of a password-protected event', async () => {
      const item = (await jsonld(WINDOW)).data.itemListElement.find(
        (e: { item: { name: string } }) => e.item.name === 'Gamma',
      ).item;
      assert.equal(item.description, undefined);
      assert.equal(item.startDate, '2027-04-04T10:00:00+02:00');
      const open = (await jsonld(`${WINDOW}&password=pw`)).data.itemListElement.find(
        (e: { item: { name: string } }) => e.item.name === 'Gamma',
      ).item;
      assert.equal(open.description, 'Hush');
    });

    it('should show editors their drafts, as the JSON list does', async () => {
      const res = await jsonld(WINDOW, {}, editor.authorization);
      assert.ok(res.data.itemListElement.some((e: { item: { name: string } }) => e.item.name === 'Epsilon draft'));
    });

    it('should be chosen by format too, cached with ETag, Last-Modified and 304, and answer HEAD', async () => {
      const url = `${EVENTS}?${WINDOW}&format=jsonld`;
      const res = await t.request({ method: 'GET', url });
      assert.equal(res.headers['content-type'], 'application/ld+json; charset=utf-8');
      const etag = String(res.headers['etag']);
      assert.ok(res.headers['last-modified']);
      assert.equal((await t.request({ method: 'GET', url, headers: { 'if-none-match': etag } })).statusCode, 304);
      assert.equal(
        (
          await t.request({
            method: 'GET',
            url,
            headers: { 'if-modified-since': String(res.headers['last-modified']) },
          })
        ).statusCode,
        304,
      );
      const head = await t.request({ method: 'HEAD', url });
      assert.equal(head.statusCode, 200);
      assert.equal(head.body, '');
      // The JSON of the same address is another representation, with another tag.
      const json = await t.request({ method: 'GET', url: `${EVENTS}?${WINDOW}` });
      assert.notEqual(json.headers['etag'], etag);
    });

    it('should answer one event as its schema.org Event', async () => {
      const res = await t.request({
        method: 'GET',
        url: `${EVENTS}/${ids['a']}`,
        headers: { accept: 'application/ld+json' },
      });
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'application/ld+json; charset=utf-8');
      const single = await t.request({ method: 'GET', url: `${EVENTS}/${ids['a']}` });
      assert.deepEqual(res.data, single.data.json_ld);
      const locked = await t.request({ method: 'GET', url: `${EVENTS}/${ids['c']}?format=jsonld` });
      assert.equal(locked.statusCode, 403);
      assert.equal(locked.data.code, 'event-password-protected');
    });

    it('should refuse bad filters with the JSON error body', async () => {
      const res = await jsonld('start_date=nonsense');
      assert.equal(res.statusCode, 400);
      assert.equal(res.data.code, 'rest_invalid_param');
      assert.match(String(res.headers['content-type']), /^application\/json/);
    });

    it('should describe the formats in the namespace index and the OpenAPI document', async () => {
      const index = await t.request({ method: 'GET', url: '/cal/events/v1' });
      const args = index.data.routes['/cal/events/v1/events'].endpoints[0].args;
      assert.deepEqual(args.format.enum, ['json', 'ical', 'jsonld']);
      assert.match(args.format.description, /text\/calendar/);
      const single = index.data.routes['/cal/events/v1/events/(?P<id>\\d+)'].endpoints[0].args;
      assert.deepEqual(single.format.enum, ['json', 'ical', 'jsonld']);
      const doc = await t.request({ method: 'GET', url: '/cal/events/v1/doc' });
      const param = doc.data.paths['/events'].get.parameters.find((p: { name: string }) => p.name === 'format');
      assert.deepEqual(param.schema.enum, ['json', 'ical', 'jsonld']);
    });
  });
}
