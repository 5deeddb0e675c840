import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import ICAL from 'ical.js';
import { backends, createTestApp, type TestApp } from '../helpers/app.js';

const EVENTS = '/cal/events/v1/events';
const WINDOW = 'start_date=2027-03-01&end_date=2027-06-30';
/** The rule as ical.js writes it back (it orders the parts its own way). */
const RULE = ICAL.Recur.fromString('FREQ=WEEKLY;BYDAY=TU;COUNT=8').toString();

type Component = InstanceType<typeof ICAL.Component>;

/** Parses a feed with ical.js (an independent parser), its VTIMEZONEs registered. */
function parse(body: string): Component[] {
  const calendar = new ICAL.Component(ICAL.parse(body));
  for (const vtimezone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(vtimezone);
  return calendar.getAllSubcomponents('vevent');
}

const utc = (time: InstanceType<typeof ICAL.Time>): string => new Date(time.toUnixTime() * 1000).toISOString().slice(0, 19).replace('T', ' ');

/**
 * The occurrences ical.js makes of a series: the master's rule with its RDATE/EXDATE, each
 * instance replaced by the VEVENT whose RECURRENCE-ID names it (ical.js's own relateException).
 */
function expandSeries(vevents: Component[], uid: string, until: string): { start: string; title: string }[] {
  const mine = vevents.filter((v) => v.getFirstPropertyValue('uid') === uid);
  const master = new ICAL.Event(mine.find((v) => !v.hasProperty('recurrence-id'))!);
  for (const exception of mine.filter((v) => v.hasProperty('recurrence-id'))) master.relateException(exception);
  const iterator = master.iterator();
  const out: { start: string; title: string }[] = [];
  for (let next = iterator.next(); next && utc(next) <= until; next = iterator.next()) {
    const details = master.getOccurrenceDetails(next);
    out.push({ start: utc(details.startDate), title: details.item.summary });
  }
  return out;
}

for (const backend of backends()) {
  describe(`calendar feeds: recurring events [${backend}]`, () => {
    let t: TestApp;
    let editor: { authorization: string };
    let series: Record<string, any>;
    let occurrences: Record<string, any>[];

    before(async () => {
      t = await createTestApp(backend, { CAL_RECURRENCE_HORIZON_DAYS: '7300' });
      editor = await t.asUser('editor');
      // Weekly on Tuesdays at 19:00 in Paris across the spring change (28 March 2027).
      const res = await t.request({
        method: 'POST',
        url: EVENTS,
        auth: editor.authorization,
        payload: { title: 'Weekly choir', status: 'publish', timezone: 'Europe/Paris', start_date: '2027-03-09 19:00:00', end_date: '2027-03-09 21:00:00', recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=8', rdates: ['2027-04-01 19:00:00'] } },
      });
      assert.equal(res.statusCode, 201, res.body);
      series = res.data;
      const list = await t.request({ method: 'GET', url: `${EVENTS}?post_parent=${series.id}&${WINDOW}` });
      occurrences = [series, ...list.data.events];
      // One occurrence moved and renamed (an exception), one deleted (an EXDATE), one made a draft.
      const moved = occurrences.find((o) => o.start_date.startsWith('2027-03-23'))!;
      await t.request({ method: 'POST', url: `${EVENTS}/${moved.id}`, auth: editor.authorization, payload: { title: 'Weekly choir (concert)', start_date: '2027-03-24 20:00:00', end_date: '2027-03-24 22:00:00' } });
      const deleted = occurrences.find((o) => o.start_date.startsWith('2027-04-06'))!;
      await t.request({ method: 'DELETE', url: `${EVENTS}/${deleted.id}`, auth: editor.authorization });
      const draft = occurrences.find((o) => o.start_date.startsWith('2027-04-13'))!;
      await t.request({ method: 'POST', url: `${EVENTS}/${draft.id}`, auth: editor.authorization, payload: { status: 'draft' } });
    });
    after(() => t.close());

    it('should write a series as one VEVENT with RRULE, RDATE and EXDATE, and its exception with RECURRENCE-ID', async () => {
      const res = await t.request({ method: 'GET', url: `${EVENTS}?format=ical&${WINDOW}` });
      assert.equal(res.statusCode, 200);
      const vevents = parse(res.body);
      const uid = series.global_id;
      const mine = vevents.filter((v) => v.getFirstPropertyValue('uid') === uid);
      assert.equal(mine.length, 2, 'the series and its one readable exception');
      const master = mine.find((v) => !v.hasProperty('recurrence-id'))!;
      assert.equal(master.getFirstPropertyValue('rrule')!.toString(), RULE);
      assert.ok(master.hasProperty('rdate'));
      const exdates = master.getAllProperties('exdate').flatMap((p) => p.getValues().map((v: InstanceType<typeof ICAL.Time>) => v.toString()));
      assert.deepEqual(exdates.sort(), ['2027-04-06T19:00:00', '2027-04-13T19:00:00'], 'the deleted date and, for the public, the draft');
      const exception = mine.find((v) => v.hasProperty('recurrence-id'))!;
      assert.equal(String(exception.getFirstPropertyValue('recurrence-id')), '2027-03-23T19:00:00');
      // No other VEVENT for the plain occurrences.
      assert.equal(vevents.length, 2);
    });

    it('should expand, in an independent parser, to exactly the dates and titles the JSON list shows', async () => {
      const vevents = parse((await t.request({ method: 'GET', url: `${EVENTS}?format=ical&${WINDOW}` })).body);
      const fromIcal = expandSeries(vevents, series.global_id, '2027-06-30 23:59:59');
      const json = await t.request({ method: 'GET', url: `${EVENTS}?${WINDOW}&per_page=50` });
      const fromJson = json.data.events.map((e: any) => ({ start: e.utc_start_date, title: e.title })).sort((a: any, b: any) => a.start.localeCompare(b.start));
      assert.deepEqual(
        fromIcal.sort((a, b) => a.start.localeCompare(b.start)),
        fromJson,
      );
      // 19:00 in Paris is 18:00 UTC before the change and 17:00 after it.
      assert.ok(fromIcal.some((o) => o.start === '2027-03-16 18:00:00'));
      assert.ok(fromIcal.some((o) => o.start === '2027-03-30 17:00:00'));
      assert.ok(fromIcal.some((o) => o.start === '2027-03-24 19:00:00' && o.title === 'Weekly choir (concert)'));
    });

    it("should show an editor the draft occurrence as its own RECURRENCE-ID VEVENT instead of an EXDATE", async () => {
      const vevents = parse((await t.request({ method: 'GET', url: `${EVENTS}?format=ical&${WINDOW}`, auth: editor.authorization })).body);
      const mine = vevents.filter((v) => v.getFirstPropertyValue('uid') === series.global_id);
      const ids = mine.filter((v) => v.hasProperty('recurrence-id')).map((v) => String(v.getFirstPropertyValue('recurrence-id'))).sort();
      assert.deepEqual(ids, ['2027-03-23T19:00:00', '2027-04-13T19:00:00']);
      const master = mine.find((v) => !v.hasProperty('recurrence-id'))!;
      const exdates = master.getAllProperties('exdate').flatMap((p) => p.getValues().map((v: InstanceType<typeof ICAL.Time>) => v.toString()));
      assert.deepEqual(exdates, ['2027-04-06T19:00:00']);
    });

    it('should give a single occurrence its own .ics, and the series its rule', async () => {
      const one = occurrences.find((o) => o.start_date.startsWith('2027-03-16'))!;
      const alone = parse((await t.request({ method: 'GET', url: `${EVENTS}/${one.id}?format=ical` })).body);
      assert.equal(alone.length, 1);
      assert.equal(alone[0]!.hasProperty('rrule'), false);
      assert.equal(alone[0]!.getFirstPropertyValue('uid'), one.global_id);
      const whole = parse((await t.request({ method: 'GET', url: `${EVENTS}/${series.id}?format=ical` })).body);
      assert.equal(whole.find((v) => !v.hasProperty('recurrence-id'))!.getFirstPropertyValue('rrule')!.toString(), RULE);
    });

    it('should cancel a trashed series as a whole', async () => {
      const other = await t.request({ method: 'POST', url: EVENTS, auth: editor.authorization, payload: { title: 'Short series', status: 'publish', start_date: '2027-05-03 10:00:00', end_date: '2027-05-03 11:00:00', recurrence: { rrule: 'FREQ=DAILY;COUNT=3' } } });
      await t.request({ method: 'DELETE', url: `${EVENTS}/${other.data.id}`, auth: editor.authorization });
      const vevents = parse((await t.request({ method: 'GET', url: `${EVENTS}?format=ical&${WINDOW}` })).body);
      const cancelled = vevents.filter((v) => v.getFirstPropertyValue('uid') === other.data.global_id);
      assert.ok(cancelled.length >= 1);
      assert.ok(cancelled.every((v) => v.getFirstPropertyValue('status') === 'CANCELLED'));
    });
  });
}
