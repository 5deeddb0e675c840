import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';
import {
  applyTermInputs,
  embeddedTermsOf,
  embeddedTermsQuery,
  recountTerms,
  resolveTermInputs,
} from '../../../src/modules/terms/term.embed.js';
import { bumpDataVersion } from '../../../src/db/data-version.js';

const API = '/cal/events/v1';
const TERM_KEYS = [
  'id',
  'count',
  'description',
  'name',
  'slug',
  'taxonomy',
  'parent',
  'meta',
  'url',
  'urls',
  'i18n_language',
  'translations',
];
const TAG_KEYS = TERM_KEYS.filter((k) => k !== 'parent');
const withLinks = (keys: string[]) => [...keys.slice(0, -2), '_links', 'i18n_language', 'translations'];
const EMBEDDED_KEYS = [
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
  'i18n_language',
  'translations',
];

let counter = 0;
/** A token no other test uses, so a `search` isolates what a test created. */
const token = (): string => `tk${process.pid}x${(counter += 1)}q`;

for (const backend of backends()) {
  describe(`terms [${backend}]`, () => {
    let t: TestApp;
    let editor: string;
    let author: string;
    let contributor: string;
    let subscriber: string;
    let base: string;

    before(async () => {
      t = await createTestApp(backend);
      editor = (await t.asUser('editor')).authorization;
      author = (await t.asUser('author')).authorization;
      contributor = (await t.asUser('contributor')).authorization;
      subscriber = (await t.asUser('subscriber')).authorization;
      base = `http://localhost:80${API}`;
    });
    after(() => t.close());

    /** `auth` null: anonymous. */
    const create = (
      route: 'categories' | 'tags',
      payload: Record<string, unknown>,
      auth: string | null = editor,
      prefix = '',
    ) => t.request({ method: 'POST', url: `${prefix}${API}/${route}`, payload, auth: auth ?? undefined });
    const createOk = async (route: 'categories' | 'tags', payload: Record<string, unknown>, prefix = '') => {
      const res = await create(route, payload, editor, prefix);
      assert.equal(res.statusCode, 201, res.body);
      return res.data;
    };
    const list = (route: 'categories' | 'tags', query: string, prefix = '') =>
      t.request({ method: 'GET', url: `${prefix}${API}/${route}?${query}` });

    /** An event written straight to storage (the events routes are another module), linked to `termIds`. */
    const makeEvent = async (termIds: number[], status = 'publish', lang = 'en'): Promise<number> => {
      const db = t.storage.db;
      const { id } = await db.insertInto('posts').values({ type: 'event' }).returning('id').executeTakeFirstOrThrow();
      const at = '2030-01-01 10:00:00';
      await db
        .insertInto('events')
        .values({
          id,
          lang,
          trid: id,
          author: 0,
          status,
          password: '',
          slug: `event-${id}`,
          title: `Event ${id}`,
          description: '',
          excerpt: '',
          date: at,
          date_utc: at,
          modified: at,
          modified_utc: at,
          image_id: null,
          all_day: 0,
          start_local: at,
          end_local: at,
          start_utc: at,
          end_utc: at,
          timezone: 'UTC',
          timezone_abbr: 'UTC',
          cost: '[]',
          currency_symbol: '',
          currency_code: '',
          currency_position: '',
          website: null,
          show_map: 1,
          show_map_link: 1,
          hide_from_listings: 0,
          sticky: 0,
          featured: 0,
          venue_id: null,
          post_parent: null,
        })
        .execute();
      if (termIds.length > 0)
        await db
          .insertInto('event_terms')
          .values(termIds.map((termId) => ({ event_id: id, term_id: termId })))
          .execute();
      await recountTerms(db, termIds);
      await bumpDataVersion(db);
      return id;
    };
    const setEventStatus = async (eventId: number, status: string, termIds: number[]) => {
      await t.storage.db.updateTable('events').set({ status }).where('id', '=', eventId).execute();
      await recountTerms(t.storage.db, termIds);
      await bumpDataVersion(t.storage.db);
    };

    describe(`POST ${API}/categories`, () => {
      it('should create a category with the endpoint shape, in the original key order', async () => {
        const name = `Golden Category ${token()}`;
        const res = await create('categories', { name, description: 'Golden category description' });
        assert.equal(res.statusCode, 201);
        const id = res.data.id;
        assert.deepEqual(Object.keys(res.data), withLinks(TERM_KEYS));
        assert.equal(res.headers['location'], `${base}/categories/${id}`);
        const { _links: links, ...rest } = res.data;
        assert.deepEqual(rest, {
          id,
          count: 0,
          description: 'Golden category description',
          name,
          slug: name.toLowerCase().replace(/ /g, '-'),
          taxonomy: 'cal_events_cat',
          parent: 0,
          meta: [],
          url: `http://localhost:80/events/category/${rest.slug}/`,
          urls: { self: `${base}/categories/${id}`, collection: `${base}/categories` },
          i18n_language: 'en',
          translations: { en: id },
        });
        assert.deepEqual(links.self, [
          { href: `${base}/categories/${id}`, targetHints: { allow: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] } },
        ]);
        assert.deepEqual(links.collection, [{ href: `${base}/categories` }]);
        assert.deepEqual(links['wp:post_type'], [{ href: `${base}/events?categories=${id}` }]);
      });

      it('should require a name', async () => {
        const res = await create('categories', { description: 'x' });
        assert.equal(res.statusCode, 400);
        assert.equal(res.data.code, 'rest_missing_callback_param');
        assert.deepEqual(res.data.data.params, ['name']);
      });

      it('should refuse empty name, description and slug, naming each', async () => {
        const res = await create('categories', { name: '', description: '', slug: '' });
        assert.equal(res.statusCode, 400);
        assert.equal(res.data.code, 'rest_invalid_param');
        assert.deepEqual(Object.keys(res.data.data.params).sort(), ['description', 'name', 'slug']);
        const blank = await create('categories', { name: '   ' });
        assert.equal(blank.statusCode, 400);
        assert.deepEqual(Object.keys(blank.data.data.params), ['name']);
        const noLetters = await create('categories', { name: `N ${token()}`, slug: '!!!' });
        assert.equal(noLetters.statusCode, 400);
        assert.deepEqual(Object.keys(noLetters.data.data.params), ['slug']);
      });

      it('should refuse a duplicate name under the same parent with term_exists and the existing id', async () => {
        const name = `Dup ${token()}`;
        const first = await createOk('categories', { name });
        const again = await create('categories', { name: name.toUpperCase() });
        assert.equal(again.statusCode, 400);
        assert.deepEqual(again.data, {
          code: 'term_exists',
          message: 'A term with the name provided already exists with this parent.',
          data: { status: 400, term_id: first.id },
        });
      });

      it('should allow the same name under another parent, in another language, or with a free explicit slug', async () => {
        const name = `Same ${token()}`;
        const first = await createOk('categories', { name });
        const child = await createOk('categories', { name, parent: first.id });
        assert.equal(child.parent, first.id);
        assert.equal(child.slug, `${first.slug}-2`);
        assert.equal(child.urls.up, `${base}/categories/${first.id}`);
        const french = await createOk('categories', { name }, '/fr');
        assert.equal(french.slug, first.slug, 'slugs are unique per language');
        assert.equal(french.i18n_language, 'fr');
        assert.equal(french.url, `http://localhost:80/fr/events/category/${first.slug}/`);
        const explicit = await createOk('categories', { name, slug: `${first.slug}-other` });
        assert.equal(explicit.slug, `${first.slug}-other`);
        const taken = await create('categories', { name, slug: first.slug });
        assert.equal(taken.statusCode, 400, 'an explicit slug that is taken does not lift the rule');
        assert.equal(taken.data.code, 'term_exists');
      });

      it('should make slugs unique with -2, -3, including explicitly given ones', async () => {
        const slug = `slug-${token()}`;
        const a = await createOk('categories', { name: `A ${slug}`, slug });
        const b = await createOk('categories', { name: `B ${slug}`, slug });
        const c = await createOk('categories', { name: `C ${slug}`, slug: slug.toUpperCase() });
        assert.deepEqual([a.slug, b.slug, c.slug], [slug, `${slug}-2`, `${slug}-3`]);
        const symbols = await createOk('categories', { name: '!!! ???' });
        assert.equal(symbols.slug, String(symbols.id), 'a name without letters gets its id as slug, as in WordPress');
      });

      it('should refuse an unknown parent or a tag as parent, before the permission check', async () => {
        const tag = await createOk('tags', { name: `T ${token()}` });
        for (const [parent, auth] of [
          [999999, editor],
          [tag.id, editor],
          [999999, null],
        ] as const) {
          const res = await create('categories', { name: `P ${token()}`, parent }, auth);
          assert.equal(res.statusCode, 400);
          assert.equal(res.data.code, 'rest_invalid_param');
          assert.deepEqual(Object.keys(res.data.data.params), ['parent']);
        }
      });

      it('should keep formatting and strip scripts for editors and authors alike (issue 25)', async () => {
        const html = '<strong>Bold</strong><script>alert(1)</script>';
        const byEditor = await createOk('categories', { name: `H ${token()}`, description: html });
        assert.equal(byEditor.description, '<strong>Bold</strong>');
        const byAuthor = await create('categories', { name: `H ${token()}`, description: html }, author);
        assert.equal(byAuthor.statusCode, 201);
        assert.equal(byAuthor.data.description, '<strong>Bold</strong>');
      });

      it('should trim names and accept form-encoded bodies', async () => {
        const name = `Form ${token()}`;
        const res = await t.request({
          method: 'POST',
          url: `${API}/categories`,
          auth: editor,
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: `name=${encodeURIComponent(`  ${name} `)}`,
        });
        assert.equal(res.statusCode, 201, res.body);
        assert.equal(res.data.name, name);
      });
    });

    describe(`POST ${API}/tags`, () => {
      it('should create a tag without parent', async () => {
        const name = `golden-tag-${token()}`;
        const res = await create('tags', { name });
        assert.equal(res.statusCode, 201);
        assert.deepEqual(Object.keys(res.data), withLinks(TAG_KEYS));
        assert.equal(res.data.taxonomy, 'post_tag');
        assert.equal(res.data.description, '');
        assert.equal(res.data.url, `http://localhost:80/tag/${name}/`);
        assert.deepEqual(res.data.urls, { self: `${base}/tags/${res.data.id}`, collection: `${base}/tags` });
      });

      it('should create one tag of a name sent by concurrent requests, and refuse the others as term_exists', async () => {
        const name = `Concurrent ${token()}`;
        const results = await Promise.all(Array.from({ length: 6 }, () => create('tags', { name })));
        const codes = results.map((r) => r.statusCode).sort();
        assert.deepEqual(codes, [201, 400, 400, 400, 400, 400], results.map((r) => r.body).join('\n'));
        for (const refused of results.filter((r) => r.statusCode === 400))
          assert.equal(refused.data.code, 'term_exists');
      });

      it('should refuse a parent: the taxonomy is not hierarchical', async () => {
        const res = await create('tags', { name: `T ${token()}`, parent: 0 });
        assert.equal(res.statusCode, 400);
        assert.deepEqual(res.data, {
          code: 'rest_taxonomy_not_hierarchical',
          message: 'Can not set resource parent, taxonomy is not hierarchical.',
          data: { status: 400 },
        });
      });

      it('should refuse a duplicate name in the taxonomy, not across taxonomies', async () => {
        const name = `Shared ${token()}`;
        const category = await createOk('categories', { name });
        const tag = await createOk('tags', { name });
        assert.equal(tag.slug, category.slug, 'slugs are unique per taxonomy');
        const again = await create('tags', { name });
        assert.equal(again.statusCode, 400);
        assert.deepEqual(again.data, {
          code: 'term_exists',
          message: 'A term with the name provided already exists in this taxonomy.',
          data: { status: 400, term_id: tag.id },
        });
      });
    });

    describe('permissions', () => {
      it('should let authors manage categories but not tags', async () => {
        const category = await create('categories', { name: `A ${token()}` }, author);
        assert.equal(category.statusCode, 201);
        const tag = await create('tags', { name: `A ${token()}` }, author);
        assert.equal(tag.statusCode, 403);
        assert.equal(tag.data.code, 'rest_forbidden');
        const updated = await t.request({
          method: 'PATCH',
          url: `${API}/categories/${category.data.id}`,
          payload: { description: 'by author' },
          auth: author,
        });
        assert.equal(updated.statusCode, 200);
        const someTag = await createOk('tags', { name: `E ${token()}` });
        for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
          const res = await t.request({
            method,
            url: `${API}/tags/${someTag.id}`,
            payload: method === 'DELETE' ? undefined : { description: 'x' },
            auth: author,
          });
          assert.equal(res.statusCode, 403, method);
        }
        const deleted = await t.request({
          method: 'DELETE',
          url: `${API}/categories/${category.data.id}`,
          auth: author,
        });
        assert.equal(deleted.statusCode, 200);
      });

      it('should refuse contributors and subscribers with 403 and anonymous callers with 401', async () => {
        const category = await createOk('categories', { name: `R ${token()}` });
        const tag = await createOk('tags', { name: `R ${token()}` });
        for (const [auth, status] of [
          [contributor, 403],
          [subscriber, 403],
          [null, 401],
        ] as const) {
          for (const route of ['categories', 'tags'] as const) {
            const created = await create(route, { name: `X ${token()}` }, auth);
            assert.equal(created.statusCode, status, `create ${route}`);
            assert.equal(created.data.code, 'rest_forbidden');
            const id = route === 'categories' ? category.id : tag.id;
            const updated = await t.request({
              method: 'PUT',
              url: `${API}/${route}/${id}`,
              payload: { name: 'x' },
              auth: auth ?? undefined,
            });
            assert.equal(updated.statusCode, status, `update ${route}`);
            const deleted = await t.request({
              method: 'DELETE',
              url: `${API}/${route}/${id}`,
              auth: auth ?? undefined,
            });
            assert.equal(deleted.statusCode, status, `delete ${route}`);
          }
        }
        const read = await t.request({ method: 'GET', url: `${API}/tags/${tag.id}` });
        assert.equal(read.statusCode, 200, 'reads are public');
        assert.deepEqual(read.data._links.self[0].targetHints, { allow: ['GET'] });
      });

      it('should validate before checking permissions', async () => {
        const res = await create('tags', { name: '' }, null);
        assert.equal(res.statusCode, 400);
        const unknown = await t.request({ method: 'DELETE', url: `${API}/tags/999999` });
        assert.equal(unknown.statusCode, 404);
        assert.equal(unknown.data.code, 'rest_term_invalid');
        const missing = await create('categories', {}, contributor);
        assert.equal(missing.statusCode, 400);
      });
    });

    describe(`GET ${API}/categories/:id`, () => {
      it('should answer the term with _links', async () => {
        const parent = await createOk('categories', { name: `Parent ${token()}` });
        const child = await createOk('categories', { name: `Child ${token()}`, parent: parent.id });
        const res = await t.request({ method: 'GET', url: `${API}/categories/${child.id}` });
        assert.equal(res.statusCode, 200);
        assert.deepEqual(Object.keys(res.data), withLinks(TERM_KEYS));
        assert.deepEqual(res.data.urls.up, `${base}/categories/${parent.id}`);
        assert.deepEqual(res.data._links.up, [{ href: `${base}/categories/${parent.id}`, embeddable: true }]);
        assert.equal(res.data.parent, parent.id);
      });

      it('should answer 404 rest_term_invalid for an unknown id or a term of the other taxonomy', async () => {
        const tag = await createOk('tags', { name: `T ${token()}` });
        for (const url of [`${API}/categories/999999`, `${API}/categories/${tag.id}`, `${API}/tags/0`]) {
          const res = await t.request({ method: 'GET', url });
          assert.equal(res.statusCode, 404, url);
          assert.deepEqual(res.data, {
            code: 'rest_term_invalid',
            message: 'Term does not exist.',
            data: { status: 404 },
          });
        }
      });

      it('should answer a term of another language by id, with its translations', async () => {
        const en = await createOk('categories', { name: `Music ${token()}` });
        const fr = await createOk('categories', { name: `Musique ${token()}`, translation_of: en.id }, '/fr');
        const res = await t.request({ method: 'GET', url: `${API}/categories/${fr.id}` });
        assert.equal(res.statusCode, 200);
        assert.equal(res.data.i18n_language, 'fr');
        assert.deepEqual(res.data.translations, { en: en.id, fr: fr.id });
        assert.equal(res.data.url, `http://localhost:80/fr/events/category/${fr.slug}/`);
      });

      it('should honour _fields', async () => {
        const tag = await createOk('tags', { name: `F ${token()}` });
        const res = await t.request({ method: 'GET', url: `${API}/tags/${tag.id}?_fields=id,name` });
        assert.deepEqual(res.data, { id: tag.id, name: tag.name });
      });
    });

    describe(`POST|PUT|PATCH ${API}/categories/:id`, () => {
      it('should change only the fields sent, with any of the three methods', async () => {
        const term = await createOk('categories', { name: `Up ${token()}`, description: 'first' });
        const post = await t.request({
          method: 'POST',
          url: `${API}/categories/${term.id}`,
          payload: { description: 'second' },
          auth: editor,
        });
        assert.equal(post.statusCode, 200);
        assert.deepEqual(Object.keys(post.data), withLinks(TERM_KEYS));
        assert.equal(post.data.name, term.name);
        assert.equal(post.data.description, 'second');
        const put = await t.request({
          method: 'PUT',
          url: `${API}/categories/${term.id}`,
          payload: { name: `${term.name} renamed` },
          auth: editor,
        });
        assert.equal(put.data.name, `${term.name} renamed`);
        assert.equal(put.data.slug, term.slug, 'a rename keeps the slug');
        assert.equal(put.data.description, 'second');
        const patch = await t.request({
          method: 'PATCH',
          url: `${API}/categories/${term.id}`,
          payload: { slug: `${term.slug}-new` },
          auth: editor,
        });
        assert.equal(patch.data.slug, `${term.slug}-new`);
        assert.equal(patch.data.url, `http://localhost:80/events/category/${term.slug}-new/`);
      });

      it('should suffix a taken slug and keep its own', async () => {
        const a = await createOk('categories', { name: `SA ${token()}` });
        const b = await createOk('categories', { name: `SB ${token()}` });
        const res = await t.request({
          method: 'PATCH',
          url: `${API}/categories/${b.id}`,
          payload: { slug: a.slug },
          auth: editor,
        });
        assert.equal(res.data.slug, `${a.slug}-2`);
        const same = await t.request({
          method: 'PATCH',
          url: `${API}/categories/${a.id}`,
          payload: { slug: a.slug },
          auth: editor,
        });
        assert.equal(same.data.slug, a.slug);
      });

      it('should move a category and refuse loops, unknown parents and empty values', async () => {
        const root = await createOk('categories', { name: `Root ${token()}` });
        const mid = await createOk('categories', { name: `Mid ${token()}`, parent: root.id });
        const leaf = await createOk('categories', { name: `Leaf ${token()}`, parent: mid.id });
        for (const parent of [root.id, leaf.id]) {
          const loop = await t.request({
            method: 'PATCH',
            url: `${API}/categories/${root.id}`,
            payload: { parent },
            auth: editor,
          });
          assert.equal(loop.statusCode, 400, `parent ${parent}`);
          assert.deepEqual(Object.keys(loop.data.data.params), ['parent']);
        }
        const unknown = await t.request({
          method: 'PATCH',
          url: `${API}/categories/${leaf.id}`,
          payload: { parent: 999999 },
          auth: editor,
        });
        assert.equal(unknown.statusCode, 400);
        const empty = await t.request({
          method: 'PATCH',
          url: `${API}/categories/${leaf.id}`,
          payload: { name: '' },
          auth: editor,
        });
        assert.equal(empty.statusCode, 400);
        const moved = await t.request({
          method: 'PATCH',
          url: `${API}/categories/${leaf.id}`,
          payload: { parent: 0 },
          auth: editor,
        });
        assert.equal(moved.data.parent, 0);
        assert.equal(moved.data.urls.up, undefined);
      });

      it('should refuse a parent on a tag and answer 404 for an unknown id', async () => {
        const tag = await createOk('tags', { name: `P ${token()}` });
        const parent = await t.request({
          method: 'PATCH',
          url: `${API}/tags/${tag.id}`,
          payload: { parent: 1 },
          auth: editor,
        });
        assert.equal(parent.data.code, 'rest_taxonomy_not_hierarchical');
        for (const auth of [editor, undefined]) {
          const res = await t.request({ method: 'PATCH', url: `${API}/tags/999999`, payload: { name: 'x' }, auth });
          assert.equal(res.statusCode, 404);
          assert.equal(res.data.code, 'rest_term_invalid');
        }
        const category = await createOk('categories', { name: `C ${token()}` });
        const wrong = await t.request({
          method: 'PATCH',
          url: `${API}/tags/${category.id}`,
          payload: { name: 'x' },
          auth: editor,
        });
        assert.equal(wrong.statusCode, 404);
      });
    });

    describe(`DELETE ${API}/categories/:id`, () => {
      it('should delete for good, answer the term as it was, re-parent children and unlink events', async () => {
        const grand = await createOk('categories', { name: `G ${token()}` });
        const term = await createOk('categories', { name: `D ${token()}`, parent: grand.id });
        const child = await createOk('categories', { name: `DC ${token()}`, parent: term.id });
        const eventId = await makeEvent([term.id, child.id]);
        const res = await t.request({ method: 'DELETE', url: `${API}/categories/${term.id}`, auth: editor });
        assert.equal(res.statusCode, 200);
        assert.deepEqual(Object.keys(res.data), TERM_KEYS, 'no _links on delete');
        assert.equal(res.data.count, 1, 'as it was');
        assert.equal(res.data.parent, grand.id);
        const again = await t.request({ method: 'GET', url: `${API}/categories/${term.id}` });
        assert.equal(again.statusCode, 404);
        const second = await t.request({ method: 'DELETE', url: `${API}/categories/${term.id}`, auth: editor });
        assert.equal(second.statusCode, 404);
        const moved = await t.request({ method: 'GET', url: `${API}/categories/${child.id}` });
        assert.equal(moved.data.parent, grand.id);
        const links = await t.storage.db
          .selectFrom('event_terms')
          .select('term_id')
          .where('event_id', '=', eventId)
          .execute();
        assert.deepEqual(
          links.map((l) => l.term_id),
          [child.id],
        );
      });

      it('should delete a tag and keep its translations grouped', async () => {
        const en = await createOk('tags', { name: `DT ${token()}` });
        const fr = await createOk('tags', { name: `DT ${token()}`, translation_of: en.id }, '/fr');
        const it_ = await createOk('tags', { name: `DT ${token()}`, translation_of: en.id }, '/it');
        const res = await t.request({ method: 'DELETE', url: `${API}/tags/${en.id}`, auth: editor });
        assert.equal(res.statusCode, 200);
        assert.deepEqual(Object.keys(res.data), TAG_KEYS);
        assert.deepEqual(res.data.translations, { en: en.id, fr: fr.id, it: it_.id });
        const left = await t.request({ method: 'GET', url: `${API}/tags/${fr.id}` });
        assert.deepEqual(left.data.translations, { fr: fr.id, it: it_.id });
      });
    });

    describe('translations', () => {
      it('should link a translation with translation_of and refuse bad ones', async () => {
        const en = await createOk('categories', { name: `Tr ${token()}` });
        const fr = await createOk('categories', { name: `Tr ${token()}`, translation_of: en.id, i18n_language: 'fr' });
        assert.equal(fr.i18n_language, 'fr');
        assert.deepEqual(fr.translations, { en: en.id, fr: fr.id });
        const read = await t.request({ method: 'GET', url: `${API}/categories/${en.id}` });
        assert.deepEqual(read.data.translations, { en: en.id, fr: fr.id });

        const sameLang = await create('categories', { name: `Tr ${token()}`, translation_of: en.id });
        assert.equal(sameLang.statusCode, 400);
        assert.deepEqual(Object.keys(sameLang.data.data.params), ['translation_of']);
        const taken = await create('categories', { name: `Tr ${token()}`, translation_of: en.id }, editor, '/fr');
        assert.equal(taken.statusCode, 409);
        assert.equal(taken.data.code, 'translation-exists');
        const tag = await createOk('tags', { name: `Tr ${token()}` });
        const otherTaxonomy = await create(
          'categories',
          { name: `Tr ${token()}`, translation_of: tag.id },
          editor,
          '/fr',
        );
        assert.equal(otherTaxonomy.statusCode, 400);
        const unknown = await create('categories', { name: `Tr ${token()}`, translation_of: 999999 }, editor, '/fr');
        assert.equal(unknown.statusCode, 400);
      });

      it('should join and leave a group on update', async () => {
        const en = await createOk('tags', { name: `Grp ${token()}` });
        const fr = await createOk('tags', { name: `Grp ${token()}` }, '/fr');
        const de = await createOk('tags', { name: `Grp ${token()}` }, '/de');
        const joined = await t.request({
          method: 'PATCH',
          url: `${API}/tags/${fr.id}`,
          payload: { translation_of: en.id },
          auth: editor,
        });
        assert.equal(joined.statusCode, 200);
        assert.deepEqual(joined.data.translations, { en: en.id, fr: fr.id });
        const again = await t.request({
          method: 'PATCH',
          url: `${API}/tags/${fr.id}`,
          payload: { translation_of: de.id },
          auth: editor,
        });
        assert.equal(again.statusCode, 409);
        // The group's first member leaves: the others stay together.
        await t.request({
          method: 'PATCH',
          url: `${API}/tags/${de.id}`,
          payload: { translation_of: en.id },
          auth: editor,
        });
        const left = await t.request({
          method: 'PATCH',
          url: `${API}/tags/${en.id}`,
          payload: { translation_of: null },
          auth: editor,
        });
        assert.deepEqual(left.data.translations, { en: en.id });
        const rest = await t.request({ method: 'GET', url: `${API}/tags/${de.id}` });
        assert.deepEqual(rest.data.translations, { fr: fr.id, de: de.id });
      });
    });

    describe(`GET ${API}/categories and ${API}/tags`, () => {
      it('should answer the envelope in the original key order with the total headers', async () => {
        const tk = token();
        const term = await createOk('categories', { name: `Env ${tk}` });
        await makeEvent([term.id]);
        const res = await list('categories', `search=${tk}`);
        assert.equal(res.statusCode, 200);
        assert.deepEqual(Object.keys(res.data), ['rest_url', 'total', 'total_pages', 'categories']);
        assert.equal(res.data.rest_url, `${base}/categories/`);
        assert.equal(res.data.total, 1);
        assert.equal(res.data.total_pages, 1);
        assert.equal(res.headers['x-cal-total'], '1');
        assert.equal(res.headers['x-cal-totalpages'], '1');
        assert.deepEqual(Object.keys(res.data.categories[0]), TERM_KEYS, 'list items have no _links');
        const tags = await list('tags', `search=${tk}`);
        assert.deepEqual(Object.keys(tags.data), ['rest_url', 'total', 'total_pages', 'tags']);
        assert.equal(tags.data.rest_url, `${base}/tags/`);
        assert.equal(tags.data.total, 0);
        assert.equal(tags.data.total_pages, 0);
      });

      it('should page with next and previous links that carry only the page', async () => {
        const tk = token();
        for (const n of [1, 2, 3, 4, 5]) await createOk('tags', { name: `Page ${tk} ${n}` });
        const first = await list('tags', `search=${tk}&per_page=2&hide_empty=false`);
        assert.deepEqual(
          first.data.tags.map((x: { name: string }) => x.name),
          [`Page ${tk} 1`, `Page ${tk} 2`],
        );
        assert.equal(first.data.total, 5);
        assert.equal(first.data.total_pages, 3);
        assert.equal(first.data.next_rest_url, `${base}/tags/?page=2`);
        assert.equal(first.data.previous_rest_url, undefined);
        const second = await list('tags', `search=${tk}&per_page=2&page=2&hide_empty=false`);
        assert.deepEqual(Object.keys(second.data), [
          'rest_url',
          'total',
          'total_pages',
          'tags',
          'next_rest_url',
          'previous_rest_url',
        ]);
        assert.equal(second.data.previous_rest_url, `${base}/tags/`);
        const third = await list('tags', `search=${tk}&per_page=2&page=3&hide_empty=false`);
        assert.equal(third.data.tags.length, 1);
        assert.equal(third.data.next_rest_url, undefined);
        assert.equal(third.data.previous_rest_url, `${base}/tags/?page=2`);
        const past = await list('tags', `search=${tk}&per_page=2&page=9&hide_empty=false`);
        assert.equal(past.statusCode, 200);
        assert.deepEqual(past.data.tags, []);
        assert.equal(past.data.total, 5);
      });

      it('should clamp per_page to 50 and refuse non-positive page values', async () => {
        const res = await list('tags', 'per_page=500&hide_empty=false');
        assert.equal(res.statusCode, 200);
        assert.ok(res.data.tags.length <= 50);
        assert.equal(res.data.total_pages, Math.ceil(res.data.total / 50));
        for (const query of ['per_page=0', 'page=0', 'page=x']) {
          const bad = await list('tags', query);
          assert.equal(bad.statusCode, 400, query);
          assert.equal(bad.data.code, 'rest_invalid_param');
        }
      });

      it('should search name or slug, case-insensitively, with wildcards taken literally', async () => {
        const tk = token();
        const byName = await createOk('categories', { name: `Fancy ${tk.toUpperCase()} Name` });
        const bySlug = await createOk('categories', { name: `Other ${token()}`, slug: `s-${tk}` });
        await createOk('categories', { name: `100% ${token()}` });
        const res = await list('categories', `search=${tk}&hide_empty=0`);
        assert.deepEqual(res.data.categories.map((c: { id: number }) => c.id).sort(), [byName.id, bySlug.id].sort());
        const percent = await list('categories', `search=${encodeURIComponent('0%')}&hide_empty=0`);
        assert.ok(percent.data.categories.every((c: { name: string }) => c.name.includes('0%')));
        assert.ok(percent.data.total >= 1);
        const empty = await list('categories', 'search=');
        assert.equal(empty.statusCode, 400);
      });

      it('should hide empty terms by default, count only published events, and follow trash and restore', async () => {
        const tk = token();
        const used = await createOk('categories', { name: `Used ${tk}` });
        const unused = await createOk('categories', { name: `Unused ${tk}` });
        const draftOnly = await createOk('categories', { name: `Draft ${tk}` });
        const eventId = await makeEvent([used.id]);
        await makeEvent([draftOnly.id], 'draft');
        const names = async (query: string) =>
          (await list('categories', `search=${tk}&${query}`)).data.categories.map((c: { name: string }) => c.name);
        assert.deepEqual(await names(''), [`Used ${tk}`]);
        assert.deepEqual(await names('hide_empty=true'), [`Used ${tk}`]);
        assert.deepEqual(await names('hide_empty=false'), [`Draft ${tk}`, `Unused ${tk}`, `Used ${tk}`]);
        assert.deepEqual(await names('hide_empty=0'), [`Draft ${tk}`, `Unused ${tk}`, `Used ${tk}`]);
        assert.equal((await t.request({ method: 'GET', url: `${API}/categories/${used.id}` })).data.count, 1);
        assert.equal((await t.request({ method: 'GET', url: `${API}/categories/${unused.id}` })).data.count, 0);
        await setEventStatus(eventId, 'trash', [used.id]);
        assert.deepEqual(await names(''), []);
        assert.equal((await t.request({ method: 'GET', url: `${API}/categories/${used.id}` })).data.count, 0);
        await setEventStatus(eventId, 'publish', [used.id]);
        assert.deepEqual(await names(''), [`Used ${tk}`]);
        const bad = await list('categories', 'hide_empty=maybe');
        assert.equal(bad.statusCode, 400);
        assert.deepEqual(Object.keys(bad.data.data.params), ['hide_empty']);
      });

      it('should keep an empty category whose subcategory has events, as WordPress does', async () => {
        const tk = token();
        const top = await createOk('categories', { name: `Top ${tk}` });
        const mid = await createOk('categories', { name: `Mid ${tk}`, parent: top.id });
        const leaf = await createOk('categories', { name: `Leaf ${tk}`, parent: mid.id });
        await createOk('categories', { name: `Lone ${tk}` });
        await makeEvent([leaf.id]);
        const res = await list('categories', `search=${tk}`);
        assert.deepEqual(
          res.data.categories.map((c: { name: string }) => c.name),
          [`Leaf ${tk}`, `Mid ${tk}`, `Top ${tk}`],
        );
        assert.equal(res.data.total, 3);
        const children = await list('categories', `parent=${top.id}`);
        assert.deepEqual(
          children.data.categories.map((c: { id: number }) => c.id),
          [mid.id],
        );
      });

      it('should include and exclude ids, and refuse ids that are not terms of the taxonomy', async () => {
        const tk = token();
        const [a, b, c] = [
          await createOk('tags', { name: `Inc ${tk} a` }),
          await createOk('tags', { name: `Inc ${tk} b` }),
          await createOk('tags', { name: `Inc ${tk} c` }),
        ];
        const ids = (res: { data: { tags: { id: number }[] } }) => res.data.tags.map((x) => x.id);
        assert.deepEqual(ids(await list('tags', `hide_empty=0&include=${c.id},${a.id}`)), [a.id, c.id]);
        assert.deepEqual(ids(await list('tags', `hide_empty=0&include[]=${c.id}&include[]=${a.id}&orderby=include`)), [
          c.id,
          a.id,
        ]);
        assert.deepEqual(
          ids(await list('tags', `hide_empty=0&include=${c.id}&include=${a.id}&orderby=include&order=desc`)),
          [a.id, c.id],
        );
        assert.deepEqual(ids(await list('tags', `hide_empty=0&search=${tk}&exclude=${b.id}`)), [a.id, c.id]);
        const category = await createOk('categories', { name: `Inc ${tk}` });
        for (const query of [`include=${a.id},999999`, `exclude=${category.id}`, 'include=abc']) {
          const bad = await list('tags', query);
          assert.equal(bad.statusCode, 400, query);
          assert.equal(bad.data.code, 'rest_invalid_param');
        }
      });

      it('should order by each supported attribute, in either direction', async () => {
        const tk = token();
        const b = await createOk('categories', { name: `b ${tk}`, slug: `z-${tk}`, description: 'middle' });
        const a = await createOk('categories', { name: `A ${tk}`, slug: `y-${tk}`, description: 'zzz' });
        const c = await createOk('categories', { name: `C ${tk}`, slug: `x-${tk}`, description: 'aaa' });
        await makeEvent([a.id, b.id]);
        await makeEvent([a.id]);
        const order = async (query: string) =>
          (await list('categories', `search=${tk}&hide_empty=false&${query}`)).data.categories.map(
            (x: { id: number }) => x.id,
          );
        assert.deepEqual(await order(''), [a.id, b.id, c.id], 'name, case-insensitive, by default');
        assert.deepEqual(await order('orderby=name&order=DESC'), [c.id, b.id, a.id]);
        assert.deepEqual(await order('orderby=id'), [b.id, a.id, c.id]);
        assert.deepEqual(await order('orderby=id&order=desc'), [c.id, a.id, b.id]);
        assert.deepEqual(await order('orderby=slug'), [c.id, a.id, b.id]);
        assert.deepEqual(await order('orderby=count&order=desc'), [a.id, b.id, c.id]);
        assert.deepEqual(await order('orderby=count'), [c.id, b.id, a.id]);
        assert.deepEqual(await order('orderby=description'), [c.id, b.id, a.id]);
        assert.deepEqual(await order('orderby=term_group'), [b.id, a.id, c.id]);
        for (const query of ['order=', 'order=sideways', 'orderby=', 'orderby=popularity']) {
          const bad = await list('categories', query);
          assert.equal(bad.statusCode, 400, query);
          assert.equal(bad.data.code, 'rest_invalid_param');
        }
      });

      it('should filter by parent, and refuse an unknown parent', async () => {
        const parent = await createOk('categories', { name: `Par ${token()}` });
        const kid = await createOk('categories', { name: `Kid ${token()}`, parent: parent.id });
        await createOk('categories', { name: `Grandkid ${token()}`, parent: kid.id });
        const res = await list('categories', `parent=${parent.id}&hide_empty=0`);
        assert.deepEqual(
          res.data.categories.map((c: { id: number }) => c.id),
          [kid.id],
          'direct children only',
        );
        const top = await list('categories', 'parent=0&hide_empty=0&per_page=50');
        assert.ok(top.data.categories.every((c: { parent: number }) => c.parent === 0));
        const bad = await list('categories', 'parent=999999');
        assert.equal(bad.statusCode, 400);
        assert.deepEqual(Object.keys(bad.data.data.params), ['parent']);
      });

      it('should filter by event with post or event (event wins), refusing ids that are not events', async () => {
        const tk = token();
        const one = await createOk('tags', { name: `Ev ${tk} one` });
        const two = await createOk('tags', { name: `Ev ${tk} two` });
        const first = await makeEvent([one.id]);
        const second = await makeEvent([one.id, two.id]);
        const ids = async (query: string) => (await list('tags', query)).data.tags.map((x: { id: number }) => x.id);
        assert.deepEqual(await ids(`post=${first}`), [one.id]);
        assert.deepEqual(await ids(`event=${second}`), [one.id, two.id]);
        assert.deepEqual(await ids(`post=${first}&event=${second}`), [one.id, two.id]);
        for (const query of ['post=999999', `event=${one.id}`, 'event=abc']) {
          const bad = await list('tags', query);
          assert.equal(bad.statusCode, 400, query);
          assert.equal(bad.data.code, 'rest_invalid_param');
        }
      });

      it('should filter by exact slug', async () => {
        const slug = `exact-${token()}`;
        const term = await createOk('tags', { name: slug });
        await createOk('tags', { name: `${slug} longer` });
        const res = await list('tags', `slug=${slug}&hide_empty=0`);
        assert.deepEqual(
          res.data.tags.map((x: { id: number }) => x.id),
          [term.id],
        );
        assert.equal((await list('tags', 'slug=')).statusCode, 400);
      });

      it('should list only the terms of the request language', async () => {
        const tk = token();
        const en = await createOk('tags', { name: `Lang ${tk}` });
        const fr = await createOk('tags', { name: `Lang ${tk}`, translation_of: en.id }, '/fr');
        const ids = (res: { data: { tags: { id: number }[] } }) => res.data.tags.map((x) => x.id);
        assert.deepEqual(ids(await list('tags', `search=${tk}&hide_empty=0`)), [en.id]);
        assert.deepEqual(ids(await list('tags', `search=${tk}&hide_empty=0&i18n_language=fr`)), [fr.id]);
        const root = await list('tags', `search=${tk}&hide_empty=0`, '/fr');
        assert.deepEqual(ids(root), [fr.id]);
        assert.equal(root.data.rest_url, `http://localhost:80/fr${API}/tags/`);
        assert.deepEqual(root.data.tags[0].translations, { en: en.id, fr: fr.id });
        assert.equal((await list('tags', 'i18n_language=xx')).statusCode, 400);
      });

      it('should answer 405 with Allow for a method the route lacks', async () => {
        const res = await t.request({ method: 'PUT', url: `${API}/tags`, payload: {}, auth: editor });
        assert.equal(res.statusCode, 405);
        assert.equal(res.headers['allow'], 'GET, POST');
      });

      it('should ignore parent on tags', async () => {
        const res = await list('tags', 'parent=999999&hide_empty=0');
        assert.equal(res.statusCode, 200);
      });
    });

    describe('term.embed (used by the events module)', () => {
      it('should resolve ids, slugs and names, skipping unknown ids and collecting new names', async () => {
        const db = t.storage.db;
        const tk = token();
        const tag = await createOk('tags', { name: `Rock ${tk}` });
        const other = await createOk('tags', { name: `Jazz ${tk}`, slug: `jazz-slug-${tk}` });
        const category = await createOk('categories', { name: `Cat ${tk}` });
        const resolved = await resolveTermInputs(
          db,
          'post_tag',
          [tag.id, 999999, category.id, `jazz-slug-${tk}`, `ROCK ${tk}`, `New ${tk}`, `new ${tk}`, String(tag.id), ' '],
          'en',
        );
        assert.deepEqual(resolved, { ids: [tag.id, other.id], names: [`New ${tk}`] });
        assert.deepEqual(await resolveTermInputs(db, 'post_tag', `${tag.id}, Fresh ${tk} ,`, 'en'), {
          ids: [tag.id],
          names: [`Fresh ${tk}`],
        });
        for (const none of [null, '', []])
          assert.deepEqual(await resolveTermInputs(db, 'post_tag', none, 'en'), { ids: [], names: [] });
        assert.deepEqual(await resolveTermInputs(db, 'post_tag', [{ id: tag.id, name: 'ignored' }], 'en'), {
          ids: [tag.id],
          names: [],
        });
        for (const bad of [5, true, { id: 1 }, [true], [[1]], [{ name: 'x' }]])
          assert.equal(await resolveTermInputs(db, 'post_tag', bad, 'en'), null, JSON.stringify(bad));
        // Names are matched in the language asked for only.
        assert.deepEqual(await resolveTermInputs(db, 'post_tag', [`Rock ${tk}`], 'fr'), {
          ids: [],
          names: [`Rock ${tk}`],
        });
      });

      it('should create the new names with unique slugs, reusing names created meanwhile', async () => {
        const db = t.storage.db;
        const tk = token();
        const existing = await createOk('categories', { name: `Exists ${tk}` });
        const ids = await db
          .transaction()
          .execute((trx) =>
            applyTermInputs(
              trx,
              'cal_events_cat',
              { ids: [existing.id], names: [`Brand ${tk}`, `Exists ${tk}`, `Brand-${tk}`] },
              'fr',
            ),
          );
        assert.equal(ids.length, 3);
        assert.equal(ids[0], existing.id);
        const created = await db
          .selectFrom('terms')
          .selectAll()
          .where('id', 'in', ids.slice(1))
          .orderBy('id')
          .execute();
        assert.equal(created.length, 2);
        assert.equal(created[0]!.name, `Brand ${tk}`);
        assert.equal(created[0]!.slug, `brand-${tk}`);
        assert.equal(created[0]!.lang, 'fr');
        assert.equal(created[0]!.trid, created[0]!.id);
        assert.equal(created[0]!.taxonomy, 'cal_events_cat');
        assert.equal(created[1]!.name, `Exists ${tk}`, 'not found in French, so a French term is made');
        assert.equal(created[1]!.slug, existing.slug, 'slugs are per language');
        // Same slug in one request: one term.
        const same = await db
          .transaction()
          .execute((trx) =>
            applyTermInputs(trx, 'post_tag', { ids: [], names: [`Rock & Roll ${tk}`, `Rock Roll ${tk}`] }, 'en'),
          );
        assert.equal(same.length, 1);
        const again = await db
          .transaction()
          .execute((trx) => applyTermInputs(trx, 'post_tag', { ids: [], names: [`rock roll ${tk}`] }, 'en'));
        assert.deepEqual(again, same);
      });

      it("should embed each event's terms in the request language, ordered by name, in one query", async () => {
        const db = t.storage.db;
        // The events read this query within their one statement of embedded records (event.repository.ts).
        const loadEmbeddedTerms = async (_: unknown, ids: number[], ctx: { lang: string; base: string }) =>
          embeddedTermsOf(ids.length === 0 ? [] : await embeddedTermsQuery(db, ids, ctx.lang).execute(), ids, ctx);
        const tk = token();
        const zebra = await createOk('categories', { name: `zebra ${tk}` });
        const apple = await createOk('categories', { name: `Apple ${tk}`, parent: zebra.id });
        const appleFr = await createOk('categories', { name: `Pomme ${tk}`, translation_of: apple.id }, '/fr');
        const tag = await createOk('tags', { name: `Tag ${tk}` });
        const withTerms = await makeEvent([zebra.id, apple.id, tag.id]);
        const bare = await makeEvent([]);
        const ctx = { lang: 'fr', base: 'http://h/fr/cal/events/v1' };
        const { value: map, texts } = await t.queries.during(() => loadEmbeddedTerms(db, [withTerms, bare], ctx));
        assert.equal(texts.length, 1, texts.join('\n'));
        assert.deepEqual(map.get(bare), { categories: [], tags: [] });
        const { categories, tags } = map.get(withTerms)!;
        assert.deepEqual(
          categories.map((c) => c.id),
          [appleFr.id, zebra.id],
          'Pomme before zebra: translated, then ordered',
        );
        assert.deepEqual(Object.keys(categories[0]!), EMBEDDED_KEYS);
        assert.deepEqual(categories[1], {
          name: `zebra ${tk}`,
          slug: zebra.slug,
          term_group: 0,
          term_taxonomy_id: zebra.id,
          taxonomy: 'cal_events_cat',
          description: '',
          parent: 0,
          count: 1,
          filter: 'raw',
          id: zebra.id,
          urls: { self: `${ctx.base}/categories/${zebra.id}`, collection: `${ctx.base}/categories` },
          i18n_language: 'en',
          translations: { en: zebra.id },
        });
        assert.deepEqual(categories[0]!.translations, { en: apple.id, fr: appleFr.id });
        assert.deepEqual(
          tags.map((x) => x.id),
          [tag.id],
        );
        const english = (await loadEmbeddedTerms(db, [withTerms], { lang: 'en', base: 'http://h/cal/events/v1' })).get(
          withTerms,
        )!;
        assert.deepEqual(
          english.categories.map((c) => c.id),
          [apple.id, zebra.id],
        );
        assert.equal(english.categories[0]!.urls.up, `http://h/cal/events/v1/categories/${zebra.id}`);
        assert.equal((await loadEmbeddedTerms(db, [], ctx)).size, 0);
      });

      it('should recount published events in one statement', async () => {
        const db = t.storage.db;
        const term = await createOk('tags', { name: `Count ${token()}` });
        const published = await makeEvent([term.id]);
        await makeEvent([term.id], 'draft');
        await makeEvent([term.id]);
        await db.updateTable('terms').set({ count: 42 }).where('id', '=', term.id).execute();
        const { texts } = await t.queries.during(() => recountTerms(db, [term.id, term.id]));
        assert.equal(texts.length, 1, texts.join('\n'));
        const count = async () =>
          (await db.selectFrom('terms').select('count').where('id', '=', term.id).executeTakeFirstOrThrow()).count;
        assert.equal(await count(), 2);
        await setEventStatus(published, 'private', [term.id]);
        assert.equal(await count(), 1);
        await recountTerms(db, []);
      });
    });
  });
}
