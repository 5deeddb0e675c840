import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { readIcs, type IcsRead } from '../../../src/modules/import/import.ics.js';
import { ianaZone } from '../../../src/modules/import/import.ics-zones.js';
import { SourceError } from '../../../src/modules/import/import.source-http.js';
import type { SourceRecord } from '../../../src/modules/import/import.types.js';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/ics/${name}`, import.meta.url), 'utf8');
const NOW = new Date('2027-01-15T00:00:00Z');
const read = (name: string, options: Partial<Parameters<typeof readIcs>[1]> = {}): IcsRead =>
  readIcs(fixture(name), { lang: 'en', now: NOW, ...options });
const events = (r: IcsRead) => r.records.filter((x) => x.kind === 'event');
const byId = (r: IcsRead, id: string): SourceRecord => {
  const found = r.records.find((x) => x.sourceId === id);
  assert.ok(found, `no record ${id}`);
  return found;
};

describe('iCalendar import reader', () => {
  it("reads RFC 5545's own examples: zones kept, all-day ends inclusive, categories, venue, organizer", () => {
    const r = read('rfc5545-examples.ics');
    const meeting = byId(r, 'guid-1.example.com');
    assert.deepEqual(meeting.payload, {
      title: 'XYZ Project Review',
      status: 'publish',
      start_date: '1998-03-12 08:30:00',
      end_date: '1998-03-12 09:30:00',
      timezone: 'America/New_York',
      description: '<p>Project XYZ Review Meeting</p>',
    });
    assert.equal(meeting.modified, '1998-03-09 23:10:00');
    assert.deepEqual(meeting.links, {
      venue: 'location:1cp conference room 4350',
      organizers: ['organizer:mrbig@example.com'],
      categories: ['category:meeting'],
    });
    const anniversary = byId(r, '19970901T130000Z-123403@example.com');
    assert.equal(anniversary.payload['all_day'], true);
    assert.equal(anniversary.payload['start_date'], '1997-11-02');
    assert.equal(anniversary.payload['end_date'], '1997-11-02', 'no DTEND: one day');
    assert.equal(anniversary.payload['status'], 'private', 'CLASS:CONFIDENTIAL');
    assert.deepEqual(anniversary.links?.categories, [
      'category:anniversary',
      'category:personal',
      'category:special occasion',
    ]);
    const festival = byId(r, '20070423T123432Z-541111@example.com');
    assert.equal(festival.payload['end_date'], '2007-07-08', 'DTEND 20070709 is exclusive');
    assert.deepEqual(
      r.records.filter((x) => x.kind !== 'event').map((x) => x.kind),
      ['category', 'category', 'category', 'category', 'venue', 'organizer'],
      'linked records first, each once',
    );
  });

  it('imports a series as one record with its rule, RDATE and EXDATE in its zone, and each override as an edit of its occurrence', () => {
    const r = read('series.ics');
    const series = byId(r, 'weekly-standup@example.org');
    assert.deepEqual(
      [series.payload['start_date'], series.payload['timezone'], series.payload['title']],
      ['2027-03-02 09:00:00', 'America/New_York', 'Weekly standup'],
    );
    assert.equal(series.occurrence, undefined);
    const recurrence = series.payload['recurrence'] as { rrule: string; rdates: string[]; exdates: string[] };
    assert.match(recurrence.rrule, /^(?=.*FREQ=WEEKLY)(?=.*BYDAY=TU)(?=.*COUNT=6)/);
    assert.doesNotMatch(recurrence.rrule, /DTSTART|RRULE:/);
    assert.deepEqual(recurrence.rdates, ['2027-04-01 14:00:00']);
    assert.deepEqual(
      recurrence.exdates,
      ['2027-03-16 09:00:00', '2027-04-06 09:00:00'],
      'the EXDATE and the cancelled override (13:00Z, 09:00 in New York); not the moved one',
    );
    const moved = byId(r, 'override:weekly-standup@example.org@20270323T090000');
    assert.deepEqual(moved.occurrence, {
      series: 'weekly-standup@example.org',
      recurrenceId: '2027-03-23 09:00:00',
      cancelled: false,
    });
    assert.deepEqual(
      [moved.payload['start_date'], moved.payload['title'], moved.payload['timezone'], moved.payload['recurrence']],
      ['2027-03-23 11:00:00', 'Weekly standup (moved)', 'America/New_York', undefined],
    );
    const cancelled = byId(r, 'override:weekly-standup@example.org@20270406T130000');
    assert.deepEqual(cancelled.occurrence, {
      series: 'weekly-standup@example.org',
      recurrenceId: '2027-04-06 09:00:00',
      cancelled: true,
    });
    assert.equal(
      events(r).filter((e) => e.sourceId.includes('weekly-standup@example.org')).length,
      3,
      'no occurrence of its own',
    );
    assert.deepEqual(byId(r, 'weekly-standup@example.org').links?.venue, 'location:room 12, main building, 5 elm st');
    assert.deepEqual(
      byId(r, 'location:room 12, main building, 5 elm st').payload,
      { venue: 'Room 12', address: 'Main Building, 5 Elm St' },
      'escaped commas read',
    );
    const tentative = byId(r, 'tentative@example.org');
    assert.deepEqual(
      [tentative.payload['status'], tentative.payload['end_date'], tentative.payload['timezone']],
      ['draft', '2027-03-10 17:00:00', 'UTC'],
      'DURATION, Z times',
    );
    assert.deepEqual(
      r.skipped.map((s) => [s.sourceId, s.reason]),
      [['cancelled@example.org', 'cancelled in the source']],
    );
    assert.equal(byId(r, 'untitled@example.org').payload['title'], '(untitled)', 'SUMMARY is optional (RFC 5545)');
    assert.deepEqual(r.warnings, [
      'Events without SUMMARY, titled by their description\'s first line or "(untitled)": 1 (untitled@example.org: "(untitled)").',
    ]);
  });

  it('expands a series the service would refuse into its occurrences, and says why', () => {
    const hourly = fixture('series.ics').replace('RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=6', 'RRULE:FREQ=HOURLY;COUNT=3');
    const r = readIcs(hourly, { lang: 'en', now: NOW });
    const standups = events(r).filter((e) => e.sourceId.startsWith('weekly-standup@example.org@'));
    assert.deepEqual(
      standups.map((e) => e.payload['start_date']),
      [
        '2027-03-02 09:00:00',
        '2027-03-02 10:00:00',
        '2027-03-02 11:00:00',
        '2027-04-01 14:00:00',
        '2027-03-23 11:00:00',
      ],
      'the override of the 23rd, an occurrence the rule does not make, as an event of its own',
    );
    assert.ok(standups.every((e) => e.payload['recurrence'] === undefined && e.occurrence === undefined));
    assert.ok(!events(r).some((e) => e.sourceId.startsWith('override:')));
    assert.match(r.warnings.join('\n'), /does not take \(recurrence\.rrule: FREQ=SECONDLY, MINUTELY and HOURLY/);
    // More occurrences than the service's CAL_RECURRENCE_MAX: the same, with that reason.
    const capped = read('series.ics', { recurrence: { max: 4, horizonDays: 730 } });
    assert.equal(
      capped.records.find((e) => e.sourceId === 'weekly-standup@example.org'),
      undefined,
    );
    assert.deepEqual(
      events(capped)
        .filter((e) => e.sourceId.startsWith('weekly-standup@example.org@'))
        .map((e) => [e.payload['start_date'], e.payload['title']]),
      [
        ['2027-03-02 09:00:00', 'Weekly standup'],
        ['2027-03-09 09:00:00', 'Weekly standup'],
        ['2027-03-23 11:00:00', 'Weekly standup (moved)'],
        ['2027-03-30 09:00:00', 'Weekly standup'],
        ['2027-04-01 14:00:00', 'Weekly standup'],
      ],
      '09:00 New York on both sides of the DST change of March 14, the 16th excluded, the 23rd moved, the 6th cancelled',
    );
    assert.match(
      capped.warnings.join('\n'),
      /Series "Weekly standup" \(weekly-standup@example.org\) has a rule this service does not take \(.*at most 4/,
    );
    assert.match(
      capped.warnings.join('\n'),
      /Series "Weekly standup" \(weekly-standup@example.org\) imported as its 5 occurrences/,
    );
  });

  it('keeps a series whose first occurrence is edited on its own: the series from the next one, the edited one an event of its own', () => {
    const first = fixture('series.ics').replace(
      'RECURRENCE-ID;TZID=America/New_York:20270323T090000',
      'RECURRENCE-ID;TZID=America/New_York:20270302T090000',
    );
    const r = readIcs(first, { lang: 'en', now: NOW });
    const series = byId(r, 'weekly-standup@example.org');
    assert.equal(series.payload['start_date'], '2027-03-09 09:00:00');
    assert.equal((series.payload['recurrence'] as { rrule: string }).rrule, 'FREQ=WEEKLY;BYDAY=TU;COUNT=5');
    assert.equal(byId(r, 'weekly-standup@example.org@20270302T090000').payload['start_date'], '2027-03-23 11:00:00');
  });

  it('reads a Google Calendar export: name, escaped text as HTML, organizers de-duplicated by address', () => {
    const r = read('google-export.ics');
    assert.equal(r.calendarName, 'Springfield Jazz Society');
    assert.equal(read('google-export.ics', { calendarName: 'Jazz' }).calendarName, 'Jazz');
    const jam = byId(r, '7kukuqrfedlm2f3t0bq3p8ot1o@google.com');
    assert.equal(
      jam.payload['description'],
      '<p>Bring your instrument, all levels welcome.<br>Doors at 18:30.</p><p>Free entry; &lt;b&gt;donations&lt;/b&gt; appreciated.</p>',
    );
    assert.equal(jam.payload['timezone'], 'UTC');
    assert.equal(byId(r, '9abcdef@google.com').payload['website'], 'https://jazz.example.org/big-band');
    assert.equal(r.records.filter((x) => x.kind === 'organizer').length, 1);
    assert.equal(r.records.filter((x) => x.kind === 'venue').length, 1);
    assert.deepEqual(byId(r, 'organizer:jazz.society@example.org').payload, {
      organizer: 'Springfield Jazz Society',
      email: 'jazz.society@example.org',
    });
    assert.deepEqual(byId(r, 'location:le caveau, 12 rue de la huchette, 75005 paris, france').payload, {
      venue: 'Le Caveau',
      address: '12 Rue de la Huchette, 75005 Paris, France',
    });
    // --category: every event gets it.
    const tagged = read('google-export.ics', { category: 'Jazz' });
    assert.ok(events(tagged).every((e) => e.links?.categories?.includes('category:jazz')));
  });

  it('reads an Apple Calendar export: structured location title, GEO, alarms ignored', () => {
    const r = read('apple-export.ics');
    assert.equal(r.calendarName, 'Family');
    const lunch = events(r)[0]!;
    assert.deepEqual(
      [lunch.payload['start_date'], lunch.payload['end_date'], lunch.payload['timezone']],
      ['2027-04-05 12:30:00', '2027-04-05 13:00:00', 'Europe/Rome'],
    );
    assert.deepEqual(r.records.find((x) => x.kind === 'venue')!.payload, {
      venue: 'Trattoria da Mario',
      address: 'Via Roma 1, 00100 Roma RM, Italia',
      geo_lat: 41.9,
      geo_lng: 12.5,
    });
  });

  it('reads an Outlook export: Windows zone names, HTML descriptions, a zone only the file defines', () => {
    const r = read('outlook-export.ics');
    const planning = events(r).find((e) => e.payload['title'] === 'Quartalsplanung')!;
    assert.deepEqual(
      [planning.payload['start_date'], planning.payload['timezone']],
      ['2027-04-20 10:00:00', 'Europe/Berlin'],
    );
    // HTML as sent: the service sanitizes it on write (the import test checks the stored result).
    assert.match(String(planning.payload['description']), /<b>planning<\/b>/);
    const call = byId(r, 'custom-zone@example.org');
    assert.deepEqual(
      [call.payload['start_date'], call.payload['timezone']],
      ['2027-04-21 10:00:00', 'Asia/Kolkata'],
      '10:00 at +05:30: the IANA zone with the rules of its VTIMEZONE',
    );
  });

  it('gives the same records for the same text, and refuses what is not iCalendar in one line', () => {
    assert.deepEqual(read('series.ics'), read('series.ics'));
    assert.throws(
      () => read('not-a-calendar.html'),
      (e: Error) =>
        e instanceof SourceError && /Not an iCalendar file: it starts with "<!doctype html>/.test(e.message),
    );
    assert.throws(() => readIcs('BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:nonsense', { lang: 'en' }), SourceError);
  });

  it('maps zone names to IANA ones', () => {
    assert.equal(ianaZone('Europe/Paris'), 'Europe/Paris');
    assert.equal(ianaZone('Romance Standard Time'), 'Europe/Paris');
    assert.equal(ianaZone('/citadel.org/20190101_1/Europe/Paris'), 'Europe/Paris');
    assert.equal(ianaZone('Somewhere Time'), null);
  });
});
