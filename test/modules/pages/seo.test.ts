import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse, type HTMLElement } from 'node-html-parser';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';

const NS = '/cal/events/v1';
const PARTNER = 'https://partner.example.org';

for (const backend of backends()) {
  describe(`the pages' head and embed headers [${backend}]`, () => {
    let t: TestApp;
    let admin: string;

    async function post(url: string, body: Record<string, unknown>): Promise<any> {
      const res = await t.request({ method: 'POST', url, payload: body, auth: admin });
      assert.ok(res.statusCode < 300, `${url}: ${res.statusCode} ${res.body}`);
      return res.data;
    }

    async function page(url: string, status = 200) {
      const res = await t.request({ method: 'GET', url });
      assert.equal(res.statusCode, status, `${url}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      return { html: parse(res.body), headers: res.headers, body: res.body };
    }

    const meta = (html: HTMLElement, key: string): string | undefined =>
      (html.querySelector(`meta[property="${key}"]`) ?? html.querySelector(`meta[name="${key}"]`))?.getAttribute(
        'content',
      );
    const link = (html: HTMLElement, selector: string) => html.querySelector(selector)?.getAttribute('href');

    before(async () => {
      t = await createTestApp(backend, { CAL_EMBED_ORIGINS: PARTNER });
      admin = (await t.asUser('administrator')).authorization;
      const concert = await post(`${NS}/events`, {
        title: 'Spring Concert',
        start_date: '2027-03-14 19:00:00',
        end_date: '2027-03-14 21:30:00',
      });
      await post(`/fr${NS}/events`, {
        title: 'Concert de printemps',
        start_date: '2027-03-14 19:00:00',
        end_date: '2027-03-14 21:30:00',
        translation_of: concert.id,
      });
    });

    after(() => t.close());

    it('describes every view from what it shows, in its language', async () => {
      const month = await page('/events/month/2027-03/');
      assert.equal(
        meta(month.html, 'description'),
        'Events in March 2027, day by day, with their times and places. Events.',
      );
      const fr = await page('/fr/events/month/2027-03/');
      assert.match(meta(fr.html, 'description')!, /^Les événements de mars 2027/);
      for (const url of ['/events/list/', '/events/day/2027-03-14/', '/events/week/2027-03-14/', '/de/events/list/']) {
        const { html } = await page(url);
        const description = meta(html, 'description');
        assert.ok(description && description.length > 20 && description.length <= 200, `${url}: ${description}`);
      }
    });

    it('gives Open Graph and Twitter cards, the canonical address and x-default', async () => {
      const { html } = await page('/events/month/2027-03/');
      const canonical = link(html, 'link[rel=canonical]');
      assert.equal(canonical, 'http://localhost:80/events/month/2027-03/');
      assert.equal(meta(html, 'og:type'), 'website');
      assert.equal(meta(html, 'og:url'), canonical);
      assert.equal(meta(html, 'og:title'), html.querySelector('title')!.text);
      assert.equal(meta(html, 'og:description'), meta(html, 'description'));
      assert.equal(meta(html, 'og:site_name'), 'Events');
      assert.equal(meta(html, 'og:locale'), 'en_US');
      assert.deepEqual(
        html.querySelectorAll('meta[property="og:locale:alternate"]').map((m) => m.getAttribute('content')),
        ['fr_FR', 'it_IT', 'es_ES', 'de_DE'],
      );
      assert.equal(meta(html, 'twitter:card'), 'summary');
      assert.equal(link(html, 'link[rel=alternate][hreflang=x-default]'), canonical);
      const fr = await page('/fr/events/month/2027-03/');
      assert.equal(link(fr.html, 'link[rel=alternate][hreflang=x-default]'), canonical);
      assert.equal(meta(fr.html, 'og:locale'), 'fr_FR');
      const event = await page('/fr/event/concert-de-printemps/');
      assert.equal(meta(event.html, 'og:type'), 'article');
      assert.equal(
        link(event.html, 'link[rel=alternate][hreflang=x-default]'),
        'http://localhost:80/event/spring-concert/',
      );
    });

    it('names the page without noise: no embed, no tracking tags; filters and paging kept', async () => {
      const tracked = await page('/events/list/?utm_source=news&utm_medium=mail&fbclid=abc&page=2');
      assert.equal(link(tracked.html, 'link[rel=canonical]'), 'http://localhost:80/events/list/?page=2');
      assert.equal(
        link(tracked.html, 'link[rel=alternate][hreflang=fr]'),
        'http://localhost:80/fr/events/list/?page=2',
      );
      const embed = await page('/events/month/2027-03/?embed=1');
      assert.equal(link(embed.html, 'link[rel=canonical]'), 'http://localhost:80/events/month/2027-03/');
      assert.equal(meta(embed.html, 'og:url'), 'http://localhost:80/events/month/2027-03/');
      assert.match(meta(embed.html, 'robots') ?? '', /noindex/, 'an embed is not a page of its own');
    });

    it('lets CAL_EMBED_ORIGINS frame an embed, CAL_FRAME_ANCESTORS the rest; pages may run their own scripts', async () => {
      const plain = await page('/events/');
      const policy = String(plain.headers['content-security-policy']);
      assert.match(policy, /frame-ancestors 'self'(;|$)/);
      assert.match(policy, /script-src 'self'(;|$)/);
      assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval/);
      assert.equal(plain.headers['x-frame-options'], 'SAMEORIGIN');
      for (const url of ['/events/?embed=1', '/events/list/?embed=1', '/event/no-such-event/?embed=1']) {
        const res = await t.request({ method: 'GET', url });
        const framed = String(res.headers['content-security-policy']);
        assert.match(framed, new RegExp(`frame-ancestors 'self' ${PARTNER}(;|$)`), url);
        assert.match(framed, /frame-src 'self' /, `${url}: the snippet page previews the embed`);
        assert.match(framed, /default-src 'none'/, url);
        assert.equal(res.headers['x-frame-options'], undefined, `${url}: nothing that contradicts the policy`);
      }
      // The page cache keeps the two apart (its key holds the query), both ways round.
      const again = await page('/events/');
      assert.doesNotMatch(again.body, /class="is-embed"/);
      assert.equal(again.headers['x-frame-options'], 'SAMEORIGIN');
      const embed = await page('/events/?embed=1');
      assert.match(embed.body, /class="is-embed"/);
      const api = await t.request({ method: 'GET', url: `${NS}/events` });
      assert.doesNotMatch(String(api.headers['content-security-policy']), /script-src/, 'JSON runs nothing');
    });
  });
}
