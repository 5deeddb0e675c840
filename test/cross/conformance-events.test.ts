import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DateTime } from 'luxon';
import { backends, createTestApp, type Backend, type TestApp } from '../helpers/app.js';

/**
 * Conformance of the event routes with the expectations of the original plugin's REST acceptance
 * tests (tests/restv1/*Cest.php), translated to our names and to the decisions of SPEC.md.
 * Those tests post PHP arrays, which travel as application/x-www-form-urlencoded bodies and
 * PHP-style query strings (`a[0]=x`, `venue[venue]=X`, `organizer[0][organizer]=Y`, true as `1`).
 */

const NS = '/cal/events/v1';
const EVENTS = `${NS}/events`;
const SITE_ZONE = 'America/New_York';
const SQL = 'yyyy-MM-dd HH:mm:ss';

type User = { id: number; authorization: string };

/** PHP's http_build_query: nested keys in brackets, true as 1, false as 0, null left out. */
function phpForm(data: Record<string, unknown>): string {
  const pairs: string[] = [];
  const add = (key: string, value: unknown): void => {
    if (value === null || value === undefined) return;
    if (Array.isArray(value)) value.forEach((v, i) => add(`${key}[${i}]`, v));
    else if (typeof value === 'object') for (const [k, v] of Object.entries(value)) add(`${key}[${k}]`, v);
    else
      pairs.push(
        `${encodeURIComponent(key)}=${encodeURIComponent(typeof value === 'boolean' ? (value ? '1' : '0') : String(value))}`,
      );
  };
  for (const [k, v] of Object.entries(data)) add(k, v);
  return pairs.join('&');
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** Wall-clock time of a relative expression, computed in `zone` the way the specification reads it. */
function tomorrowAt(zone: string, hour: number, plusDays = 1): DateTime {
  return DateTime.now().setZone(zone).plus({ days: plusDays }).set({ hour, minute: 0, second: 0, millisecond: 0 });
}
function nextWednesdayAt(zone: string, hour: number): DateTime {
  const today = DateTime.now().setZone(zone);
  const delta = (3 - today.weekday + 7) % 7 || 7;
  return today.plus({ days: delta }).set({ hour, minute: 0, second: 0, millisecond: 0 });
}
const sql = (d: DateTime) => d.toFormat(SQL);
const utcOf = (d: DateTime) => d.toUTC().toFormat(SQL);

/** A service in the site's zone, with an administrator and an editor. */
async function siteApp(backend: Backend): Promise<{ t: TestApp; admin: User; editor: User }> {
  const t = await createTestApp(backend, { CAL_TIMEZONE: SITE_ZONE });
  return { t, admin: await t.asUser('administrator'), editor: await t.asUser('editor') };
}

for (const backend of backends()) {
  describe(`conformance: event insertion (EventInsertionCest) [${backend}]`, () => {
    let t: TestApp;
    let admin: User;
    let editor: User;
    before(async () => ({ t, admin, editor } = await siteApp(backend)));
    after(() => t.close());

    // `null` means anonymous (an explicit undefined would pick the default).
    const postForm = (data: Record<string, unknown>, auth: string | null = admin.authorization) =>
      t.request({ method: 'POST', url: EVENTS, auth: auth ?? undefined, headers: FORM, payload: phpForm(data) });
    const postJson = (payload: Record<string, unknown>, auth: string | null = admin.authorization) =>
      t.request({ method: 'POST', url: EVENTS, auth: auth ?? undefined, payload });
    const minimal = { title: 'An event title', start_date: 'tomorrow 9am', end_date: 'tomorrow 11am' };

    it('inserts an event posted as a form, with HTML description/excerpt and UTC dates from the site zone', async () => {
      const start = tomorrowAt(SITE_ZONE, 9);
      const end = tomorrowAt(SITE_ZONE, 11);
      const res = await postForm({
        title: 'An event',
        description: 'An event content',
        excerpt: 'An event excerpt',
        start_date: sql(start),
        end_date: sql(end),
      });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(typeof res.data.id, 'number');
      assert.equal(res.data.title, 'An event');
      assert.equal(res.data.description, '<p>An event content</p>');
      assert.equal(res.data.excerpt, '<p>An event excerpt</p>');
      assert.equal(res.data.start_date, sql(start));
      assert.equal(res.data.end_date, sql(end));
      assert.equal(res.data.utc_start_date, utcOf(start));
      assert.equal(res.data.utc_end_date, utcOf(end));
      assert.equal(res.data.timezone, SITE_ZONE);
      assert.equal(res.data.author, String(admin.id));
      assert.equal(res.data.status, 'publish');
      assert.equal(res.data.json_ld, undefined);
    });

    for (const [startText, endText, startOf, endOf] of [
      ['tomorrow 9am', 'tomorrow 11am', () => tomorrowAt(SITE_ZONE, 9), () => tomorrowAt(SITE_ZONE, 11)],
      ['tomorrow 11am', 'tomorrow 1pm', () => tomorrowAt(SITE_ZONE, 11), () => tomorrowAt(SITE_ZONE, 13)],
      [
        'next wednesday 4pm',
        'next wednesday 5pm',
        () => nextWednesdayAt(SITE_ZONE, 16),
        () => nextWednesdayAt(SITE_ZONE, 17),
      ],
    ] as const) {
      it(`reads natural-language dates "${startText}" / "${endText}" in the site zone (form body)`, async () => {
        const res = await postForm({ title: 'An event', start_date: startText, end_date: endText });
        assert.equal(res.statusCode, 201, res.body);
        assert.equal(res.data.start_date, sql(startOf()));
        assert.equal(res.data.end_date, sql(endOf()));
        assert.equal(res.data.utc_start_date, utcOf(startOf()));
        assert.equal(res.data.utc_end_date, utcOf(endOf()));
      });
    }

    for (const zone of ['America/New_York', 'UTC', 'Australia/Darwin', 'Pacific/Bougainville', 'Europe/Rome']) {
      it(`reads the dates in the event's own time zone ${zone}`, async () => {
        const res = await postForm({
          title: 'An event',
          start_date: 'next wednesday 4pm',
          end_date: 'next wednesday 5pm',
          timezone: zone,
        });
        assert.equal(res.statusCode, 201, res.body);
        assert.equal(res.data.timezone, zone);
        assert.equal(res.data.start_date, sql(nextWednesdayAt(zone, 16)));
        assert.equal(res.data.utc_start_date, utcOf(nextWednesdayAt(zone, 16)));
        assert.equal(res.data.utc_end_date, utcOf(nextWednesdayAt(zone, 17)));
      });
    }

    it('answers 400 when a required field is missing or bad (form and JSON)', async () => {
      for (const [field, value] of [
        ['title', undefined],
        ['title', ''],
        ['start_date', undefined],
        ['start_date', ''],
        ['start_date', 'not a strtotime parsable string'],
        ['end_date', undefined],
        ['end_date', ''],
        ['end_date', 'not a strtotime parsable string'],
      ] as const) {
        const params: Record<string, unknown> = { ...minimal };
        if (value === undefined) delete params[field];
        else params[field] = value;
        for (const res of [await postForm(params), await postJson(params)]) {
          assert.equal(res.statusCode, 400, `${field}=${String(value)}: ${res.body}`);
          assert.equal(
            res.data.code,
            value === undefined ? 'rest_missing_callback_param' : 'rest_invalid_param',
            `${field}=${String(value)}`,
          );
        }
      }
    });

    it("answers the original's body for an empty create: every missing field listed", async () => {
      const res = await postJson({});
      assert.equal(res.statusCode, 400);
      assert.deepEqual(res.data, {
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): title, start_date, end_date',
        data: { status: 400, params: ['title', 'start_date', 'end_date'] },
      });
    });

    it('answers 400 rest_invalid_param for bad optional values (form body)', async () => {
      for (const [field, value] of [
        ['author', 23456],
        ['author', ''],
        ['date', 'foo'],
        ['date_utc', 'foo'],
        ['website', 'foo'],
      ] as const) {
        const res = await postForm({ ...minimal, [field]: value });
        assert.equal(res.statusCode, 400, `${field}=${value}: ${res.body}`);
        assert.equal(res.data.code, 'rest_invalid_param');
        assert.ok(field in res.data.data.params, `${field} named in ${JSON.stringify(res.data.data.params)}`);
      }
    });

    it('lets an administrator set the event author (form body), answered as a numeric string', async () => {
      const author = await t.asUser('author');
      const res = await postForm({ ...minimal, author: author.id });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.data.author, String(author.id));
    });

    it('reads the post date in the site zone and date_utc in UTC', async () => {
      const local = await postForm({ ...minimal, date: 'tomorrow 9am' });
      assert.equal(local.statusCode, 201, local.body);
      assert.equal(local.data.date, sql(tomorrowAt(SITE_ZONE, 9)));
      assert.equal(local.data.date_utc, utcOf(tomorrowAt(SITE_ZONE, 9)));
      const utc = await postForm({ ...minimal, date_utc: 'tomorrow 9am' });
      assert.equal(utc.statusCode, 201, utc.body);
      assert.equal(utc.data.date_utc, sql(tomorrowAt('UTC', 9)));
    });

    for (const [key, value] of [
      ['url', 'http://example.com'],
      ['rest_url', 'http://example.com/api/some/path/event'],
      ['utc_start_date', 'foo'],
      ['utc_start_date_details', 'foo'],
      ['utc_end_date', 'foo'],
      ['utc_end_date_details', 'foo'],
      ['start_date_details', 'foo'],
      ['end_date_details', 'foo'],
      ['timezone_abbr', 'foo'],
      ['cost_details', 'foo'],
    ] as const) {
      it(`ignores the generated field ${key} sent in a form`, async () => {
        const res = await postForm({ ...minimal, date_utc: 'tomorrow 9am', [key]: value });
        assert.equal(res.statusCode, 201, res.body);
        assert.notDeepEqual(res.data[key], value);
      });
    }

    it('rounds an all-day event (all_day=1 in a form) to whole days, UTC from the site zone', async () => {
      const res = await postForm({
        title: 'An event',
        description: 'An event content',
        all_day: true,
        start_date: sql(tomorrowAt(SITE_ZONE, 9)),
        end_date: sql(tomorrowAt(SITE_ZONE, 11)),
      });
      assert.equal(res.statusCode, 201, res.body);
      const day = tomorrowAt(SITE_ZONE, 0);
      assert.equal(res.data.all_day, true);
      assert.equal(res.data.start_date, sql(day));
      assert.equal(res.data.end_date, sql(day.set({ hour: 23, minute: 59, second: 59 })));
      assert.equal(res.data.utc_start_date, utcOf(day));
      assert.equal(res.data.utc_end_date, utcOf(day.set({ hour: 23, minute: 59, second: 59 })));
    });

    it('accepts a multi-day all-day event ("+5 days 11am")', async () => {
      const res = await postForm({
        title: 'An event',
        all_day: true,
        start_date: 'tomorrow 9am',
        end_date: '+5 days 11am',
      });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.data.start_date, sql(tomorrowAt(SITE_ZONE, 0)));
      assert.equal(res.data.end_date, sql(tomorrowAt(SITE_ZONE, 23, 5).set({ minute: 59, second: 59 })));
    });

    it('answers 400 for an image that is neither a known image id nor a URL', async () => {
      for (const image of ['foo bar', '23456']) {
        const res = await postForm({ ...minimal, all_day: true, image });
        assert.equal(res.statusCode, 400, `${image}: ${res.body}`);
        assert.equal(res.data.code, 'rest_invalid_param');
      }
      const venue = await t.request({
        method: 'POST',
        url: `${NS}/venues`,
        auth: admin.authorization,
        payload: { venue: 'Not an image' },
      });
      const notImage = await postForm({ ...minimal, image: venue.data.id });
      assert.equal(notImage.statusCode, 400, notImage.body);
    });

    it('sets the image by URL, then by the id it was given (form body)', async () => {
      const url = 'http://example.localhost/wp-content/uploads/featured-image.jpg';
      const byUrl = await postForm({ ...minimal, image: url });
      assert.equal(byUrl.statusCode, 201, byUrl.body);
      assert.equal(byUrl.data.image.url, url);
      assert.equal(byUrl.data.image.extension, 'jpg');
      assert.equal(typeof byUrl.data.image.id, 'number');
      const byId = await postForm({ ...minimal, image: byUrl.data.image.id });
      assert.equal(byId.statusCode, 201, byId.body);
      assert.equal(byId.data.image.id, byUrl.data.image.id);
    });

    it('parses a cost string with its currency symbol after the number', async () => {
      const res = await postForm({ ...minimal, all_day: true, cost: '20$' });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.data.cost, '20$');
      assert.deepEqual(res.data.cost_details, {
        currency_symbol: '$',
        currency_code: '',
        currency_position: 'postfix',
        values: ['20'],
      });
    });

    it('parses a cost with its currency symbol before the number, and keeps it on an update without cost', async () => {
      const res = await postJson({ ...minimal, cost: '$23' });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.data.cost, '$23');
      assert.deepEqual(res.data.cost_details, {
        currency_symbol: '$',
        currency_code: '',
        currency_position: 'prefix',
        values: ['23'],
      });
      const kept = await t.request({
        method: 'PATCH',
        url: `${EVENTS}/${res.data.id}`,
        auth: admin.authorization,
        payload: { title: 'Renamed' },
      });
      assert.deepEqual(kept.data.cost_details, res.data.cost_details);
      const mixed = await postJson({ ...minimal, cost: ['20¥', '30$'] });
      assert.deepEqual([mixed.data.cost_details.currency_symbol, mixed.data.cost_details.currency_position], ['', '']);
      const plain = await postJson({ ...minimal, cost: 15 });
      assert.equal(plain.data.cost, '$15');
      assert.deepEqual(plain.data.cost_details, {
        currency_symbol: '',
        currency_code: '',
        currency_position: '',
        values: ['15'],
      });
    });

    it('parses a cost sent as a PHP array (cost[0]=0$&cost[1]=20$…)', async () => {
      const res = await postForm({ ...minimal, all_day: true, cost: ['0$', '20$', '30$'] });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.data.cost, 'Free – 30$');
      assert.deepEqual(res.data.cost_details, {
        currency_symbol: '$',
        currency_code: '',
        currency_position: 'postfix',
        values: ['0', '20', '30'],
      });
    });

    it('sets the website, and falls back to the permalink when none is sent', async () => {
      const given = await postForm({ ...minimal, website: 'http://example.com' });
      assert.equal(given.data.website, 'http://example.com');
      const none = await postForm(minimal);
      assert.equal(none.data.website, none.data.url);
    });

    for (const flag of ['show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured']) {
      it(`sets the presentation flag ${flag} from a form value of 1`, async () => {
        const res = await postForm({ ...minimal, [flag]: true }, editor.authorization);
        assert.equal(res.statusCode, 201, res.body);
        assert.equal(res.data[flag], true);
      });
    }

    it('scales back statuses for contributors and keeps them for publishers', async () => {
      const contributor = await t.asUser('contributor');
      assert.equal(
        (await postForm({ ...minimal, status: 'publish' }, contributor.authorization)).data.status,
        'pending',
      );
      assert.equal(
        (await postForm({ ...minimal, status: 'future' }, contributor.authorization)).data.status,
        'pending',
      );
      assert.equal((await postForm({ ...minimal, status: 'draft' }, contributor.authorization)).data.status, 'draft');
      assert.equal((await postForm(minimal, contributor.authorization)).data.status, 'draft');
      for (const role of ['administrator', 'editor', 'author'] as const) {
        const user = await t.asUser(role);
        const res = await postForm({ ...minimal, status: 'publish' }, user.authorization);
        assert.equal(res.statusCode, 201, res.body);
        assert.equal(res.data.status, 'publish', role);
      }
    });

    it('validates every parameter before the permission check: 400, not 401/403, for bad values', async () => {
      const subscriber = await t.asUser('subscriber');
      for (const [field, value] of [
        ['start_date', 'not a strtotime parsable string'],
        ['end_date', 'foo'],
        ['website', 'foo'],
        ['author', 23456],
        ['date', 'foo'],
        ['date_utc', 'foo'],
        ['status', 'nope'],
        ['image', 'foo bar'],
        ['venue', 23456],
        ['organizer', [23456]],
      ] as const) {
        for (const [who, auth] of [
          ['anonymous', null],
          ['subscriber', subscriber.authorization],
        ] as const) {
          const res = await postForm({ ...minimal, [field]: value }, auth);
          assert.equal(res.statusCode, 400, `${who} ${field}=${String(value)}: ${res.body}`);
          assert.equal(res.data.code, 'rest_invalid_param');
        }
      }
      const created = await postJson(minimal);
      for (const [field, value] of [
        ['start_date', 'foo'],
        ['website', 'foo'],
        ['author', 23456],
        ['status', 'nope'],
      ] as const) {
        const res = await t.request({
          method: 'POST',
          url: `${EVENTS}/${created.data.id}`,
          headers: FORM,
          payload: phpForm({ [field]: value }),
        });
        assert.equal(res.statusCode, 400, `anonymous update ${field}=${value}: ${res.body}`);
        assert.equal(res.data.code, 'rest_invalid_param');
      }
    });

    it('accepts a multipart/form-data body, as WordPress does', async () => {
      const boundary = '----conformanceBoundary';
      const fields: [string, string][] = [
        ['title', 'Multipart event'],
        ['start_date', '2031-02-02 10:00:00'],
        ['end_date', '2031-02-02 11:00:00'],
        ['venue[venue]', 'Multipart venue'],
        ['organizer[0][organizer]', 'Multipart organizer'],
        ['featured', '1'],
      ];
      const payload =
        fields
          .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
          .join('') + `--${boundary}--\r\n`;
      const res = await t.request({
        method: 'POST',
        url: EVENTS,
        auth: admin.authorization,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.data.title, 'Multipart event');
      assert.equal(res.data.venue.venue, 'Multipart venue');
      assert.equal(res.data.organizer[0].organizer, 'Multipart organizer');
      assert.equal(res.data.featured, true);
    });

    it('answers 401 rest_forbidden to an anonymous create, 403 to a subscriber', async () => {
      const anonymous = await postForm(minimal, null);
      assert.equal(anonymous.statusCode, 401);
      assert.deepEqual(anonymous.data, {
        code: 'rest_forbidden',
        message: 'Sorry, you are not allowed to do that.',
        data: { status: 401 },
      });
      const subscriber = await t.asUser('subscriber');
      const refused = await postForm(minimal, subscriber.authorization);
      assert.equal(refused.statusCode, 403);
      assert.equal(refused.data.code, 'rest_forbidden');
    });

    it('links an existing venue by id and creates an inline venue from venue[venue]=…', async () => {
      const venue = await t.request({
        method: 'POST',
        url: `${NS}/venues`,
        auth: admin.authorization,
        payload: { venue: 'Existing venue' },
      });
      const byId = await postForm({ ...minimal, venue: venue.data.id });
      assert.equal(byId.statusCode, 201, byId.body);
      assert.equal(byId.data.venue.id, venue.data.id);
      const byObjectId = await postForm({ ...minimal, venue: { id: venue.data.id } });
      assert.equal(byObjectId.statusCode, 201, byObjectId.body);
      assert.equal(byObjectId.data.venue.id, venue.data.id);
      const inline = await postForm({ ...minimal, venue: { venue: 'A form venue', city: 'Paris', show_map: 'false' } });
      assert.equal(inline.statusCode, 201, inline.body);
      assert.equal(typeof inline.data.venue.id, 'number');
      assert.equal(inline.data.venue.venue, 'A form venue');
      assert.equal(inline.data.venue.city, 'Paris');
      assert.equal(inline.data.venue.show_map, false);
    });

    it('links organizers by id, by a PHP list of ids (in order), and creates them from organizer[0][organizer]=…', async () => {
      const mk = async (name: string) =>
        (
          await t.request({
            method: 'POST',
            url: `${NS}/organizers`,
            auth: admin.authorization,
            payload: { organizer: name },
          })
        ).data.id as number;
      const o1 = await mk('First organizer');
      const o2 = await mk('Second organizer');
      const one = await postForm({ ...minimal, organizer: o1 });
      assert.equal(one.statusCode, 201, one.body);
      assert.deepEqual(
        one.data.organizer.map((o: { id: number }) => o.id),
        [o1],
      );
      const two = await postForm({ ...minimal, organizer: [o2, o1] });
      assert.deepEqual(
        two.data.organizer.map((o: { id: number }) => o.id),
        [o2, o1],
      );
      const created = await postForm({
        ...minimal,
        organizer: [{ organizer: 'Organizer A' }, { organizer: 'Organizer B' }, { organizer: 'Organizer C' }],
      });
      assert.equal(created.statusCode, 201, created.body);
      assert.deepEqual(
        created.data.organizer.map((o: { organizer: string }) => o.organizer),
        ['Organizer A', 'Organizer B', 'Organizer C'],
      );
      const mixed = await postForm({
        ...minimal,
        organizer: [{ organizer: 'Organizer D' }, { id: o1 }, { id: o2 }, { organizer: 'Organizer E' }],
      });
      assert.equal(mixed.statusCode, 201, mixed.body);
      assert.equal(mixed.data.organizer.length, 4);
      assert.deepEqual(mixed.data.organizer.map((o: { id: number }) => o.id).slice(1, 3), [o1, o2]);
    });

    it('sets the images of linked records created with the event (form body)', async () => {
      const [a, b, c] = ['a', 'b', 'c'].map((x) => `http://example.localhost/wp-content/uploads/linked-${x}.jpg`);
      const res = await postForm({
        ...minimal,
        venue: { venue: 'A venue with image', image: a },
        organizer: [
          { organizer: 'Organizer with image A', image: b },
          { organizer: 'Organizer with image C', image: c },
        ],
      });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.data.venue.image.url, a);
      assert.equal(res.data.organizer[0].image.url, b);
      assert.equal(res.data.organizer[1].image.url, c);
    });

    it('assigns categories and tags by id, creates them by name, from PHP arrays and CSV', async () => {
      const cat1 = await t.request({
        method: 'POST',
        url: `${NS}/categories`,
        auth: admin.authorization,
        payload: { name: 'cat1' },
      });
      const tag1 = await t.request({
        method: 'POST',
        url: `${NS}/tags`,
        auth: admin.authorization,
        payload: { name: 'tag1' },
      });
      const mixed = await postForm({ ...minimal, categories: [cat1.data.id, 'cat2'], tags: [tag1.data.id, 'tag2'] });
      assert.equal(mixed.statusCode, 201, mixed.body);
      assert.deepEqual(
        mixed.data.categories.map((c: { name: string }) => c.name),
        ['cat1', 'cat2'],
      );
      assert.equal(mixed.data.categories[0].id, cat1.data.id);
      assert.deepEqual(
        mixed.data.tags.map((c: { name: string }) => c.name),
        ['tag1', 'tag2'],
      );
      assert.equal(mixed.data.tags[0].id, tag1.data.id);
      const csv = await postForm({ ...minimal, categories: 'cat3,cat4', tags: 'tag3,tag4' });
      assert.equal(csv.statusCode, 201, csv.body);
      assert.deepEqual(
        csv.data.categories.map((c: { name: string }) => c.name),
        ['cat3', 'cat4'],
      );
      assert.deepEqual(
        csv.data.tags.map((c: { name: string }) => c.name),
        ['tag3', 'tag4'],
      );
      const unknownId = await postForm({ ...minimal, categories: [999999, cat1.data.id] });
      assert.equal(unknownId.statusCode, 201, unknownId.body);
      assert.deepEqual(
        unknownId.data.categories.map((c: { id: number }) => c.id),
        [cat1.data.id],
      );
    });
  });

  describe(`conformance: event update and authorization (EventUpdateCest, AuthorizationCest) [${backend}]`, () => {
    let t: TestApp;
    let admin: User;
    let editor: User;
    before(async () => ({ t, admin, editor } = await siteApp(backend)));
    after(() => t.close());

    const haveEvent = async (extra: Record<string, unknown> = {}, auth = admin.authorization): Promise<number> => {
      const res = await t.request({
        method: 'POST',
        url: EVENTS,
        auth,
        payload: {
          title: 'Stored event',
          start_date: '2031-01-10 10:00:00',
          end_date: '2031-01-10 12:00:00',
          ...extra,
        },
      });
      assert.equal(res.statusCode, 201, res.body);
      return res.data.id;
    };
    // `null` means anonymous (an explicit undefined would pick the default).
    const send = (
      id: number | string,
      data: Record<string, unknown>,
      auth: string | null = admin.authorization,
      method: 'POST' | 'PUT' | 'PATCH' = 'POST',
    ) => t.request({ method, url: `${EVENTS}/${id}`, auth: auth ?? undefined, headers: FORM, payload: phpForm(data) });
    const base = {
      title: 'An event',
      description: 'An event content',
      start_date: 'tomorrow 9am',
      end_date: 'tomorrow 11am',
    };

    it('answers 401 to an anonymous update (POST and PUT), also of a draft', async () => {
      const id = await haveEvent();
      for (const method of ['POST', 'PUT', 'PATCH'] as const) {
        const res = await send(id, { ...base, excerpt: 'An event excerpt' }, null, method);
        assert.equal(res.statusCode, 401, `${method}: ${res.body}`);
        assert.equal(res.data.code, 'rest_forbidden');
      }
      const contributor = await t.asUser('contributor');
      const draft = await haveEvent({ status: 'draft' }, contributor.authorization);
      assert.equal((await send(draft, { title: 'Tampered Draft' }, null, 'PUT')).statusCode, 401);
    });

    it('updates an event from a form body (POST, PUT, PATCH), with the slug', async () => {
      const id = await haveEvent();
      const start = tomorrowAt(SITE_ZONE, 9);
      const end = tomorrowAt(SITE_ZONE, 11);
      for (const method of ['POST', 'PUT', 'PATCH'] as const) {
        const slug = `an-interesting-event-${method.toLowerCase()}`;
        const res = await send(
          id,
          {
            title: 'An event',
            slug,
            description: 'An event content',
            excerpt: 'An event excerpt',
            start_date: sql(start),
            end_date: sql(end),
          },
          admin.authorization,
          method,
        );
        assert.equal(res.statusCode, 200, `${method}: ${res.body}`);
        assert.equal(res.data.id, id);
        assert.equal(res.data.slug, slug);
        assert.equal(res.data.description, '<p>An event content</p>');
        assert.equal(res.data.excerpt, '<p>An event excerpt</p>');
        assert.equal(res.data.start_date, sql(start));
        assert.equal(res.data.utc_start_date, utcOf(start));
        assert.equal(res.data.utc_end_date, utcOf(end));
      }
    });

    it('moves the UTC dates when the time zone changes', async () => {
      const id = await haveEvent();
      const first = await send(id, {
        title: 'An event',
        start_date: 'next wednesday 4pm',
        end_date: 'next wednesday 5pm',
        timezone: 'Australia/Darwin',
      });
      assert.equal(first.statusCode, 200, first.body);
      assert.equal(first.data.timezone, 'Australia/Darwin');
      assert.equal(first.data.utc_start_date, utcOf(nextWednesdayAt('Australia/Darwin', 16)));
      const second = await send(id, {
        title: 'An event',
        start_date: 'next wednesday 4pm',
        end_date: 'next wednesday 5pm',
        timezone: 'Europe/Paris',
      });
      assert.equal(second.data.timezone, 'Europe/Paris');
      assert.equal(second.data.start_date, sql(nextWednesdayAt('Europe/Paris', 16)));
      assert.equal(second.data.utc_start_date, utcOf(nextWednesdayAt('Europe/Paris', 16)));
      assert.equal(second.data.utc_end_date, utcOf(nextWednesdayAt('Europe/Paris', 17)));
      const tzOnly = await send(id, { timezone: 'Asia/Tokyo' });
      assert.equal(tzOnly.data.start_date, sql(nextWednesdayAt('Europe/Paris', 16)));
      assert.equal(
        tzOnly.data.utc_start_date,
        sql(nextWednesdayAt('Europe/Paris', 16).setZone('Asia/Tokyo', { keepLocalTime: true }).toUTC()),
      );
      assert.equal(tzOnly.data.timezone_abbr, 'JST');
    });

    it('answers 200 to an update without a body, changing nothing', async () => {
      const id = await haveEvent();
      for (const method of ['POST', 'PUT', 'PATCH'] as const) {
        const res = await t.request({ method, url: `${EVENTS}/${id}`, auth: admin.authorization });
        assert.equal(res.statusCode, 200, `${method}: ${res.body}`);
        assert.equal(res.data.title, 'Stored event');
      }
    });

    it('reads write parameters from the query string too, as WordPress does (get_param)', async () => {
      const id = await haveEvent();
      const update = await t.request({
        method: 'POST',
        url: `${EVENTS}/${id}?title=From%20query&featured=1`,
        auth: admin.authorization,
      });
      assert.equal(update.statusCode, 200, update.body);
      assert.equal(update.data.title, 'From query');
      assert.equal(update.data.featured, true);
      const create = await t.request({
        method: 'POST',
        url: `${EVENTS}?title=Query%20event&start_date=2031-02-02%2010:00:00&end_date=2031-02-02%2011:00:00`,
        auth: admin.authorization,
      });
      assert.equal(create.statusCode, 201, create.body);
      assert.equal(create.data.title, 'Query event');
    });

    it('answers 404 rest-event-not-found for an unknown id (SPEC 15), before or after auth', async () => {
      const res = await send(2389999, {
        title: 'An event title',
        start_date: 'tomorrow 9am',
        end_date: 'tomorrow 11am',
      });
      assert.equal(res.statusCode, 404, res.body);
      assert.deepEqual(res.data, {
        code: 'rest-event-not-found',
        message: 'Event with ID 2389999 does not exist.',
        data: { status: 404 },
      });
    });

    it('answers 400 for bad optional values on update', async () => {
      const id = await haveEvent();
      for (const [field, value] of [
        ['author', 23456],
        ['author', ''],
        ['date', 'foo'],
        ['date_utc', 'foo'],
        ['website', 'foo'],
      ] as const) {
        const res = await send(id, {
          title: 'An event title',
          start_date: 'tomorrow 9am',
          end_date: 'tomorrow 11am',
          [field]: value,
        });
        assert.equal(res.statusCode, 400, `${field}=${value}: ${res.body}`);
        assert.equal(res.data.code, 'rest_invalid_param');
      }
      const unchanged = await t.request({ method: 'GET', url: `${EVENTS}/${id}` });
      assert.equal(unchanged.data.title, 'Stored event');
    });

    it('sets author, date and date_utc on update', async () => {
      const id = await haveEvent();
      const author = await t.asUser('author');
      const res = await send(id, { ...base, author: author.id, date: 'tomorrow 9am' });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.data.author, String(author.id));
      assert.equal(res.data.date, sql(tomorrowAt(SITE_ZONE, 9)));
      const utc = await send(id, { ...base, date_utc: 'tomorrow 9am' });
      assert.equal(utc.data.date_utc, sql(tomorrowAt('UTC', 9)));
    });

    it('ignores generated fields sent on update', async () => {
      const id = await haveEvent();
      for (const key of [
        'url',
        'rest_url',
        'utc_start_date',
        'utc_end_date_details',
        'start_date_details',
        'timezone_abbr',
        'cost_details',
      ]) {
        const res = await send(id, { ...base, date_utc: 'tomorrow 9am', [key]: 'foo' });
        assert.equal(res.statusCode, 200, `${key}: ${res.body}`);
        assert.notEqual(res.data[key], 'foo');
      }
    });

    it('makes an event all-day, one day and several days', async () => {
      const id = await haveEvent();
      const one = await send(id, {
        ...base,
        all_day: true,
        start_date: sql(tomorrowAt(SITE_ZONE, 9)),
        end_date: sql(tomorrowAt(SITE_ZONE, 11)),
      });
      assert.equal(one.statusCode, 200, one.body);
      assert.equal(one.data.all_day, true);
      assert.equal(one.data.start_date, sql(tomorrowAt(SITE_ZONE, 0)));
      assert.equal(one.data.utc_end_date, utcOf(tomorrowAt(SITE_ZONE, 23).set({ minute: 59, second: 59 })));
      const multi = await send(id, { ...base, all_day: true, end_date: '+5 days 11am' });
      assert.equal(multi.data.end_date, sql(tomorrowAt(SITE_ZONE, 23, 5).set({ minute: 59, second: 59 })));
    });

    it('answers 400 for a bad image on update and sets one by URL', async () => {
      const id = await haveEvent();
      for (const image of ['foo bar', '23456'])
        assert.equal((await send(id, { ...base, image })).statusCode, 400, image);
      const url = 'http://example.localhost/wp-content/uploads/update-image.jpg';
      const res = await send(id, { ...base, image: url });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.data.image.url, url);
    });

    it('sets cost (string and PHP array) and website on update', async () => {
      const id = await haveEvent();
      const str = await send(id, { ...base, cost: '20$' });
      assert.equal(str.data.cost, '20$');
      assert.deepEqual(str.data.cost_details, {
        currency_symbol: '$',
        currency_code: '',
        currency_position: 'postfix',
        values: ['20'],
      });
      const arr = await send(id, { ...base, cost: ['0$', '20$', '30$'] });
      assert.equal(arr.data.cost, 'Free – 30$');
      assert.deepEqual(arr.data.cost_details.values, ['0', '20', '30']);
      const site = await send(id, { ...base, website: 'http://example.com' });
      assert.equal(site.data.website, 'http://example.com');
    });

    for (const flag of ['show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured']) {
      it(`lets an editor (others' event) and an author (own event) set ${flag} from a form`, async () => {
        const others = await haveEvent();
        const byEditor = await send(others, { ...base, [flag]: true }, editor.authorization);
        assert.equal(byEditor.statusCode, 200, byEditor.body);
        assert.equal(byEditor.data[flag], true);
        const author = await t.asUser('author');
        const own = await haveEvent({}, author.authorization);
        const byAuthor = await send(own, { ...base, [flag]: 'true' }, author.authorization);
        assert.equal(byAuthor.statusCode, 200, byAuthor.body);
        assert.equal(byAuthor.data[flag], true);
      });
    }

    it("scales a contributor's publish back to pending on their own draft; publishers publish", async () => {
      const contributor = await t.asUser('contributor');
      const draft = await haveEvent({}, contributor.authorization);
      const res = await send(draft, { ...base, status: 'publish' }, contributor.authorization);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.data.status, 'pending');
      for (const role of ['administrator', 'editor'] as const) {
        const user = await t.asUser(role);
        const id = await haveEvent({ status: 'draft' });
        const published = await send(id, { ...base, status: 'publish' }, user.authorization);
        assert.equal(published.data.status, 'publish', role);
      }
      const author = await t.asUser('author');
      const own = await haveEvent({ status: 'draft' }, author.authorization);
      assert.equal((await send(own, { ...base, status: 'publish' }, author.authorization)).data.status, 'publish');
    });

    it('applies the per-event permissions of AuthorizationCest (PUT with a form, DELETE with ?force=1)', async () => {
      const contributor = await t.asUser('contributor');
      const adminEvent = await haveEvent({ title: 'Admin Event' });
      assert.equal(
        (await send(adminEvent, { title: 'Hacked Title' }, contributor.authorization, 'PUT')).statusCode,
        403,
      );
      assert.equal(
        (await t.request({ method: 'DELETE', url: `${EVENTS}/${adminEvent}?force=1`, auth: contributor.authorization }))
          .statusCode,
        403,
      );
      const ownPublished = await haveEvent({ title: 'Contributor Event', author: contributor.id });
      assert.equal(
        (await send(ownPublished, { title: 'Updated Title' }, contributor.authorization, 'PUT')).statusCode,
        403,
      );
      assert.equal(
        (
          await t.request({
            method: 'DELETE',
            url: `${EVENTS}/${ownPublished}?force=1`,
            auth: contributor.authorization,
          })
        ).statusCode,
        403,
      );
      const ownDraft = await haveEvent({ title: 'Draft Contributor Event' }, contributor.authorization);
      const edited = await send(ownDraft, { title: 'Updated Draft Title' }, contributor.authorization, 'PUT');
      assert.equal(edited.statusCode, 200, edited.body);
      const deleted = await t.request({
        method: 'DELETE',
        url: `${EVENTS}/${ownDraft}?force=1`,
        auth: contributor.authorization,
      });
      assert.equal(deleted.statusCode, 200, deleted.body);
      assert.equal(deleted.data.status, 'trash');
      const another = await haveEvent({ title: 'Admin Event 2' });
      assert.equal((await send(another, { title: 'Edited by Editor' }, editor.authorization, 'PUT')).statusCode, 200);
      const byEditor = await t.request({
        method: 'DELETE',
        url: `${EVENTS}/${another}?force=1`,
        auth: editor.authorization,
      });
      assert.equal(byEditor.statusCode, 200);
      assert.equal((await t.request({ method: 'DELETE', url: `${EVENTS}/${adminEvent}?force=1` })).statusCode, 401);
      const author = await t.asUser('author');
      assert.equal(
        (await send(adminEvent, { title: 'By another author' }, author.authorization, 'PUT')).statusCode,
        403,
      );
    });

    it('links venue and organizers on update from form bodies', async () => {
      const id = await haveEvent();
      const venue = await t.request({
        method: 'POST',
        url: `${NS}/venues`,
        auth: admin.authorization,
        payload: { venue: 'Update venue' },
      });
      const byId = await send(id, { ...base, venue: venue.data.id });
      assert.equal(byId.statusCode, 200, byId.body);
      assert.equal(byId.data.venue.id, venue.data.id);
      const inline = await send(id, { ...base, venue: { venue: 'A venue' } });
      assert.equal(inline.statusCode, 200, inline.body);
      assert.equal(typeof inline.data.venue.id, 'number');
      assert.notEqual(inline.data.venue.id, venue.data.id);
      const mk = async (name: string) =>
        (
          await t.request({
            method: 'POST',
            url: `${NS}/organizers`,
            auth: admin.authorization,
            payload: { organizer: name },
          })
        ).data.id as number;
      const o1 = await mk('Update organizer 1');
      const o2 = await mk('Update organizer 2');
      assert.deepEqual(
        (await send(id, { ...base, organizer: o1 })).data.organizer.map((o: { id: number }) => o.id),
        [o1],
      );
      assert.deepEqual(
        (await send(id, { ...base, organizer: [o1, o2] })).data.organizer.map((o: { id: number }) => o.id),
        [o1, o2],
      );
      const created = await send(id, { ...base, organizer: [{ organizer: 'Organizer A' }] });
      assert.equal(created.data.organizer.length, 1);
      assert.equal(typeof created.data.organizer[0].id, 'number');
      const mixed = await send(id, {
        ...base,
        organizer: [{ organizer: 'Organizer A' }, { id: o1 }, { id: o2 }, { organizer: 'Organizer C' }],
      });
      assert.equal(mixed.data.organizer.length, 4);
      const ids = mixed.data.organizer.map((o: { id: number }) => o.id);
      assert.ok(ids.includes(o1) && ids.includes(o2));
      const removed = await send(id, { venue: '', organizer: '' });
      assert.equal(removed.statusCode, 200, removed.body);
      assert.deepEqual([removed.data.venue, removed.data.organizer], [[], []]);
    });

    it('assigns categories and tags on update (PHP arrays of ids, CSV of names, mixed)', async () => {
      const id = await haveEvent();
      const c1 = await t.request({
        method: 'POST',
        url: `${NS}/categories`,
        auth: admin.authorization,
        payload: { name: 'ucat1' },
      });
      const c2 = await t.request({
        method: 'POST',
        url: `${NS}/categories`,
        auth: admin.authorization,
        payload: { name: 'ucat2' },
      });
      const byIds = await send(id, { ...base, categories: [c1.data.id, c2.data.id] });
      assert.deepEqual(
        byIds.data.categories.map((c: { id: number }) => c.id),
        [c1.data.id, c2.data.id],
      );
      const csv = await send(id, { ...base, tags: 'utag1,utag2' });
      assert.equal(csv.data.tags.length, 2);
      const mixed = await send(id, { ...base, categories: [c1.data.id, 'ucat3'] });
      assert.equal(mixed.data.categories.length, 2);
      assert.equal(mixed.data.categories[0].id, c1.data.id);
      const none = await send(id, { categories: '' });
      assert.deepEqual(none.data.categories, []);
      assert.equal(none.data.tags.length, 2);
    });
  });

  describe(`conformance: single event and deletion (SingleEventCest, SingleEventSlugCest, EventDeletionCest) [${backend}]`, () => {
    let t: TestApp;
    let admin: User;

    before(async () => {
      t = await createTestApp(backend);
      admin = await t.asUser('administrator');
    });
    after(() => t.close());

    it('answers 404 rest_no_route for /events/by-slug/ and /events/foo, and 404 rest-event-not-found for id 0 and unknown slugs', async () => {
      const emptySlug = await t.request({ method: 'GET', url: `${EVENTS}/by-slug/` });
      assert.equal(emptySlug.statusCode, 404);
      assert.equal(emptySlug.data.code, 'rest_no_route');
      for (const method of ['GET', 'DELETE'] as const) {
        const foo = await t.request({ method, url: `${EVENTS}/foo`, auth: admin.authorization });
        assert.equal(foo.statusCode, 404, `${method} /events/foo: ${foo.body}`);
        assert.equal(foo.data.code, 'rest_no_route');
      }
      const zero = await t.request({ method: 'GET', url: `${EVENTS}/0` });
      assert.equal(zero.statusCode, 404);
      assert.equal(zero.data.code, 'rest-event-not-found');
      const slug = await t.request({ method: 'GET', url: `${EVENTS}/by-slug/non-existing-event` });
      assert.equal(slug.statusCode, 404);
      assert.equal(slug.data.code, 'rest-event-not-found');
      const deleteUnknown = await t.request({ method: 'DELETE', url: `${EVENTS}/23456`, auth: admin.authorization });
      assert.equal(deleteUnknown.statusCode, 404);
      assert.equal(deleteUnknown.data.code, 'rest-event-not-found');
    });

    it('answers 403 event-not-accessible for a draft read anonymously, by id and by slug', async () => {
      const draft = await t.request({
        method: 'POST',
        url: EVENTS,
        auth: admin.authorization,
        payload: {
          title: 'Draft to hide',
          slug: 'draft-to-hide',
          status: 'draft',
          start_date: '2031-01-05 14:23:36',
          end_date: '2031-01-05 16:23:36',
        },
      });
      assert.equal(draft.statusCode, 201, draft.body);
      for (const url of [`${EVENTS}/${draft.data.id}`, `${EVENTS}/by-slug/draft-to-hide`]) {
        const res = await t.request({ method: 'GET', url });
        assert.equal(res.statusCode, 403, url);
        assert.equal(res.data.code, 'event-not-accessible');
      }
    });

    it('answers the full event data by id and by slug, with venue, organizer, terms and json_ld', async () => {
      const author = await t.asUser('author');
      const image = 'http://example.localhost/wp-content/uploads/images/image.png';
      const venue = await t.request({
        method: 'POST',
        url: `${NS}/venues`,
        auth: author.authorization,
        payload: {
          venue: 'Venue 01',
          slug: 'venue-01',
          description: 'Venue 01 description',
          excerpt: 'Venue 01 excerpt',
          address: 'address',
          city: 'city',
          country: 'country',
          province: 'province',
          state: 'state',
          zip: 'zip',
          phone: 'phone',
          website: 'http://venue.example.com',
          stateprovince: 'state_province',
          date: '2017-01-05 14:23:36',
        },
      });
      assert.equal(venue.statusCode, 201, venue.body);
      const organizer = await t.request({
        method: 'POST',
        url: `${NS}/organizers`,
        auth: author.authorization,
        payload: {
          organizer: 'Organizer 01',
          slug: 'organizer-01',
          description: 'Organizer 01 description',
          excerpt: 'Organizer 01 excerpt',
          phone: 'phone',
          website: 'http://org.example.com',
          email: 'org@example.com',
          date: '2017-01-05 14:23:36',
        },
      });
      assert.equal(organizer.statusCode, 201, organizer.body);
      for (const [route, name] of [
        ['tags', 'tag-1'],
        ['tags', 'tag-2'],
        ['categories', 'category-1'],
        ['categories', 'category-2'],
      ]) {
        const res = await t.request({
          method: 'POST',
          url: `${NS}/${route}`,
          auth: admin.authorization,
          payload: { name, description: `${name} description` },
        });
        assert.equal(res.statusCode, 201, res.body);
      }
      const created = await t.request({
        method: 'POST',
        url: EVENTS,
        auth: author.authorization,
        payload: {
          title: 'Event 01',
          slug: 'event-01',
          description: 'Event 01 description',
          excerpt: 'Event 01 excerpt',
          date: '2017-01-05 14:23:36',
          start_date: '2017-01-05 14:23:36',
          end_date: '2017-01-05 16:23:36',
          timezone: 'America/New_York',
          image,
          cost: '$23',
          website: 'http://tri.be',
          show_map: true,
          show_map_link: true,
          venue: venue.data.id,
          organizer: [organizer.data.id],
          tags: ['tag-2', 'tag-1'],
          categories: ['category-2', 'category-1'],
        },
      });
      assert.equal(created.statusCode, 201, created.body);
      const id = created.data.id;
      for (const url of [`${EVENTS}/${id}`, `${EVENTS}/by-slug/event-01`]) {
        const res = await t.request({ method: 'GET', url });
        assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
        const e = res.data;
        assert.equal(e.id, id);
        assert.equal(e.author, String(author.id));
        assert.equal(e.date, '2017-01-05 14:23:36');
        assert.equal(e.status, 'publish');
        assert.equal(e.url, 'http://localhost:80/event/event-01/');
        assert.equal(e.rest_url, `http://localhost:80${EVENTS}/${id}`);
        assert.equal(e.title, 'Event 01');
        assert.equal(e.description, '<p>Event 01 description</p>');
        assert.equal(e.excerpt, '<p>Event 01 excerpt</p>');
        assert.equal(e.image.url, image);
        assert.equal(e.start_date, '2017-01-05 14:23:36');
        assert.deepEqual(e.start_date_details, {
          year: '2017',
          month: '01',
          day: '05',
          hour: '14',
          minutes: '23',
          seconds: '36',
        });
        assert.deepEqual(e.end_date_details, {
          year: '2017',
          month: '01',
          day: '05',
          hour: '16',
          minutes: '23',
          seconds: '36',
        });
        assert.equal(e.utc_start_date, '2017-01-05 19:23:36');
        assert.deepEqual(e.utc_end_date_details, {
          year: '2017',
          month: '01',
          day: '05',
          hour: '21',
          minutes: '23',
          seconds: '36',
        });
        assert.equal(e.timezone, 'America/New_York');
        assert.equal(e.timezone_abbr, 'EST');
        assert.equal(e.cost, '$23');
        assert.deepEqual(e.cost_details.values, ['23']);
        assert.equal(e.website, 'http://tri.be');
        assert.equal(e.show_map, true);
        assert.equal(e.show_map_link, true);
        const v = e.venue;
        assert.equal(v.id, venue.data.id);
        assert.equal(v.author, String(author.id));
        assert.equal(v.date, '2017-01-05 14:23:36');
        assert.equal(v.status, 'publish');
        assert.equal(v.url, 'http://localhost:80/venue/venue-01/');
        assert.deepEqual(
          [
            v.venue,
            v.description,
            v.excerpt,
            v.show_map,
            v.show_map_link,
            v.address,
            v.city,
            v.country,
            v.province,
            v.state,
            v.zip,
            v.phone,
            v.website,
            v.stateprovince,
          ],
          [
            'Venue 01',
            '<p>Venue 01 description</p>',
            '<p>Venue 01 excerpt</p>',
            true,
            true,
            'address',
            'city',
            'country',
            'province',
            'state',
            'zip',
            'phone',
            'http://venue.example.com',
            'state_province',
          ],
        );
        assert.ok(v.json_ld, 'the venue of a single read carries json_ld');
        assert.equal(e.organizer.length, 1);
        const o = e.organizer[0];
        assert.deepEqual(
          [o.id, o.author, o.status, o.url, o.organizer, o.description, o.excerpt, o.phone, o.website, o.email],
          [
            organizer.data.id,
            String(author.id),
            'publish',
            'http://localhost:80/organizer/organizer-01/',
            'Organizer 01',
            '<p>Organizer 01 description</p>',
            '<p>Organizer 01 excerpt</p>',
            'phone',
            'http://org.example.com',
            'org@example.com',
          ],
        );
        assert.deepEqual(
          e.tags.map((x: { name: string; slug: string; taxonomy: string; description: string }) => [
            x.name,
            x.slug,
            x.taxonomy,
            x.description,
          ]),
          [
            ['tag-1', 'tag-1', 'post_tag', 'tag-1 description'],
            ['tag-2', 'tag-2', 'post_tag', 'tag-2 description'],
          ],
        );
        assert.deepEqual(
          e.categories.map((x: { name: string; taxonomy: string }) => [x.name, x.taxonomy]),
          [
            ['category-1', 'cal_events_cat'],
            ['category-2', 'cal_events_cat'],
          ],
        );
        assert.equal(e.json_ld['@type'], 'Event');
      }
    });

    it('trashes on DELETE (200 with the record), then answers 410 event-is-in-trash, also by slug', async () => {
      const created = await t.request({
        method: 'POST',
        url: EVENTS,
        auth: admin.authorization,
        payload: { title: 'Delete me', start_date: '2031-01-05 14:23:36', end_date: '2031-01-05 16:23:36' },
      });
      const id = created.data.id;
      const subscriber = await t.asUser('subscriber');
      const refused = await t.request({ method: 'DELETE', url: `${EVENTS}/${id}`, auth: subscriber.authorization });
      assert.equal(refused.statusCode, 403);
      const first = await t.request({ method: 'DELETE', url: `${EVENTS}/${id}`, auth: admin.authorization });
      assert.equal(first.statusCode, 200);
      assert.equal(first.data.id, id);
      assert.equal(first.data.status, 'trash');
      assert.equal(first.data.json_ld, undefined);
      const again = await t.request({ method: 'DELETE', url: `${EVENTS}/${id}`, auth: admin.authorization });
      assert.equal(again.statusCode, 410);
      assert.equal(again.data.code, 'event-is-in-trash');
      const bySlug = await t.request({
        method: 'DELETE',
        url: `${EVENTS}/by-slug/delete-me`,
        auth: admin.authorization,
      });
      assert.equal(bySlug.statusCode, 410, bySlug.body);
    });
  });

  describe(`conformance: event archive (EventArchiveCest, EventBy*ArchiveCest) [${backend}]`, () => {
    let t: TestApp;
    let editor: User;
    const base = DateTime.utc().plus({ days: 2 }).startOf('day').set({ hour: 10 });

    before(async () => {
      t = await createTestApp(backend);
      editor = await t.asUser('editor');
    });
    after(() => t.close());

    /** Events starting `base + i * stepHours`, in insertion order. */
    const haveMany = async (
      n: number,
      extra: Record<string, unknown> = {},
      stepHours = 1,
      from = base,
    ): Promise<number[]> => {
      const ids: number[] = [];
      for (let i = 0; i < n; i++) {
        const start = from.plus({ hours: i * stepHours });
        const res = await t.request({
          method: 'POST',
          url: EVENTS,
          auth: editor.authorization,
          payload: { title: `Event ${i}`, start_date: sql(start), end_date: sql(start.plus({ hours: 1 })), ...extra },
        });
        assert.equal(res.statusCode, 201, res.body);
        ids.push(res.data.id);
      }
      return ids;
    };
    const get = (query: string, auth?: string) =>
      t.request({ method: 'GET', url: `${EVENTS}${query ? `?${query}` : ''}`, auth });
    const ids = (res: { data: { events: { id: number }[] } }) => res.data.events.map((e) => e.id);
    const trashAll = async () => {
      for (;;) {
        const all = await get(
          'status=publish,draft,pending,private,future&start_date=2000-01-01&end_date=2100-01-01&per_page=50',
          editor.authorization,
        );
        if (all.data.events.length === 0) return;
        for (const e of all.data.events)
          await t.request({ method: 'DELETE', url: `${EVENTS}/${e.id}`, auth: editor.authorization });
      }
    };

    it('answers an empty archive with 200, zero totals and headers, no links', async () => {
      const res = await get('');
      assert.equal(res.statusCode, 200);
      assert.deepEqual(res.data.events, []);
      assert.equal(res.data.total, 0);
      assert.equal(res.data.total_pages, 0);
      assert.equal(res.headers['x-cal-total'], '0');
      assert.equal(res.headers['x-cal-totalpages'], '0');
      assert.equal('next_rest_url' in res.data, false);
      assert.equal('previous_rest_url' in res.data, false);
    });

    it('rejects a page or per_page that is not a positive integer, and bad dates', async () => {
      for (const n of ['foo', '-1', '0', 'foo%20bar']) {
        for (const name of ['page', 'per_page']) {
          const res = await get(`${name}=${n}`);
          assert.equal(res.statusCode, 400, `${name}=${n}`);
          assert.equal(res.data.code, 'rest_invalid_param');
        }
      }
      const perPage = await get('per_page=0');
      assert.deepEqual(perPage.data.data.params, { per_page: perPage.data.data.params.per_page });
      for (const q of ['start_date=%22before%20my%20birthday%22', 'end_date=%22after%20my%20birthday%22'])
        assert.equal((await get(q)).statusCode, 400, q);
    });

    it('paginates: totals in data and headers, next/previous links, 404 past the end, per_page clamped to 50', async () => {
      const created = await haveMany(51);
      const first = await get('per_page=5');
      assert.equal(first.data.total, 51);
      assert.equal(first.data.total_pages, 11);
      assert.equal(first.headers['x-cal-total'], '51');
      assert.equal(first.headers['x-cal-totalpages'], '11');
      assert.deepEqual(ids(first), created.slice(0, 5));
      assert.match(first.data.next_rest_url, /[?&]page=2(&|$)/);
      const second = await get('per_page=5&page=2');
      assert.ok(second.data.previous_rest_url, 'previous link on page 2');
      assert.doesNotMatch(second.data.previous_rest_url, /[?&]page=/, 'page 2 links back to the archive root');
      const third = await get('per_page=5&page=3');
      assert.match(third.data.previous_rest_url, /[?&]page=2(&|$)/);
      assert.deepEqual(Object.keys(third.data), [
        'events',
        'rest_url',
        'next_rest_url',
        'previous_rest_url',
        'total',
        'total_pages',
      ]);
      const last = await get('per_page=5&page=11');
      assert.equal(last.data.events.length, 1);
      assert.equal('next_rest_url' in last.data, false);
      const past = await get('per_page=5&page=12');
      assert.equal(past.statusCode, 404);
      assert.equal(past.data.code, 'event-archive-page-not-found');
      const clamped = await get('per_page=100');
      assert.equal(clamped.statusCode, 200);
      assert.equal(clamped.data.events.length, 50);
      const all = await get('');
      assert.equal(all.data.events.length, 50, 'default per_page is 50');
      await trashAll();
    });

    it('narrows with start_date/end_date given as UNIX timestamps', async () => {
      // 10 events a week apart starting at base
      await haveMany(10, {}, 24 * 7);
      const after5 = await get(`start_date=${Math.floor(base.plus({ weeks: 5 }).toSeconds())}`);
      assert.equal(after5.data.total, 5);
      const until5 = await get(`end_date=${Math.floor(base.plus({ weeks: 5 }).toSeconds())}`);
      assert.equal(until5.data.total, 6);
      const window = await get(
        `start_date=${Math.floor(base.plus({ days: 10 }).toSeconds())}&end_date=${Math.floor(base.plus({ days: 30 }).toSeconds())}`,
      );
      assert.equal(window.data.total, 3);
      await trashAll();
    });

    it('searches titles (foo, bar, foo bar)', async () => {
      await haveMany(2, { title: 'foo' });
      await haveMany(2, { title: 'foo bar' });
      await haveMany(2, { title: 'bar' });
      const foo = await get('search=foo');
      const bar = await get('search=bar');
      assert.equal(foo.data.total, 4);
      assert.equal(bar.data.total, 4);
      assert.equal(ids(foo).filter((id) => ids(bar).includes(id)).length, 2);
      await trashAll();
    });

    it('filters by status as CSV with spaces and as a PHP array, in start order; 400 for unknown statuses and for readers', async () => {
      const published = await haveMany(3, { status: 'publish' });
      const draft = await haveMany(3, { status: 'draft' }, 1, base.plus({ days: 1 }));
      const pending = await haveMany(3, { status: 'pending' }, 1, base.plus({ days: 2 }));
      assert.deepEqual(ids(await get('status=publish', editor.authorization)), published);
      assert.deepEqual(ids(await get(`status=${encodeURIComponent('publish, draft')}`, editor.authorization)), [
        ...published,
        ...draft,
      ]);
      const arr = await get(phpForm({ status: ['publish', 'draft', 'pending'] }), editor.authorization);
      assert.equal(arr.statusCode, 200, arr.body);
      assert.deepEqual(ids(arr), [...published, ...draft, ...pending]);
      for (const bad of ['foo', 'foo, bar', 'foo, bar, publish', 'any']) {
        const res = await get(`status=${encodeURIComponent(bad)}`, editor.authorization);
        assert.equal(res.statusCode, 400, bad);
        assert.equal(res.data.code, 'rest_invalid_param');
      }
      assert.deepEqual(ids(await get('status=publish')), published);
      assert.equal((await get(`status=${encodeURIComponent('publish, draft')}`)).statusCode, 400);
      await trashAll();
    });

    it('filters by featured=1 / featured=0 (PHP booleans), drafts only for editors', async () => {
      const featured = await haveMany(3, { featured: true });
      const plain = await haveMany(3, {}, 1, base.plus({ days: 1 }));
      const featuredDrafts = await haveMany(3, { featured: true, status: 'draft' }, 1, base.plus({ days: 2 }));
      assert.deepEqual(ids(await get(phpForm({ featured: true }))), featured);
      assert.deepEqual(ids(await get(phpForm({ featured: false }))), plain);
      assert.deepEqual(ids(await get(phpForm({ featured: true }), editor.authorization)), [
        ...featured,
        ...featuredDrafts,
      ]);
      assert.deepEqual(ids(await get('')), [...featured, ...plain]);
      await trashAll();
    });

    it('filters by categories and tags given as PHP arrays, CSV of ids, with pagination', async () => {
      const missing = await get(phpForm({ categories: ['cat1'] }));
      assert.equal(missing.statusCode, 400);
      assert.equal((await get(phpForm({ tags: ['tag1'] }))).statusCode, 400);
      const inCat = await haveMany(4, { categories: ['cat1'] });
      await haveMany(4, {}, 1, base.plus({ days: 1 }));
      const byCat = await get(phpForm({ categories: ['cat1'] }));
      assert.deepEqual(ids(byCat), inCat);
      const page2 = await get(phpForm({ categories: ['cat1'], per_page: 3, page: 2 }));
      assert.equal(page2.statusCode, 200, page2.body);
      assert.equal(page2.data.events.length, 1);
      const tag1 = await haveMany(2, { tags: ['tag1'] }, 1, base.plus({ days: 2 }));
      const tag2 = await haveMany(2, { tags: ['tag2'] }, 1, base.plus({ days: 3 }));
      assert.deepEqual(ids(await get(phpForm({ tags: ['tag1', 'tag2'] }))), [...tag1, ...tag2]);
      const tagIds = (await t.request({ method: 'GET', url: `${NS}/tags?search=tag` })).data.tags.map(
        (x: { id: number }) => x.id,
      );
      assert.deepEqual(ids(await get(`tags=${tagIds.join(',')}`)), [...tag1, ...tag2]);
      await trashAll();
    });

    it('filters by venue (400 for non-numeric or unknown ids; drafts only for editors)', async () => {
      assert.equal((await get('venue=foo')).statusCode, 400);
      assert.equal((await get('venue=23456')).statusCode, 400);
      const venue = await t.request({
        method: 'POST',
        url: `${NS}/venues`,
        auth: editor.authorization,
        payload: { venue: 'Archive venue' },
      });
      const empty = await get(`venue=${venue.data.id}`);
      assert.equal(empty.statusCode, 200);
      assert.equal(empty.data.total, 0);
      const published = await haveMany(3, { venue: venue.data.id });
      assert.deepEqual(ids(await get(`venue=${venue.data.id}`)), published);
      await trashAll();
      const drafts = await haveMany(3, { venue: venue.data.id, status: 'draft' });
      assert.equal((await get(`venue=${venue.data.id}`)).data.total, 0);
      assert.deepEqual(ids(await get(`venue=${venue.data.id}`, editor.authorization)), drafts);
      await trashAll();
    });

    it('filters by several organizers (PHP array and CSV), OR-ed', async () => {
      const mk = async (name: string) =>
        (
          await t.request({
            method: 'POST',
            url: `${NS}/organizers`,
            auth: editor.authorization,
            payload: { organizer: name },
          })
        ).data.id as number;
      const [o1, o2, o3, o4] = [await mk('Org 1'), await mk('Org 2'), await mk('Org 3'), await mk('Org 4')];
      const e1 = await haveMany(3, { organizer: [o1] });
      const e2 = await haveMany(3, { organizer: [o2] }, 1, base.plus({ days: 1 }));
      const e3 = await haveMany(3, { organizer: [o3] }, 1, base.plus({ days: 2 }));
      await haveMany(3, {}, 1, base.plus({ days: 3 }));
      assert.deepEqual(ids(await get(phpForm({ organizer: [o1] }))), e1);
      assert.deepEqual(ids(await get(phpForm({ organizer: [o1, o2] }))), [...e1, ...e2]);
      assert.deepEqual(ids(await get(phpForm({ organizer: [o1, o2, o3, o4] }))), [...e1, ...e2, ...e3]);
      assert.deepEqual(ids(await get(`organizer=${o1}`)), e1);
      assert.deepEqual(ids(await get(`organizer=${[o1, o2, o3].join(',')}`)), [...e1, ...e2, ...e3]);
      await trashAll();
    });

    it('fetches events by include (PHP array and CSV; 400 when an item is not a positive integer)', async () => {
      assert.equal((await get('include=foo-bar,23,89')).statusCode, 400);
      assert.equal((await get(phpForm({ include: ['foo-bar', 23, 89] }))).statusCode, 400);
      const created = await haveMany(3);
      const singles = [];
      for (const id of created) {
        const { json_ld: _ignored, ...rest } = (await t.request({ method: 'GET', url: `${EVENTS}/${id}` })).data;
        singles.push(rest);
      }
      const arr = await get(phpForm({ include: created }));
      assert.equal(arr.statusCode, 200, arr.body);
      assert.equal(arr.data.total, 3);
      assert.deepEqual(arr.data.events, singles);
      const two = await get(`include=${created.slice(0, 2).join(',')}`);
      assert.equal(two.data.total, 2);
      assert.deepEqual(two.data.events, singles.slice(0, 2));
      await trashAll();
    });

    it('rejects post_parent that is not an existing event', async () => {
      assert.equal((await get('post_parent=foo-bar')).statusCode, 400);
      assert.equal((await get('post_parent=23456')).statusCode, 400);
    });
  });
}
