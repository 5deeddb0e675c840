import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../../helpers/app.js';
import { describeLinkedKind, insertEvent, linksOf, token, useKindApp } from '../../helpers/linked-suite.js';

const ORGANIZERS = '/cal/events/v1/organizers';

describeLinkedKind({
  table: 'organizers',
  nameField: 'organizer',
  label: 'Organizer',
  fullPayload: {
    description: 'A description',
    excerpt: 'An excerpt',
    date: '2024-02-03 04:05:06',
    status: 'publish',
    image: 'https://img.example.com/a.jpg',
    phone: '555-0100',
    website: 'https://org.example.com',
    email: 'org@example.com',
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
    'organizer',
    'description',
    'excerpt',
    'slug',
    'image',
    'phone',
    'website',
    'email',
    'global_id',
    'global_id_lineage',
    'i18n_language',
    'translations',
  ],
  badField: ['website', 'not a url'],
});

for (const backend of backends()) {
  describe(`organizer fields [${backend}]`, () => {
    const fx = useKindApp(backend, { table: 'organizers', nameField: 'organizer' });
    const create = (payload: Record<string, unknown>) => fx.create(payload);

    describe(`POST ${ORGANIZERS}`, () => {
      it("should answer the shape of the original's sample, with a Person json_ld on reads", async () => {
        const data = await create({
          organizer: 'Golden Organizer',
          phone: '555-0100',
          website: 'https://org.example.com',
          email: 'org@example.com',
        });
        const { id, author, date, date_utc, modified, modified_utc, ...rest } = data;
        assert.equal(author, String(fx.editor.id));
        for (const d of [date, date_utc, modified, modified_utc]) assert.match(d, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
        assert.deepEqual(rest, {
          status: 'publish',
          url: 'http://localhost:80/organizer/golden-organizer/',
          organizer: 'Golden Organizer',
          slug: 'golden-organizer',
          phone: '555-0100',
          website: 'https://org.example.com',
          email: 'org@example.com',
          global_id: `localhost?id=${id}`,
          global_id_lineage: [`localhost?id=${id}`],
          i18n_language: 'en',
          translations: { en: id },
        });
        const single = await fx.t.request({ method: 'GET', url: `${ORGANIZERS}/by-slug/golden-organizer` });
        assert.deepEqual(single.data.json_ld, {
          '@type': 'Person',
          name: 'Golden Organizer',
          description: '',
          url: 'https://org.example.com',
          telephone: '555-0100',
          email: 'org@example.com',
          sameAs: 'https://org.example.com',
        });
      });

      it('should answer 400 for a bad website, store any e-mail text as sent (trimmed), and accept empty ones', async () => {
        const res = await fx.t.request({
          method: 'POST',
          url: ORGANIZERS,
          auth: fx.editor.authorization,
          payload: { organizer: 'Bad', website: 'ftp://x', email: 'nope' },
        });
        assert.equal(res.statusCode, 400);
        assert.deepEqual(Object.keys(res.data.data.params), ['website']);
        const free = await create({ email: '  not an email  ' });
        assert.equal(free.email, 'not an email', 'the original stores free text');
        const single = await fx.t.request({ method: 'GET', url: `${ORGANIZERS}/${free.id}` });
        assert.equal(single.data.email, 'not an email');
        assert.equal(single.data.json_ld.email, '', 'JSON-LD gets an e-mail only when it is an address');
        const empty = await create({ website: '', email: '' });
        assert.equal('website' in empty, false);
        assert.equal('email' in empty, false);
      });
    });

    describe(`GET ${ORGANIZERS}`, () => {
      it('should search phone, e-mail and website', async () => {
        const word = token();
        const byPhone = await create({ phone: `+1 ${word}` });
        const byEmail = await create({ email: `${word}@example.com` });
        const byWebsite = await create({ website: `https://${word}.example.org` });
        const ids = async (search: string) =>
          (
            await fx.t.request({ method: 'GET', url: `${ORGANIZERS}?search=${encodeURIComponent(search)}` })
          ).data.organizers.map((o: any) => o.id);
        assert.deepEqual(
          (await ids(word)).sort((a: number, b: number) => a - b),
          [byPhone.id, byEmail.id, byWebsite.id],
        );
        assert.deepEqual(await ids(`${word} example.org`), [byWebsite.id]);
      });

      it('should filter by event and has_events through every organizer of an event', async () => {
        const word = token();
        const first = await create({ organizer: `${word} first` });
        const second = await create({ organizer: `${word} second` });
        const event = await insertEvent(fx.t, { organizerIds: [first.id, second.id] });
        const res = await fx.t.request({ method: 'GET', url: `${ORGANIZERS}?event=${event}` });
        assert.deepEqual(
          res.data.organizers.map((o: any) => o.id).sort((a: number, b: number) => a - b),
          [first.id, second.id],
        );
        assert.equal(
          (await fx.t.request({ method: 'GET', url: `${ORGANIZERS}?search=${word}&has_events=true` })).data.total,
          2,
        );
      });
    });

    describe(`DELETE ${ORGANIZERS}/:id`, () => {
      it('should remove only this organizer from an event that has several', async () => {
        const doomed = await create({});
        const kept = await create({});
        const event = await insertEvent(fx.t, { organizerIds: [doomed.id, kept.id] });
        const res = await fx.t.request({
          method: 'DELETE',
          url: `${ORGANIZERS}/${doomed.id}`,
          auth: fx.editor.authorization,
        });
        assert.equal(res.statusCode, 200);
        assert.deepEqual(await linksOf(fx.t, 'organizers', event), [kept.id]);
      });
    });
  });
}
