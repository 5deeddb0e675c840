import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';

const NS = '/cal/events/v1';
const WINDOW = 'start_date=2030-06-01&end_date=2030-06-30';

for (const backend of backends()) {
  describe(`languages and translations [${backend}]`, () => {
    let t: TestApp;
    let auth: string;
    const en: Record<string, number> = {};
    const fr: Record<string, number> = {};

    const post = async (url: string, payload: Record<string, unknown>, status = 201) => {
      const res = await t.request({ method: 'POST', url, auth, payload });
      assert.equal(res.statusCode, status, `${url}: ${res.body}`);
      return res.data;
    };

    before(async () => {
      t = await createTestApp(backend);
      auth = (await t.asUser('editor')).authorization;
      en['venue'] = (await post(`${NS}/venues`, { venue: 'Town Hall', city: 'London' })).id;
      fr['venue'] = (
        await post(`/fr${NS}/venues`, { venue: 'Mairie', city: 'Londres', translation_of: en['venue'] })
      ).id;
      en['category'] = (await post(`${NS}/categories`, { name: 'Summer fair' })).id;
      fr['category'] = (
        await post(`${NS}/categories?i18n_language=fr`, { name: 'Fête d’été', translation_of: en['category'] })
      ).id;
      en['event'] = (
        await post(`${NS}/events`, {
          title: 'Summer fair',
          start_date: '2030-06-10 10:00:00',
          end_date: '2030-06-10 18:00:00',
          venue: en['venue'],
          categories: [en['category']],
        })
      ).id;
      fr['event'] = (
        await post(`/fr${NS}/events`, {
          title: 'Summer fair',
          start_date: '2030-06-10 10:00:00',
          end_date: '2030-06-10 18:00:00',
          venue: en['venue'],
          categories: [en['category']],
          translation_of: en['event'],
        })
      ).id;
    });
    after(() => t.close());

    it('should take a record back from the trash out of its group when its language was taken meanwhile', async () => {
      for (const [kind, name] of [
        ['venues', 'venue'],
        ['organizers', 'organizer'],
        ['events', 'title'],
      ] as const) {
        const extra = kind === 'events' ? { start_date: '2030-07-01 10:00:00', end_date: '2030-07-01 11:00:00' } : {};
        const source = await post(`${NS}/${kind}`, { [name]: `Source ${kind}`, ...extra });
        const first = await post(`/fr${NS}/${kind}`, {
          [name]: `Premier ${kind}`,
          translation_of: source.id,
          ...extra,
        });
        await t.request({ method: 'DELETE', url: `${NS}/${kind}/${first.id}`, auth });
        const second = await post(`/fr${NS}/${kind}`, {
          [name]: `Second ${kind}`,
          translation_of: source.id,
          ...extra,
        });
        assert.deepEqual(
          second.translations,
          { en: source.id, fr: second.id },
          'a trashed translation leaves its language free',
        );
        const restored = await t.request({
          method: 'POST',
          url: `/fr${NS}/${kind}/${first.id}`,
          auth,
          payload: { status: 'publish' },
        });
        assert.equal(restored.statusCode, 200, restored.body);
        assert.deepEqual(
          restored.data.translations,
          { fr: first.id },
          `${kind}: one live record per language in a group`,
        );
        const again = await t.request({ method: 'GET', url: `${NS}/${kind}/${source.id}`, auth });
        assert.deepEqual(again.data.translations, { en: source.id, fr: second.id });
      }
    });

    it('should link the translations both ways with their languages', async () => {
      const english = await t.request({ method: 'GET', url: `${NS}/events/${en['event']}` });
      assert.equal(english.data.i18n_language, 'en');
      assert.deepEqual(english.data.translations, { en: en['event'], fr: fr['event'] });
      const french = await t.request({ method: 'GET', url: `/fr${NS}/events/${fr['event']}` });
      assert.equal(french.data.i18n_language, 'fr');
      assert.deepEqual(french.data.translations, { en: en['event'], fr: fr['event'] });
      assert.equal(french.data.url, 'http://localhost:80/fr/event/summer-fair/');
      assert.equal(french.data.rest_url, `http://localhost:80/fr/cal/events/v1/events/${fr['event']}`);
      const venue = await t.request({ method: 'GET', url: `${NS}/venues/${fr['venue']}` });
      assert.deepEqual(venue.data.translations, { en: en['venue'], fr: fr['venue'] });
    });

    it('should show linked records in the request language', async () => {
      for (const url of [
        `/fr${NS}/events/${fr['event']}`,
        `${NS}/events/${fr['event']}?i18n_language=fr`,
        `/fr${NS}/events/${en['event']}`,
      ]) {
        const res = await t.request({ method: 'GET', url });
        assert.equal(res.data.venue.id, fr['venue'], url);
        assert.equal(res.data.venue.venue, 'Mairie', url);
        assert.equal(res.data.categories[0].id, fr['category'], url);
      }
      const english = await t.request({ method: 'GET', url: `${NS}/events/${en['event']}` });
      assert.equal(english.data.venue.id, en['venue']);
      assert.equal(english.data.categories[0].id, en['category']);
    });

    it('should list each language separately and read ids of any language', async () => {
      const english = await t.request({ method: 'GET', url: `${NS}/events?${WINDOW}` });
      assert.deepEqual(
        english.data.events.map((e: { id: number }) => e.id),
        [en['event']],
      );
      const french = await t.request({ method: 'GET', url: `/fr${NS}/events?${WINDOW}` });
      assert.deepEqual(
        french.data.events.map((e: { id: number }) => e.id),
        [fr['event']],
      );
      const italian = await t.request({ method: 'GET', url: `/it${NS}/events?${WINDOW}` });
      assert.equal(italian.data.total, 0);
      assert.equal((await t.request({ method: 'GET', url: `/it${NS}/events/${fr['event']}` })).statusCode, 200);
    });

    it('should match every translation when filtering by venue or category', async () => {
      const byVenue = await t.request({ method: 'GET', url: `/fr${NS}/events?${WINDOW}&venue=${en['venue']}` });
      assert.deepEqual(
        byVenue.data.events.map((e: { id: number }) => e.id),
        [fr['event']],
      );
      const byCategory = await t.request({
        method: 'GET',
        url: `/fr${NS}/events?${WINDOW}&categories=${en['category']}`,
      });
      assert.deepEqual(
        byCategory.data.events.map((e: { id: number }) => e.id),
        [fr['event']],
      );
    });

    it('should reuse slugs across languages and keep them unique within one', async () => {
      const english = await t.request({ method: 'GET', url: `${NS}/events/by-slug/summer-fair` });
      const french = await t.request({ method: 'GET', url: `/fr${NS}/events/by-slug/summer-fair` });
      assert.deepEqual([english.data.id, french.data.id], [en['event'], fr['event']]);
      const second = await post(`/fr${NS}/events`, {
        title: 'Summer fair',
        start_date: '2030-06-11 10:00:00',
        end_date: '2030-06-11 18:00:00',
      });
      assert.equal(second.slug, 'summer-fair-2');
    });

    it('should refuse bad translation links', async () => {
      const sameLanguage = await post(
        `${NS}/events`,
        {
          title: 'Same',
          start_date: '2030-06-11 10:00:00',
          end_date: '2030-06-11 18:00:00',
          translation_of: en['event'],
        },
        400,
      );
      assert.equal(sameLanguage.code, 'rest_invalid_param');
      const wrongKind = await post(
        `/de${NS}/events`,
        {
          title: 'Kind',
          start_date: '2030-06-11 10:00:00',
          end_date: '2030-06-11 18:00:00',
          translation_of: en['venue'],
        },
        400,
      );
      assert.ok(wrongKind.data.params.translation_of);
      const taken = await post(`/fr${NS}/venues`, { venue: 'Autre mairie', translation_of: en['venue'] }, 409);
      assert.equal(taken.code, 'translation-exists');
      const language = await t.request({ method: 'GET', url: `${NS}/events?i18n_language=pt` });
      assert.equal(language.statusCode, 400);
      assert.equal(language.data.code, 'rest_invalid_param');
      assert.equal((await t.request({ method: 'GET', url: `/pt${NS}/events` })).statusCode, 404);
    });

    it('should show two linked organizers of one group once, as their translation, in reads and in the create response', async () => {
      const english = await post(`${NS}/organizers`, { organizer: 'Choir' });
      const french = await post(`/fr${NS}/organizers`, { organizer: 'Chorale', translation_of: english.id });
      const payload = {
        title: 'Concert',
        start_date: '2030-06-14 20:00:00',
        end_date: '2030-06-14 22:00:00',
        organizer: [english.id, french.id],
        venue: en['venue'],
      };
      const created = await post(`/fr${NS}/events`, payload);
      assert.deepEqual(
        created.organizer.map((o: { id: number }) => o.id),
        [french.id],
      );
      assert.equal(created.venue.id, fr['venue'], 'the venue shows as its French translation');
      assert.deepEqual(created.organizer[0].translations, { en: english.id, fr: french.id });
      assert.deepEqual(created.translations, { fr: created.id });
      // A single read adds json_ld to linked records; the rest is what the create answered.
      const read = await t.request({ method: 'GET', url: `/fr${NS}/events/${created.id}` });
      const withoutJsonLd = ({ json_ld: _jsonLd, ...rest }: Record<string, unknown>) => rest;
      assert.deepEqual(read.data.organizer.map(withoutJsonLd), created.organizer);
      assert.deepEqual(withoutJsonLd(read.data.venue), created.venue);
      const inEnglish = await t.request({ method: 'GET', url: `${NS}/events/${created.id}` });
      assert.deepEqual(
        inEnglish.data.organizer.map((o: { id: number }) => o.id),
        [english.id],
      );
      const translated = await post(`${NS}/events`, { ...payload, translation_of: created.id });
      assert.deepEqual(
        translated.translations,
        { fr: created.id, en: translated.id },
        'a created translation answers its whole group',
      );
    });

    it('should take a record out of its group with translation_of null, leaving the rest linked', async () => {
      const a = await post(`${NS}/events`, {
        title: 'Grouped',
        start_date: '2030-06-12 10:00:00',
        end_date: '2030-06-12 18:00:00',
      });
      const b = await post(`/de${NS}/events`, {
        title: 'Gruppe',
        start_date: '2030-06-12 10:00:00',
        end_date: '2030-06-12 18:00:00',
        translation_of: a.id,
      });
      const c = await post(`/es${NS}/events`, {
        title: 'Grupo',
        start_date: '2030-06-12 10:00:00',
        end_date: '2030-06-12 18:00:00',
        translation_of: a.id,
      });
      const out = await t.request({
        method: 'PATCH',
        url: `${NS}/events/${c.id}`,
        auth,
        payload: { translation_of: null },
      });
      assert.deepEqual(out.data.translations, { es: c.id });
      const rest = await t.request({ method: 'GET', url: `${NS}/events/${a.id}` });
      assert.deepEqual(rest.data.translations, { en: a.id, de: b.id });
      const deleted = await t.request({ method: 'DELETE', url: `${NS}/events/${b.id}`, auth });
      assert.equal(deleted.statusCode, 200);
      assert.deepEqual((await t.request({ method: 'GET', url: `${NS}/events/${a.id}` })).data.translations, {
        en: a.id,
      });
    });
  });
}
