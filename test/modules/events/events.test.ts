import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';

const EVENTS = '/cal/events/v1/events';

const EVENT_KEYS = [
  'id',
  'global_id',
  'global_id_lineage',
  'author',
  'status',
  'date',
  'date_utc',
  'modified',
  'modified_utc',
  'url',
  'rest_url',
  'title',
  'description',
  'excerpt',
  'slug',
  'image',
  'all_day',
  'start_date',
  'start_date_details',
  'end_date',
  'end_date_details',
  'utc_start_date',
  'utc_start_date_details',
  'utc_end_date',
  'utc_end_date_details',
  'timezone',
  'timezone_abbr',
  'cost',
  'cost_details',
  'website',
  'show_map',
  'show_map_link',
  'hide_from_listings',
  'sticky',
  'featured',
  'categories',
  'tags',
  'venue',
  'organizer',
  'custom_fields',
];

for (const backend of backends()) {
  describe(`events by id and slug [${backend}]`, () => {
    let t: TestApp;
    let editor: { id: number; authorization: string };
    let admin: { id: number; authorization: string };

    before(async () => {
      t = await createTestApp(backend);
      editor = await t.asUser('editor');
      admin = await t.asUser('administrator');
    });
    after(() => t.close());

    const create = (payload: Record<string, unknown>, auth = editor.authorization) =>
      t.request({ method: 'POST', url: EVENTS, auth, payload });

    describe('POST /cal/events/v1/events', () => {
      it('should read the terms an event names in one statement, and its venue and organizers in one more', async () => {
        const first = await create({
          title: 'Names',
          start_date: '2031-03-01 10:00:00',
          end_date: '2031-03-01 11:00:00',
          categories: ['Named one', 'Named two'],
          tags: ['named-tag'],
          venue: { venue: 'Named venue' },
          organizer: [{ organizer: 'Named organizer' }],
        });
        assert.equal(first.statusCode, 201, first.body);
        const [one, two] = first.data.categories as { slug: string }[];
        let titles = 0;
        const statements = async (payload: Record<string, unknown>) => {
          // The fewest of three: a periodic read of the settings can fall into any one request. Each
          // title its own, so that each slug is free at the first look.
          const counts: number[] = [];
          for (let i = 0; i < 3; i += 1) {
            const { value, texts } = await t.queries.during(() =>
              create({
                title: `Counted ${String.fromCharCode(97 + (titles += 1))}`,
                start_date: '2031-03-02 10:00:00',
                end_date: '2031-03-02 11:00:00',
                ...payload,
              }),
            );
            assert.equal(value.statusCode, 201, value.body);
            counts.push(texts.length);
          }
          return Math.min(...counts);
        };
        const organizer = first.data.organizer[0].id;
        // Two terms and an organizer each time (a term's count is one more statement on SQLite).
        const plain = await statements({ categories: [one!.slug, two!.slug], organizer: [organizer] });
        const everything = await statements({
          categories: [one!.slug],
          tags: [first.data.tags[0].slug],
          venue: first.data.venue.id,
          organizer: [organizer],
        });
        assert.equal(everything, plain, `categories ${plain} statements; categories, tags and a venue ${everything}`);
      });

      it('should create an event with every field and answer the original shape', async () => {
        const res = await create({
          title: 'Golden Event',
          description: 'Golden description',
          excerpt: 'Golden excerpt',
          start_date: '2031-03-10 10:00:00',
          end_date: '2031-03-10 12:30:00',
          timezone: 'Europe/Paris',
          cost: 15,
          website: 'https://event.example.com',
          show_map: true,
          show_map_link: true,
          featured: true,
          categories: ['Golden Category'],
          tags: ['golden-tag'],
          venue: {
            venue: 'Golden Venue',
            address: '1 Rue de Rivoli',
            city: 'Paris',
            country: 'France',
            province: 'Ile-de-France',
            zip: '75001',
            phone: '+33 1 23 45 67 89',
            website: 'https://venue.example.com',
            show_map_link: false,
          },
          organizer: [
            {
              organizer: 'Golden Organizer',
              phone: '555-0100',
              website: 'https://org.example.com',
              email: 'org@example.com',
            },
          ],
        });
        assert.equal(res.statusCode, 201, res.body);
        const event = res.data;
        assert.deepEqual(Object.keys(event), [...EVENT_KEYS, 'i18n_language', 'translations']);
        assert.equal(event.author, String(editor.id));
        assert.equal(event.status, 'publish');
        assert.equal(event.global_id, `localhost?id=${event.id}`);
        assert.equal(event.url, 'http://localhost:80/event/golden-event/');
        assert.equal(event.rest_url, `http://localhost:80/cal/events/v1/events/${event.id}`);
        assert.equal(event.description, '<p>Golden description</p>');
        assert.equal(event.excerpt, '<p>Golden excerpt</p>');
        assert.equal(event.slug, 'golden-event');
        assert.equal(event.image, false);
        assert.equal(event.start_date, '2031-03-10 10:00:00');
        assert.deepEqual(event.start_date_details, {
          year: '2031',
          month: '03',
          day: '10',
          hour: '10',
          minutes: '00',
          seconds: '00',
        });
        assert.equal(event.utc_start_date, '2031-03-10 09:00:00');
        assert.equal(event.utc_end_date, '2031-03-10 11:30:00');
        assert.equal(event.timezone_abbr, 'CET');
        assert.equal(event.cost, '$15');
        assert.deepEqual(event.cost_details, {
          currency_symbol: '',
          currency_code: '',
          currency_position: '',
          values: ['15'],
        });
        assert.equal(event.website, 'https://event.example.com');
        assert.deepEqual(
          [event.show_map, event.show_map_link, event.hide_from_listings, event.sticky, event.featured],
          [true, true, false, false, true],
        );
        assert.equal(event.categories[0].name, 'Golden Category');
        assert.deepEqual(Object.keys(event.categories[0]).slice(0, 11), [
          'name',
          'slug',
          'term_group',
          'term_taxonomy_id',
          'taxonomy',
          'description',
          'parent',
          'count',
          'filter',
          'id',
          'urls',
        ]);
        assert.equal(event.categories[0].taxonomy, 'cal_events_cat');
        assert.equal(event.categories[0].count, 1);
        assert.equal(event.tags[0].slug, 'golden-tag');
        assert.equal(event.venue.venue, 'Golden Venue');
        assert.equal(event.venue.stateprovince, 'Ile-de-France');
        assert.equal(event.venue.show_map_link, false);
        assert.equal(event.venue.json_ld, undefined);
        assert.equal(event.organizer.length, 1);
        assert.equal(event.organizer[0].email, 'org@example.com');
        assert.deepEqual(event.custom_fields, []);
        assert.equal(event.json_ld, undefined);
        assert.equal(event.i18n_language, 'en');
        assert.deepEqual(event.translations, { en: event.id });
      });

      it('should default the map flags to false, the website to the permalink and the venue to []', async () => {
        const res = await create({
          title: 'Plain',
          start_date: '2031-03-11 09:00:00',
          end_date: '2031-03-11 10:00:00',
        });
        assert.equal(res.statusCode, 201);
        assert.equal(res.data.show_map, false);
        assert.equal(res.data.show_map_link, false);
        assert.equal(res.data.website, res.data.url);
        assert.deepEqual(res.data.venue, []);
        assert.deepEqual(res.data.organizer, []);
        assert.equal(res.data.timezone, 'UTC');
        assert.equal(res.data.timezone_abbr, 'UTC');
        assert.equal(res.data.description, '');
      });

      it('should round all-day events to whole days and format a cost range', async () => {
        const res = await create({
          title: 'All day',
          all_day: true,
          start_date: '2031-03-11 15:00:00',
          end_date: '2031-03-12 09:00:00',
          cost: ['0$', '20$', '30$'],
        });
        assert.equal(res.statusCode, 201);
        assert.equal(res.data.all_day, true);
        assert.equal(res.data.start_date, '2031-03-11 00:00:00');
        assert.equal(res.data.end_date, '2031-03-12 23:59:59');
        assert.equal(res.data.cost, 'Free – 30$');
        assert.deepEqual(res.data.cost_details.values, ['0', '20', '30']);
      });

      it('should read natural-language dates and UNIX timestamps in the event time zone', async () => {
        const natural = await create({
          title: 'Natural',
          start_date: 'tomorrow 9am',
          end_date: 'tomorrow 11am',
          timezone: 'America/New_York',
        });
        assert.equal(natural.statusCode, 201, natural.body);
        assert.match(natural.data.start_date, / 09:00:00$/);
        assert.match(natural.data.end_date, / 11:00:00$/);
        const stamp = await create({
          title: 'Stamp',
          start_date: 1924941600,
          end_date: 1924945200,
          timezone: 'Asia/Tokyo',
        });
        assert.equal(stamp.statusCode, 201, stamp.body);
        assert.equal(stamp.data.utc_start_date, '2030-12-31 10:00:00');
        assert.equal(stamp.data.start_date, '2030-12-31 19:00:00');
        assert.equal(stamp.data.timezone_abbr, 'JST');
        const offset = await create({
          title: 'Offset',
          start_date: '2030-07-01 10:00:00',
          end_date: '2030-07-01 12:00:00',
          timezone: 'UTC+2',
        });
        assert.equal(offset.data.utc_start_date, '2030-07-01 08:00:00');
      });

      it('should give the DST-aware abbreviation of the start date', async () => {
        const summer = await create({
          title: 'Summer',
          start_date: '2031-03-30 10:00:00',
          end_date: '2031-03-30 11:00:00',
          timezone: 'Europe/Paris',
        });
        assert.equal(summer.data.timezone_abbr, 'CEST');
        assert.equal(summer.data.utc_start_date, '2031-03-30 08:00:00');
        const winter = await create({
          title: 'Winter',
          start_date: '2031-03-29 10:00:00',
          end_date: '2031-03-29 11:00:00',
          timezone: 'Europe/Paris',
        });
        assert.equal(winter.data.timezone_abbr, 'CET');
      });

      it('should answer 400 naming each bad field and store nothing', async () => {
        const before = await t.request({
          method: 'GET',
          url: `${EVENTS}?status=publish,draft,pending,private&start_date=2000-01-01`,
          auth: editor.authorization,
        });
        for (const [payload, field] of [
          [{ start_date: 'foo' }, 'start_date'],
          [{ end_date: 'not a date' }, 'end_date'],
          [{ end_date: '2031-01-01 09:00:00' }, 'end_date'],
          [{ timezone: 'Mars/Base' }, 'timezone'],
          [{ website: 'foo' }, 'website'],
          [{ author: 9999 }, 'author'],
          [{ date: 'foo' }, 'date'],
          [{ status: 'nope' }, 'status'],
          [{ description: '' }, 'description'],
          [{ image: 'not an image' }, 'image'],
          [{ venue: 99999 }, 'venue'],
          [{ organizer: [99999] }, 'organizer'],
          [{ venue: { venue: 'Bad site', website: 'nope' } }, 'venue.website'],
          [{ tags: Array.from({ length: 101 }, (_, i) => `tag ${i}`) }, 'tags'],
        ] as [Record<string, unknown>, string][]) {
          const res = await create({
            title: 'Bad',
            start_date: '2031-01-01 10:00:00',
            end_date: '2031-01-01 11:00:00',
            categories: ['Never created'],
            ...payload,
          });
          assert.equal(res.statusCode, 400, `${field}: ${res.body}`);
          assert.equal(res.data.code, 'rest_invalid_param');
          assert.ok(field in res.data.data.params, `${field} in ${JSON.stringify(res.data.data.params)}`);
        }
        const afterList = await t.request({
          method: 'GET',
          url: `${EVENTS}?status=publish,draft,pending,private&start_date=2000-01-01`,
          auth: editor.authorization,
        });
        assert.equal(afterList.data.total, before.data.total);
        const categories = await t.request({
          method: 'GET',
          url: '/cal/events/v1/categories?hide_empty=false&search=Never',
        });
        assert.equal(categories.data.total, 0);
      });

      it('should reject a list of venues and a bare organizer CSV of unknown ids', async () => {
        const res = await create({
          title: 'Two venues',
          start_date: '2031-01-01 10:00:00',
          end_date: '2031-01-01 11:00:00',
          venue: [{ venue: 'A' }, { venue: 'B' }],
        });
        assert.equal(res.statusCode, 400);
        assert.equal(res.data.code, 'could-not-create-venue');
      });

      it('should link existing venues and organizers by id, {id} and lists, in the order given', async () => {
        const v = await t.request({
          method: 'POST',
          url: '/cal/events/v1/venues',
          auth: editor.authorization,
          payload: { venue: 'Hall' },
        });
        const o1 = await t.request({
          method: 'POST',
          url: '/cal/events/v1/organizers',
          auth: editor.authorization,
          payload: { organizer: 'First' },
        });
        const o2 = await t.request({
          method: 'POST',
          url: '/cal/events/v1/organizers',
          auth: editor.authorization,
          payload: { organizer: 'Second' },
        });
        const res = await create({
          title: 'Linked',
          start_date: '2031-02-01 10:00:00',
          end_date: '2031-02-01 11:00:00',
          venue: { id: v.data.id },
          organizer: [o2.data.id, { id: o1.data.id }],
        });
        assert.equal(res.statusCode, 201, res.body);
        assert.equal(res.data.venue.id, v.data.id);
        assert.deepEqual(
          res.data.organizer.map((o: { id: number }) => o.id),
          [o2.data.id, o1.data.id],
        );
        const byId = await create({
          title: 'Linked 2',
          start_date: '2031-02-01 10:00:00',
          end_date: '2031-02-01 11:00:00',
          venue: v.data.id,
          organizer: o1.data.id,
        });
        assert.equal(byId.data.venue.id, v.data.id);
        assert.equal(byId.data.organizer[0].id, o1.data.id);
      });

      it('should refuse to link a venue or organizer the caller may not read', async () => {
        const contributor = await t.asUser('contributor');
        const draft = await t.request({
          method: 'POST',
          url: '/cal/events/v1/venues',
          auth: editor.authorization,
          payload: { venue: 'Secret hall', status: 'draft' },
        });
        const res = await create(
          { title: 'Peek', start_date: '2031-02-01 10:00:00', end_date: '2031-02-01 11:00:00', venue: draft.data.id },
          contributor.authorization,
        );
        assert.equal(res.statusCode, 400);
        assert.ok(res.data.data.params.venue);
      });

      it('should match searches and duplicates without regard to case, accents included', async () => {
        const a = await create({
          title: 'Fête de l’ÉTÉ',
          start_date: '2031-07-01 10:00:00',
          end_date: '2031-07-01 11:00:00',
          venue: { venue: 'Église Saint-Éloi' },
        });
        const b = await create({
          title: 'Autre fête',
          start_date: '2031-07-01 10:00:00',
          end_date: '2031-07-01 11:00:00',
          venue: { venue: 'église saint-éloi' },
        });
        assert.equal(a.data.venue.id, b.data.venue.id);
        const found = await t.request({
          method: 'GET',
          url: `${EVENTS}?start_date=2031-07-01&end_date=2031-07-01&search=${encodeURIComponent('été')}`,
        });
        assert.deepEqual(
          found.data.events.map((e: { id: number }) => e.id),
          [a.data.id],
        );
      });

      it('should de-duplicate inline venues like the original', async () => {
        const a = await create({
          title: 'Dup A',
          start_date: '2031-02-01 10:00:00',
          end_date: '2031-02-01 11:00:00',
          venue: { venue: 'Same Place', city: 'Rome' },
        });
        const b = await create({
          title: 'Dup B',
          start_date: '2031-02-01 10:00:00',
          end_date: '2031-02-01 11:00:00',
          venue: { venue: 'same place', city: 'rome' },
        });
        assert.equal(a.data.venue.id, b.data.venue.id);
      });

      it('should make slugs unique with -2, -3', async () => {
        const a = await create({
          title: 'Same title',
          start_date: '2031-02-01 10:00:00',
          end_date: '2031-02-01 11:00:00',
        });
        const b = await create({
          title: 'Same title',
          start_date: '2031-02-01 10:00:00',
          end_date: '2031-02-01 11:00:00',
        });
        const c = await create({
          title: 'Other',
          slug: 'same-title',
          start_date: '2031-02-01 10:00:00',
          end_date: '2031-02-01 11:00:00',
        });
        assert.deepEqual([a.data.slug, b.data.slug, c.data.slug], ['same-title', 'same-title-2', 'same-title-3']);
      });

      it('should number many copies of one title in turn, and give a free slug when a copy in between was trashed', async () => {
        const when = { start_date: '2031-03-01 10:00:00', end_date: '2031-03-01 11:00:00' };
        const slugs: string[] = [];
        const ids: number[] = [];
        for (let i = 0; i < 12; i += 1) {
          const res = await create({ title: 'Standup', ...when });
          slugs.push(res.data.slug);
          ids.push(res.data.id);
        }
        assert.deepEqual(slugs, ['standup', ...Array.from({ length: 11 }, (_, i) => `standup-${i + 2}`)]);
        const trashed = await t.request({ method: 'DELETE', url: `${EVENTS}/${ids[4]}`, auth: editor.authorization });
        assert.equal(trashed.statusCode, 200);
        const next = await create({ title: 'Standup', ...when });
        assert.match(next.data.slug, /^standup-\d+$/);
        assert.ok(!slugs.filter((_, i) => i !== 4).includes(next.data.slug), `${next.data.slug} is free`);

        // The search's look-ups are one statement: a 14th copy makes as many as a second copy.
        // The fewest of two: a periodic read of the settings can fall into any one request.
        const statements = async (title: () => string) => {
          const counts: number[] = [];
          for (let i = 0; i < 2; i += 1)
            counts.push((await t.queries.during(() => create({ title: title(), ...when }))).texts.length);
          return Math.min(...counts);
        };
        const copy = await statements(() => 'Standup');
        const firsts = ['Sprint review', 'Retrospective'];
        for (const title of firsts) await create({ title, ...when });
        const second = await statements(() => firsts.shift()!);
        assert.equal(copy, second, `a 14th copy ${copy} statements, a second copy ${second}`);
      });

      it("should draw a new event's id and look up its slug in one statement", async () => {
        const { value, texts } = await t.queries.during(() =>
          create({ title: 'Drawn at once', start_date: '2031-03-03 10:00:00', end_date: '2031-03-03 11:00:00' }),
        );
        assert.equal(value.statusCode, 201, value.body);
        assert.equal(value.data.slug, 'drawn-at-once');
        const drawn = texts.filter((text) => text.startsWith('insert into "posts"'));
        assert.equal(drawn.length, 1, texts.join('\n'));
        assert.match(drawn[0]!, /"slug" = /);
        assert.ok(!texts.some((text) => /^select "id" from "events" where "lang" = \S+ and "slug"/.test(text)));
      });

      it("should keep a long title's copies within the slug's 200 characters", async () => {
        const when = { start_date: '2031-03-02 10:00:00', end_date: '2031-03-02 11:00:00' };
        const title = 'x'.repeat(210);
        const slugs: string[] = [];
        for (let i = 0; i < 11; i += 1) slugs.push((await create({ title, ...when })).data.slug);
        assert.equal(slugs[0], 'x'.repeat(200));
        assert.equal(slugs[1], `${'x'.repeat(198)}-2`);
        assert.equal(slugs[10], `${'x'.repeat(197)}-11`);
        assert.equal(new Set(slugs).size, 11);
      });

      it('should ignore generated fields sent on input', async () => {
        const res = await create({
          title: 'Generated',
          start_date: '2031-02-01 10:00:00',
          end_date: '2031-02-01 11:00:00',
          utc_start_date: '1999-01-01 00:00:00',
          rest_url: 'x',
          timezone_abbr: 'XYZ',
        });
        assert.equal(res.statusCode, 201);
        assert.equal(res.data.utc_start_date, '2031-02-01 10:00:00');
        assert.equal(res.data.timezone_abbr, 'UTC');
      });

      it('should scale back statuses for contributors and refuse other authors below editor', async () => {
        const contributor = await t.asUser('contributor');
        const published = await create(
          {
            title: 'By contributor',
            status: 'publish',
            start_date: '2031-02-01 10:00:00',
            end_date: '2031-02-01 11:00:00',
          },
          contributor.authorization,
        );
        assert.equal(published.data.status, 'pending');
        const none = await create(
          { title: 'By contributor 2', start_date: '2031-02-01 10:00:00', end_date: '2031-02-01 11:00:00' },
          contributor.authorization,
        );
        assert.equal(none.data.status, 'draft');
        const author = await t.asUser('author');
        const asOther = await create(
          { title: 'As other', author: editor.id, start_date: '2031-02-01 10:00:00', end_date: '2031-02-01 11:00:00' },
          author.authorization,
        );
        assert.equal(asOther.statusCode, 403);
        const asOtherByEditor = await create(
          { title: 'As other', author: author.id, start_date: '2031-02-01 10:00:00', end_date: '2031-02-01 11:00:00' },
          admin.authorization,
        );
        assert.equal(asOtherByEditor.data.author, String(author.id));
        const subscriber = await t.asUser('subscriber');
        const refused = await create(
          { title: 'No', start_date: '2031-02-01 10:00:00', end_date: '2031-02-01 11:00:00' },
          subscriber.authorization,
        );
        assert.equal(refused.statusCode, 403);
        assert.equal(refused.data.code, 'rest_forbidden');
      });

      it('should strip scripts from descriptions written below editor', async () => {
        const author = await t.asUser('author');
        const res = await create(
          {
            title: 'XSS',
            description: '<p onclick="x()">Hi<script>alert(1)</script></p>',
            start_date: '2031-02-01 10:00:00',
            end_date: '2031-02-01 11:00:00',
          },
          author.authorization,
        );
        assert.equal(res.data.description, '<p>Hi</p>');
      });
    });

    describe('GET /cal/events/v1/events/{id}', () => {
      it('should add json_ld on a single read, with the venue and organizer', async () => {
        const created = await create({
          title: 'Read me',
          excerpt: 'Short',
          cost: '30',
          start_date: '2031-05-18 09:30:00',
          end_date: '2031-05-18 11:30:00',
          timezone: 'Europe/Paris',
          venue: { venue: 'Tech Hub', address: '102 Main St', city: 'Austin', state: 'TX', zip: '12222' },
          organizer: [{ organizer: 'Music Society' }],
        });
        const res = await t.request({ method: 'GET', url: `${EVENTS}/${created.data.id}` });
        assert.equal(res.statusCode, 200);
        assert.equal(res.data.json_ld['@type'], 'Event');
        assert.equal(res.data.json_ld.startDate, '2031-05-18T09:30:00+02:00');
        assert.equal(res.data.json_ld.location.address.addressRegion, 'TX');
        assert.equal(res.data.json_ld.organizer.name, 'Music Society');
        assert.equal(res.data.json_ld.offers.price, '30');
        assert.equal(res.data.venue.stateprovince, 'TX');
        assert.ok(res.data.venue.json_ld);
        assert.deepEqual(Object.keys(res.data).slice(-3), ['json_ld', 'i18n_language', 'translations']);
      });

      it('should read a constant number of queries whatever the number of organizers and terms', async () => {
        const small = await create({
          title: 'Small',
          start_date: '2031-05-18 09:30:00',
          end_date: '2031-05-18 11:30:00',
          organizer: [{ organizer: 'Solo' }],
          categories: ['C1'],
          venue: { venue: 'Here' },
        });
        const big = await create({
          title: 'Big',
          start_date: '2031-05-18 09:30:00',
          end_date: '2031-05-18 11:30:00',
          organizer: [{ organizer: 'O1' }, { organizer: 'O2' }, { organizer: 'O3' }, { organizer: 'O4' }],
          categories: ['C1', 'C2', 'C3'],
          tags: ['t1', 't2', 't3'],
          venue: { venue: 'Somewhere' },
        });
        // An ignored parameter that changes makes every read miss the page cache. The fewest of three:
        // a periodic read of the settings can fall into any one request.
        let bust = 0;
        const count = async (id: number) => {
          const counts: number[] = [];
          for (let i = 0; i < 3; i += 1) {
            const url = `${EVENTS}/${id}?miss=${(bust += 1)}`;
            counts.push((await t.queries.during(() => t.request({ method: 'GET', url }))).texts.length);
          }
          return Math.min(...counts);
        };
        const a = await count(small.data.id);
        const b = await count(big.data.id);
        assert.equal(b, a, `small ${a}, big ${b}`);
        // One statement reads the event and all it embeds (event.repository.ts), beside the settings.
        assert.ok(b <= 2, `big read took ${b} queries`);
      });

      it('should create concurrent events naming the same new term and image once each, without an error', async () => {
        const payload = (i: number) => ({
          title: `Race ${i}`,
          start_date: '2031-08-01 10:00:00',
          end_date: '2031-08-01 12:00:00',
          categories: ['Racing category'],
          tags: ['racing-tag'],
          image: 'https://example.com/race.jpg',
        });
        const results = await Promise.all(Array.from({ length: 8 }, (_, i) => create(payload(i))));
        assert.deepEqual(
          results.map((r) => r.statusCode),
          Array(8).fill(201),
          results.map((r) => r.body).join('\n'),
        );
        assert.equal(new Set(results.map((r) => r.data.categories[0].id)).size, 1);
        assert.equal(new Set(results.map((r) => r.data.tags[0].id)).size, 1);
        assert.equal(new Set(results.map((r) => r.data.image.id)).size, 1);
        const category = await t.request({
          method: 'GET',
          url: `/cal/events/v1/categories/${results[0]!.data.categories[0].id}`,
        });
        assert.equal(category.data.count, 8);
      });

      it('should list a page in a constant number of queries whatever the number of events and their links', async () => {
        const day = '2031-07-09';
        for (let i = 0; i < 4; i += 1) {
          await create({
            title: `Paged ${i}`,
            start_date: `${day} 1${i}:00:00`,
            end_date: `${day} 1${i}:30:00`,
            organizer: [{ organizer: `Paged organizer ${i}` }, { organizer: `Paged organizer ${i + 1}` }],
            categories: [`Paged ${i}`],
            tags: [`paged-${i}`],
            venue: { venue: `Paged venue ${i}` },
            image: `https://example.com/paged-${i}.jpg`,
          });
        }
        // A parameter the list ignores makes each request miss the page cache, not the count cache.
        const count = async (perPage: number, probe: number) => {
          const { value: res, texts } = await t.queries.during(() =>
            t.request({
              method: 'GET',
              url: `${EVENTS}?start_date=${day}&end_date=${day}&per_page=${perPage}&probe=${probe}`,
            }),
          );
          assert.equal(res.data.events.length, perPage);
          return texts.length;
        };
        await count(1, 0);
        await count(4, 0);
        // The least of three requests each: the settings are re-read once a second and may fall into one.
        const least = async (perPage: number) =>
          Math.min(await count(perPage, 1), await count(perPage, 2), await count(perPage, 3));
        const one = await least(1);
        const four = await least(4);
        assert.equal(four, one, `1 event: ${one} queries, 4 events: ${four}`);
        // The page and one statement for all it embeds (its total is cached), beside the settings.
        assert.ok(four <= 3, `a page took ${four} queries`);
      });

      it('should revalidate with ETag and If-None-Match until the event changes', async () => {
        const created = await create({
          title: 'Tagged',
          start_date: '2031-05-18 09:30:00',
          end_date: '2031-05-18 11:30:00',
        });
        const first = await t.request({ method: 'GET', url: `${EVENTS}/${created.data.id}` });
        const etag = String(first.headers['etag']);
        assert.match(etag, /^".+"$/);
        const same = await t.request({
          method: 'GET',
          url: `${EVENTS}/${created.data.id}`,
          headers: { 'if-none-match': etag },
        });
        assert.equal(same.statusCode, 304);
        assert.equal(same.body, '');
        await t.request({
          method: 'PATCH',
          url: `${EVENTS}/${created.data.id}`,
          auth: editor.authorization,
          payload: { title: 'Tagged again' },
        });
        const changed = await t.request({
          method: 'GET',
          url: `${EVENTS}/${created.data.id}`,
          headers: { 'if-none-match': etag },
        });
        assert.equal(changed.statusCode, 200);
        assert.equal(changed.data.title, 'Tagged again');
      });

      it('should answer 404 for an unknown id', async () => {
        const res = await t.request({ method: 'GET', url: `${EVENTS}/999999` });
        assert.equal(res.statusCode, 404);
        assert.deepEqual(res.data, {
          code: 'rest-event-not-found',
          message: 'Event with ID 999999 does not exist.',
          data: { status: 404 },
        });
      });

      it('should hide unpublished events from anonymous readers and other contributors', async () => {
        const contributor = await t.asUser('contributor');
        const draft = await create(
          { title: 'Draft', status: 'draft', start_date: '2031-05-18 09:30:00', end_date: '2031-05-18 11:30:00' },
          contributor.authorization,
        );
        assert.equal(
          (await t.request({ method: 'GET', url: `${EVENTS}/${draft.data.id}` })).data.code,
          'event-not-accessible',
        );
        const other = await t.asUser('contributor');
        assert.equal(
          (await t.request({ method: 'GET', url: `${EVENTS}/${draft.data.id}`, auth: other.authorization })).statusCode,
          403,
        );
        assert.equal(
          (await t.request({ method: 'GET', url: `${EVENTS}/${draft.data.id}`, auth: contributor.authorization }))
            .statusCode,
          200,
        );
        assert.equal(
          (await t.request({ method: 'GET', url: `${EVENTS}/${draft.data.id}`, auth: editor.authorization }))
            .statusCode,
          200,
        );
      });

      it('should protect password-protected events', async () => {
        const created = await create({
          title: 'Secret',
          password: 's3cret',
          description: 'hidden',
          start_date: '2031-05-18 09:30:00',
          end_date: '2031-05-18 11:30:00',
        });
        assert.equal(created.statusCode, 201);
        const denied = await t.request({ method: 'GET', url: `${EVENTS}/${created.data.id}` });
        assert.equal(denied.statusCode, 403);
        assert.equal(denied.data.code, 'event-password-protected');
        assert.equal(
          (await t.request({ method: 'GET', url: `${EVENTS}/${created.data.id}?password=wrong` })).statusCode,
          403,
        );
        const ok = await t.request({ method: 'GET', url: `${EVENTS}/${created.data.id}?password=s3cret` });
        assert.equal(ok.statusCode, 200);
        assert.equal(ok.data.description, '<p>hidden</p>');
        assert.equal(ok.data.password, undefined);
        const edit = await t.request({
          method: 'GET',
          url: `${EVENTS}/${created.data.id}?context=edit`,
          auth: editor.authorization,
        });
        assert.equal(edit.statusCode, 200);
        const listed = await t.request({
          method: 'GET',
          url: `${EVENTS}?search=Secret&start_date=2031-05-18&end_date=2031-05-19`,
        });
        assert.equal(listed.data.events[0].description, '');
        assert.equal(listed.data.events[0].all_day, null);
        assert.deepEqual(listed.data.events[0].venue, []);
        const removed = await t.request({
          method: 'PATCH',
          url: `${EVENTS}/${created.data.id}`,
          auth: editor.authorization,
          payload: { password: '' },
        });
        assert.equal(removed.statusCode, 200);
        assert.equal((await t.request({ method: 'GET', url: `${EVENTS}/${created.data.id}` })).statusCode, 200);
      });

      it('should read by slug in the request language', async () => {
        const created = await create({
          title: 'Slugged',
          start_date: '2031-05-18 09:30:00',
          end_date: '2031-05-18 11:30:00',
        });
        const res = await t.request({ method: 'GET', url: `${EVENTS}/by-slug/slugged` });
        assert.equal(res.data.id, created.data.id);
        assert.equal((await t.request({ method: 'GET', url: `${EVENTS}/by-slug/nothing-here` })).statusCode, 404);
        assert.equal((await t.request({ method: 'GET', url: `/fr${EVENTS}/by-slug/slugged` })).statusCode, 404);
      });
    });

    describe('POST|PUT|PATCH /cal/events/v1/events/{id}', () => {
      it('should change only the fields sent', async () => {
        const created = await create({
          title: 'Partial',
          description: 'Keep',
          start_date: '2031-06-01 10:00:00',
          end_date: '2031-06-01 12:00:00',
          timezone: 'Europe/Rome',
          featured: true,
          sticky: true,
          show_map: true,
          website: 'https://keep.example.com',
          cost: '10',
          status: 'draft',
          venue: { venue: 'Keep venue' },
          organizer: [{ organizer: 'Keep organizer' }],
          categories: ['Keep cat'],
          image: 'https://img.example.com/a.jpg',
        });
        for (const method of ['POST', 'PUT', 'PATCH'] as const) {
          const res = await t.request({
            method,
            url: `${EVENTS}/${created.data.id}`,
            auth: editor.authorization,
            payload: { title: `Partial ${method}` },
          });
          assert.equal(res.statusCode, 200, res.body);
          const { title, modified, modified_utc, ...rest } = res.data;
          const { title: _t, modified: _m, modified_utc: _mu, ...expected } = created.data;
          assert.equal(title, `Partial ${method}`);
          assert.ok(modified && modified_utc);
          assert.deepEqual(
            { ...rest, categories: rest.categories.map((c: { id: number }) => c.id) },
            { ...expected, categories: expected.categories.map((c: { id: number }) => c.id) },
          );
        }
      });

      it('should accept start_date alone and reject an end before the start', async () => {
        const created = await create({
          title: 'Move',
          start_date: '2031-06-01 10:00:00',
          end_date: '2031-06-01 12:00:00',
        });
        const moved = await t.request({
          method: 'PATCH',
          url: `${EVENTS}/${created.data.id}`,
          auth: editor.authorization,
          payload: { start_date: '2031-06-01 11:00:00' },
        });
        assert.equal(moved.data.start_date, '2031-06-01 11:00:00');
        assert.equal(moved.data.end_date, '2031-06-01 12:00:00');
        const bad = await t.request({
          method: 'PATCH',
          url: `${EVENTS}/${created.data.id}`,
          auth: editor.authorization,
          payload: { start_date: '2031-06-02 11:00:00' },
        });
        assert.equal(bad.statusCode, 400);
        assert.ok(bad.data.data.params.end_date);
      });

      it('should remove the venue, organizers and image when asked', async () => {
        const created = await create({
          title: 'Unlink',
          start_date: '2031-06-01 10:00:00',
          end_date: '2031-06-01 12:00:00',
          venue: { venue: 'Gone' },
          organizer: [{ organizer: 'Gone too' }],
          image: 'https://img.example.com/b.png',
        });
        assert.equal(created.data.image.extension, 'png');
        const res = await t.request({
          method: 'PATCH',
          url: `${EVENTS}/${created.data.id}`,
          auth: editor.authorization,
          payload: { venue: null, organizer: [], image: null },
        });
        assert.deepEqual([res.data.venue, res.data.organizer, res.data.image], [[], [], false]);
        const again = await t.request({
          method: 'PATCH',
          url: `${EVENTS}/${created.data.id}`,
          auth: editor.authorization,
          payload: { venue: 0 },
        });
        assert.deepEqual(again.data.venue, []);
      });

      it('should remove the image with null, false, 0 or "" (SPEC 21), false as a JSON boolean included', async () => {
        for (const none of [null, false, 0, '', '0']) {
          const created = await create({
            title: 'Pictured',
            start_date: '2031-06-01 10:00:00',
            end_date: '2031-06-01 12:00:00',
            image: 'https://img.example.com/c.png',
          });
          const res = await t.request({
            method: 'POST',
            url: `${EVENTS}/${created.data.id}`,
            auth: editor.authorization,
            payload: { image: none },
          });
          assert.equal(res.statusCode, 200, `${JSON.stringify(none)}: ${res.body}`);
          assert.equal(res.data.image, false, JSON.stringify(none));
        }
      });

      it('should let contributors edit only their own unpublished events', async () => {
        const contributor = await t.asUser('contributor');
        const own = await create(
          { title: 'Mine', start_date: '2031-06-01 10:00:00', end_date: '2031-06-01 12:00:00' },
          contributor.authorization,
        );
        assert.equal(
          (
            await t.request({
              method: 'PATCH',
              url: `${EVENTS}/${own.data.id}`,
              auth: contributor.authorization,
              payload: { title: 'Mine 2' },
            })
          ).statusCode,
          200,
        );
        const others = await create({
          title: 'Theirs',
          status: 'draft',
          start_date: '2031-06-01 10:00:00',
          end_date: '2031-06-01 12:00:00',
        });
        assert.equal(
          (
            await t.request({
              method: 'PATCH',
              url: `${EVENTS}/${others.data.id}`,
              auth: contributor.authorization,
              payload: { title: 'Hijack' },
            })
          ).statusCode,
          403,
        );
        assert.equal(
          (await t.request({ method: 'DELETE', url: `${EVENTS}/${others.data.id}`, auth: contributor.authorization }))
            .statusCode,
          403,
        );
        const author = await t.asUser('author');
        assert.equal(
          (
            await t.request({
              method: 'PATCH',
              url: `${EVENTS}/${others.data.id}`,
              auth: author.authorization,
              payload: { title: 'Hijack' },
            })
          ).statusCode,
          403,
        );
        const unchanged = await t.request({
          method: 'GET',
          url: `${EVENTS}/${others.data.id}`,
          auth: editor.authorization,
        });
        assert.equal(unchanged.data.title, 'Theirs');
      });

      it('should answer 404 for an unknown id and ignore password on the slug route', async () => {
        assert.equal(
          (
            await t.request({
              method: 'PATCH',
              url: `${EVENTS}/999999`,
              auth: editor.authorization,
              payload: { title: 'x' },
            })
          ).statusCode,
          404,
        );
        const created = await create({
          title: 'Slug update',
          start_date: '2031-06-01 10:00:00',
          end_date: '2031-06-01 12:00:00',
        });
        const res = await t.request({
          method: 'PATCH',
          url: `${EVENTS}/by-slug/slug-update`,
          auth: editor.authorization,
          payload: { title: 'Slug updated', password: 'x' },
        });
        assert.equal(res.data.title, 'Slug updated');
        assert.equal((await t.request({ method: 'GET', url: `${EVENTS}/${created.data.id}` })).statusCode, 200);
      });
    });

    describe('DELETE /cal/events/v1/events/{id}', () => {
      it('should trash, then answer 410, and 403 to reads', async () => {
        const created = await create({
          title: 'Trash me',
          start_date: '2031-06-01 10:00:00',
          end_date: '2031-06-01 12:00:00',
          categories: ['Trash cat'],
        });
        const catId = created.data.categories[0].id;
        const first = await t.request({
          method: 'DELETE',
          url: `${EVENTS}/${created.data.id}`,
          auth: editor.authorization,
        });
        assert.equal(first.statusCode, 200);
        assert.equal(first.data.status, 'trash');
        const second = await t.request({
          method: 'DELETE',
          url: `${EVENTS}/${created.data.id}`,
          auth: editor.authorization,
        });
        assert.equal(second.statusCode, 410);
        assert.deepEqual(second.data, {
          code: 'event-is-in-trash',
          message: 'The event is already trashed',
          data: { status: 410 },
        });
        const read = await t.request({ method: 'GET', url: `${EVENTS}/${created.data.id}` });
        assert.equal(read.statusCode, 403);
        assert.equal(read.data.code, 'event-no-longer-available');
        const cat = await t.request({ method: 'GET', url: `/cal/events/v1/categories/${catId}` });
        assert.equal(cat.data.count, 0);
        const restored = await t.request({
          method: 'PATCH',
          url: `${EVENTS}/${created.data.id}`,
          auth: editor.authorization,
          payload: { status: 'publish' },
        });
        assert.equal(restored.data.status, 'publish');
        assert.equal((await t.request({ method: 'GET', url: `/cal/events/v1/categories/${catId}` })).data.count, 1);
        assert.equal(
          (await t.request({ method: 'DELETE', url: `${EVENTS}/999999`, auth: editor.authorization })).statusCode,
          404,
        );
        assert.equal((await t.request({ method: 'DELETE', url: `${EVENTS}/${created.data.id}` })).statusCode, 401);
      });

      it('should keep term counts equal to a recount through every kind of write', async () => {
        const a = await create({
          title: 'Count A',
          start_date: '2031-06-01 10:00:00',
          end_date: '2031-06-01 12:00:00',
          categories: ['Count cat 1', 'Count cat 2'],
          tags: ['count-tag'],
        });
        const b = await create({
          title: 'Count B',
          status: 'draft',
          start_date: '2031-06-01 10:00:00',
          end_date: '2031-06-01 12:00:00',
          categories: ['Count cat 1'],
        });
        const patch = (id: number, payload: Record<string, unknown>) =>
          t.request({ method: 'PATCH', url: `${EVENTS}/${id}`, auth: editor.authorization, payload });
        await patch(a.data.id, { categories: ['Count cat 2', 'Count cat 3'] });
        await patch(b.data.id, { status: 'publish' });
        await patch(b.data.id, { tags: ['count-tag'], status: 'pending' });
        await t.request({ method: 'DELETE', url: `${EVENTS}/${a.data.id}`, auth: editor.authorization });
        await patch(a.data.id, { status: 'publish', tags: [] });
        const rows = await t.storage.db
          .selectFrom('terms')
          .select(['id', 'count'])
          .where('name', 'like', 'Count cat%')
          .execute();
        const tags = await t.storage.db
          .selectFrom('terms')
          .select(['id', 'count'])
          .where('slug', '=', 'count-tag')
          .execute();
        for (const term of [...rows, ...tags]) {
          const recount = await t.storage.db
            .selectFrom('event_terms')
            .innerJoin('events', 'events.id', 'event_terms.event_id')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('event_terms.term_id', '=', term.id)
            .where('events.status', '=', 'publish')
            .executeTakeFirstOrThrow();
          assert.equal(term.count, Number(recount.n), `term ${term.id}`);
        }
        assert.deepEqual(rows.map((r) => r.count).sort(), [0, 1, 1]);
      });

      it('should let a new event take the slug of a trashed one, and prefer it by slug', async () => {
        const old = await create({
          title: 'Reuse',
          start_date: '2031-06-01 10:00:00',
          end_date: '2031-06-01 12:00:00',
        });
        await t.request({ method: 'DELETE', url: `${EVENTS}/${old.data.id}`, auth: editor.authorization });
        const fresh = await create({
          title: 'Reuse',
          start_date: '2031-06-01 10:00:00',
          end_date: '2031-06-01 12:00:00',
        });
        assert.equal(fresh.data.slug, 'reuse');
        assert.equal((await t.request({ method: 'GET', url: `${EVENTS}/by-slug/reuse` })).data.id, fresh.data.id);
      });
    });
  });
}
