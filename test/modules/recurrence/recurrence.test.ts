import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';
import { extendHorizons } from '../../../src/modules/recurrence/recurrence-horizon.service.js';

const EVENTS = '/cal/events/v1/events';

/** Every occurrence of a series (the series first), as the list shows them, in date order. */
async function occurrences(t: TestApp, seriesId: number, auth?: string, lang = ''): Promise<any[]> {
  const children = await t.request({
    method: 'GET',
    url: `${lang}${EVENTS}?post_parent=${seriesId}&per_page=50&start_date=2000-01-01&end_date=2100-01-01`,
    auth,
  });
  assert.equal(children.statusCode, 200, children.body);
  const all = [...children.data.events];
  for (let page = 2; page <= children.data.total_pages; page += 1) {
    const next = await t.request({
      method: 'GET',
      url: `${lang}${EVENTS}?post_parent=${seriesId}&per_page=50&page=${page}&start_date=2000-01-01&end_date=2100-01-01`,
      auth,
    });
    all.push(...next.data.events);
  }
  const series = await t.request({ method: 'GET', url: `${lang}${EVENTS}/${seriesId}`, auth });
  return [...(series.statusCode === 200 && series.data.status !== 'trash' ? [series.data] : []), ...all];
}

const starts = (events: any[]) => events.map((e) => e.start_date);

for (const backend of backends()) {
  describe(`recurring events [${backend}]`, () => {
    let t: TestApp;
    let editor: { id: number; authorization: string };
    let author: { id: number; authorization: string };

    before(async () => {
      // A horizon far enough out that every finite rule below is materialized whole, whatever today is.
      t = await createTestApp(backend, { CAL_RECURRENCE_HORIZON_DAYS: '7300', CAL_RECURRENCE_MAX: '400' });
      editor = await t.asUser('editor');
      author = await t.asUser('author');
    });
    after(() => t.close());

    const create = async (payload: Record<string, unknown>, auth = editor.authorization) => {
      const res = await t.request({ method: 'POST', url: EVENTS, auth, payload: { status: 'publish', ...payload } });
      return res;
    };
    const series = async (payload: Record<string, unknown>) => {
      const res = await create(payload);
      assert.equal(res.statusCode, 201, res.body);
      return res.data;
    };

    it('should expand a bi-weekly rule at 19:00 local time across both DST changes, with slugs per date and a summary', async () => {
      const started = performance.now();
      const s = await series({
        title: 'Choir practice',
        start_date: '2027-01-05 19:00:00',
        end_date: '2027-01-05 21:00:00',
        timezone: 'Europe/Paris',
        recurrence: { rrule: 'RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;UNTIL=20271231T235959Z' },
      });
      const elapsed = performance.now() - started;
      assert.ok(elapsed > 0);
      assert.equal(s.series_id, s.id);
      assert.equal(s.recurrence_id, '2027-01-05 19:00:00');
      assert.equal(s.recurrence.rrule, 'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;UNTIL=20271231T235959Z');
      assert.equal(s.recurrence.summary, 'Every 2 weeks on Tuesday until 31 December 2027');
      const all = await occurrences(t, s.id);
      assert.equal(all.length, 26);
      assert.ok(all.every((e) => e.start_date.endsWith('19:00:00') && e.end_date.endsWith('21:00:00')));
      // Winter (CET, UTC+1) then summer (CEST, UTC+2) then winter again.
      assert.equal(all[0].utc_start_date, '2027-01-05 18:00:00');
      const april = all.find((e) => e.start_date.startsWith('2027-04-13'));
      assert.equal(april.utc_start_date, '2027-04-13 17:00:00');
      assert.equal(april.timezone_abbr, 'CEST');
      assert.equal(all.at(-1).start_date, '2027-12-21 19:00:00');
      assert.equal(all.at(-1).utc_start_date, '2027-12-21 18:00:00');
      assert.equal(april.slug, `${s.slug}-2027-04-13`);
      assert.equal(april.series_id, s.id);
      assert.equal(april.recurrence_id, '2027-04-13 19:00:00');
      assert.equal(april.recurrence, undefined);
      // The series is listed as its first occurrence: the list's total counts each date once.
      const list = await t.request({
        method: 'GET',
        url: `${EVENTS}?start_date=2027-01-01&end_date=2027-12-31&search=Choir`,
      });
      assert.equal(list.data.total, 26);
      assert.equal(list.data.events[0].id, s.id);
    });

    it('should answer the summary in the language of the request', async () => {
      const s = await series({
        title: 'Marché',
        start_date: '2027-02-05 08:00:00',
        end_date: '2027-02-05 12:00:00',
        recurrence: 'FREQ=MONTHLY;BYDAY=-1FR;COUNT=6',
      });
      assert.equal(s.recurrence.summary, 'Every month on the last Friday 6 times');
      const fr = await t.request({ method: 'GET', url: `/fr${EVENTS}/${s.id}` });
      assert.equal(fr.data.recurrence.summary, 'Tous les mois le dernier vendredi 6 fois');
      const de = await t.request({ method: 'GET', url: `/de${EVENTS}/${s.id}` });
      assert.equal(de.data.recurrence.summary, 'Monatlich am letzten Freitag 6 Mal');
      assert.deepEqual(starts(await occurrences(t, s.id)), [
        '2027-02-05 08:00:00', // DTSTART is always the first occurrence (RFC 5545), even off the rule
        '2027-02-26 08:00:00',
        '2027-03-26 08:00:00',
        '2027-04-30 08:00:00',
        '2027-05-28 08:00:00',
        '2027-06-25 08:00:00',
      ]);
    });

    it('should expand monthly by weekday, BYSETPOS and yearly on 29 February', async () => {
      const second = await series({
        title: 'Second Tuesday',
        start_date: '2027-01-12 18:30:00',
        end_date: '2027-01-12 20:00:00',
        recurrence: { rrule: 'FREQ=MONTHLY;BYDAY=2TU;COUNT=4' },
      });
      assert.deepEqual(starts(await occurrences(t, second.id)), [
        '2027-01-12 18:30:00',
        '2027-02-09 18:30:00',
        '2027-03-09 18:30:00',
        '2027-04-13 18:30:00',
      ]);
      const lastWeekday = await series({
        title: 'Month end close',
        start_date: '2027-01-29 17:00:00',
        end_date: '2027-01-29 18:00:00',
        recurrence: { rrule: 'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=4' },
      });
      assert.deepEqual(starts(await occurrences(t, lastWeekday.id)), [
        '2027-01-29 17:00:00',
        '2027-02-26 17:00:00',
        '2027-03-31 17:00:00',
        '2027-04-30 17:00:00',
      ]);
      const monthDay = await series({
        title: 'Rent day',
        start_date: '2027-01-15 09:00:00',
        end_date: '2027-01-15 09:30:00',
        recurrence: { rrule: 'FREQ=MONTHLY;BYMONTHDAY=15;UNTIL=20270415T235959Z' },
      });
      assert.equal((await occurrences(t, monthDay.id)).length, 4);
      const leap = await series({
        title: 'Leap day party',
        start_date: '2028-02-29 20:00:00',
        end_date: '2028-02-29 23:00:00',
        recurrence: { rrule: 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;COUNT=3' },
      });
      assert.deepEqual(starts(await occurrences(t, leap.id)), [
        '2028-02-29 20:00:00',
        '2032-02-29 20:00:00',
        '2036-02-29 20:00:00',
      ]);
      assert.equal(leap.recurrence.summary, 'Every year on day 29 in February 3 times');
    });

    it('should add RDATEs and leave out EXDATEs', async () => {
      const s = await series({
        title: 'Reading group',
        start_date: '2027-03-01 18:00:00',
        end_date: '2027-03-01 19:00:00',
        recurrence: {
          rrule: 'FREQ=WEEKLY;COUNT=4',
          rdates: ['2027-03-10', '2027-03-11 12:00:00'],
          exdates: ['2027-03-15 18:00:00'],
        },
      });
      assert.deepEqual(s.recurrence.rdates, ['2027-03-10 18:00:00', '2027-03-11 12:00:00']);
      assert.deepEqual(starts(await occurrences(t, s.id)), [
        '2027-03-01 18:00:00',
        '2027-03-08 18:00:00',
        '2027-03-10 18:00:00',
        '2027-03-11 12:00:00',
        '2027-03-22 18:00:00',
      ]);
    });

    it('should place occurrences in DST gaps and overlaps by RFC 5545 (New York, Lord Howe)', async () => {
      // 02:30 does not exist on 14 March 2027 in New York: read with the offset before the gap, i.e. 03:30 EDT.
      const gap = await series({
        title: 'Night shift NY',
        start_date: '2027-03-12 02:30:00',
        end_date: '2027-03-12 03:00:00',
        timezone: 'America/New_York',
        recurrence: { rrule: 'FREQ=DAILY;COUNT=4' },
      });
      const nights = await occurrences(t, gap.id);
      const spring = nights.find((e) => e.recurrence_id === '2027-03-14 02:30:00');
      assert.equal(spring.start_date, '2027-03-14 03:30:00');
      assert.equal(spring.utc_start_date, '2027-03-14 07:30:00');
      assert.equal(nights.find((e) => e.recurrence_id === '2027-03-15 02:30:00').utc_start_date, '2027-03-15 06:30:00');
      // 01:30 happens twice on 7 November 2027: the first (EDT, UTC-4).
      const overlap = await series({
        title: 'Early bird NY',
        start_date: '2027-11-06 01:30:00',
        end_date: '2027-11-06 02:00:00',
        timezone: 'America/New_York',
        recurrence: { rrule: 'FREQ=DAILY;COUNT=3' },
      });
      const early = await occurrences(t, overlap.id);
      assert.deepEqual(
        early.map((e) => e.utc_start_date),
        ['2027-11-06 05:30:00', '2027-11-07 05:30:00', '2027-11-08 06:30:00'],
      );
      // Lord Howe moves by 30 minutes: 02:15 on 3 October 2027 falls in the gap (02:00 → 02:30).
      const howe = await series({
        title: 'Lord Howe tide watch',
        start_date: '2027-10-02 02:15:00',
        end_date: '2027-10-02 02:45:00',
        timezone: 'Australia/Lord_Howe',
        recurrence: { rrule: 'FREQ=DAILY;COUNT=3' },
      });
      const tides = await occurrences(t, howe.id);
      assert.deepEqual(
        tides.map((e) => e.start_date),
        ['2027-10-02 02:15:00', '2027-10-03 02:45:00', '2027-10-04 02:15:00'],
      );
      assert.deepEqual(
        tides.map((e) => e.utc_start_date),
        ['2027-10-01 15:45:00', '2027-10-02 15:45:00', '2027-10-03 15:15:00'],
      );
    });

    it('should refuse unusable rules with a 400 naming the problem, and write nothing', async () => {
      const before = await t.request({
        method: 'GET',
        url: `${EVENTS}?per_page=1&start_date=2000-01-01&end_date=2100-01-01`,
        auth: editor.authorization,
      });
      const cases: [unknown, RegExp][] = [
        [{ rrule: 'FREQ=SOMETIMES' }, /not a frequency/],
        [{ rrule: 'FREQ=WEEKLY;BYDAY=XX' }, /cannot be read/],
        [{ rrule: 'FREQ=DAILY;BYMONTH=2;BYMONTHDAY=30' }, /matches no date/],
        [{ rrule: 'FREQ=MONTHLY;BYDAY=6MO' }, /matches no date/],
        [{ rrule: 'FREQ=WEEKLY;COUNT=2;UNTIL=20280101T000000Z' }, /both COUNT and UNTIL/],
        [{ rrule: 'FREQ=HOURLY;COUNT=3' }, /HOURLY/],
        [{ rrule: 'FREQ=DAILY;COUNT=5000' }, /at most 400/],
        [{ rrule: 'FREQ=DAILY;UNTIL=20401231T000000Z' }, /more than 400/],
        [{ rrule: 'FREQ=DAILY' }, /more than 400 occurrences within the next 7300 days/],
        [{ rrule: 'FREQ=WEEKLY', exdates: ['not a date'] }, /not a date/],
        [{ rrule: 'FREQ=WEEKLY;COUNT=2', exdates: ['2027-05-01 10:00:00'] }, /first occurrence/],
        [{ rrule: 'FREQ=WEEKLY', colour: 'red' }, /unknown field/],
        [42, /recurrence/],
      ];
      for (const [recurrence, message] of cases) {
        const res = await create({
          title: 'Bad rule',
          start_date: '2027-05-01 10:00:00',
          end_date: '2027-05-01 11:00:00',
          recurrence,
        });
        assert.equal(res.statusCode, 400, `${JSON.stringify(recurrence)}: ${res.body}`);
        assert.equal(res.data.code, 'rest_invalid_param');
        assert.match(JSON.stringify(res.data.data.params), message, JSON.stringify(recurrence));
      }
      const afterList = await t.request({
        method: 'GET',
        url: `${EVENTS}?per_page=1&start_date=2000-01-01&end_date=2100-01-01`,
        auth: editor.authorization,
      });
      assert.equal(afterList.data.total, before.data.total);
    });

    it('should keep an edited occurrence as an exception through series edits and rule changes, and report it', async () => {
      const s = await series({
        title: 'Yoga',
        start_date: '2027-06-07 07:00:00',
        end_date: '2027-06-07 08:00:00',
        categories: ['Wellness'],
        recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=6' },
      });
      const all = await occurrences(t, s.id);
      const third = all[2];
      const edited = await t.request({
        method: 'POST',
        url: `${EVENTS}/${third.id}`,
        auth: editor.authorization,
        payload: { title: 'Yoga on the beach', start_date: '2027-06-21 09:00:00', end_date: '2027-06-21 10:00:00' },
      });
      assert.equal(edited.statusCode, 200, edited.body);
      assert.equal(edited.data.title, 'Yoga on the beach');
      assert.equal(edited.data.recurrence_id, '2027-06-21 07:00:00');
      // A series edit reaches every occurrence but the exception.
      const renamed = await t.request({
        method: 'POST',
        url: `${EVENTS}/${s.id}`,
        auth: editor.authorization,
        payload: { title: 'Morning yoga', cost: 5 },
      });
      assert.equal(renamed.statusCode, 200, renamed.body);
      let now = await occurrences(t, s.id);
      assert.deepEqual(
        now.map((e) => e.title),
        ['Morning yoga', 'Morning yoga', 'Yoga on the beach', 'Morning yoga', 'Morning yoga', 'Morning yoga'],
      );
      assert.ok(
        now
          .filter((e) => e.id !== third.id)
          .every((e) => e.cost === renamed.data.cost && e.cost_details.values[0] === '5'),
      );
      // Change the rule to Wednesdays: the Monday occurrences go, the exception stays and is reported.
      const moved = await t.request({
        method: 'POST',
        url: `${EVENTS}/${s.id}`,
        auth: editor.authorization,
        payload: {
          start_date: '2027-06-09 07:00:00',
          end_date: '2027-06-09 08:00:00',
          recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=WE;COUNT=3' },
        },
      });
      assert.equal(moved.statusCode, 200, moved.body);
      assert.deepEqual(moved.data.recurrence.exceptions, [{ id: third.id, recurrence_id: '2027-06-21 07:00:00' }]);
      now = await occurrences(t, s.id);
      assert.deepEqual(starts(now), [
        '2027-06-09 07:00:00',
        '2027-06-16 07:00:00',
        '2027-06-21 09:00:00',
        '2027-06-23 07:00:00',
      ]);
      // Anonymous readers see the rule, never the list of exceptions.
      const publicView = await t.request({ method: 'GET', url: `${EVENTS}/${s.id}` });
      assert.equal(publicView.data.recurrence.exceptions, undefined);
      // The category counts each live occurrence once.
      const category = await t.request({ method: 'GET', url: `/cal/events/v1/categories?search=Wellness` });
      assert.equal(category.data.categories[0].count, 4);
    });

    it('should move every occurrence when one is moved with scope=all, and split with scope=following', async () => {
      const s = await series({
        title: 'Standup',
        start_date: '2027-09-06 09:00:00',
        end_date: '2027-09-06 09:15:00',
        recurrence: { rrule: 'FREQ=DAILY;COUNT=10' },
      });
      const all = await occurrences(t, s.id);
      const ids = all.map((e) => e.id);
      const shifted = await t.request({
        method: 'POST',
        url: `${EVENTS}/${ids[3]}?scope=all`,
        auth: editor.authorization,
        payload: { start_date: '2027-09-09 09:30:00', end_date: '2027-09-09 09:45:00' },
      });
      assert.equal(shifted.statusCode, 200, shifted.body);
      assert.equal(shifted.data.id, s.id);
      let now = await occurrences(t, s.id);
      assert.deepEqual(
        now.map((e) => e.id),
        ids,
        'occurrences keep their ids when moved',
      );
      assert.ok(now.every((e) => e.start_date.endsWith('09:30:00')));

      const split = await t.request({
        method: 'PUT',
        url: `${EVENTS}/${ids[6]}?scope=following`,
        auth: editor.authorization,
        payload: { title: 'Standup (new team)' },
      });
      assert.equal(split.statusCode, 200, split.body);
      assert.equal(split.data.id, ids[6]);
      assert.equal(split.data.series_id, ids[6]);
      assert.equal(split.data.recurrence.rrule, 'FREQ=DAILY;COUNT=4');
      now = await occurrences(t, s.id);
      assert.deepEqual(
        now.map((e) => e.id),
        ids.slice(0, 6),
      );
      const old = await t.request({ method: 'GET', url: `${EVENTS}/${s.id}` });
      assert.match(old.data.recurrence.rrule, /^FREQ=DAILY;UNTIL=20270912T\d{6}Z$/);
      const later = await occurrences(t, ids[6]);
      assert.deepEqual(
        later.map((e) => e.id),
        ids.slice(6),
      );
      assert.ok(later.every((e) => e.title === 'Standup (new team)' && e.series_id === ids[6]));
      assert.ok(now.every((e) => e.title === 'Standup'));
    });

    it('should refuse scope=this on the series itself and recurrence on a single occurrence', async () => {
      const s = await series({
        title: 'Quiz night',
        start_date: '2027-10-01 20:00:00',
        end_date: '2027-10-01 22:00:00',
        recurrence: { rrule: 'FREQ=WEEKLY;COUNT=3' },
      });
      const own = await t.request({
        method: 'POST',
        url: `${EVENTS}/${s.id}?scope=this`,
        auth: editor.authorization,
        payload: { title: 'x' },
      });
      assert.equal(own.statusCode, 400);
      assert.ok(own.data.data.params.scope);
      const [, second] = await occurrences(t, s.id);
      const rule = await t.request({
        method: 'POST',
        url: `${EVENTS}/${second.id}`,
        auth: editor.authorization,
        payload: { recurrence: { rrule: 'FREQ=DAILY;COUNT=2' } },
      });
      assert.equal(rule.statusCode, 400);
      assert.ok(rule.data.data.params.recurrence);
      const bad = await t.request({
        method: 'POST',
        url: `${EVENTS}/${second.id}?scope=sometimes`,
        auth: editor.authorization,
        payload: { title: 'x' },
      });
      assert.equal(bad.statusCode, 400);
    });

    it('should turn a deleted occurrence into an EXDATE and delete a whole series', async () => {
      const s = await series({
        title: 'Book club',
        start_date: '2027-11-02 19:00:00',
        end_date: '2027-11-02 20:00:00',
        recurrence: { rrule: 'FREQ=WEEKLY;COUNT=5' },
      });
      const all = await occurrences(t, s.id);
      const gone = await t.request({ method: 'DELETE', url: `${EVENTS}/${all[1].id}`, auth: editor.authorization });
      assert.equal(gone.statusCode, 200, gone.body);
      assert.equal(gone.data.status, 'trash');
      const after = await t.request({ method: 'GET', url: `${EVENTS}/${s.id}` });
      assert.deepEqual(after.data.recurrence.exdates, ['2027-11-09 19:00:00']);
      // A later series edit that re-expands does not bring the excluded date back.
      await t.request({
        method: 'POST',
        url: `${EVENTS}/${s.id}`,
        auth: editor.authorization,
        payload: { start_date: '2027-11-02 19:30:00', end_date: '2027-11-02 20:30:00' },
      });
      assert.deepEqual(starts(await occurrences(t, s.id)), [
        '2027-11-02 19:30:00',
        '2027-11-16 19:30:00',
        '2027-11-23 19:30:00',
        '2027-11-30 19:30:00',
      ]);

      const following = await t.request({
        method: 'DELETE',
        url: `${EVENTS}/${all[3].id}?scope=following`,
        auth: editor.authorization,
      });
      assert.equal(following.statusCode, 200, following.body);
      assert.deepEqual(starts(await occurrences(t, s.id)), ['2027-11-02 19:30:00', '2027-11-16 19:30:00']);

      const whole = await t.request({ method: 'DELETE', url: `${EVENTS}/${s.id}`, auth: editor.authorization });
      assert.equal(whole.statusCode, 200);
      const left = await t.request({
        method: 'GET',
        url: `${EVENTS}?search=Book%20club&start_date=2027-01-01&end_date=2028-12-31`,
      });
      assert.equal(left.data.total, 0);
      const again = await t.request({ method: 'DELETE', url: `${EVENTS}/${s.id}`, auth: editor.authorization });
      assert.equal(again.statusCode, 410);
    });

    it('should stop a series with recurrence: null, keeping its exceptions as plain events', async () => {
      const s = await series({
        title: 'Pottery',
        start_date: '2027-04-03 10:00:00',
        end_date: '2027-04-03 12:00:00',
        recurrence: { rrule: 'FREQ=WEEKLY;COUNT=4' },
      });
      const all = await occurrences(t, s.id);
      await t.request({
        method: 'POST',
        url: `${EVENTS}/${all[2].id}`,
        auth: editor.authorization,
        payload: { title: 'Pottery with guest' },
      });
      const stopped = await t.request({
        method: 'POST',
        url: `${EVENTS}/${s.id}`,
        auth: editor.authorization,
        payload: { recurrence: null },
      });
      assert.equal(stopped.statusCode, 200, stopped.body);
      assert.equal(stopped.data.recurrence, undefined);
      assert.equal(stopped.data.series_id, undefined);
      const kept = await t.request({ method: 'GET', url: `${EVENTS}/${all[2].id}` });
      assert.equal(kept.data.title, 'Pottery with guest');
      assert.equal(kept.data.series_id, undefined);
      const trashed = await t.request({ method: 'GET', url: `${EVENTS}/${all[1].id}`, auth: editor.authorization });
      assert.equal(trashed.data.code, 'event-no-longer-available');
    });

    it('should make a plain event a series on update, and never show a draft occurrence to the public', async () => {
      const plain = await create({
        title: 'Open studio',
        start_date: '2027-05-05 14:00:00',
        end_date: '2027-05-05 17:00:00',
      });
      const made = await t.request({
        method: 'PATCH',
        url: `${EVENTS}/${plain.data.id}`,
        auth: editor.authorization,
        payload: { recurrence: { rrule: 'FREQ=WEEKLY;COUNT=3' } },
      });
      assert.equal(made.statusCode, 200, made.body);
      assert.equal(made.data.series_id, plain.data.id);
      const all = await occurrences(t, plain.data.id);
      assert.equal(all.length, 3);
      await t.request({
        method: 'POST',
        url: `${EVENTS}/${all[1].id}`,
        auth: editor.authorization,
        payload: { status: 'draft' },
      });
      const publicList = await occurrences(t, plain.data.id);
      assert.equal(publicList.length, 2);
      const hidden = await t.request({ method: 'GET', url: `${EVENTS}/${all[1].id}` });
      assert.equal(hidden.statusCode, 403);
    });

    it('should let an author edit only series they own', async () => {
      const s = await series({
        title: 'Editors only',
        start_date: '2027-08-01 10:00:00',
        end_date: '2027-08-01 11:00:00',
        recurrence: { rrule: 'FREQ=DAILY;COUNT=3' },
      });
      const all = await occurrences(t, s.id);
      const denied = await t.request({
        method: 'POST',
        url: `${EVENTS}/${all[1].id}?scope=all`,
        auth: author.authorization,
        payload: { title: 'Hijack' },
      });
      assert.equal(denied.statusCode, 403);
      assert.ok((await occurrences(t, s.id)).every((e) => e.title === 'Editors only'));
    });

    it('should give a translated series translated occurrences, linked date by date', async () => {
      const en = await series({
        title: 'Jazz evening',
        start_date: '2027-07-02 20:00:00',
        end_date: '2027-07-02 23:00:00',
        recurrence: { rrule: 'FREQ=WEEKLY;COUNT=4' },
      });
      const fr = await t.request({
        method: 'POST',
        url: `/fr${EVENTS}`,
        auth: editor.authorization,
        payload: {
          title: 'Soirée jazz',
          status: 'publish',
          start_date: '2027-07-02 20:00:00',
          end_date: '2027-07-02 23:00:00',
          translation_of: en.id,
        },
      });
      assert.equal(fr.statusCode, 201, fr.body);
      assert.equal(fr.data.recurrence.rrule, 'FREQ=WEEKLY;COUNT=4');
      const enAll = await occurrences(t, en.id);
      const frAll = await occurrences(t, fr.data.id, undefined, '/fr');
      assert.equal(frAll.length, 4);
      for (let i = 0; i < 4; i += 1) {
        assert.equal(frAll[i].recurrence_id, enAll[i].recurrence_id);
        assert.deepEqual(frAll[i].translations, { en: enAll[i].id, fr: frAll[i].id });
      }
    });

    it('should say on the public page of an occurrence how its series repeats and link its next published dates', async () => {
      const s = await series({
        title: 'Garden tour',
        start_date: '2030-05-06 10:00:00',
        end_date: '2030-05-06 11:00:00',
        recurrence: { rrule: 'FREQ=WEEKLY;COUNT=4' },
      });
      const all = await occurrences(t, s.id);
      await t.request({
        method: 'POST',
        url: `${EVENTS}/${all[2].id}`,
        auth: editor.authorization,
        payload: { status: 'draft' },
      });
      const page = await t.request({ method: 'GET', url: `/event/${all[1].slug}/` });
      assert.equal(page.statusCode, 200);
      assert.match(
        page.body,
        /<h2 id="series-heading">Repeats<\/h2>\s*<p class="summary">Every week on Monday 4 times<\/p>/,
      );
      assert.ok(page.body.includes(`/event/${all[3].slug}/`), 'the next published date is linked');
      assert.ok(!page.body.includes(`/event/${all[2].slug}/`), 'a draft occurrence is not');
      const fr = await t.request({ method: 'GET', url: `/fr/event/${all[1].slug}/` });
      assert.equal(fr.statusCode, 404, 'the occurrence has no French translation');
    });

    it('should show only the next occurrence of each series with hide_subsequent_recurrences', async () => {
      const s = await series({
        title: 'Harbour tour',
        start_date: '2030-01-07 10:00:00',
        end_date: '2030-01-07 11:00:00',
        recurrence: { rrule: 'FREQ=DAILY;COUNT=5' },
      });
      await create({ title: 'Harbour festival', start_date: '2030-01-08 12:00:00', end_date: '2030-01-08 13:00:00' });
      const all = await t.request({
        method: 'GET',
        url: `${EVENTS}?search=Harbour&start_date=2030-01-01&end_date=2030-01-31`,
      });
      assert.equal(all.data.total, 6);
      const next = await t.request({
        method: 'GET',
        url: `${EVENTS}?search=Harbour&start_date=2030-01-09&end_date=2030-01-31&hide_subsequent_recurrences=true`,
      });
      assert.equal(next.statusCode, 200, next.body);
      assert.deepEqual(
        next.data.events.map((e: any) => e.start_date),
        ['2030-01-09 10:00:00'],
      );
      assert.equal(next.data.total, 1);
      assert.equal(next.data.events[0].series_id, s.id);
    });
  });

  describe(`recurring events: the horizon [${backend}]`, () => {
    let t: TestApp;
    let editor: { authorization: string };
    before(async () => {
      t = await createTestApp(backend, { CAL_RECURRENCE_HORIZON_DAYS: '60' });
      editor = await t.asUser('editor');
    });
    after(() => t.close());

    it('should materialize a rule without end up to the horizon and extend it as the clock moves', async () => {
      const today = new Date();
      const start = `${today.toISOString().slice(0, 10)} 18:00:00`;
      const res = await t.request({
        method: 'POST',
        url: EVENTS,
        auth: editor.authorization,
        payload: {
          title: 'Weekly forever',
          status: 'publish',
          start_date: start,
          end_date: start.replace('18:00', '19:00'),
          recurrence: { rrule: 'FREQ=WEEKLY' },
        },
      });
      assert.equal(res.statusCode, 201, res.body);
      const count = async () =>
        (
          await t.request({
            method: 'GET',
            url: `${EVENTS}?post_parent=${res.data.id}&start_date=2000-01-01&end_date=2100-01-01`,
          })
        ).data.total + 1;
      const initial = await count();
      assert.ok(initial >= 8 && initial <= 10, `about 60 days of weeks, got ${initial}`);
      const policy = { max: t.config.recurrenceMax, horizonDays: 60, now: () => today };
      // Nothing is due while the clock stands still.
      assert.equal(await extendHorizons(t.storage.db, policy, today), 0);
      const later = new Date(today.getTime() + 70 * 86_400_000);
      const created = await extendHorizons(t.storage.db, policy, later);
      assert.ok(created >= 9 && created <= 11, `ten more weeks, got ${created}`);
      assert.equal(await count(), initial + created);
      // Running it again (another instance, the next hour) creates nothing more.
      assert.equal(await extendHorizons(t.storage.db, policy, later), 0);
    });
  });
}
