import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { backends, createTestApp, type TestApp } from '../../helpers/app.js';
import { ianaZone } from '../../../src/modules/import/import.ics-zones.js';
import { IcsNotes, tolerantIcs } from '../../../src/modules/import/import.ics-text.js';

/**
 * iCalendar files as calendar programs write them, beside RFC 5545: imported through the admin
 * route (the CLI runs the same import), then read back from the events API. Each input is small
 * and inline; each case says which habit of which program it is.
 */

const IMPORTS = '/cal/admin/v1/imports';
const EVENTS = '/cal/events/v1/events';

/** A VCALENDAR of `parts` (VTIMEZONEs, VEVENTs, calendar properties), one line per array item, CRLF. */
/** That the import's report holds this warning, word for word (all of them shown when not). */
const warned = (report: { warnings: string[] }, warning: string) =>
  assert.ok(report.warnings.includes(warning), report.warnings.join('\n'));

const calendar = (...parts: string[]) =>
  ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//tolerant//EN', ...parts, 'END:VCALENDAR', ''].join('\r\n');
/** A VEVENT of its content lines. */
const vevent = (...lines: string[]) =>
  ['BEGIN:VEVENT', 'DTSTAMP:20260101T000000Z', ...lines, 'END:VEVENT'].join('\r\n');

/** Outlook's "Customized Time Zone": US Eastern rules under a name no zone has. */
const CUSTOMIZED_EASTERN = [
  'BEGIN:VTIMEZONE',
  'TZID:Customized Time Zone',
  'BEGIN:STANDARD',
  'DTSTART:16010101T020000',
  'TZOFFSETFROM:-0400',
  'TZOFFSETTO:-0500',
  'RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=1SU;BYMONTH=11',
  'END:STANDARD',
  'BEGIN:DAYLIGHT',
  'DTSTART:16010101T020000',
  'TZOFFSETFROM:-0500',
  'TZOFFSETTO:-0400',
  'RRULE:FREQ=YEARLY;INTERVAL=1;BYDAY=2SU;BYMONTH=3',
  'END:DAYLIGHT',
  'END:VTIMEZONE',
].join('\r\n');

/** A zone of the file's own whose rules no IANA zone has: +01:00, +02:00 from the first Sunday of May to the first of September. */
const INVENTED_ZONE = [
  'BEGIN:VTIMEZONE',
  'TZID:Customized Time Zone 2',
  'BEGIN:STANDARD',
  'DTSTART:16010101T030000',
  'TZOFFSETFROM:+0200',
  'TZOFFSETTO:+0100',
  'RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=9',
  'END:STANDARD',
  'BEGIN:DAYLIGHT',
  'DTSTART:16010101T020000',
  'TZOFFSETFROM:+0100',
  'TZOFFSETTO:+0200',
  'RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=5',
  'END:DAYLIGHT',
  'END:VTIMEZONE',
].join('\r\n');

for (const backend of backends()) {
  describe(`iCalendar import of what calendar programs write [${backend}]`, () => {
    let t: TestApp;
    let admin: string;
    let files = 0;

    before(async () => {
      // The site's zone is not UTC, so a time read in it is told from one read as UTC.
      t = await createTestApp(backend, { CAL_TIMEZONE: 'Europe/Paris' });
      admin = (await t.asUser('administrator', 'tolerant')).authorization;
    });
    after(() => t.close());

    /** Imports `text` as an uploaded file of its own; the finished job's report. */
    async function importIcs(text: string): Promise<{ warnings: string[]; skipped: any[]; counts: any }> {
      files += 1;
      const started = await t.request({
        method: 'POST',
        url: IMPORTS,
        payload: { ics_content: text, filename: `file-${files}.ics` },
        auth: admin,
      });
      assert.equal(started.statusCode, 202, started.body);
      for (let i = 0; i < 400; i += 1) {
        const job = (await t.request({ method: 'GET', url: `${IMPORTS}/${started.data.id}`, auth: admin })).data;
        if (job.status !== 'running') {
          assert.equal(job.status, 'done', JSON.stringify(job));
          return job.report;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.fail('the import did not finish');
    }

    /** The stored event titled `title` (the first such, in a window of 2010 to 2030). */
    async function stored(title: string): Promise<any> {
      const word = /[A-Za-z]+/.exec(title)![0];
      const res = await t.request({
        method: 'GET',
        url: `${EVENTS}?start_date=2010-01-01&end_date=2030-12-31&per_page=50&search=${word}`,
        auth: admin,
      });
      assert.equal(res.statusCode, 200, res.body);
      const found = res.data.events.find((e: any) => e.title === title);
      assert.ok(found, `no event "${title}" in ${res.data.events.map((e: any) => e.title).join(', ')}`);
      return (await t.request({ method: 'GET', url: `${EVENTS}/${found.id}`, auth: admin })).data;
    }

    /** Start, end, all-day and zone of a stored event, as compared below. */
    const times = (e: any) => [e.start_date, e.end_date, e.all_day, e.timezone];

    /** Local and UTC starts of the occurrences of a stored series (the series first). */
    async function occurrences(series: any): Promise<string[][]> {
      const res = await t.request({
        method: 'GET',
        url: `${EVENTS}?post_parent=${series.id}&start_date=2018-01-01&end_date=2030-12-31&per_page=50`,
        auth: admin,
      });
      return [series, ...res.data.events].map((e: any) => [e.start_date, e.utc_start_date]);
    }

    it('reads a date without VALUE=DATE as a date (a public-holiday calendar), in DTSTART, DTEND, EXDATE and RDATE', async () => {
      const report = await importIcs(
        calendar(
          // Calendar Labs' feeds write an empty RRULE on every event.
          vevent('UID:neujahr@holidays', 'DTSTART:20270101', 'DTEND:20270102', 'RRULE:', 'SUMMARY:Neujahr'),
          vevent(
            'UID:tag-der-arbeit@holidays',
            'DTSTART:20270501',
            'RRULE:FREQ=YEARLY;COUNT=3',
            'EXDATE:20280501',
            'RDATE:20280502',
            'SUMMARY:Tag der Arbeit',
          ),
        ),
      );
      assert.deepEqual(report.skipped, []);
      assert.deepEqual(times(await stored('Neujahr')), [
        '2027-01-01 00:00:00',
        '2027-01-01 23:59:59',
        true,
        'Europe/Paris',
      ]);
      const may = await stored('Tag der Arbeit');
      assert.deepEqual(times(may), ['2027-05-01 00:00:00', '2027-05-01 23:59:59', true, 'Europe/Paris']);
      assert.deepEqual(
        (await occurrences(may)).map(([local]) => local!.slice(0, 10)),
        ['2027-05-01', '2028-05-02', '2029-05-01'],
        '2028-05-01 excluded, 2028-05-02 added',
      );
      assert.ok(
        report.warnings.some((w) =>
          /^Dates without VALUE=DATE, read as dates \(all-day\): 5 \(line 7: DTSTART:20270101; line 8: DTEND:20270102; line 15: DTSTART:20270501; …\)\.$/.test(
            w,
          ),
        ),
        report.warnings.join('\n'),
      );
      assert.ok(report.warnings.includes('Rules without FREQ (an empty RRULE), dropped: 1 (line 9: RRULE:).'));
    });

    it('reads a date-time declared VALUE=DATE as its date, with a warning; an end before the start as no duration, with a warning', async () => {
      const report = await importIcs(
        calendar(
          vevent('UID:declared@example.org', 'DTSTART;VALUE=DATE:20270804T120000', 'SUMMARY:Declared a date'),
          vevent(
            'UID:backwards@example.org',
            'DTSTART;TZID=Europe/Berlin:20270805T100000',
            'DTEND;TZID=Europe/Berlin:20270805T090000',
            'SUMMARY:Ends before it starts',
          ),
          vevent(
            'UID:other-zone-end@example.org',
            'DTSTART;TZID=Europe/Berlin:20270806T100000',
            'DTEND;TZID=Europe/London:20270806T100000',
            'SUMMARY:Ends in another zone',
          ),
        ),
      );
      assert.deepEqual(report.skipped, []);
      assert.deepEqual(times(await stored('Declared a date')), [
        '2027-08-04 00:00:00',
        '2027-08-04 23:59:59',
        true,
        'Europe/Paris',
      ]);
      assert.deepEqual(times(await stored('Ends before it starts')), [
        '2027-08-05 10:00:00',
        '2027-08-05 10:00:00',
        false,
        'Europe/Berlin',
      ]);
      assert.deepEqual(
        times(await stored('Ends in another zone')),
        ['2027-08-06 10:00:00', '2027-08-06 11:00:00', false, 'Europe/Berlin'],
        "10:00 in London is 11:00 in Berlin, the start's zone",
      );
      warned(
        report,
        'Date-times where VALUE=DATE was declared, read as the date (all-day): 1 (line 7: DTSTART:20270804T120000).',
      );
      warned(report, 'Events ending before they start, read as ending when they start: 1 (backwards@example.org).');
    });

    it('reads a file with a blank line, a continuation after it and a line without a name, as other readers do', async () => {
      const text = calendar(
        vevent(
          'UID:loose-lines@example.org',
          'DTSTART:20270901T100000Z',
          'DESCRIPTION:First part',
          '',
          '  of the description',
          'Second line written as is',
          'SUMMARY:Loose lines',
        ),
        '',
        vevent(
          'UID:after-blank@example.org',
          'DTSTART:20270902T100000Z',
          'ORGANIZER;CN=No address',
          'SUMMARY:After a blank line',
        ),
      ).concat('X-COMMENT:Cached at 12:00\r\n');
      const report = await importIcs(text);
      assert.deepEqual(report.skipped, []);
      const loose = await stored('Loose lines');
      assert.equal(loose.description, '<p>First part of the description<br />Second line written as is</p>');
      assert.deepEqual(times(loose), ['2027-09-01 10:00:00', '2027-09-01 10:00:00', false, 'UTC']);
      assert.equal((await stored('After a blank line')).start_date, '2027-09-02 10:00:00');
      warned(report, 'Lines that are no property (no value), dropped: 1 (line 19: "ORGANIZER;CN=No address").');
      assert.ok(
        report.warnings.includes(
          // The calendar's own lines are read apart from its events': no line number.
          'Lines outside the calendar (after END:VCALENDAR), dropped: 1 ("X-COMMENT:Cached at 12:00").',
        ),
        report.warnings.join('\n'),
      );
      warned(
        report,
        'Continuation lines after a blank line, read as continuing the line before it: 1 (line 10: "of the description").',
      );
      warned(
        report,
        'Lines without a property name, read as a new line of the text before them: 1 (line 11: "Second line written as is").',
      );
    });

    it("reads floating times in the calendar's X-WR-TIMEZONE (Google, Apple), else in the site's zone with a warning", async () => {
      const google = await importIcs(
        calendar(
          'X-WR-TIMEZONE:America/New_York',
          vevent(
            'UID:floating-ny@example.org',
            'DTSTART:20270601T100000',
            'DTEND:20270601T113000',
            'SUMMARY:In New York',
          ),
          vevent('UID:utc-ny@example.org', 'DTSTART:20270601T100000Z', 'SUMMARY:Written in UTC'),
        ),
      );
      const ny = await stored('In New York');
      assert.deepEqual(times(ny), ['2027-06-01 10:00:00', '2027-06-01 11:30:00', false, 'America/New_York']);
      assert.equal(ny.utc_start_date, '2027-06-01 14:00:00');
      assert.equal((await stored('Written in UTC')).timezone, 'UTC', 'a UTC time stays UTC');
      assert.deepEqual(google.warnings, []);

      const tv = await importIcs(
        calendar(vevent('UID:floating-site@example.org', 'DTSTART:20270601T200000', 'SUMMARY:Floating, no zone')),
      );
      const floating = await stored('Floating, no zone');
      assert.deepEqual(times(floating), ['2027-06-01 20:00:00', '2027-06-01 20:00:00', false, 'Europe/Paris']);
      assert.equal(floating.utc_start_date, '2027-06-01 18:00:00');
      assert.deepEqual(tv.warnings, [
        "Times without a time zone, in a calendar that names none (X-WR-TIMEZONE), were read in the site's time zone.",
      ]);
    });

    it('reads Outlook display names and Windows ids of zones as IANA zones', async () => {
      const report = await importIcs(
        calendar(
          vevent(
            'UID:display@example.org',
            'DTSTART;TZID="(UTC-05:00) Eastern Time (US and Canada)":20270601T090000',
            'DTEND;TZID="(UTC-05:00) Eastern Time (US and Canada)":20270601T100000',
            'SUMMARY:Display name',
          ),
          vevent(
            'UID:windows-id@example.org',
            'DTSTART;TZID=W. Europe Standard Time:20270601T090000',
            'SUMMARY:Windows id',
          ),
          vevent(
            'UID:old-display@example.org',
            'DTSTART;TZID="(GMT+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna":20271201T090000',
            'SUMMARY:Old display name',
          ),
        ),
      );
      const display = await stored('Display name');
      assert.deepEqual(times(display), ['2027-06-01 09:00:00', '2027-06-01 10:00:00', false, 'America/New_York']);
      assert.equal(display.utc_start_date, '2027-06-01 13:00:00');
      assert.equal((await stored('Windows id')).timezone, 'Europe/Berlin');
      const old = await stored('Old display name');
      assert.deepEqual([old.timezone, old.utc_start_date], ['Europe/Berlin', '2027-12-01 08:00:00']);
      assert.deepEqual(report.warnings, []);
    });

    it("reads Outlook's Customized Time Zone as the IANA zone with its rules: a series keeps its wall time across DST", async () => {
      const report = await importIcs(
        calendar(
          CUSTOMIZED_EASTERN,
          vevent(
            'UID:customized@example.org',
            'DTSTART;TZID="Customized Time Zone":20270301T100000',
            'DTEND;TZID="Customized Time Zone":20270301T110000',
            'RRULE:FREQ=WEEKLY;COUNT=4',
            'SUMMARY:Weekly in a customized zone',
          ),
        ),
      );
      const series = await stored('Weekly in a customized zone');
      assert.deepEqual(times(series), ['2027-03-01 10:00:00', '2027-03-01 11:00:00', false, 'America/New_York']);
      assert.deepEqual(
        await occurrences(series),
        [
          ['2027-03-01 10:00:00', '2027-03-01 15:00:00'],
          ['2027-03-08 10:00:00', '2027-03-08 15:00:00'],
          ['2027-03-15 10:00:00', '2027-03-15 14:00:00'],
          ['2027-03-22 10:00:00', '2027-03-22 14:00:00'],
        ],
        '10:00 in New York before and after the change of March 14',
      );
      assert.deepEqual(report.warnings, [
        'Time zones defined in the file with the rules of a known zone, read as that zone: 1 ("Customized Time Zone" as America/New_York).',
      ]);
    });

    it("reads khal's zones, which list only the changes around their events, as the IANA zone they name", async () => {
      const report = await importIcs(
        calendar(
          'BEGIN:VTIMEZONE',
          'TZID:Europe_Berlin',
          'BEGIN:STANDARD',
          'DTSTART:20141026T030000',
          'TZOFFSETFROM:+0200',
          'TZOFFSETTO:+0100',
          'RDATE:20151025T030000',
          'END:STANDARD',
          'BEGIN:DAYLIGHT',
          'DTSTART:20140330T020000',
          'RDATE:20150329T020000,20160327T020000',
          'TZOFFSETFROM:+0100',
          'TZOFFSETTO:+0200',
          'END:DAYLIGHT',
          'END:VTIMEZONE',
          vevent('UID:khal@example.org', 'DTSTART;TZID=Europe_Berlin:20140409T093000', 'SUMMARY:Khal in April'),
        ),
      );
      const khal = await stored('Khal in April');
      assert.deepEqual(
        [khal.start_date, khal.timezone, khal.utc_start_date],
        ['2014-04-09 09:30:00', 'Europe/Berlin', '2014-04-09 07:30:00'],
      );
      assert.deepEqual(report.warnings, []);
    });

    it('reads a zone defined in eras (an old rule, then the rule of today from its start) by the rule of its time', async () => {
      const era = (kind: string, start: string, rule: string, from: string, to: string) => [
        `BEGIN:${kind}`,
        `DTSTART:${start}`,
        `RRULE:${rule}`,
        `TZOFFSETFROM:${from}`,
        `TZOFFSETTO:${to}`,
        `END:${kind}`,
      ];
      const report = await importIcs(
        calendar(
          'BEGIN:VTIMEZONE',
          'TZID:Customized Time Zone 1',
          ...era('STANDARD', '16711029T020000', 'FREQ=YEARLY;BYDAY=-1SU;BYMONTH=10', '-0400', '-0500'),
          ...era('DAYLIGHT', '16710404T020000', 'FREQ=YEARLY;BYDAY=1SU;BYMONTH=4', '-0500', '-0400'),
          ...era('STANDARD', '20071104T020000', 'FREQ=YEARLY;BYDAY=1SU;BYMONTH=11', '-0400', '-0500'),
          ...era('DAYLIGHT', '20070311T020000', 'FREQ=YEARLY;BYDAY=2SU;BYMONTH=3', '-0500', '-0400'),
          'END:VTIMEZONE',
          vevent(
            'UID:eras@example.org',
            'DTSTART;TZID="Customized Time Zone 1":20271102T140000',
            'SUMMARY:Between the two rules',
          ),
        ),
      );
      const eras = await stored('Between the two rules');
      assert.deepEqual(
        [eras.timezone, eras.utc_start_date],
        ['America/New_York', '2027-11-02 18:00:00'],
        "after the last Sunday of October (the old rule), before the first of November (today's): daylight time",
      );
      assert.equal(report.warnings.length, 1);
    });

    it('ignores a VTIMEZONE that changes more often than yearly (ical.js would walk its changes for ever), with a warning', async () => {
      const report = await importIcs(
        calendar(
          'BEGIN:VTIMEZONE',
          'TZID:Every minute',
          'BEGIN:STANDARD',
          'DTSTART:20000101T000000',
          'RRULE:FREQ=MINUTELY',
          'TZOFFSETFROM:+0100',
          'TZOFFSETTO:+0100',
          'END:STANDARD',
          'END:VTIMEZONE',
          vevent('UID:minutely-zone@example.org', 'DTSTART;TZID=Every minute:20270110T100000', 'SUMMARY:Minutely zone'),
        ),
      );
      assert.deepEqual(times(await stored('Minutely zone')), [
        '2027-01-10 10:00:00',
        '2027-01-10 10:00:00',
        false,
        'Europe/Paris',
      ]);
      assert.deepEqual(report.warnings, [
        'Time zones defined with more changes than a zone has, ignored: 1 ("Every minute" (FREQ=MINUTELY)).',
        'Time zones neither IANA, Windows or Outlook names nor defined in the file, their times read in the site\'s time zone: 1 ("Every minute").',
      ]);
    });

    it(
      'reads a zone of the file whose rules no IANA zone has through its VTIMEZONE, each occurrence at its wall time there',
      // The series reader keeps such a series as a rule in UTC until it expands the ones whose start zoned() reads with a feedZone.

      async () => {
        const report = await importIcs(
          calendar(
            INVENTED_ZONE,
            vevent(
              'UID:invented@example.org',
              'DTSTART;TZID="Customized Time Zone 2":20270426T100000',
              'DTEND;TZID="Customized Time Zone 2":20270426T110000',
              'RRULE:FREQ=WEEKLY;COUNT=3',
              'SUMMARY:Weekly in an invented zone',
            ),
          ),
        );
        const res = await t.request({
          method: 'GET',
          url: `${EVENTS}?start_date=2027-04-01&end_date=2027-05-31&search=invented`,
          auth: admin,
        });
        // The change is on Sunday May 2: 10:00 is 09:00 UTC before it, 08:00 after.
        assert.deepEqual(
          res.data.events.map((e: any) => e.utc_start_date),
          ['2027-04-26 09:00:00', '2027-05-03 08:00:00', '2027-05-10 08:00:00'],
        );
        assert.match(report.warnings.join('\n'), /rules no IANA zone has, read through their definition/);
      },
    );

    it('titles an event without SUMMARY by the first line of its description, else "(untitled)"', async () => {
      const long = 'A very long first line of a description that goes on and on well past any title length';
      const report = await importIcs(
        calendar(
          vevent('UID:no-summary-1@example.org', 'DTSTART:20271001T100000Z', 'DESCRIPTION:\\nBoard meeting\\nRoom 4'),
          vevent('UID:no-summary-2@example.org', 'DTSTART:20271002T100000Z', `DESCRIPTION:${long} and more`),
          vevent('UID:no-summary-3@example.org', 'DTSTART:20271003T100000Z'),
          vevent(
            'UID:no-summary-4@example.org',
            'DTSTART:20271004T100000Z',
            'DESCRIPTION:<p>Choir <b>rehearsal</b></p><p>Bring your scores</p>',
          ),
        ),
      );
      assert.deepEqual(report.skipped, []);
      assert.equal((await stored('Board meeting')).start_date, '2027-10-01 10:00:00');
      const cut = long.slice(0, 79).trimEnd();
      assert.equal((await stored(`${cut}…`)).start_date, '2027-10-02 10:00:00');
      assert.equal((await stored('(untitled)')).start_date, '2027-10-03 10:00:00');
      assert.equal((await stored('Choir rehearsal')).start_date, '2027-10-04 10:00:00', 'HTML in DESCRIPTION');
      assert.ok(
        report.warnings.includes(
          `Events without SUMMARY, titled by their description's first line or "(untitled)": 4 (no-summary-1@example.org: "Board meeting"; no-summary-2@example.org: "${cut}…"; no-summary-3@example.org: "(untitled)"; …).`,
        ),
        report.warnings.join('\n'),
      );
    });
  });
}

describe('zone names of Windows and Outlook', () => {
  it('maps Windows ids, their daylight names and display names of several Windows versions to IANA zones', () => {
    for (const [name, zone] of [
      ['Eastern Standard Time', 'America/New_York'],
      ['Eastern Daylight Time', 'America/New_York'],
      ['Romance Standard Time', 'Europe/Paris'],
      ['India Standard Time', 'Asia/Kolkata'],
      ['(UTC-05:00) Eastern Time (US & Canada)', 'America/New_York'],
      ['(UTC-05:00) Eastern Time (US and Canada)', 'America/New_York'],
      ['(UTC+01:00) Brussels, Copenhagen, Madrid, Paris', 'Europe/Paris'],
      ['(GMT-07:00) Chihuahua, La Paz, Mazatlan', 'America/Mazatlan'],
      ['(GMT+01.00) Amsterdam / Berlin / Bern / Rome / Stockholm / Vienna', 'Europe/Berlin'],
      ['(UTC) Coordinated Universal Time', 'UTC'],
      ['/citadel.org/20190101_1/Europe/Paris', 'Europe/Paris'],
      ['America/Argentina/Buenos_Aires', 'America/Argentina/Buenos_Aires'],
      ['(UTC-03:00) Brasília', 'America/Sao_Paulo'],
      ['custom_America/New_York', 'America/New_York'],
      ['Europe_Berlin', 'Europe/Berlin'],
      ['IndianReunion', 'Indian/Reunion'],
    ])
      assert.equal(ianaZone(name!), zone, name);
    assert.equal(ianaZone('Somewhere Time'), null);
    assert.equal(ianaZone('(UTC+02:00) Nowhere'), null);
    assert.equal(ianaZone(`(UTC) ${'x'.repeat(10_000)}`), null, 'a long name is not read');
  });
});

describe('the text of a feed repaired before ical.js reads it', () => {
  it('writes dates and times as RFC 5545 does, and leaves periods, quoted colons and other properties alone', () => {
    const notes = new IcsNotes();
    const repaired = tolerantIcs(
      [
        'BEGIN:VEVENT',
        'DTSTAMP:20260101',
        'DTSTART;TZID="(UTC+01:00) Amsterdam, Berlin":2027-06-01T10:00',
        'DTEND;VALUE=DATE-TIME:20270602',
        'EXDATE:20270608,20270615T100000',
        'RDATE;VALUE=PERIOD:20270610T100000Z/20270610T120000Z',
        'RDATE;VALUE=TIME:083000',
        'RDATE;VALUE=PERIOD:20270620/20270621',
        'RRULE:',
        'RRULE:FREQ=WEEKLY;BYDAY=MO, TU',
        'SUMMARY:At 10:00: 20270601',
        'X-MS_OLK-ODD-NAME:kept',
        'END:VEVENT',
      ].join('\n'),
      notes,
      1,
    );
    assert.deepEqual(repaired.split('\r\n'), [
      'BEGIN:VEVENT',
      'DTSTAMP:20260101T000000Z',
      'DTSTART;TZID="(UTC+01:00) Amsterdam, Berlin":20270601T100000',
      'DTEND;VALUE=DATE:20270602',
      'EXDATE:20270608T000000,20270615T100000',
      'RDATE;VALUE=PERIOD:20270610T100000Z/20270610T120000Z',
      'RDATE;VALUE=DATE:20270620',
      'RRULE:FREQ=WEEKLY;BYDAY=MO,TU',
      'SUMMARY:At 10:00: 20270601',
      'X-MS_OLK-ODD-NAME:kept',
      'END:VEVENT',
    ]);
    assert.deepEqual(notes.warnings(), [
      'Dates or times not in the form of RFC 5545 (2019-01-01T10:00), read as such: 1 (line 3: DTSTART:2027-06-01T10:00).',
      'Dates without VALUE=DATE, read as dates (all-day): 1 (line 4: DTEND:20270602).',
      'Dates among date-times, read as their midnight: 1 (line 5: EXDATE:20270608,20270615T100000).',
      'RDATE and EXDATE values that are no dates, dropped: 1 (line 7: RDATE:083000).',
      'Periods of dates, read as their first days: 1 (line 8: RDATE:20270620/20270621).',
      'Rules without FREQ (an empty RRULE), dropped: 1 (line 9: RRULE:).',
      'Rules with spaces (BYDAY=MO, TU), read without them: 1 (line 10: RRULE:FREQ=WEEKLY;BYDAY=MO, TU).',
    ]);
  });
});
