import { after, before, describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';
import { runImport } from '../../../src/modules/import/import.service.js';
import type { ImportReport } from '../../../src/modules/import/import.report.js';
import { readIcs, streamIcs } from '../../../src/modules/import/import.ics.js';

/**
 * The iCalendar reader's series, revisions and per-event isolation, each case a small calendar
 * like those real programs write (issue 31), imported twice through the path the command line and
 * the admin route take (runImport with the file's text), on each database.
 */

const calendar = (...events: string[][]): string =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//Series//EN', ...events.flat(), 'END:VCALENDAR'].join('\r\n');
const vevent = (uid: string, ...lines: string[]): string[] => [
  'BEGIN:VEVENT',
  `UID:${uid}`,
  'DTSTAMP:20260101T000000Z',
  ...lines,
  'END:VEVENT',
];

const total = (report: ImportReport, field: 'created' | 'updated' | 'unchanged' | 'skipped' | 'gone') =>
  Object.values(report.counts['event'] ?? {}).reduce((n, c) => n + c[field], 0);

describe('iCalendar reader: one VEVENT at a time', () => {
  it('reads COUNT and UNTIL together as the COUNT when that is where the rule ends, else as occurrences', () => {
    const read = readIcs(
      calendar(
        vevent(
          'cu@example.org',
          'SUMMARY:Both',
          'DTSTART:20270104T100000Z',
          'RRULE:FREQ=DAILY;COUNT=3;UNTIL=20270301T000000Z',
        ),
        vevent(
          'uc@example.org',
          'SUMMARY:Both',
          'DTSTART:20270104T100000Z',
          'RRULE:FREQ=DAILY;COUNT=30;UNTIL=20270106T000000Z',
        ),
      ),
      { lang: 'en', now: new Date('2026-11-27T00:00:00Z') },
    );
    assert.deepEqual(
      read.records.map((r) => [r.sourceId, (r.payload['recurrence'] as { rrule?: string } | undefined)?.rrule]),
      [
        ['cu@example.org', 'FREQ=DAILY;COUNT=3'],
        ['uc@example.org@20270104T100000', undefined],
        ['uc@example.org@20270105T100000', undefined],
      ],
    );
  });

  it("reads RDATEs before DTSTART as events of their own (an override in place of its date), leaving out an endless series' before since", () => {
    const read = readIcs(
      calendar(
        vevent(
          'birthday@example.org',
          'SUMMARY:Birthday',
          'DTSTART;VALUE=DATE:20141210',
          'DTEND;VALUE=DATE:20141211',
          'RRULE:FREQ=DAILY;COUNT=1',
          'RDATE:20131210Z',
          'RDATE:20121210Z',
          'RDATE:20111210Z',
        ),
        vevent(
          'birthday@example.org',
          'RECURRENCE-ID;VALUE=DATE:20111210',
          'SUMMARY:Party',
          'DTSTART;VALUE=DATE:20111211',
        ),
        vevent(
          'weekly@example.org',
          'SUMMARY:Weekly',
          'DTSTART:20260105T100000Z',
          'RRULE:FREQ=WEEKLY',
          'RDATE:20251229T100000Z',
          'RDATE:20200106T100000Z',
        ),
      ),
      {
        lang: 'en',
        now: new Date('2026-11-27T00:00:00Z'),
        recurrence: { max: 1000, horizonDays: 730, since: '2024-11-27' },
      },
    );
    assert.deepEqual(
      read.records.map((r) => [
        r.sourceId,
        r.payload['title'],
        r.payload['start_date'],
        r.payload['recurrence'] ? 'series' : 'event',
      ]),
      [
        ['birthday@example.org', 'Birthday', '2014-12-10', 'series'],
        ['birthday@example.org@20121210', 'Birthday', '2012-12-10', 'event'],
        ['birthday@example.org@20131210', 'Birthday', '2013-12-10', 'event'],
        ['birthday@example.org@20111210', 'Party', '2011-12-11', 'event'],
        ['weekly@example.org', 'Weekly', '2026-01-05 10:00:00', 'series'],
        ['weekly@example.org@20251229T100000', 'Weekly', '2025-12-29 10:00:00', 'event'],
      ],
    );
  });

  it('reads a large feed a chunk at a time (streamIcs), each linked record before the first event naming it, with what readIcs reads', () => {
    const events = Array.from({ length: 1000 }, (_, i) =>
      vevent(
        `e${i}@example.org`,
        `SUMMARY:Event ${i}`,
        `DTSTART:2027${String((i % 12) + 1).padStart(2, '0')}10T100000Z`,
        `LOCATION:Hall ${i % 300}`,
      ),
    );
    const text = calendar(...events);
    const options = { lang: 'en', now: new Date('2026-11-27T00:00:00Z') };
    const stream = streamIcs(text, options);
    assert.equal(stream.vevents, 1000);
    const chunks = stream.chunks();
    const written = new Set<string>();
    const sizes: number[] = [];
    let step = chunks.next();
    while (!step.done) {
      sizes.push(step.value.records.filter((r) => r.kind === 'event').length);
      for (const record of step.value.records) {
        if (record.links?.venue !== undefined)
          assert.ok(written.has(record.links.venue), `${record.sourceId}: its venue came first`);
        assert.ok(!written.has(record.sourceId), `${record.sourceId} once`);
        written.add(record.sourceId);
      }
      step = chunks.next();
    }
    assert.ok(sizes.length >= 4 && Math.max(...sizes) <= 250, `chunks of ${sizes.join(', ')} events`);
    const whole = readIcs(text, options);
    assert.equal(whole.records.length, 1300);
    assert.deepEqual(new Set(whole.records.map((r) => r.sourceId)), written);
    assert.deepEqual(step.value, { warnings: whole.warnings, calendarName: whole.calendarName });
  });

  it("reads folded UIDs, not an alarm's; an unreadable event or override costs itself, with its line; an unclosed one is read", () => {
    const text = [
      'BEGIN:VCALENDAR',
      'VERSION:2.0',
      ...['BEGIN:VEVENT', 'UID:very-long-uid-', ' folded@example.org', 'SEQUENCE:1', 'SUMMARY:Folded new'],
      ...['DTSTART:20270105T100000Z', 'BEGIN:VALARM', 'UID:alarm@example.org', 'SEQUENCE:9', 'ACTION:DISPLAY'],
      ...['TRIGGER:-PT15M', 'END:VALARM', 'END:VEVENT'],
      ...['BEGIN:VEVENT', 'UID:very-long-uid-folded@example.org', 'SUMMARY:Folded old', 'DTSTART:20270104T100000Z'],
      'END:VEVENT',
      ...['BEGIN:VEVENT', 'UID:bad@example.org', 'SUMMARY:Bad', 'DTSTART:2027XX05T100000Z', 'END:VEVENT'],
      ...['BEGIN:VEVENT', 'UID:s@example.org', 'SUMMARY:S', 'DTSTART:20270105T100000Z', 'RRULE:FREQ=DAILY;COUNT=3'],
      'END:VEVENT',
      ...['BEGIN:VEVENT', 'UID:s@example.org', 'RECURRENCE-ID:20270106T100000Z', 'SUMMARY:S moved'],
      ...['DTSTART:20270106T120000Z', 'DURATION:PX', 'END:VEVENT'],
      ...['BEGIN:VEVENT', 'UID:open@example.org', 'SUMMARY:Unclosed', 'DTSTART:20270105T100000Z'],
      'END:VCALENDAR',
    ].join('\n');
    const read = readIcs(text, { lang: 'en', now: new Date('2026-11-27T00:00:00Z') });
    assert.deepEqual(
      read.records.map((r) => [r.sourceId, r.payload['title']]),
      [
        ['very-long-uid-folded@example.org', 'Folded new'],
        ['s@example.org', 'S'],
        ['open@example.org', 'Unclosed'],
      ],
    );
    assert.deepEqual(
      read.skipped.map((s) => [s.sourceId, s.line]),
      [
        ['bad@example.org', 21],
        ['s@example.org', 32],
      ],
    );
    assert.match(read.skipped[0]!.reason, /^unreadable: Could not extract integer from "XX"/);
    assert.match(read.skipped[1]!.reason, /^override of s@example.org unreadable: invalid duration/);
    assert.match(read.warnings.join('\n'), /1 VEVENT\(s\) were earlier revisions/);
  });
});

for (const backend of backends()) {
  describe(`iCalendar series and events from real programs [${backend}]`, () => {
    let t: TestApp;
    let admin: { id: number; authorization: string };

    before(async () => {
      t = await createTestApp(backend);
      admin = await t.asUser('administrator', 'importer');
    });
    after(() => t.close());

    /** Imports the text as an uploaded file named `name`. */
    const run = (name: string, text: string): Promise<ImportReport> =>
      runImport(
        {
          app: t.app,
          actor: { id: admin.id, username: 'importer', role: 'administrator' },
          author: null,
          stopped: () => false,
        },
        { icsText: text, icsName: name },
      );

    /** Imported twice: the second run must change nothing. */
    async function twice(name: string, text: string): Promise<ImportReport> {
      const first = await run(name, text);
      const again = await run(name, text);
      assert.equal(total(again, 'created') + total(again, 'updated'), 0, `${name}: ${JSON.stringify(again.counts)}`);
      assert.equal(total(again, 'unchanged'), total(first, 'created') + total(first, 'updated'));
      return first;
    }

    /** Start and title of every event (series, occurrence or single) whose title starts with `prefix`. */
    async function listed(prefix: string): Promise<string[][]> {
      const res = await t.request({
        method: 'GET',
        url: '/cal/events/v1/events?start_date=1999-01-01&end_date=2029-12-31&per_page=100&status=publish,draft',
        auth: admin.authorization,
      });
      assert.equal(res.statusCode, 200, res.body);
      return (res.data.events as { start_date: string; title: string }[])
        .filter((e) => e.title.startsWith(prefix))
        .map((e) => [e.start_date, e.title])
        .sort((a, b) => a[0]!.localeCompare(b[0]!));
    }

    it('bounds every expansion: rules finer than hourly are one event, an hourly rule from 2000 is skipped with its reason, a short one expanded', async () => {
      const report = await twice(
        'fine.ics',
        calendar(
          vevent('tick@example.org', 'SUMMARY:Tick every second', 'DTSTART:20200101T000000Z', 'RRULE:FREQ=SECONDLY'),
          vevent('poll@example.org', 'SUMMARY:Tick every minute', 'DTSTART:20000101T000000Z', 'RRULE:FREQ=MINUTELY'),
          vevent('hour@example.org', 'SUMMARY:Tick every hour', 'DTSTART:20000101T000000Z', 'RRULE:FREQ=HOURLY'),
          vevent(
            'shift@example.org',
            'SUMMARY:Tick shift',
            'DTSTART:20270301T060000Z',
            'RRULE:FREQ=HOURLY;INTERVAL=8;COUNT=3',
          ),
        ),
      );
      assert.equal(total(report, 'created'), 5, JSON.stringify(report.counts));
      assert.deepEqual(
        report.skipped.map((s) => [s.sourceId, s.line]),
        [['hour@example.org', 18]],
      );
      assert.match(report.skipped[0]!.reason, /expansion stopped after .*not imported/);
      assert.match(report.warnings.join('\n'), /"Tick every second" .*repeats every 1 s, more often than hourly/);
      assert.match(report.warnings.join('\n'), /"Tick every minute" .*repeats every 1 min/);
      assert.deepEqual(await listed('Tick'), [
        ['2000-01-01 00:00:00', 'Tick every minute'],
        ['2020-01-01 00:00:00', 'Tick every second'],
        ['2027-03-01 06:00:00', 'Tick shift'],
        ['2027-03-01 14:00:00', 'Tick shift'],
        ['2027-03-01 22:00:00', 'Tick shift'],
      ]);
    });

    it('costs one event for what ical.js cannot read, with its UID and line, and reads RDATE;VALUE=PERIOD by its starts', async () => {
      const report = await twice(
        'broken.ics',
        calendar(
          vevent(
            'periods@example.org',
            'SUMMARY:Read periods',
            'DTSTART:20270510T100000Z',
            'DTEND:20270510T110000Z',
            'RDATE;VALUE=PERIOD:20270512T100000Z/20270512T120000Z,20270514T100000Z/PT1H',
          ),
          vevent('next@example.org', 'SUMMARY:Read next', 'DTSTART:20270511T100000Z', 'RRULE:FREQ=DAILY;COUNT=Next'),
          vevent('fine@example.org', 'SUMMARY:Read fine', 'DTSTART:20270513T100000Z'),
        ),
      );
      assert.equal(total(report, 'created'), 2);
      assert.deepEqual(
        report.skipped.map((s) => [s.sourceId, s.line]),
        [['next@example.org', 12]],
      );
      assert.match(report.skipped[0]!.reason, /Could not extract integer from "Next"/);
      assert.deepEqual(await listed('Read'), [
        ['2027-05-10 10:00:00', 'Read periods'],
        ['2027-05-12 10:00:00', 'Read periods'],
        ['2027-05-13 10:00:00', 'Read fine'],
        ['2027-05-14 10:00:00', 'Read periods'],
      ]);
    });

    it('reads the latest revision of each UID (+ RECURRENCE-ID): SEQUENCE, then DTSTAMP, then the last; re-imports change nothing', async () => {
      const text = calendar(
        vevent('rev@example.org', 'SEQUENCE:2', 'SUMMARY:Rev final', 'DTSTART:20270601T100000Z'),
        vevent('rev@example.org', 'SEQUENCE:1', 'SUMMARY:Rev draft', 'DTSTART:20270602T100000Z'),
        [
          'BEGIN:VEVENT',
          'UID:stamp@example.org',
          'DTSTAMP:20260301T000000Z',
          'SUMMARY:Rev newer stamp',
          'DTSTART:20270603T100000Z',
          'END:VEVENT',
        ],
        vevent('stamp@example.org', 'SUMMARY:Rev older stamp', 'DTSTART:20270604T100000Z'),
        vevent('rs@example.org', 'SUMMARY:Rev series', 'DTSTART:20270607T100000Z', 'RRULE:FREQ=DAILY;COUNT=3'),
        vevent(
          'rs@example.org',
          'RECURRENCE-ID:20270608T100000Z',
          'SUMMARY:Rev moved once',
          'DTSTART:20270608T120000Z',
        ),
        vevent(
          'rs@example.org',
          'SEQUENCE:1',
          'RECURRENCE-ID:20270608T100000Z',
          'SUMMARY:Rev moved twice',
          'DTSTART:20270608T140000Z',
        ),
        // Overrides of an event that does not repeat: one edits it, one moved an occurrence it had.
        vevent('once@example.org', 'SUMMARY:Rev once', 'DTSTART:20270615T100000Z'),
        vevent(
          'once@example.org',
          'RECURRENCE-ID:20270615T100000Z',
          'SUMMARY:Rev once edited',
          'DTSTART:20270615T110000Z',
        ),
        vevent(
          'once@example.org',
          'RECURRENCE-ID:20270622T100000Z',
          'SUMMARY:Rev once moved',
          'DTSTART:20270623T100000Z',
        ),
      );
      const report = await twice('revisions.ics', text);
      assert.equal(
        total(report, 'created'),
        6,
        'two events, the series and its one override, the edited and the moved one',
      );
      assert.match(report.warnings.join('\n'), /3 VEVENT\(s\) were earlier revisions/);
      assert.equal(total(await run('revisions.ics', text), 'unchanged'), 6, 'a third run too');
      assert.deepEqual(await listed('Rev'), [
        ['2027-06-01 10:00:00', 'Rev final'],
        ['2027-06-03 10:00:00', 'Rev newer stamp'],
        ['2027-06-07 10:00:00', 'Rev series'],
        ['2027-06-08 14:00:00', 'Rev moved twice'],
        ['2027-06-09 10:00:00', 'Rev series'],
        ['2027-06-15 11:00:00', 'Rev once edited'],
        ['2027-06-23 10:00:00', 'Rev once moved'],
      ]);
    });

    it('keeps as series what the service refused: the first excluded or edited, RDATEs alone, two RRULEs; an override no rule makes as an event', async () => {
      const report = await twice(
        'google.ics',
        calendar(
          // Google deletes the first meeting with an EXDATE on DTSTART.
          vevent(
            'ex@example.org',
            'SUMMARY:Keep excluded',
            'DTSTART;TZID=Europe/Berlin:20270104T100000',
            'DTEND;TZID=Europe/Berlin:20270104T110000',
            'RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=4',
            'EXDATE;TZID=Europe/Berlin:20270104T100000',
          ),
          vevent(
            'ed@example.org',
            'SUMMARY:Keep edited',
            'DTSTART;TZID=Europe/Berlin:20270202T100000',
            'DURATION:PT1H',
            'RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=3',
          ),
          vevent(
            'ed@example.org',
            'RECURRENCE-ID;TZID=Europe/Berlin:20270202T100000',
            'SUMMARY:Keep edited (first, moved)',
            'DTSTART;TZID=Europe/Berlin:20270203T090000',
            'DURATION:PT1H',
          ),
          vevent(
            'rd@example.org',
            'SUMMARY:Keep dates',
            'DTSTART:20270301T100000Z',
            'RDATE:20270305T100000Z,20270309T100000Z',
          ),
          vevent(
            'two@example.org',
            'SUMMARY:Keep two rules',
            'DTSTART;TZID=Europe/Berlin:20270405T100000',
            'RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=3',
            'RRULE:FREQ=WEEKLY;BYDAY=TH;COUNT=2',
          ),
          // "This and following" in Google: the old series ends, an override names a date past its end.
          vevent(
            'split@example.org',
            'SUMMARY:Keep split',
            'DTSTART;TZID=Europe/Berlin:20270505T100000',
            'RRULE:FREQ=WEEKLY;BYDAY=WE;UNTIL=20270519T235959Z',
          ),
          vevent(
            'split@example.org',
            'RECURRENCE-ID;TZID=Europe/Berlin:20270602T100000',
            'SUMMARY:Keep split (after)',
            'DTSTART;TZID=Europe/Berlin:20270603T100000',
          ),
          // Hourly: not a series here, expanded over its whole span (2020, not the next year only).
          vevent(
            'past@example.org',
            'SUMMARY:Keep past',
            'DTSTART:20200101T000000Z',
            'RRULE:FREQ=HOURLY;INTERVAL=8;COUNT=3',
          ),
        ),
      );
      assert.deepEqual(report.skipped, []);
      assert.ok(
        !report.warnings.some((w) => /Keep (excluded|edited|dates|two|split)/.test(w)),
        report.warnings.join('\n'),
      );
      assert.deepEqual(await listed('Keep'), [
        ['2020-01-01 00:00:00', 'Keep past'],
        ['2020-01-01 08:00:00', 'Keep past'],
        ['2020-01-01 16:00:00', 'Keep past'],
        ['2027-01-11 10:00:00', 'Keep excluded'],
        ['2027-01-18 10:00:00', 'Keep excluded'],
        ['2027-01-25 10:00:00', 'Keep excluded'],
        ['2027-02-03 09:00:00', 'Keep edited (first, moved)'],
        ['2027-02-09 10:00:00', 'Keep edited'],
        ['2027-02-16 10:00:00', 'Keep edited'],
        ['2027-03-01 10:00:00', 'Keep dates'],
        ['2027-03-05 10:00:00', 'Keep dates'],
        ['2027-03-09 10:00:00', 'Keep dates'],
        ['2027-04-05 10:00:00', 'Keep two rules'],
        ['2027-04-08 10:00:00', 'Keep two rules'],
        ['2027-04-12 10:00:00', 'Keep two rules'],
        ['2027-04-15 10:00:00', 'Keep two rules'],
        ['2027-04-19 10:00:00', 'Keep two rules'],
        ['2027-05-05 10:00:00', 'Keep split'],
        ['2027-05-12 10:00:00', 'Keep split'],
        ['2027-05-19 10:00:00', 'Keep split'],
        ['2027-06-03 10:00:00', 'Keep split (after)'],
      ]);
      // Series, not their occurrences one by one: one record per series (two for two rules), plus the two events.
      assert.equal(total(report, 'created'), 1 + 1 + 1 + 2 + 1 + 2 + 3, JSON.stringify(report.counts));
    });

    it("keeps a long-running series as one, from the import's since on; an edit before it is an event of its own, its date left out of the rule", async () => {
      const report = await twice(
        'long.ics',
        calendar(
          vevent(
            'long@example.org',
            'SUMMARY:Long monthly',
            'DTSTART:20150101T180000Z',
            'RRULE:FREQ=MONTHLY;BYMONTHDAY=1',
          ),
          vevent(
            'long@example.org',
            'RECURRENCE-ID:20160101T180000Z',
            'SUMMARY:Long old edit',
            'DTSTART:20160102T180000Z',
          ),
          vevent(
            'long@example.org',
            'RECURRENCE-ID:20270301T180000Z',
            'SUMMARY:Long new edit',
            'DTSTART:20270302T180000Z',
          ),
        ),
      );
      assert.deepEqual(report.skipped, []);
      assert.equal(total(report, 'created'), 3, 'the series, its recent override and the old edit');
      assert.match(
        report.warnings.join('\n'),
        /"Long monthly".*1 override\(s\) of occurrences before the import's since: their dates left out of the rule/,
      );
      const rules = await t.storage.db.selectFrom('event_recurrence').select('exdates').execute();
      assert.ok(
        rules.some((r) => JSON.parse(r.exdates).includes('2016-01-01 18:00:00')),
        'the old date is an EXDATE of the rule',
      );
      const listed_ = await listed('Long');
      assert.deepEqual(
        listed_[0],
        ['2015-01-01 18:00:00', 'Long monthly'],
        'the series keeps its start (its rule whole)',
      );
      assert.ok(listed_.some(([start, title]) => start === '2016-01-02 18:00:00' && title === 'Long old edit'));
      assert.ok(listed_.some(([start, title]) => start === '2027-03-02 18:00:00' && title === 'Long new edit'));
      assert.ok(!listed_.some(([start]) => start === '2027-03-01 18:00:00'), 'the edited occurrence moved');
      const made = listed_.filter(([, title]) => title === 'Long monthly');
      assert.ok(made[1]![0]! >= '2024', `the next made is within the import's since: ${made[1]![0]}`);
    });

    it('keeps a daily series over the cap from its since as one series, from the earliest day the cap allows', async () => {
      // Daily since 2015: from two years back to two years ahead some 1,460 occurrences, over 1,000.
      const report = await twice(
        'daily.ics',
        calendar(vevent('daily@example.org', 'SUMMARY:Daily standup', 'DTSTART:20150105T090000Z', 'RRULE:FREQ=DAILY')),
      );
      assert.deepEqual(report.skipped, []);
      assert.equal(total(report, 'created'), 1, 'one series, not its occurrences');
      const warning = report.warnings.find((w) => w.includes('the most history the cap allows'));
      assert.ok(warning, report.warnings.join('\n'));
      const from = /kept as a series from (\d{4}-\d{2}-\d{2})/.exec(warning)![1]!;
      const series = await t.storage.db
        .selectFrom('events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('title', '=', 'Daily standup')
        .executeTakeFirstOrThrow();
      // The series row, and every day from `from` to the horizon: at most the cap, and a day earlier would pass it.
      assert.ok(Number(series.n) <= 1000 && Number(series.n) >= 998, `${series.n} events from ${from}`);
      // Run again two days later: its since has moved with the day, the series is no different for it.
      mock.timers.enable({ apis: ['Date'], now: Date.now() + 2 * 86_400_000 });
      try {
        const later = await run(
          'daily.ics',
          calendar(
            vevent('daily@example.org', 'SUMMARY:Daily standup', 'DTSTART:20150105T090000Z', 'RRULE:FREQ=DAILY'),
          ),
        );
        assert.equal(total(later, 'created') + total(later, 'updated'), 0, JSON.stringify(later.counts));
      } finally {
        mock.timers.reset();
      }
    });
  });
}
