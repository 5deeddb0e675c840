import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';

const NS = '/cal/events/v1';
const SITE = 'https://cal.example.org';

/**
 * A strict check that `text` is well-formed XML as the sitemaps write it: one declaration, tags
 * balanced and properly nested, attributes double-quoted, text and attributes with no raw `<` and
 * no `&` but the five entities. Returns the elements' names in order.
 */
function wellFormed(text: string): string[] {
  assert.ok(text.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n'), 'the XML declaration first');
  const body = text.slice(text.indexOf('?>') + 2);
  const token =
    /<(\/?)([A-Za-z][\w:.-]*)((?:\s+[A-Za-z][\w:.-]*="(?:[^"<&]|&(?:amp|lt|gt|quot|apos);)*")*)\s*(\/?)>|((?:[^<&]|&(?:amp|lt|gt|quot|apos);)+)/y;
  const stack: string[] = [];
  const names: string[] = [];
  let at = 0;
  while (at < body.length) {
    token.lastIndex = at;
    const match = token.exec(body);
    assert.ok(match, `not well-formed at ${at}: ${body.slice(at, at + 80)}`);
    at = token.lastIndex;
    const [, closing, name, , selfClosing, textPart] = match;
    if (textPart !== undefined) {
      if (stack.length === 0) assert.match(textPart, /^\s*$/, 'no text outside the root');
      continue;
    }
    if (closing) assert.equal(stack.pop(), name, `</${name}> closes what it opened`);
    else {
      assert.ok(stack.length > 0 || names.length === 0, 'one root element');
      names.push(name!);
      if (!selfClosing) stack.push(name!);
    }
  }
  assert.deepEqual(stack, [], 'every element closed');
  return names;
}

const locs = (xml: string): string[] =>
  [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));

for (const backend of backends()) {
  describe(`robots.txt and sitemaps [${backend}]`, () => {
    let t: TestApp;
    let admin: string;

    async function post(url: string, body: Record<string, unknown>): Promise<any> {
      const res = await t.request({ method: 'POST', url, payload: body, auth: admin });
      assert.ok(res.statusCode < 300, `${url}: ${res.statusCode} ${res.body}`);
      return res.data;
    }

    async function get(url: string, status = 200) {
      const res = await t.request({ method: 'GET', url });
      assert.equal(res.statusCode, status, `${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      return res;
    }

    before(async () => {
      // Three addresses a file: the paging shows with a handful of records.
      t = await createTestApp(backend, { CAL_SITE_URL: SITE, CAL_SITEMAP_PAGE_SIZE: '3' });
      admin = (await t.asUser('administrator')).authorization;
      const venue = (await post(`${NS}/venues`, { venue: 'Town Hall', city: 'Springfield' })).id;
      await post(`${NS}/venues`, { venue: 'Draft Hall', status: 'draft' });
      const organizer = (await post(`${NS}/organizers`, { organizer: 'Jazz & Co' })).id;
      const jazz = (await post(`${NS}/categories`, { name: 'Jazz' })).id;
      await post(`${NS}/categories`, { name: 'Empty category' });
      const tag = (await post(`${NS}/tags`, { name: 'outdoor' })).id;
      for (let i = 1; i <= 7; i += 1) {
        const event = await post(`${NS}/events`, {
          title: `Concert ${i}`,
          start_date: `2027-03-${String(10 + i).padStart(2, '0')} 19:00:00`,
          end_date: `2027-03-${String(10 + i).padStart(2, '0')} 21:00:00`,
          ...(i === 1 ? { venue, organizer: [organizer], categories: [jazz], tags: [tag] } : {}),
        });
        if (i === 1)
          await post(`/fr${NS}/events`, {
            title: 'Concert un',
            start_date: '2027-03-11 19:00:00',
            end_date: '2027-03-11 21:00:00',
            translation_of: event.id,
          });
      }
      await post(`${NS}/events`, {
        title: 'Secret Draft',
        status: 'draft',
        start_date: '2027-03-15 10:00:00',
        end_date: '2027-03-15 11:00:00',
      });
      await post(`${NS}/events`, {
        title: 'Unlisted',
        hide_from_listings: true,
        start_date: '2027-03-15 10:00:00',
        end_date: '2027-03-15 11:00:00',
      });
    });

    after(() => t.close());

    it('serves robots.txt: the pages allowed, the admin closed, the sitemap by its absolute address', async () => {
      const res = await get('/robots.txt');
      assert.match(String(res.headers['content-type']), /^text\/plain; charset=utf-8/);
      const lines = res.body.split('\n');
      assert.equal(lines[0], 'User-agent: *');
      assert.ok(lines.includes('Allow: /'));
      for (const path of ['/admin/', '/cal/admin/v1/', '/fr/cal/admin/v1/'])
        assert.ok(lines.includes(`Disallow: ${path}`), path);
      assert.ok(!lines.some((l) => /^Disallow: \/(events|event)\b/.test(l)), 'no page closed');
      assert.ok(lines.includes(`Sitemap: ${SITE}/sitemap.xml`));
      assert.equal(res.headers['cache-control'], 'public, max-age=0, must-revalidate');
    });

    it('serves robots.txt and the sitemaps at the root only, not under a language root', async () => {
      for (const url of ['/fr/robots.txt', '/fr/sitemap.xml', '/de/sitemap-de-1.xml', '/en/sitemap.xml'])
        await get(url, 404);
      await get('/sitemap-en-99.xml', 404);
      await get('/sitemap-xx-1.xml', 404);
    });

    it('serves a sitemap index naming every language’s files, each a well-formed urlset of at most the page size', async () => {
      const index = await get('/sitemap.xml');
      assert.match(String(index.headers['content-type']), /^application\/xml; charset=utf-8/);
      const names = wellFormed(index.body);
      assert.equal(names[0], 'sitemapindex');
      assert.match(index.body, /<sitemapindex xmlns="http:\/\/www\.sitemaps\.org\/schemas\/sitemap\/0\.9">/);
      const files = locs(index.body);
      // English: the views; 8 events in 3 files of 3; a venue, an organizer, a category, a tag.
      const english = files.filter((f) => f.startsWith(`${SITE}/sitemap-en-`));
      assert.deepEqual(
        english,
        [1, 2, 3, 4, 5, 6, 7, 8].map((n) => `${SITE}/sitemap-en-${n}.xml`),
      );
      for (const lang of ['fr', 'it', 'es', 'de']) assert.ok(files.includes(`${SITE}/sitemap-${lang}-1.xml`), lang);
      assert.ok(!files.includes(`${SITE}/sitemap-it-2.xml`), 'Italian has nothing but its views');
      assert.ok(files.includes(`${SITE}/sitemap-fr-2.xml`), 'the French translation');

      const all: string[] = [];
      for (const file of english) {
        const res = await get(new URL(file).pathname);
        assert.equal(wellFormed(res.body)[0], 'urlset');
        const urls = locs(res.body);
        assert.ok(urls.length >= 1 && urls.length <= (file.endsWith('-1.xml') ? 5 : 3), `${file}: ${urls.length}`);
        all.push(...urls);
      }
      assert.equal(new Set(all).size, all.length, 'no address twice');
      const paths = all.map((u) => new URL(u).pathname);
      assert.deepEqual(paths.slice(0, 5), [
        '/events/',
        '/events/week/',
        '/events/list/',
        '/events/photo/',
        '/events/map/',
      ]);
      const events = paths.filter((p) => p.startsWith('/event/'));
      assert.deepEqual(
        events,
        [1, 2, 3, 4, 5, 6, 7].map((i) => `/event/concert-${i}/`),
        'published listed events in start order; no draft, no unlisted event',
      );
      assert.deepEqual(paths.slice(5 + events.length), [
        '/venue/town-hall/',
        '/organizer/jazz-co/',
        '/events/category/jazz/',
        '/tag/outdoor/',
      ]);
      assert.ok(
        !paths.some((p) => /draft|unlisted|empty-category/.test(p)),
        'no draft, unlisted event or empty category',
      );
    });

    it('gives each address its last modification and its translations', async () => {
      const res = await get('/sitemap-en-2.xml');
      const first = /<url>.*?<\/url>/.exec(res.body)![0];
      assert.match(first, new RegExp(`<loc>${SITE}/event/concert-1/</loc>`));
      assert.match(first, /<lastmod>\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z<\/lastmod>/);
      assert.match(first, new RegExp(`<xhtml:link rel="alternate" hreflang="en" href="${SITE}/event/concert-1/"/>`));
      assert.match(
        first,
        new RegExp(`<xhtml:link rel="alternate" hreflang="fr" href="${SITE}/fr/event/concert-un/"/>`),
      );
      const french = await get('/sitemap-fr-2.xml');
      assert.deepEqual(locs(french.body), [`${SITE}/fr/event/concert-un/`]);
      const views = await get('/sitemap-de-1.xml');
      assert.ok(locs(views.body).includes(`${SITE}/de/events/`));
      assert.match(views.body, new RegExp(`hreflang="en" href="${SITE}/events/"`));
    });

    it('answers from the page cache: ETag, 304, and a new index after a write', async () => {
      const first = await get('/sitemap.xml');
      const etag = String(first.headers['etag']);
      const again = await t.request({ method: 'GET', url: '/sitemap.xml', headers: { 'if-none-match': etag } });
      assert.equal(again.statusCode, 304);
      await post(`${NS}/events`, {
        title: 'Concert 8',
        start_date: '2027-03-30 19:00:00',
        end_date: '2027-03-30 21:00:00',
      });
      const changed = await t.request({ method: 'GET', url: '/sitemap.xml', headers: { 'if-none-match': etag } });
      assert.equal(changed.statusCode, 200);
      const files = locs(changed.body).filter((f) => f.startsWith(`${SITE}/sitemap-en-`));
      assert.equal(files.length, 8, 'nine events still fit three files of three');
      const last = await get('/sitemap-en-4.xml');
      assert.deepEqual(
        locs(last.body).map((u) => new URL(u).pathname),
        ['/event/concert-7/', '/event/concert-8/'],
      );
    });
  });
}
