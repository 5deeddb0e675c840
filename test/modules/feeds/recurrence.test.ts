import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import ICAL from 'ical.js';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';

const EVENTS = '/cal/events/v1/events';
const WINDOW = 'start_date=2027-03-01&end_date=2027-06-30';
/** A second window, for the series of the edge cases (none of the first window's). */
const WINDOW_2028 = 'start_date=2028-01-01&end_date=2028-12-31';
/** The rule as ical.js writes it back (it orders the parts its own way). */
const RULE = ICAL.Recur.fromString('FREQ=WEEKLY;BYDAY=TU;COUNT=8').toString();

type Component = InstanceType<typeof ICAL.Component>;
type Time = InstanceType<typeof ICAL.Time>;
type Occurrence = { start: string; title: string };

/** Parses a feed with ical.js (an independent parser), its VTIMEZONEs registered. */
function parseCalendar(body: string): { vevents: Component[]; tzids: string[] } {
  const calendar = new ICAL.Component(ICAL.parse(body));
  const vtimezones = calendar.getAllSubcomponents('vtimezone');
  for (const vtimezone of vtimezones) ICAL.TimezoneService.register(vtimezone);
  return {
    vevents: calendar.getAllSubcomponents('vevent'),
    tzids: vtimezones.map((v) => String(v.getFirstPropertyValue('tzid'))),
  };
}
const parse = (body: string): Component[] => parseCalendar(body).vevents;

/** A time as the JSON shows it: the UTC instant of a date-time, the day of a date (all-day). */
const utc = (time: Time): string =>
  time.isDate ? time.toString() : new Date(time.toUnixTime() * 1000).toISOString().slice(0, 19).replace('T', ' ');
const times = (component: Component, name: string): string[] =>
  component.getAllProperties(name).flatMap((p) => p.getValues().map((v: Time) => v.toString()));
const ofSeries = (vevents: Component[], uid: string): Component[] =>
  vevents.filter((v) => v.getFirstPropertyValue('uid') === uid);

/**
 * The occurrences ical.js makes of a series: the master's rule with its RDATE/EXDATE, each
 * instance replaced by the VEVENT whose RECURRENCE-ID names it (ical.js's own relateException).
 */
function expandSeries(vevents: Component[], uid: string, until = '9999'): Occurrence[] {
  const mine = ofSeries(vevents, uid);
  const masters = mine.filter((v) => !v.hasProperty('recurrence-id'));
  assert.equal(masters.length, 1, `one master VEVENT for ${uid}`);
  const master = new ICAL.Event(masters[0]!);
  for (const exception of mine.filter((v) => v.hasProperty('recurrence-id'))) master.relateException(exception);
  const iterator = master.iterator();
  const out: Occurrence[] = [];
  for (let next = iterator.next(); next && utc(next) <= until; next = iterator.next()) {
    const details = master.getOccurrenceDetails(next);
    out.push({ start: utc(details.startDate), title: details.item.summary });
  }
  return out.sort((a, b) => a.start.localeCompare(b.start));
}

for (const backend of backends()) {
  describe(`calendar feeds: recurring events [${backend}]`, () => {
    let t: TestApp;
    let editor: { authorization: string };
    let series: Record<string, any>;
    let occurrences: Record<string, any>[];

    const create = async (payload: Record<string, unknown>): Promise<Record<string, any>> => {
      const res = await t.request({
        method: 'POST',
        url: EVENTS,
        auth: editor.authorization,
        payload: { status: 'publish', ...payload },
      });
      assert.equal(res.statusCode, 201, res.body);
      return res.data;
    };
    const write = async (method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: Record<string, unknown>) => {
      const res = await t.request({ method, url, auth: editor.authorization, ...(payload ? { payload } : {}) });
      assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`);
      return res.data;
    };
    const feed = async (query: string, auth?: string) => {
      const res = await t.request({ method: 'GET', url: `${EVENTS}?format=ical&${query}`, auth });
      assert.equal(res.statusCode, 200, res.body);
      return res.body;
    };
    /** The series and its occurrences as the JSON list shows them, in date order. */
    const jsonOccurrences = async (of: Record<string, any>, window: string, auth?: string): Promise<Occurrence[]> => {
      const list = await t.request({
        method: 'GET',
        url: `${EVENTS}?post_parent=${of.id}&${window}&per_page=50`,
        auth,
      });
      assert.equal(list.statusCode, 200, list.body);
      const head = (await t.request({ method: 'GET', url: `${EVENTS}/${of.id}`, auth })).data;
      const shown = (e: any) => ({ start: e.all_day ? e.start_date.slice(0, 10) : e.utc_start_date, title: e.title });
      return [shown(head), ...list.data.events.map(shown)].sort((a, b) => a.start.localeCompare(b.start));
    };

    before(async () => {
      t = await createTestApp(backend, { CAL_RECURRENCE_HORIZON_DAYS: '7300' });
      editor = await t.asUser('editor');
      // Weekly on Tuesdays at 19:00 in Paris across the spring change (28 March 2027).
      series = await create({
        title: 'Weekly choir',
        timezone: 'Europe/Paris',
        start_date: '2027-03-09 19:00:00',
        end_date: '2027-03-09 21:00:00',
        recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=8', rdates: ['2027-04-01 19:00:00'] },
      });
      const list = await t.request({ method: 'GET', url: `${EVENTS}?post_parent=${series.id}&${WINDOW}` });
      occurrences = [series, ...list.data.events];
      assert.equal(occurrences.length, 9);
      // One occurrence moved and renamed (an exception), one deleted (an EXDATE), one made a draft.
      const on = (day: string) => occurrences.find((o) => o.start_date.startsWith(day))!;
      await write('POST', `${EVENTS}/${on('2027-03-23').id}`, {
        title: 'Weekly choir (concert)',
        start_date: '2027-03-24 20:00:00',
        end_date: '2027-03-24 22:00:00',
      });
      await write('DELETE', `${EVENTS}/${on('2027-04-06').id}`);
      await write('POST', `${EVENTS}/${on('2027-04-13').id}`, { status: 'draft' });
    });
    after(() => t.close());

    it('should write a series as one VEVENT with RRULE, RDATE and EXDATE, and its exception with RECURRENCE-ID', async () => {
      const vevents = parse(await feed(WINDOW));
      const mine = ofSeries(vevents, series.global_id);
      assert.equal(mine.length, 2, 'the series and its one readable exception');
      const master = mine.find((v) => !v.hasProperty('recurrence-id'))!;
      assert.equal(master.getFirstPropertyValue('rrule')!.toString(), RULE);
      assert.equal(master.getFirstProperty('dtstart')!.getParameter('tzid'), 'Europe/Paris');
      assert.equal(master.getFirstPropertyValue('dtstart')!.toString(), '2027-03-09T19:00:00');
      assert.deepEqual(times(master, 'rdate'), ['2027-04-01T19:00:00']);
      assert.deepEqual(
        times(master, 'exdate').sort(),
        ['2027-04-06T19:00:00', '2027-04-13T19:00:00'],
        'the deleted date and, for the public, the draft',
      );
      assert.ok(master.getAllProperties('exdate').every((p) => p.getParameter('tzid') === 'Europe/Paris'));
      const exception = mine.find((v) => v.hasProperty('recurrence-id'))!;
      assert.equal(String(exception.getFirstPropertyValue('recurrence-id')), '2027-03-23T19:00:00');
      assert.equal(exception.getFirstProperty('recurrence-id')!.getParameter('tzid'), 'Europe/Paris');
      assert.equal(exception.hasProperty('rrule'), false);
      assert.equal(exception.getFirstPropertyValue('summary'), 'Weekly choir (concert)');
      // Not one VEVENT per occurrence: no other VEVENT, and none under an occurrence's own UID.
      assert.equal(vevents.length, 2);
      const uids = new Set(occurrences.filter((o) => o.id !== series.id).map((o) => o.global_id));
      assert.ok(!vevents.some((v) => uids.has(v.getFirstPropertyValue('uid'))));
    });

    it('should expand, in an independent parser, to exactly the dates and titles the JSON list shows, across the DST change', async () => {
      const fromIcal = expandSeries(parse(await feed(WINDOW)), series.global_id);
      assert.deepEqual(fromIcal, await jsonOccurrences(series, WINDOW));
      // 19:00 in Paris is 18:00 UTC before the change and 17:00 after it.
      assert.ok(fromIcal.some((o) => o.start === '2027-03-16 18:00:00'));
      assert.ok(fromIcal.some((o) => o.start === '2027-03-30 17:00:00'));
      assert.ok(
        fromIcal.some((o) => o.start === '2027-03-24 19:00:00' && o.title === 'Weekly choir (concert)'),
        'the moved exception',
      );
      assert.ok(
        !fromIcal.some(
          (o) =>
            o.start.startsWith('2027-03-23') || o.start.startsWith('2027-04-06') || o.start.startsWith('2027-04-13'),
        ),
      );
      assert.equal(fromIcal.length, 7);
    });

    it('should show an editor the draft occurrence as its own RECURRENCE-ID VEVENT instead of an EXDATE', async () => {
      const vevents = parse(await feed(WINDOW, editor.authorization));
      const mine = ofSeries(vevents, series.global_id);
      const ids = mine
        .filter((v) => v.hasProperty('recurrence-id'))
        .map((v) => String(v.getFirstPropertyValue('recurrence-id')))
        .sort();
      assert.deepEqual(ids, ['2027-03-23T19:00:00', '2027-04-13T19:00:00']);
      const draft = mine.find((v) => String(v.getFirstPropertyValue('recurrence-id')) === '2027-04-13T19:00:00')!;
      assert.equal(draft.getFirstPropertyValue('status'), 'TENTATIVE');
      const master = mine.find((v) => !v.hasProperty('recurrence-id'))!;
      assert.deepEqual(times(master, 'exdate'), ['2027-04-06T19:00:00']);
      // The editor's JSON list has the draft too, and the expansion still matches it.
      assert.deepEqual(
        expandSeries(vevents, series.global_id),
        await jsonOccurrences(series, WINDOW, editor.authorization),
      );
    });

    it('should give a single occurrence its own .ics, and the series its rule with its exceptions', async () => {
      const one = occurrences.find((o) => o.start_date.startsWith('2027-03-16'))!;
      const alone = parse((await t.request({ method: 'GET', url: `${EVENTS}/${one.id}?format=ical` })).body);
      assert.equal(alone.length, 1);
      for (const name of ['rrule', 'rdate', 'exdate', 'recurrence-id'])
        assert.equal(alone[0]!.hasProperty(name), false, name);
      assert.equal(alone[0]!.getFirstPropertyValue('uid'), one.global_id);
      assert.equal(alone[0]!.getFirstPropertyValue('dtstart')!.toString(), '2027-03-16T19:00:00');
      // One occurrence's .ics expands to that date alone.
      assert.deepEqual(new ICAL.Event(alone[0]!).isRecurring(), false);
      const whole = parse((await t.request({ method: 'GET', url: `${EVENTS}/${series.id}?format=ical` })).body);
      assert.equal(
        whole
          .find((v) => !v.hasProperty('recurrence-id'))!
          .getFirstPropertyValue('rrule')!
          .toString(),
        RULE,
      );
      assert.deepEqual(expandSeries(whole, series.global_id), await jsonOccurrences(series, WINDOW));
    });

    it("should cancel a trashed series as a whole: one cancelled VEVENT with its rule, nothing under its occurrences' UIDs", async () => {
      const other = await create({
        title: 'Short series',
        start_date: '2027-05-03 10:00:00',
        end_date: '2027-05-03 11:00:00',
        recurrence: { rrule: 'FREQ=DAILY;COUNT=3' },
      });
      const others = (await t.request({ method: 'GET', url: `${EVENTS}?post_parent=${other.id}&${WINDOW}` })).data
        .events as Record<string, any>[];
      assert.equal(others.length, 2);
      await write('DELETE', `${EVENTS}/${other.id}`);
      const vevents = parse(await feed(WINDOW));
      const cancelled = ofSeries(vevents, other.global_id);
      assert.equal(cancelled.length, 1);
      assert.equal(cancelled[0]!.getFirstPropertyValue('status'), 'CANCELLED');
      assert.equal(
        String(cancelled[0]!.getFirstPropertyValue('rrule')),
        ICAL.Recur.fromString('FREQ=DAILY;COUNT=3').toString(),
        'every instance cancelled',
      );
      assert.ok(!vevents.some((v) => others.some((o) => o.global_id === v.getFirstPropertyValue('uid'))));
      // The live series is untouched.
      assert.equal(ofSeries(vevents, series.global_id).length, 2);
    });

    describe('edge cases, each expanded by ical.js and compared with the JSON list', () => {
      const made: Record<string, Record<string, any>> = {};
      let vevents: Component[];
      let tzids: string[];

      before(async () => {
        // 02:30 daily in Paris over the spring-forward night (26 March 2028): 02:30 does not exist that day.
        made['gap'] = await create({
          title: 'Night shift',
          timezone: 'Europe/Paris',
          start_date: '2028-03-24 02:30:00',
          end_date: '2028-03-24 03:00:00',
          recurrence: { rrule: 'FREQ=DAILY;COUNT=5' },
        });
        // 01:30 daily in New York over the fall-back night (5 November 2028): 01:30 happens twice.
        made['overlap'] = await create({
          title: 'Early bird',
          timezone: 'America/New_York',
          start_date: '2028-11-03 01:30:00',
          end_date: '2028-11-03 02:00:00',
          recurrence: { rrule: 'FREQ=DAILY;COUNT=4' },
        });
        // A start on a Monday with a rule of Tuesdays: the start is an occurrence all the same (RFC 5545).
        made['offRule'] = await create({
          title: 'Off rule',
          timezone: 'Europe/Paris',
          start_date: '2028-05-01 10:00:00',
          end_date: '2028-05-01 11:00:00',
          recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=3' },
        });
        // All day, the last Friday of four months, with an extra date and an excluded one.
        made['allDay'] = await create({
          title: 'Month end',
          all_day: true,
          start_date: '2028-06-30 00:00:00',
          end_date: '2028-06-30 23:59:59',
          recurrence: { rrule: 'FREQ=MONTHLY;BYDAY=-1FR;COUNT=4', rdates: ['2028-07-14'], exdates: ['2028-08-25'] },
        });
        // An exception kept after a rule change that no longer gives its date.
        made['orphan'] = await create({
          title: 'Book club',
          timezone: 'Europe/Paris',
          start_date: '2028-09-05 18:00:00',
          end_date: '2028-09-05 19:00:00',
          recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=4' },
        });
        const book = (
          await t.request({ method: 'GET', url: `${EVENTS}?post_parent=${made['orphan'].id}&${WINDOW_2028}` })
        ).data.events as Record<string, any>[];
        await write('PATCH', `${EVENTS}/${book.find((o) => o.start_date.startsWith('2028-09-12'))!.id}`, {
          title: 'Book club (author visit)',
        });
        await write('PATCH', `${EVENTS}/${made['orphan'].id}?scope=all`, {
          recurrence: { rrule: 'FREQ=WEEKLY;BYDAY=TU;INTERVAL=2;COUNT=3' },
        });
        // An exception moved to another zone and out of the feed's window.
        made['zone'] = await create({
          title: 'Remote meetup',
          timezone: 'Asia/Tokyo',
          start_date: '2028-10-02 20:00:00',
          end_date: '2028-10-02 21:00:00',
          recurrence: { rrule: 'FREQ=WEEKLY;COUNT=3' },
        });
        const meetups = (
          await t.request({ method: 'GET', url: `${EVENTS}?post_parent=${made['zone'].id}&${WINDOW_2028}` })
        ).data.events as Record<string, any>[];
        await write('PATCH', `${EVENTS}/${meetups[1]!.id}`, {
          timezone: 'America/Chicago',
          start_date: '2029-01-10 09:00:00',
          end_date: '2029-01-10 10:00:00',
        });
        ({ vevents, tzids } = parseCalendar(await feed(WINDOW_2028)));
      });

      for (const [key, what] of [
        ['offRule', 'a start the rule does not give'],
        ['allDay', 'an all-day series with RDATE and EXDATE'],
        ['orphan', 'an exception the rule no longer gives'],
        ['zone', 'an exception moved to another zone, outside the window'],
      ] as const) {
        it(`should match the JSON list for ${what}`, async () => {
          const expected = await jsonOccurrences(
            made[key]!,
            key === 'zone' ? 'start_date=2028-01-01&end_date=2029-12-31' : WINDOW_2028,
          );
          assert.deepEqual(expandSeries(vevents, made[key]!.global_id), expected);
        });
      }

      it('should write times in a DST gap or overlap as the wall times the JSON list names, equal on every other day', async () => {
        for (const [key, day] of [
          ['gap', '2028-03-26'],
          ['overlap', '2028-11-05'],
        ] as const) {
          const uid = made[key]!.global_id;
          const json = (
            await t.request({ method: 'GET', url: `${EVENTS}?post_parent=${made[key]!.id}&${WINDOW_2028}` })
          ).data.events as Record<string, any>[];
          const walls = [made[key]!, ...json].map((e) => e.recurrence_id.replace(' ', 'T')).sort();
          const master = new ICAL.Event(ofSeries(vevents, uid)[0]!);
          const iterator = master.iterator();
          const fromIcal: string[] = [];
          for (let next = iterator.next(); next; next = iterator.next()) fromIcal.push(next.toString());
          assert.deepEqual(fromIcal, walls, key);
          // The instant of that one day is the client's to resolve: the service reads it as RFC 5545
          // §3.3.5 says (a gap with the offset before it, an overlap as its first time); ical.js takes
          // the offset after the change. Every other day agrees to the second.
          const other = (list: Occurrence[]) => list.filter((o) => !o.start.startsWith(day));
          const expected = await jsonOccurrences(made[key]!, WINDOW_2028);
          assert.deepEqual(other(expandSeries(vevents, uid)), other(expected), key);
          assert.equal(expected.length, other(expected).length + 1);
        }
        const gap = await jsonOccurrences(made['gap']!, WINDOW_2028);
        assert.equal(
          gap.find((o) => o.start.startsWith('2028-03-26'))!.start,
          '2028-03-26 01:30:00',
          '02:30 that does not exist is 03:30 summer time',
        );
        const overlap = await jsonOccurrences(made['overlap']!, WINDOW_2028);
        assert.equal(
          overlap.find((o) => o.start.startsWith('2028-11-05'))!.start,
          '2028-11-05 05:30:00',
          'the first 01:30 (daylight time)',
        );
      });

      it('should make a start the rule does not give an RDATE, and its COUNT an UNTIL, so every client counts the same', () => {
        const master = ofSeries(vevents, made['offRule']!.global_id)[0]!;
        assert.deepEqual(times(master, 'rdate'), ['2028-05-01T10:00:00']);
        const rule = master.getFirstPropertyValue('rrule') as InstanceType<typeof ICAL.Recur>;
        assert.equal(rule.count, null);
        assert.equal(rule.until!.toString(), '2028-05-09T08:00:00Z');
      });

      it('should add a kept exception the rule no longer gives to RDATE, so its RECURRENCE-ID names an instance', () => {
        const master = ofSeries(vevents, made['orphan']!.global_id).find((v) => !v.hasProperty('recurrence-id'))!;
        assert.deepEqual(times(master, 'rdate'), ['2028-09-12T18:00:00']);
        assert.ok(expandSeries(vevents, made['orphan']!.global_id).some((o) => o.title === 'Book club (author visit)'));
      });

      it("should declare the VTIMEZONE of every TZID it writes, the exceptions' outside the window included", async () => {
        assert.ok(tzids.includes('America/Chicago'), tzids.join(', '));
        const used = new Set(
          vevents
            .flatMap((v) =>
              ['dtstart', 'dtend', 'rdate', 'exdate', 'recurrence-id'].flatMap((name) =>
                v.getAllProperties(name).map((p) => p.getParameter('tzid')),
              ),
            )
            .filter((z): z is string => typeof z === 'string'),
        );
        for (const tzid of used) assert.ok(tzids.includes(tzid), `VTIMEZONE ${tzid}`);
        const single = parseCalendar(
          (await t.request({ method: 'GET', url: `${EVENTS}/${made['zone']!.id}?format=ical` })).body,
        );
        assert.deepEqual(single.tzids.sort(), ['America/Chicago', 'Asia/Tokyo']);
      });
    });
  });
}
