import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';

/**
 * Which occurrences a series has: a series with an end is made whole wherever it lies, one without
 * reaches the horizon from its own start when that is beyond today's, and `since` (a write's, or
 * an import's) leaves out the past without cutting the rule.
 */

const EVENTS = '/cal/events/v1/events';
const IMPORTS = '/cal/admin/v1/imports';
const DAY = 86_400_000;

/** The day `days` from today, YYYY-MM-DD. */
const dayFromToday = (days: number): string => new Date(Date.now() + days * DAY).toISOString().slice(0, 10);

/** The first day on or after `day` that is weekday `weekday` (0: Sunday). */
function nextWeekday(day: string, weekday: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  while (date.getUTCDay() !== weekday) date.setUTCDate(date.getUTCDate() + 1);
  return date.toISOString().slice(0, 10);
}

/** The start dates of a series' occurrences (the series first), every page of the list. */
async function starts(t: TestApp, seriesId: number, auth: string): Promise<string[]> {
  const series = await t.request({ method: 'GET', url: `${EVENTS}/${seriesId}`, auth });
  assert.equal(series.statusCode, 200, series.body);
  const all: string[] = [series.data.start_date];
  for (let page = 1; ; page += 1) {
    const res = await t.request({
      method: 'GET',
      url: `${EVENTS}?post_parent=${seriesId}&per_page=50&page=${page}&start_date=1990-01-01&end_date=2200-01-01`,
      auth,
    });
    assert.equal(res.statusCode, 200, res.body);
    all.push(...res.data.events.map((e: { start_date: string }) => e.start_date));
    if (page >= res.data.total_pages) return all;
  }
}

/** An iCalendar file of one weekly series (no end) that started `startDay`. */
const weeklyFeed = (uid: string, startDay: string): string =>
  [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//test//window//EN',
    'BEGIN:VEVENT',
    `UID:${uid}`,
    'DTSTAMP:20240101T000000Z',
    `DTSTART:${startDay.replace(/-/g, '')}T180000Z`,
    `DTEND:${startDay.replace(/-/g, '')}T190000Z`,
    'RRULE:FREQ=WEEKLY',
    'SUMMARY:Weekly meeting',
    'END:VEVENT',
    'END:VCALENDAR',
    '',
  ].join('\r\n');

for (const backend of backends()) {
  describe(`series windows [${backend}]`, () => {
    let t: TestApp;
    let admin: string;

    before(async () => {
      // A short horizon and a low cap, so "beyond the horizon" and "over the cap" are near.
      t = await createTestApp(backend, { CAL_RECURRENCE_HORIZON_DAYS: '60', CAL_RECURRENCE_MAX: '100' });
      admin = (await t.asUser('administrator', 'window-admin')).authorization;
    });
    after(() => t.close());

    const create = (payload: Record<string, unknown>) =>
      t.request({ method: 'POST', url: EVENTS, auth: admin, payload: { status: 'publish', ...payload } });

    it('should make every date of a COUNT series that starts beyond the horizon', async () => {
      const first = nextWeekday(dayFromToday(3 * 365), 2);
      const res = await create({
        title: 'Festival',
        start_date: `${first} 10:00:00`,
        end_date: `${first} 18:00:00`,
        recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=6' },
      });
      assert.equal(res.statusCode, 201, res.body);
      const dates = await starts(t, res.data.id, admin);
      assert.equal(dates.length, 6, dates.join(', '));
      assert.equal(dates[0], `${first} 10:00:00`);
      assert.equal(
        dates[5],
        `${nextWeekday(new Date(Date.parse(`${first}T00:00:00Z`) + 35 * DAY).toISOString().slice(0, 10), 2)} 10:00:00`,
      );
      for (const d of dates) assert.equal(new Date(`${d.slice(0, 10)}T00:00:00Z`).getUTCDay(), 2, d);
    });

    it('should make every date of an UNTIL series beyond the horizon, and the JSON of each names its series', async () => {
      const first = dayFromToday(2 * 365);
      const last = new Date(Date.parse(`${first}T00:00:00Z`) + 9 * DAY).toISOString().slice(0, 10);
      const res = await create({
        title: 'Ten days',
        start_date: `${first} 09:00:00`,
        end_date: `${first} 10:00:00`,
        timezone: 'Europe/Brussels',
        recurrence: { rrule: `FREQ=DAILY;UNTIL=${last.replace(/-/g, '')}T235959Z` },
      });
      assert.equal(res.statusCode, 201, res.body);
      const dates = await starts(t, res.data.id, admin);
      assert.equal(dates.length, 10, dates.join(', '));
      const children = await t.request({
        method: 'GET',
        url: `${EVENTS}?post_parent=${res.data.id}&start_date=1990-01-01&end_date=2200-01-01&per_page=50`,
        auth: admin,
      });
      assert.ok(
        children.data.events.every((e: { post_parent?: number; series_id?: number }) => e.series_id === res.data.id),
      );
    });

    it('should make an open series starting beyond the horizon to the horizon counted from its start', async () => {
      const first = dayFromToday(3 * 365);
      const res = await create({
        title: 'Later weekly',
        start_date: `${first} 19:00:00`,
        end_date: `${first} 20:00:00`,
        recurrence: { rrule: 'FREQ=WEEKLY' },
      });
      assert.equal(res.statusCode, 201, res.body);
      const dates = await starts(t, res.data.id, admin);
      // Sixty days from its start: the start and eight more weeks.
      assert.equal(dates.length, 9, dates.join(', '));
    });

    it('should refuse an old open series over the cap with a hint, and take it from `since`, the rule kept whole', async () => {
      const first = dayFromToday(-3 * 365);
      const payload = {
        title: 'Old weekly',
        start_date: `${first} 19:00:00`,
        end_date: `${first} 20:00:00`,
        recurrence: { rrule: 'FREQ=WEEKLY' },
      };
      const refused = await create(payload);
      assert.equal(refused.statusCode, 400, refused.body);
      assert.match(refused.body, /more than 100 occurrences.*recurrence\.since/);

      const bad = await create({ ...payload, recurrence: { rrule: 'FREQ=WEEKLY', since: 'last year' } });
      assert.equal(bad.statusCode, 400, bad.body);
      assert.match(bad.body, /recurrence\.since must be a day/);

      const since = dayFromToday(-30);
      const res = await create({ ...payload, recurrence: { rrule: 'FREQ=WEEKLY', since } });
      assert.equal(res.statusCode, 201, res.body);
      assert.equal(res.data.recurrence.rrule, 'FREQ=WEEKLY');
      assert.equal(res.data.recurrence.since, undefined, 'since is how it was made, not part of the series');
      const dates = await starts(t, res.data.id, admin);
      assert.equal(dates[0], `${first} 19:00:00`, 'the series keeps its first date');
      const made = dates.slice(1);
      assert.ok(made.length >= 12 && made.length <= 14, `about 90 days of weeks, got ${made.length}`);
      assert.ok(
        made.every((d) => d >= since),
        made.join(', '),
      );

      // An edit of the rule keeps the window: nothing is made back to the start, nothing is trashed for being past.
      const edited = await t.request({
        method: 'PUT',
        url: `${EVENTS}/${res.data.id}`,
        auth: admin,
        payload: { recurrence: { rrule: 'FREQ=WEEKLY;INTERVAL=2' } },
      });
      assert.equal(edited.statusCode, 200, edited.body);
      const after = (await starts(t, res.data.id, admin)).slice(1);
      assert.ok(after.length >= 5 && after.length <= 8, `about 45 fortnights' worth, got ${after.join(', ')}`);
      assert.ok(after[0]! >= dayFromToday(-31), `still from since: ${after[0]}`);

      const ical = await t.request({ method: 'GET', url: `${EVENTS}/${res.data.id}?format=ical`, auth: admin });
      assert.equal(ical.statusCode, 200, ical.body);
      assert.equal(ical.body.match(/^RRULE:/gm)?.length, 1, ical.body);
      assert.match(ical.body, new RegExp(`^DTSTART[^:]*:${first.replace(/-/g, '')}T19`, 'm'));
    });

    async function imported(payload: Record<string, unknown>): Promise<any> {
      const started = await t.request({ method: 'POST', url: IMPORTS, auth: admin, payload });
      assert.equal(started.statusCode, 202, started.body);
      for (let i = 0; i < 2000; i += 1) {
        const job = (await t.request({ method: 'GET', url: `${IMPORTS}/${started.data.id}`, auth: admin })).data;
        if (job.status !== 'running') return job;
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      assert.fail('the import is still running');
    }

    /** The local id of the one series an import made, by its title. */
    async function seriesTitled(title: string): Promise<any> {
      const res = await t.request({
        method: 'GET',
        url: `${EVENTS}?search=${encodeURIComponent(title)}&start_date=1990-01-01&end_date=2200-01-01&per_page=50`,
        auth: admin,
      });
      const heads = res.data.events.filter((e: any) => e.recurrence !== undefined);
      assert.equal(heads.length, 1, res.body);
      return heads[0];
    }

    it('should import a weekly series running for three years as one series from since (default: the horizon back)', async () => {
      const first = dayFromToday(-3 * 365);
      const feed = weeklyFeed('old-weekly@test', first).replace('Weekly meeting', 'Weekly import one');
      const job = await imported({ ics_content: feed, filename: 'weekly.ics' });
      assert.equal(job.status, 'done', JSON.stringify(job));
      assert.equal(job.report.counts.event.en.created, 1, JSON.stringify(job.report));
      assert.ok(!job.report.warnings.some((w: string) => /occurrences/.test(w)), job.report.warnings.join('\n'));
      const series = await seriesTitled('Weekly import one');
      assert.equal(series.recurrence.rrule, 'FREQ=WEEKLY');
      const dates = await starts(t, series.id, admin);
      assert.equal(dates[0]!.slice(0, 10), first);
      const made = dates.slice(1);
      // Sixty days back (the default since) to sixty days ahead: about seventeen weeks.
      assert.ok(made.length >= 16 && made.length <= 19, `got ${made.length}: ${made.join(', ')}`);
      assert.ok(made[0]! >= dayFromToday(-61), made[0]);

      const again = await imported({ ics_content: feed, filename: 'weekly.ics' });
      assert.equal(again.report.counts.event.en.unchanged, 1, JSON.stringify(again.report));
      assert.equal((await starts(t, series.id, admin)).length, dates.length);
    });

    it('should take an explicit since further back, within the cap', async () => {
      const first = dayFromToday(-3 * 365);
      const feed = weeklyFeed('old-weekly-2@test', first).replace('Weekly meeting', 'Weekly import two');
      const since = dayFromToday(-300);
      const job = await imported({ ics_content: feed, filename: 'weekly-2.ics', since });
      assert.equal(job.status, 'done', JSON.stringify(job));
      assert.equal(job.report.counts.event.en.created, 1, JSON.stringify(job.report));
      const made = (await starts(t, (await seriesTitled('Weekly import two')).id, admin)).slice(1);
      assert.ok(made.length >= 50 && made.length <= 53, `got ${made.length}`);
      assert.ok(made[0]! >= since, made[0]);
    });
  });
}
