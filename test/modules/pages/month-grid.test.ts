import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parse, type HTMLElement } from 'node-html-parser';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';
import { seedGridCalendar } from '../../helpers/grid-seed.js';

/**
 * The month grid never hides an event: for every day of every grid, the events in the cell (shown,
 * or counted in "N more", which links to the day) are exactly the day page's; a day outside the
 * month looks the same in both months' grids; an event lasting several days is one bar per week.
 */
for (const backend of backends()) {
  describe(`month grid [${backend}]`, () => {
    let t: TestApp;
    let ids: Record<string, number>;
    const slugs = new Map<number, string>();

    async function page(url: string, status = 200): Promise<HTMLElement> {
      const res = await t.request({ method: 'GET', url });
      assert.equal(res.statusCode, status, `${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
      return parse(res.body);
    }
    const eventHref = (name: string) => `/event/${slugs.get(ids[name]!)}/`;

    /** The events of a cell: the links it holds (bars continued included) and its "more" count. */
    function cellEvents(cell: HTMLElement): { hrefs: Set<string>; more: number; moreHref: string | null } {
      const links = cell.querySelectorAll('a.cal-event').map((a) => a.getAttribute('href')!);
      assert.equal(new Set(links).size, links.length, `${cell.getAttribute('data-date')}: an event shown twice`);
      const more = cell.querySelector('a.cal-more');
      return {
        hrefs: new Set(links),
        more: more ? Number(/\d+/.exec(more.text)![0]) : 0,
        moreHref: more?.getAttribute('href') ?? null,
      };
    }

    /** Every day of the month's grid against its day page (with the same filters). */
    async function checkGrid(month: string, query = '') {
      const grid = await page(`/events/month/${month}/${query}`);
      const cells = grid.querySelectorAll('td[data-date]');
      assert.ok(cells.length >= 28);
      for (const cell of cells) {
        const date = cell.getAttribute('data-date')!;
        const { hrefs, more, moreHref } = cellEvents(cell);
        const day = await page(`/events/day/${date}/${query}`);
        const listed = new Set(day.querySelectorAll('.cal-list h2 a').map((a) => a.getAttribute('href')!));
        for (const href of hrefs)
          assert.ok(listed.has(href), `${month}${query} ${date}: ${href} is not on the day page`);
        assert.equal(hrefs.size + more, listed.size, `${month}${query} ${date}: shown ${hrefs.size} + more ${more}`);
        if (more > 0) assert.equal(moreHref, `/events/day/${date}/${query}`, `${date}: "more" links to the day`);
      }
      return grid;
    }

    before(async () => {
      t = await createTestApp(backend);
      ids = await seedGridCalendar(t);
      const rows = await t.storage.db.selectFrom('events').select(['id', 'slug']).execute();
      for (const row of rows) slugs.set(row.id, row.slug);
    });

    after(async () => t.close());

    it('agrees with the day page on every day of every grid, filtered or not', async () => {
      for (const month of ['2026-11', '2026-12', '2027-01']) await checkGrid(month);
      await checkGrid('2026-12', '?category=festivals');
      await checkGrid('2026-12', '?search=festival');
      // Monday-first weeks: another cut of the same days.
      const fr = await page('/fr/events/month/2026-12/');
      assert.equal(fr.querySelector('td[data-date]')!.getAttribute('data-date'), '2026-11-30');
    });

    it('makes a day full of long events still reach the event starting that day', async () => {
      const grid = await page('/events/month/2026-12/');
      const cell = grid.querySelector('td[data-date="2026-12-18"]')!;
      const { hrefs, more, moreHref } = cellEvents(cell);
      assert.ok(more > 0, 'the 18th holds more than a cell shows');
      assert.ok(!hrefs.has(eventHref('nutcracker')));
      assert.equal(moreHref, '/events/day/2026-12-18/');
      const day = await page(moreHref!);
      assert.ok(day.querySelectorAll('.cal-list h2 a').some((a) => a.getAttribute('href') === eventHref('nutcracker')));
      // The ballet on its own shows in the grid.
      const ballet = await page('/events/month/2026-12/?category=ballet');
      assert.ok(cellEvents(ballet.querySelector('td[data-date="2026-12-18"]')!).hrefs.has(eventHref('nutcracker')));
    });

    it('shows a day outside the month as the other month does', async () => {
      const december = await page('/events/month/2026-12/');
      const november = await page('/events/month/2026-11/');
      const january = await page('/events/month/2027-01/');
      let compared = 0;
      for (const cell of december.querySelectorAll('td.is-outside')) {
        const date = cell.getAttribute('data-date')!;
        const other = (date < '2026-12' ? november : january).querySelector(`td[data-date="${date}"]`)!;
        assert.equal(cell.innerHTML, other.innerHTML, date);
        compared += 1;
      }
      assert.ok(compared >= 2);
      assert.ok(cellEvents(december.querySelector('td[data-date="2026-11-29"]')!).hrefs.has(eventHref('market')));
    });

    it('draws a long event as one bar per week row, in one lane, without crowding the days', async () => {
      const grid = await page('/events/month/2026-12/');
      const market = eventHref('market');
      const rows = grid.querySelectorAll('tbody tr');
      let bars = 0;
      for (const row of rows) {
        const lanes = new Set<number>();
        for (const cell of row.querySelectorAll('td')) {
          const items = cell.querySelectorAll('ul.day-events > li');
          items.forEach((li, lane) => {
            const link = li.querySelector('a.cal-event');
            if (link?.getAttribute('href') !== market) return;
            assert.ok(li.classList.contains('lane'), 'the market is in a lane');
            lanes.add(lane);
            if (li.classList.contains('bar')) bars += 1;
          });
        }
        assert.ok(lanes.size <= 1, 'the same lane across the week');
      }
      // 29 Nov – 24 Dec: four week rows, a bar in each (its visible part), continued on the other days.
      assert.equal(bars, 4);
      const first = grid.querySelector('td[data-date="2026-11-29"] li.bar')!;
      assert.ok(first.classList.contains('is-before') && first.classList.contains('span-7'));
      const last = grid.querySelector('td[data-date="2026-12-20"] li.bar.span-5')!;
      assert.ok(!last.classList.contains('is-after'));
      // Continued days hold the link out of the tab order (one stop per bar a week).
      const cont = grid.querySelector('td[data-date="2026-12-02"] li.bar-cont a')!;
      assert.equal(cont.getAttribute('tabindex'), '-1');
      // Every day keeps room: a single-day event shows beside the market on a quiet day.
      assert.ok(cellEvents(grid.querySelector('td[data-date="2026-12-09"]')!).hrefs.has(eventHref('jamDec09')));
      // A party over midnight is a bar into January's first days; the draft is nowhere.
      assert.ok(grid.querySelector('td[data-date="2026-12-31"] li.bar.span-2'));
      const body = grid.toString();
      assert.ok(!body.includes('Secret Draft'));
    });

    it('reads a bounded number of statements whatever the month holds', async () => {
      const plain = (await t.queries.during(() => page('/events/month/2026-12/?uncached=1'))).texts;
      const filtered = (await t.queries.during(() => page('/events/month/2026-12/?category=festivals&uncached=1')))
        .texts;
      assert.ok(plain.length >= 1 && plain.length <= 10, `unfiltered: ${plain.join('\n')}`);
      assert.ok(filtered.length >= 1 && filtered.length <= 14, `filtered: ${filtered.join('\n')}`);
      // A grid shows a few columns of an event; its whole row costs several times more to read.
      const whole = [...plain, ...filtered].filter((text) => /"events"\.\*|select \* from "events"/.test(text));
      assert.deepEqual(whole, [], 'no grid statement reads whole events');
    });

    it('answers 404 for a month it does not show', async () => {
      for (const month of ['2026-13', '2026-1', '1800-01']) await page(`/events/month/${month}/`, 404);
    });
  });
}
