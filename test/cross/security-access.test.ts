import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { buildApp } from '../../src/app.js';
import { connect } from '../../src/db/connect.js';
import { registrationPacing } from '../../src/modules/events/event-counts.service.js';
import { backends, createTestApp, injector, type TestApp } from '../helpers/app.js';

/**
 * Issue 25, items 5 and 6: what a password hides stays hidden from search, filters and pages;
 * password guesses are limited like authentication; `translation_of` checks the caller; and the
 * total of an extreme date window matches its list.
 */

const NS = '/cal/events/v1';
const EVENTS = `${NS}/events`;
/** A whole-day window: public totals then come from the per-day counts (checked against the rows under CAL_VERIFY_COUNTS). */
const WINDOW = 'start_date=2031-05-01&end_date=2031-05-31';

type User = { id: number; authorization: string };

for (const backend of backends()) {
  describe(`security of protected events and translations [${backend}]`, () => {
    let t: TestApp;
    let admin: User;
    let editor: User;
    let author: User;
    let contributor: User;

    before(async () => {
      registrationPacing.gapMs = 0;
      t = await createTestApp(backend, { CAL_AUTH_FAIL_LIMIT: '3' });
      admin = await t.asUser('administrator', 'boss');
      editor = await t.asUser('editor', 'ed');
      author = await t.asUser('author', 'writer');
      contributor = await t.asUser('contributor', 'helper');
    });
    after(async () => {
      registrationPacing.gapMs = 1000;
      await t.close();
    });

    async function create(url: string, payload: Record<string, unknown>, auth = editor.authorization): Promise<any> {
      const res = await t.request({ method: 'POST', url, auth, payload });
      assert.equal(res.statusCode, 201, `${url}: ${res.body}`);
      return res.data;
    }

    const get = (url: string, auth?: string, remoteAddress?: string) =>
      t.request({ method: 'GET', url, auth, remoteAddress });
    const ids = (res: { data: any }) => (res.data.events as { id: number }[]).map((e) => e.id).sort((a, b) => a - b);

    describe('password-protected events in lists, filters and pages', () => {
      let hidden: any;
      let open: any;

      before(async () => {
        const venue = await create(`${NS}/venues`, { venue: 'Quay Hall', city: 'Portsmouth' });
        const organizer = await create(`${NS}/organizers`, { organizer: 'Harbour Society' });
        hidden = await create(EVENTS, {
          title: 'Harbour Gala',
          description: 'The code is zebra-quokka, qz',
          excerpt: 'Bring the albatross',
          password: 'sesame',
          start_date: '2031-05-10 19:00:00',
          end_date: '2031-05-10 23:00:00',
          venue: venue.id,
          organizer: [organizer.id],
          categories: ['Galas'],
          tags: ['harbour'],
          featured: true,
        });
        open = await create(EVENTS, {
          title: 'Open Quay Day',
          description: 'Anyone may come: zebra crossings, qz',
          start_date: '2031-05-11 10:00:00',
          end_date: '2031-05-11 16:00:00',
          venue: venue.id,
          organizer: [organizer.id],
          categories: ['Galas'],
          tags: ['harbour'],
          featured: true,
        });
        assert.equal(hidden.venue.venue, 'Quay Hall');
      });

      it('should match a protected event by its title only in an anonymous search, and by its text for an editor in edit context', async () => {
        for (const search of ['zebra', 'zebr', 'quokka', 'albatross', 'code is']) {
          const res = await get(`${EVENTS}?${WINDOW}&search=${encodeURIComponent(search)}`);
          assert.equal(res.statusCode, 200, res.body);
          assert.ok(!ids(res).includes(hidden.id), `search=${search} must not find the protected event by its text`);
          assert.equal(res.data.total, res.data.events.length);
        }
        const byTitle = await get(`${EVENTS}?${WINDOW}&search=gala`);
        assert.deepEqual(ids(byTitle), [hidden.id]);
        assert.equal(byTitle.data.events[0].description, '', 'listed blanked');
        const editing = await get(`${EVENTS}?${WINDOW}&search=zebra&context=edit`, editor.authorization);
        assert.deepEqual(ids(editing), [hidden.id, open.id]);
        // Without the edit context an editor reads the list as everyone does.
        assert.deepEqual(ids(await get(`${EVENTS}?${WINDOW}&search=zebra`, editor.authorization)), [open.id]);
        // An author may not edit an editor's event: the edit context opens nothing for it.
        assert.deepEqual(ids(await get(`${EVENTS}?${WINDOW}&search=zebra&context=edit`, author.authorization)), [
          open.id,
        ]);
      });

      it('should count a registered search (per-day counts) as the list finds it', async () => {
        // One- and two-letter words are not indexed: the search is registered when it comes back.
        for (let i = 0; i < 3; i++) {
          const res = await get(`${EVENTS}?${WINDOW}&search=qz&per_page=1&page=1`);
          assert.equal(res.statusCode, 200, res.body);
          assert.equal(res.data.total, 1, `attempt ${i + 1}`);
          assert.deepEqual(ids(res), [open.id]);
        }
      });

      it('should not match a protected event by its venue, organizer, terms or flags for readers who have not opened it', async () => {
        const venueId = hidden.venue.id;
        const filters = [
          `venue=${venueId}`,
          `organizer=${hidden.organizer[0].id}`,
          'categories=galas',
          'tags=harbour',
          'featured=1',
          `venue=${venueId}&featured=1`,
          'categories=galas&featured=true',
        ];
        for (const filter of filters) {
          const res = await get(`${EVENTS}?${WINDOW}&${filter}`);
          assert.equal(res.statusCode, 200, `${filter}: ${res.body}`);
          assert.deepEqual(ids(res), [open.id], filter);
          assert.equal(res.data.total, 1, filter);
          assert.equal(res.headers['x-cal-total'], '1', filter);
          const editing = await get(`${EVENTS}?${WINDOW}&${filter}&context=edit`, editor.authorization);
          assert.deepEqual(ids(editing), [hidden.id, open.id], `${filter} in edit context`);
          assert.equal(editing.data.total, 2, filter);
        }
        // Listed without filters, blanked: its date and title are public, its venue is not.
        const all = await get(`${EVENTS}?${WINDOW}`);
        assert.deepEqual(ids(all), [hidden.id, open.id]);
        assert.deepEqual(all.data.events.find((e: any) => e.id === hidden.id).venue, []);
      });

      it('should move the counts when the password is removed or set again', async () => {
        const atVenue = () => get(`${EVENTS}?${WINDOW}&venue=${hidden.venue.id}`);
        const unlock = await t.request({
          method: 'POST',
          url: `${EVENTS}/${hidden.id}`,
          auth: editor.authorization,
          payload: { password: '' },
        });
        assert.equal(unlock.statusCode, 200, unlock.body);
        assert.deepEqual(ids(await atVenue()), [hidden.id, open.id]);
        assert.equal((await atVenue()).data.total, 2);
        assert.deepEqual(ids(await get(`${EVENTS}?${WINDOW}&search=qz`)), [hidden.id, open.id]);
        const lock = await t.request({
          method: 'POST',
          url: `${EVENTS}/${hidden.id}`,
          auth: editor.authorization,
          payload: { password: 'sesame' },
        });
        assert.equal(lock.statusCode, 200, lock.body);
        assert.deepEqual(ids(await atVenue()), [open.id]);
        assert.equal((await atVenue()).data.total, 1);
        assert.equal((await get(`${EVENTS}?${WINDOW}&search=qz`)).data.total, 1);
      });

      it("should not name a protected event's venue or organizer through the venue and organizer lists", async () => {
        const lonelyVenue = await create(`${NS}/venues`, { venue: 'Secret Cellar' });
        const lonelyOrganizer = await create(`${NS}/organizers`, { organizer: 'Secret Circle' });
        const secret = await create(EVENTS, {
          title: 'Cellar Night',
          password: 'sesame',
          start_date: '2031-05-12 20:00:00',
          end_date: '2031-05-12 23:00:00',
          venue: lonelyVenue.id,
          organizer: [lonelyOrganizer.id],
        });
        for (const [table, record] of [
          ['venues', lonelyVenue],
          ['organizers', lonelyOrganizer],
        ] as const) {
          const byEvent = await get(`${NS}/${table}?event=${secret.id}`);
          assert.equal(byEvent.statusCode, 200, byEvent.body);
          assert.equal(byEvent.data.total, 0, `${table}?event= of a protected event`);
          const withEvents = await get(`${NS}/${table}?has_events=true&per_page=50`);
          assert.ok(!withEvents.data[table].some((r: any) => r.id === record.id), `${table}?has_events=true`);
          const upcoming = await get(`${NS}/${table}?only_with_upcoming=true&per_page=50`);
          assert.ok(!upcoming.data[table].some((r: any) => r.id === record.id), `${table}?only_with_upcoming=true`);
          const editing = await get(`${NS}/${table}?event=${secret.id}&context=edit`, editor.authorization);
          assert.deepEqual(
            editing.data[table].map((r: any) => r.id),
            [record.id],
          );
        }
      });

      it("should not name a protected event's terms through the term lists, nor a draft's venue", async () => {
        for (const [route, key] of [
          ['categories', 'categories'],
          ['tags', 'tags'],
        ]) {
          for (const param of ['event', 'post']) {
            const res = await get(`${NS}/${route}?${param}=${hidden.id}`);
            assert.equal(res.statusCode, 200, res.body);
            assert.deepEqual(res.data[key], [], `${route}?${param}= of a protected event`);
          }
          const editing = await get(`${NS}/${route}?event=${hidden.id}&context=edit`, editor.authorization);
          assert.equal(editing.data[key].length, 1, `${route} in edit context`);
        }
        const draft = await create(EVENTS, {
          title: 'Unannounced',
          status: 'draft',
          start_date: '2031-05-13 20:00:00',
          end_date: '2031-05-13 21:00:00',
          venue: { venue: 'Undisclosed Barn' },
        });
        for (const route of ['venues', 'organizers', 'categories']) {
          const ofDraft = await get(`${NS}/${route}?event=${draft.id}`);
          const ofNothing = await get(`${NS}/${route}?event=99999999`);
          assert.equal(ofDraft.statusCode, 400, `${route}: ${ofDraft.body}`);
          assert.deepEqual(ofDraft.data, ofNothing.data, route);
        }
        assert.equal(
          (await get(`${NS}/venues?event=${draft.id}`, editor.authorization)).data.venues[0].venue,
          'Undisclosed Barn',
        );
      });

      it("should not show a protected event on its venue's and organizer's pages nor under the pages' filters", async () => {
        for (const url of [
          '/venue/quay-hall/',
          '/organizer/harbour-society/',
          '/events/month/2031-05/?venue=quay-hall',
          '/events/list/?venue=quay-hall',
          '/events/category/galas/',
          '/tag/harbour/',
        ]) {
          const res = await get(url);
          assert.equal(res.statusCode, 200, `${url}: ${res.body.slice(0, 200)}`);
          assert.ok(!res.body.includes('Harbour Gala'), `${url} shows the protected event`);
          assert.ok(res.body.includes('Open Quay Day'), `${url} lists the open event`);
        }
        // The month view without a filter lists it (title and date are public).
        assert.ok((await get('/events/month/2031-05/')).body.includes('Harbour Gala'));
      });
    });

    describe('wrong event passwords (CAL_AUTH_FAIL_LIMIT=3)', () => {
      let guarded: any;
      let other: any;
      before(async () => {
        guarded = await create(EVENTS, {
          title: 'Vault Tour',
          password: 'open sesame',
          start_date: '2031-06-01 10:00:00',
          end_date: '2031-06-01 11:00:00',
        });
        other = await create(EVENTS, {
          title: 'Crypt Tour',
          password: 'other',
          start_date: '2031-06-02 10:00:00',
          end_date: '2031-06-02 11:00:00',
        });
      });
      const read = (event: { id: number }, password: string, from: string, extra = '') =>
        get(`${EVENTS}/${event.id}?password=${encodeURIComponent(password)}${extra}`, undefined, from);

      it('should answer 429 with Retry-After after the limit, for the right password too, for that address and event only', async () => {
        for (let i = 0; i < 3; i++)
          assert.equal((await read(guarded, `guess${i}`, '10.9.0.1')).data.code, 'event-password-protected');
        for (const password of ['guess9', 'open sesame']) {
          const res = await read(guarded, password, '10.9.0.1');
          assert.equal(res.statusCode, 429, res.body);
          assert.equal(res.data.code, 'rest_too_many_requests');
          assert.equal(res.data.data.status, 429);
          const retryAfter = Number(res.headers['retry-after']);
          assert.ok(
            Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 60,
            `Retry-After ${String(res.headers['retry-after'])}`,
          );
        }
        // The same guesses through the calendar format are the same attempts.
        assert.equal((await read(guarded, 'guess10', '10.9.0.1', '&format=ical')).statusCode, 429);
        assert.equal((await read(guarded, 'open sesame', '10.9.0.2')).statusCode, 200);
        assert.equal((await read(other, 'other', '10.9.0.1')).statusCode, 200);
        // A read without a password is never limited.
        assert.equal(
          (await get(`${EVENTS}/${guarded.id}`, undefined, '10.9.0.1')).data.code,
          'event-password-protected',
        );
      });

      it('should count guesses sent all at once before checking them: no more than the limit are tried', async () => {
        const guesses = await Promise.all(
          Array.from({ length: 20 }, (_, i) => read(guarded, `parallel${i}`, '10.9.0.7')),
        );
        const statuses = guesses.map((res) => res.statusCode);
        assert.equal(statuses.filter((status) => status === 403).length, 3, statuses.join(' '));
        assert.equal(statuses.filter((status) => status === 429).length, 17, statuses.join(' '));
        // The same for application passwords: twenty different wrong passwords at once, three checked
        // (twenty copies of one header are one guess, verified once).
        const username = (await t.asUser('author', 'racer')).authorization;
        const wrong = (i: number) =>
          `Basic ${Buffer.from(`racer:AAAA BBBB CCCC DDDD EEEE ${String(i).padStart(4, 'F')}`).toString('base64')}`;
        const logins = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            t.request({ method: 'GET', url: '/', auth: wrong(i), remoteAddress: '10.9.0.8' }),
          ),
        );
        const loginStatuses = logins.map((res) => res.statusCode);
        assert.equal(loginStatuses.filter((status) => status === 401).length, 3, loginStatuses.join(' '));
        assert.equal(loginStatuses.filter((status) => status === 429).length, 17, loginStatuses.join(' '));
        // Right credentials from elsewhere are not held up by it.
        assert.equal(
          (await t.request({ method: 'GET', url: '/', auth: username, remoteAddress: '10.9.0.9' })).statusCode,
          200,
        );
      });

      it("should clear the pair's count on the right password", async () => {
        for (let i = 0; i < 2; i++) assert.equal((await read(guarded, 'wrong', '10.9.0.3')).statusCode, 403);
        assert.equal((await read(guarded, 'open sesame', '10.9.0.3')).statusCode, 200);
        for (let i = 0; i < 3; i++)
          assert.equal(
            (await read(guarded, `wrong${i}`, '10.9.0.3')).statusCode,
            403,
            `failure ${i + 1} after success`,
          );
        assert.equal((await read(guarded, 'wrong', '10.9.0.3')).statusCode, 429);
      });

      it('should limit guesses made through lists, which test a password against every event listed', async () => {
        const list = (password: string) =>
          get(`${EVENTS}?start_date=2031-06-01&end_date=2031-06-30&password=${password}`, undefined, '10.9.0.4');
        for (let i = 0; i < 3; i++) assert.equal((await list(`try${i}`)).statusCode, 200);
        const res = await list('other');
        assert.equal(res.statusCode, 429);
        assert.ok(res.headers['retry-after']);
        assert.equal(
          (await get(`${EVENTS}?start_date=2031-06-01&end_date=2031-06-30`, undefined, '10.9.0.4')).statusCode,
          200,
        );
      });

      it('should never limit a list whose password opens an event it shows, nor one that shows no protected event', async () => {
        for (let i = 0; i < 8; i++) {
          const opened = await get(
            `${EVENTS}?start_date=2031-06-01&end_date=2031-06-30&password=${encodeURIComponent('open sesame')}&n=${i}`,
            undefined,
            '10.9.0.6',
          );
          assert.equal(opened.statusCode, 200, `list ${i + 1} with the right password`);
          const nothingTested = await get(
            `${EVENTS}?start_date=2040-01-01&end_date=2040-01-31&password=nothing${i}`,
            undefined,
            '10.9.0.6',
          );
          assert.equal(nothingTested.statusCode, 200, `list ${i + 1} with no protected event`);
        }
      });

      it('should count the guesses made through every instance on the database as one', async () => {
        const storage = await connect({ dataDir: t.config.dataDir, databaseUrl: t.config.databaseUrl });
        const second = await buildApp(t.config, { storage, logger: false });
        try {
          const there = injector(second);
          const at = (request: typeof t.request, password: string) =>
            request({ method: 'GET', url: `${EVENTS}/${other.id}?password=${password}`, remoteAddress: '10.9.0.5' });
          assert.equal((await at(t.request, 'one')).statusCode, 403);
          assert.equal((await at(there, 'two')).statusCode, 403);
          assert.equal((await at(t.request, 'three')).statusCode, 403);
          assert.equal((await at(there, 'other')).statusCode, 429);
          // Application passwords too: three failures spread over both instances, then the right
          // password, which neither instance has verified yet.
          const spread = await t.asUser('author', 'spread');
          const wrong = `Basic ${Buffer.from('spread:wrong').toString('base64')}`;
          const root = (request: typeof t.request, auth: string) =>
            request({ method: 'GET', url: '/', remoteAddress: '10.9.0.6', auth });
          assert.equal((await root(there, wrong)).statusCode, 401);
          assert.equal((await root(t.request, wrong)).statusCode, 401);
          assert.equal((await root(there, wrong)).statusCode, 401);
          assert.equal((await root(t.request, spread.authorization)).statusCode, 429);
        } finally {
          await second.close();
          await storage.close();
        }
      });
    });

    describe('translation_of', () => {
      const missing = async (url: string, payload: Record<string, unknown>, auth: string) => {
        const res = await t.request({ method: 'POST', url, auth, payload });
        return { status: res.statusCode, body: res.data };
      };

      it('should answer a record the caller may not read as one that does not exist, and keep its rule to itself', async () => {
        const draftSeries = await create(
          EVENTS,
          {
            title: 'Board Meetings',
            status: 'draft',
            start_date: '2031-07-07 18:00:00',
            end_date: '2031-07-07 19:00:00',
            recurrence: { rrule: 'FREQ=WEEKLY;COUNT=4' },
          },
          admin.authorization,
        );
        const payload = (id: number) => ({
          title: 'Réunions',
          start_date: '2031-07-07 18:00:00',
          end_date: '2031-07-07 19:00:00',
          translation_of: id,
        });
        const hidden = await missing(`/fr${EVENTS}`, payload(draftSeries.id), contributor.authorization);
        const absent = await missing(`/fr${EVENTS}`, payload(99_999_999), contributor.authorization);
        assert.equal(hidden.status, 400);
        assert.deepEqual(hidden, absent);
        assert.ok(!JSON.stringify(hidden.body).includes('FREQ'));
        // Venues and organizers alike.
        for (const [table, name] of [
          ['venues', 'venue'],
          ['organizers', 'organizer'],
        ] as const) {
          const draft = await create(
            `${NS}/${table}`,
            { [name]: `Draft ${name}`, status: 'draft' },
            admin.authorization,
          );
          const a = await missing(
            `/fr${NS}/${table}`,
            { [name]: 'Brouillon', translation_of: draft.id },
            contributor.authorization,
          );
          const b = await missing(
            `/fr${NS}/${table}`,
            { [name]: 'Brouillon', translation_of: 99_999_999 },
            contributor.authorization,
          );
          assert.equal(a.status, 400, table);
          assert.deepEqual(a, b, table);
        }
      });

      it('should refuse with 403 a translation of a record the caller may read but not edit, and take no language slot', async () => {
        const published = await create(
          EVENTS,
          { title: 'Harbour Fireworks', start_date: '2031-07-14 22:00:00', end_date: '2031-07-14 23:00:00' },
          admin.authorization,
        );
        for (const user of [contributor, author]) {
          const res = await t.request({
            method: 'POST',
            url: `/fr${EVENTS}`,
            auth: user.authorization,
            payload: {
              title: 'Feu',
              start_date: '2031-07-14 22:00:00',
              end_date: '2031-07-14 23:00:00',
              translation_of: published.id,
            },
          });
          assert.equal(res.statusCode, 403, res.body);
          assert.equal(res.data.code, 'rest_cannot_edit');
        }
        const venue = await create(`${NS}/venues`, { venue: 'Lighthouse' }, admin.authorization);
        const refused = await t.request({
          method: 'POST',
          url: `/fr${NS}/venues`,
          auth: contributor.authorization,
          payload: { venue: 'Phare', translation_of: venue.id },
        });
        assert.equal(refused.statusCode, 403, refused.body);
        assert.deepEqual((await get(`${EVENTS}/${published.id}`)).data.translations, { en: published.id });
        // Contributors translate their own drafts; editors anyone's records.
        const own = await create(
          EVENTS,
          { title: 'My Draft', start_date: '2031-07-15 10:00:00', end_date: '2031-07-15 11:00:00' },
          contributor.authorization,
        );
        assert.equal(own.status, 'draft');
        await create(
          `/fr${EVENTS}`,
          {
            title: 'Mon brouillon',
            start_date: '2031-07-15 10:00:00',
            end_date: '2031-07-15 11:00:00',
            translation_of: own.id,
          },
          contributor.authorization,
        );
        const fr = await create(
          `/fr${EVENTS}`,
          {
            title: "Feu d'artifice",
            start_date: '2031-07-14 22:00:00',
            end_date: '2031-07-14 23:00:00',
            translation_of: published.id,
          },
          editor.authorization,
        );
        assert.deepEqual((await get(`${EVENTS}/${published.id}`)).data.translations, { en: published.id, fr: fr.id });
      });

      it('should name in translations and conflicts only the records the reader may read', async () => {
        const mine = await create(
          EVENTS,
          { title: 'Author Walk', start_date: '2031-08-01 10:00:00', end_date: '2031-08-01 12:00:00' },
          author.authorization,
        );
        assert.equal(mine.status, 'publish');
        const draftFr = await create(
          `/fr${EVENTS}`,
          {
            title: 'Promenade',
            status: 'draft',
            start_date: '2031-08-01 10:00:00',
            end_date: '2031-08-01 12:00:00',
            translation_of: mine.id,
          },
          editor.authorization,
        );
        assert.deepEqual((await get(`${EVENTS}/${mine.id}`)).data.translations, { en: mine.id });
        assert.deepEqual((await get(`${EVENTS}/${mine.id}`, author.authorization)).data.translations, { en: mine.id });
        assert.deepEqual((await get(`${EVENTS}/${mine.id}`, editor.authorization)).data.translations, {
          en: mine.id,
          fr: draftFr.id,
        });
        const listed = await get(`${EVENTS}?start_date=2031-08-01&end_date=2031-08-01`);
        assert.deepEqual(
          listed.data.events.map((e: any) => e.translations),
          [{ en: mine.id }],
        );

        const payload = {
          title: 'Balade',
          start_date: '2031-08-01 10:00:00',
          end_date: '2031-08-01 12:00:00',
          translation_of: mine.id,
        };
        const byAuthor = await t.request({ method: 'POST', url: `/fr${EVENTS}`, auth: author.authorization, payload });
        assert.equal(byAuthor.statusCode, 409, byAuthor.body);
        assert.equal(byAuthor.data.code, 'translation-exists');
        assert.ok(!JSON.stringify(byAuthor.data).includes(String(draftFr.id)), byAuthor.body);
        const byEditor = await t.request({ method: 'POST', url: `/fr${EVENTS}`, auth: editor.authorization, payload });
        assert.equal(byEditor.statusCode, 409);
        assert.equal(byEditor.data.data.existing, draftFr.id);
      });

      it("should embed a venue's draft translation for no one who may not read it", async () => {
        const venue = await create(`${NS}/venues`, { venue: 'Bandstand' }, editor.authorization);
        const draftFr = await create(
          `/fr${NS}/venues`,
          { venue: 'Kiosque (brouillon)', status: 'draft', translation_of: venue.id },
          editor.authorization,
        );
        const event = await create(
          EVENTS,
          { title: 'Brass Band', start_date: '2031-08-02 15:00:00', end_date: '2031-08-02 16:00:00', venue: venue.id },
          editor.authorization,
        );
        const anonymous = await get(`/fr${EVENTS}/${event.id}`);
        assert.equal(anonymous.data.venue.id, venue.id);
        assert.deepEqual(anonymous.data.venue.translations, { en: venue.id });
        assert.deepEqual((await get(`${NS}/venues/${venue.id}`)).data.translations, { en: venue.id });
        const asEditor = await get(`/fr${EVENTS}/${event.id}`, editor.authorization);
        assert.equal(asEditor.data.venue.id, draftFr.id);
      });
    });

    describe('extreme date windows', () => {
      it('should answer totals that match the list however far the window reaches', async () => {
        const made = [];
        for (let i = 0; i < 3; i++)
          made.push(
            (
              await create(`/it${EVENTS}`, {
                title: `Evento ${i}`,
                start_date: `2031-09-0${i + 1} 10:00:00`,
                end_date: `2031-09-0${i + 1} 11:00:00`,
              })
            ).id,
          );
        for (const window of [
          'start_date=0001-01-01&end_date=9999-12-31',
          'start_date=0000-01-01&end_date=9999-12-31',
          'end_date=9999-12-31&start_date=2000-01-01',
          'start_date=2000-01-01&end_date=999999999999',
          'start_date=0001-01-01&end_date=9999-12-31&strict_dates=true',
        ]) {
          const res = await get(`/it${EVENTS}?${window}`);
          assert.equal(res.statusCode, 200, `${window}: ${res.body}`);
          assert.deepEqual(ids(res), made, window);
          assert.equal(res.data.total, 3, window);
        }
      });
    });
  });
}
