import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse, type HTMLElement } from 'node-html-parser';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';
import { seedGridCalendar } from '../../helpers/grid-seed.js';

/** The week view: every event of its seven days, its address the week's first day, filters kept. */
for (const backend of backends()) {
  describe(`week view [${backend}]`, () => {
    let t: TestApp;
    let ids: Record<string, number>;
    const slugs = new Map<number, string>();
    const eventHref = (name: string) => `/event/${slugs.get(ids[name]!)}/`;

    async function page(url: string, status = 200): Promise<HTMLElement> {
      const res = await t.request({ method: 'GET', url });
      assert.equal(res.statusCode, status, `${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      return parse(res.body);
    }

    /** Every day of the week against its day page: the same events, shown or counted. */
    async function checkWeek(url: string, query = '') {
      const week = await page(url + query);
      const days = week.querySelectorAll('li.week-day');
      assert.equal(days.length, 7);
      for (const day of days) {
        const date = day.getAttribute('data-date')!;
        const shown = new Set(day.querySelectorAll('a.cal-event').map((a) => a.getAttribute('href')!));
        const more = day.querySelector('a.cal-more');
        const listed = new Set(
          (await page(`/events/day/${date}/${query}`))
            .querySelectorAll('.cal-list h2 a')
            .map((a) => a.getAttribute('href')!),
        );
        assert.deepEqual(shown, listed, `${url}${query} ${date}`);
        assert.equal(more, null, `${date}: a week shows every event`);
      }
      return week;
    }

    before(async () => {
      t = await createTestApp(backend);
      ids = await seedGridCalendar(t);
      for (const row of await t.storage.db.selectFrom('events').select(['id', 'slug']).execute())
        slugs.set(row.id, row.slug);
    });

    after(async () => t.close());

    it('shows every event of its seven days, bars on top and timed events by hour', async () => {
      for (const start of ['2026-11-29', '2026-12-13', '2026-12-27']) await checkWeek(`/events/week/${start}/`);
      const week = await page('/events/week/2026-12-13/');
      // Intl's range: thin spaces around the dash.
      assert.match(week.querySelector('h1')!.text.trim(), /^December 13\s–\s19, 2026$/);
      assert.match(week.querySelector('title')!.text, /^December 13\s–\s19, 2026 · /);
      const friday = week.querySelector('li.week-day[data-date="2026-12-18"]')!;
      assert.ok(
        friday.querySelectorAll('.week-timed a').some((a) => a.getAttribute('href') === eventHref('nutcracker')),
      );
      // Timed events by hour: the yoga at 7:00 on the week's first hour row, the ballet 12 hours later.
      const at = (name: string) =>
        friday
          .querySelectorAll('.week-timed li')
          .find((li) => li.querySelector('a')!.getAttribute('href') === eventHref(name))!
          .getAttribute('class');
      assert.match(at('yoga')!, /\bat-1\b.*\blen-1\b/);
      assert.match(at('nutcracker')!, /\bat-13\b.*\blen-3\b/);
      // The market: one bar across the whole week, continued (hidden) on the other days.
      const bars = week.querySelectorAll('li.bar a').filter((a) => a.getAttribute('href') === eventHref('market'));
      assert.equal(bars.length, 1);
      assert.ok(bars[0]!.parentNode!.classList.contains('span-7'));
      assert.equal(week.querySelectorAll('h2.week-day-head').length, 7);
      assert.equal(
        week.querySelector('li.week-day[data-date="2026-12-18"] h2 a')!.getAttribute('href'),
        '/events/day/2026-12-18/',
      );
    });

    it('links the weeks before and after and this week, keeping the filters', async () => {
      const week = await page('/events/week/2026-12-13/?category=festivals');
      assert.equal(
        week.querySelector('a[rel=prev]')!.getAttribute('href'),
        '/events/week/2026-12-06/?category=festivals',
      );
      assert.equal(
        week.querySelector('a[rel=next]')!.getAttribute('href'),
        '/events/week/2026-12-20/?category=festivals',
      );
      assert.equal(week.querySelector('a.cal-today')!.getAttribute('href'), '/events/week/?category=festivals');
      assert.equal(week.querySelector('select[name=category] option[selected]')!.getAttribute('value'), 'festivals');
      const shown = week.querySelectorAll('a.cal-event').map((a) => a.getAttribute('href'));
      assert.ok(shown.includes(eventHref('film')));
      assert.ok(!shown.includes(eventHref('nutcracker')), 'filters apply');
      await checkWeek('/events/week/2026-12-13/', '?category=festivals');
      // This week answers too.
      const now = await page('/events/week/');
      assert.equal(now.querySelectorAll('li.week-day').length, 7);
      assert.ok(now.querySelector('li.week-day[aria-current=date]'));
    });

    it('redirects a day inside a week to the week, by the language’s first weekday', async () => {
      const res = await t.request({ method: 'GET', url: '/events/week/2026-12-17/?category=festivals' });
      assert.equal(res.statusCode, 301);
      assert.equal(res.headers['location'], '/events/week/2026-12-13/?category=festivals');
      // French weeks start on Monday.
      const fr = await t.request({ method: 'GET', url: '/fr/events/week/2026-12-13/' });
      assert.equal(fr.statusCode, 301);
      assert.equal(fr.headers['location'], '/fr/events/week/2026-12-07/');
      const monday = await page('/fr/events/week/2026-12-14/');
      assert.equal(monday.querySelector('html')!.getAttribute('lang'), 'fr');
      assert.equal(monday.querySelector('li.week-day')!.getAttribute('data-date'), '2026-12-14');
      assert.equal(monday.querySelector('a[rel=next]')!.getAttribute('href'), '/fr/events/week/2026-12-21/');
    });

    it('answers 404 for a day that is not one', async () => {
      for (const day of ['2026-02-30', '2026-13-01', 'yesterday', '1800-01-01', '2026-1-1'])
        await page(`/events/week/${day}/`, 404);
    });
  });
}
