// Every expectation is fixed: the suite must pass whatever the process time zone (try TZ=America/Los_Angeles and
// TZ=Asia/Tokyo), because chrono-node and Date otherwise compute in it.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { DateTime } from 'luxon';
import {
  dateDetails,
  formatSql,
  isValidTimezone,
  localToUtc,
  parseDateInput,
  parseDateTime,
  parseZone,
  timezoneAbbr,
  toIsoWithOffset,
  utcToLocal,
  type Zone,
} from '../../src/lib/dates.js';

function zone(name: string): Zone {
  const z = parseZone(name);
  assert.ok(z, `zone ${name}`);
  return z;
}

const PARIS = zone('Europe/Paris');
const NEW_YORK = zone('America/New_York');
const TOKYO = zone('Asia/Tokyo');
const UTC = zone('UTC');

/** Wednesday 2027-05-19: 15:45:12 in Paris (CEST), 09:45:12 in New York (EDT), 22:45:12 in Tokyo. */
const NOW = new Date('2027-05-19T13:45:12.345Z');

/** Asserts each [input, expected] pair for `zone` at `now`. */
function expectParses(z: Zone, now: Date, cases: [unknown, string | null][]): void {
  for (const [input, expected] of cases) {
    assert.equal(parseDateInput(input, z, now), expected, `input ${JSON.stringify(input)}`);
  }
}

describe('parseZone / isValidTimezone', () => {
  it('reads IANA names', () => {
    assert.equal(zone('Europe/Paris').name, 'Europe/Paris');
    assert.equal(zone('America/New_York').type, 'iana');
  });

  it('reads UTC and WordPress offsets', () => {
    assert.equal(zone('UTC').offset(0), 0);
    assert.equal(zone('UTC+0').offset(0), 0);
    assert.equal(zone('UTC+2').offset(0), 120);
    assert.equal(zone('UTC-5:30').offset(0), -330);
    assert.equal(zone('UTC+5.5').offset(0), 330);
    assert.equal(zone('UTC+5.75').offset(0), 345);
    assert.equal(zone('UTC+14').offset(0), 840);
    assert.equal(zone('UTC-12').offset(0), -720);
  });

  it('rejects anything else', () => {
    for (const bad of [
      'Mars/Base',
      'UTC+25',
      '',
      '   ',
      'UTC+14:30',
      'UTC+5:60',
      '+05:00',
      'UTC+',
      'Europe/',
      'not a zone',
    ]) {
      assert.equal(parseZone(bad), null, bad);
      assert.equal(isValidTimezone(bad), false, bad);
    }
    assert.equal(isValidTimezone('Asia/Tokyo'), true);
    assert.equal(isValidTimezone('UTC-5:30'), true);
  });
});

describe('parseDateInput: absolute forms', () => {
  it('reads dates and wall-clock times in the zone', () => {
    expectParses(PARIS, NOW, [
      ['2027-01-05', '2027-01-05 00:00:00'],
      ['2027-01-05 10:30', '2027-01-05 10:30:00'],
      ['2027-01-05 10:30:15', '2027-01-05 10:30:15'],
      ['2027-01-05T10:30', '2027-01-05 10:30:00'],
      ['2027-01-05T10:30:15.999', '2027-01-05 10:30:15'],
      ['  2027-01-05   10:30  ', '2027-01-05 10:30:00'],
      ['2018-01-01 4pm', '2018-01-01 16:00:00'],
      ['January 5 2027', '2027-01-05 00:00:00'],
      ['5 January 2027 10:00', '2027-01-05 10:00:00'],
      ['Jan 5, 2027 3pm', '2027-01-05 15:00:00'],
      ['Jan 5th 2027 at 3:30 p.m.', '2027-01-05 15:30:00'],
      ['May 2027', '2027-05-01 00:00:00'],
      ['December 25', '2027-12-25 00:00:00'],
      ['2028-02-29 12am', '2028-02-29 00:00:00'],
      ['2028-02-29 12pm', '2028-02-29 12:00:00'],
    ]);
  });

  it('validates the calendar and the clock', () => {
    expectParses(PARIS, NOW, [
      ['2023-02-30', null],
      ['2023-02-29', null],
      ['2023-13-01', null],
      ['2023-01-01 25:00', null],
      ['2023-01-01 24:00', null],
      ['2023-01-01 10:60', null],
      ['2023-01-01 13pm', null],
      ['February 30 2027', null],
    ]);
  });

  it('converts an ISO 8601 instant with an offset into the zone', () => {
    expectParses(NEW_YORK, NOW, [
      ['2030-05-01T10:00:00+02:00', '2030-05-01 04:00:00'],
      ['2030-05-01 10:00:00+02:00', '2030-05-01 04:00:00'],
      ['2030-05-01T10:00:00Z', '2030-05-01 06:00:00'],
      ['2030-05-01T10:00:00.250-0530', '2030-05-01 11:30:00'],
      ['2030-05-01 10:00 UTC', '2030-05-01 06:00:00'],
    ]);
    expectParses(PARIS, NOW, [['2030-05-01T10:00:00+02:00', '2030-05-01 10:00:00']]);
    expectParses(TOKYO, NOW, [['2030-05-01T10:00:00Z', '2030-05-01 19:00:00']]);
    expectParses(PARIS, NOW, [['2030-05-01T10:00:00+15:00', null]]);
  });

  it('reads UNIX timestamps, as numbers or digit strings', () => {
    expectParses(UTC, NOW, [
      [1700000000, '2023-11-14 22:13:20'],
      ['1700000000', '2023-11-14 22:13:20'],
      [1700000000.9, '2023-11-14 22:13:20'],
      ['-1', '1969-12-31 23:59:59'],
      [0, '1970-01-01 00:00:00'],
    ]);
    expectParses(PARIS, NOW, [[1700000000, '2023-11-14 23:13:20']]);
    expectParses(TOKYO, NOW, [['1700000000', '2023-11-15 07:13:20']]);
  });

  it('returns null for non-text input and garbage', () => {
    expectParses(PARIS, NOW, [
      [null, null],
      [undefined, null],
      [true, null],
      [{}, null],
      [['2027-01-05'], null],
      [Number.NaN, null],
      [Number.POSITIVE_INFINITY, null],
      ['', null],
      ['   ', null],
      ['foo', null],
      ['not a date', null],
      ['foo tomorrow', null],
      ['tomorrow foo', null],
      ['+5 bananas', null],
      ['2027-01-05 2027-01-06', null],
    ]);
  });
});

describe('parseDateInput: relative forms (PHP strtotime semantics)', () => {
  it('evaluates relative to now in the zone', () => {
    expectParses(PARIS, NOW, [
      ['now', '2027-05-19 15:45:12'],
      ['today', '2027-05-19 00:00:00'],
      ['midnight', '2027-05-19 00:00:00'],
      ['noon', '2027-05-19 12:00:00'],
      ['tomorrow', '2027-05-20 00:00:00'],
      ['yesterday', '2027-05-18 00:00:00'],
      ['tomorrow 9am', '2027-05-20 09:00:00'],
      ['TOMORROW 9AM', '2027-05-20 09:00:00'],
      ['tomorrow at noon', '2027-05-20 12:00:00'],
      ['yesterday 23:59', '2027-05-18 23:59:00'],
      ['today 14:30', '2027-05-19 14:30:00'],
    ]);
  });

  it('moves to weekdays: bare may be today, next/last never are, time resets to midnight', () => {
    expectParses(PARIS, NOW, [
      ['wednesday', '2027-05-19 00:00:00'],
      ['this wednesday', '2027-05-19 00:00:00'],
      ['next wednesday', '2027-05-26 00:00:00'],
      ['next wednesday 4pm', '2027-05-26 16:00:00'],
      ['last wednesday', '2027-05-12 00:00:00'],
      ['thursday', '2027-05-20 00:00:00'],
      ['next thu', '2027-05-20 00:00:00'],
      ['last monday', '2027-05-17 00:00:00'],
      ['tuesday', '2027-05-25 00:00:00'],
      ['friday 3pm', '2027-05-21 15:00:00'],
    ]);
  });

  it('adds offsets, keeping the current time unless one is given', () => {
    expectParses(PARIS, NOW, [
      ['+5 days', '2027-05-24 15:45:12'],
      ['5 days', '2027-05-24 15:45:12'],
      ['in 3 days', '2027-05-22 15:45:12'],
      ['+5 days 11am', '2027-05-24 11:00:00'],
      ['-1 week', '2027-05-12 15:45:12'],
      ['+2 hours', '2027-05-19 17:45:12'],
      ['+90 minutes', '2027-05-19 17:15:12'],
      ['-30 sec', '2027-05-19 15:44:42'],
      ['3 days ago', '2027-05-16 15:45:12'],
      ['2 days 3 hours ago', '2027-05-17 12:45:12'],
      ['+1 fortnight', '2027-06-02 15:45:12'],
      ['next month', '2027-06-19 15:45:12'],
      ['last month', '2027-04-19 15:45:12'],
      ['next year', '2028-05-19 15:45:12'],
      ['next week', '2027-05-26 15:45:12'],
      ['next wednesday +1 week', '2027-06-02 00:00:00'],
    ]);
  });

  it('lets days overflow after month arithmetic, like PHP', () => {
    expectParses(PARIS, NOW, [['January 31 2027 +1 month', '2027-03-03 00:00:00']]);
  });

  it('pins first/last day of a month, keeping the current time like PHP', () => {
    expectParses(PARIS, NOW, [
      ['first day of next month', '2027-06-01 15:45:12'],
      ['last day of next month', '2027-06-30 15:45:12'],
      ['first day of this month', '2027-05-01 15:45:12'],
      ['last day of last month', '2027-04-30 15:45:12'],
      ['first day of next month midnight', '2027-06-01 00:00:00'],
      ['last day of next month 18:00', '2027-06-30 18:00:00'],
      ['last day of february 2028', '2028-02-29 00:00:00'],
    ]);
    const jan31 = new Date('2027-01-31T09:00:00Z');
    expectParses(PARIS, jan31, [
      ['last day of next month', '2027-02-28 10:00:00'],
      ['first day of next month', '2027-02-01 10:00:00'],
    ]);
  });

  it('falls back to chrono-node for other readable forms', () => {
    expectParses(PARIS, NOW, [
      ['1/5/2027', '2027-01-05 00:00:00'],
      ['1/5/2027 3pm', '2027-01-05 15:00:00'],
      ['2027/01/05', '2027-01-05 00:00:00'],
      ['1/5/2027 3pm EST', '2027-01-05 21:00:00'],
    ]);
  });

  it('uses the wall clock of each zone, whatever the process zone', () => {
    // 20:00Z is already the 20th in Tokyo but still the 19th in the Americas.
    const evening = new Date('2027-05-19T20:00:00Z');
    const cases: [Zone, string, string, string][] = [
      [PARIS, '2027-05-19 22:00:00', '2027-05-19 00:00:00', '2027-05-20 09:00:00'],
      [NEW_YORK, '2027-05-19 16:00:00', '2027-05-19 00:00:00', '2027-05-20 09:00:00'],
      [TOKYO, '2027-05-20 05:00:00', '2027-05-20 00:00:00', '2027-05-21 09:00:00'],
      [UTC, '2027-05-19 20:00:00', '2027-05-19 00:00:00', '2027-05-20 09:00:00'],
      [zone('UTC+2'), '2027-05-19 22:00:00', '2027-05-19 00:00:00', '2027-05-20 09:00:00'],
      [zone('UTC-5:30'), '2027-05-19 14:30:00', '2027-05-19 00:00:00', '2027-05-20 09:00:00'],
      [zone('UTC+5.5'), '2027-05-20 01:30:00', '2027-05-20 00:00:00', '2027-05-21 09:00:00'],
    ];
    for (const [z, now, today, tomorrow9] of cases) {
      expectParses(z, evening, [
        ['now', now],
        ['today', today],
        ['tomorrow 9am', tomorrow9],
      ]);
    }
  });

  it('keeps the wall clock for days and counts real time for hours across DST changes', () => {
    // Paris springs forward on 2031-03-30 at 02:00 CET; now is Saturday 13:00 CET.
    const beforeSpring = new Date('2031-03-29T12:00:00Z');
    expectParses(PARIS, beforeSpring, [
      ['+1 day', '2031-03-30 13:00:00'],
      ['+24 hours', '2031-03-30 14:00:00'],
      ['tomorrow 02:30', '2031-03-30 03:30:00'], // inside the gap: moved forward by it
    ]);
    // New York falls back on 2030-11-03 at 02:00 EDT; now is Saturday 12:00 EDT.
    const beforeFall = new Date('2030-11-02T16:00:00Z');
    expectParses(NEW_YORK, beforeFall, [
      ['+1 day', '2030-11-03 12:00:00'],
      ['+24 hours', '2030-11-03 11:00:00'],
    ]);
    assert.equal(
      parseDateTime('tomorrow 01:30', NEW_YORK, beforeFall)?.offset,
      -240,
      'repeated hour: first occurrence',
    );
  });
});

describe('parseDateTime', () => {
  it('returns a whole-second DateTime in the zone', () => {
    const dt = parseDateTime('now', PARIS, NOW);
    assert.ok(dt);
    assert.equal(dt.zoneName, 'Europe/Paris');
    assert.equal(dt.millisecond, 0);
    assert.equal(dt.toISO(), '2027-05-19T15:45:12.000+02:00');
  });

  it('keeps the instant of an input with an offset', () => {
    const dt = parseDateTime('2030-05-01T10:00:00+02:00', NEW_YORK, NOW);
    assert.equal(dt?.toUTC().toISO(), '2030-05-01T08:00:00.000Z');
    assert.equal(dt?.zoneName, 'America/New_York');
  });

  it('returns null like parseDateInput', () => {
    assert.equal(parseDateTime('foo', PARIS, NOW), null);
    assert.equal(parseDateTime(42n, PARIS, NOW), null);
  });

  it('defaults now to the current instant', () => {
    const before = Math.floor(Date.now() / 1000);
    const parsed = parseDateTime('now', TOKYO);
    assert.ok(parsed);
    assert.ok(parsed.toSeconds() >= before && parsed.toSeconds() <= before + 2);
  });
});

describe('localToUtc / utcToLocal', () => {
  it('converts both ways', () => {
    assert.equal(localToUtc('2027-05-18 09:30:00', PARIS), '2027-05-18 07:30:00');
    assert.equal(localToUtc('2027-01-18 09:30:00', PARIS), '2027-01-18 08:30:00');
    assert.equal(utcToLocal('2027-05-18 07:30:00', PARIS), '2027-05-18 09:30:00');
    assert.equal(localToUtc('2027-05-18 09:30:00', zone('UTC+5.5')), '2027-05-18 04:00:00');
    assert.equal(utcToLocal('2027-05-18 04:00:00', zone('UTC-5:30')), '2027-05-17 22:30:00');
    assert.equal(localToUtc('2027-05-18', TOKYO), '2027-05-17 15:00:00');
  });

  it('round-trips ordinary times in every zone', () => {
    for (const z of [PARIS, NEW_YORK, TOKYO, UTC, zone('UTC-5:30')]) {
      for (const local of [
        '2031-03-30 01:59:59',
        '2031-03-30 03:00:00',
        '2030-11-03 12:00:00',
        '2027-12-31 23:59:59',
      ]) {
        assert.equal(utcToLocal(localToUtc(local, z), z), local, `${z.name} ${local}`);
      }
    }
  });

  it('moves a time in a spring-forward gap forward by the gap (Luxon)', () => {
    // 02:30 does not exist in Paris on 2031-03-30: it is read as 03:30 CEST.
    assert.equal(localToUtc('2031-03-30 02:30:00', PARIS), '2031-03-30 01:30:00');
    assert.equal(utcToLocal(localToUtc('2031-03-30 02:30:00', PARIS), PARIS), '2031-03-30 03:30:00');
  });

  it('reads a time repeated by a fall-back as its first occurrence', () => {
    assert.equal(localToUtc('2030-11-03 01:30:00', NEW_YORK), '2030-11-03 05:30:00');
    assert.equal(utcToLocal('2030-11-03 05:30:00', NEW_YORK), '2030-11-03 01:30:00');
    assert.equal(utcToLocal('2030-11-03 06:30:00', NEW_YORK), '2030-11-03 01:30:00');
    assert.equal(localToUtc('2030-10-27 02:30:00', PARIS), '2030-10-27 00:30:00');
  });

  it('throws on a malformed stored string', () => {
    assert.throws(() => localToUtc('yesterday', PARIS), RangeError);
    assert.throws(() => localToUtc('2027-02-30 10:00:00', PARIS), RangeError);
    assert.throws(() => utcToLocal('2027-01-01 24:00:00', PARIS), RangeError);
  });

  it("agrees with Luxon's own reading at every quarter hour around real zone changes", () => {
    // The conversions skip Luxon's parser for speed; the reference is Luxon's reading followed by
    // its first possible offset, across gaps, overlaps, half-hour DST and a standard-offset change.
    const cases: [string, string][] = [
      ['Europe/Paris', '2031-03-30'],
      ['Europe/Paris', '2030-10-27'],
      ['America/New_York', '2030-03-10'],
      ['America/New_York', '2030-11-03'],
      ['Australia/Lord_Howe', '2030-04-07'],
      ['Australia/Lord_Howe', '2030-10-06'],
      ['America/Santiago', '2030-04-07'],
      ['Pacific/Apia', '2011-12-30'],
      ['Europe/Moscow', '2014-10-26'],
      ['Asia/Kathmandu', '2030-01-01'],
    ];
    for (const [name, day] of cases) {
      const z = zone(name);
      const start = DateTime.fromISO(`${day}T00:00:00`, { zone: 'utc' }).minus({ days: 1 });
      for (let step = 0; step < 3 * 96; step += 1) {
        const local = start.plus({ minutes: 15 * step }).toFormat('yyyy-MM-dd HH:mm:ss');
        const reference = DateTime.fromSQL(local, { zone: z }).getPossibleOffsets()[0]!;
        assert.equal(localToUtc(local, z), reference.toUTC().toFormat('yyyy-MM-dd HH:mm:ss'), `${name} ${local}`);
        assert.equal(toIsoWithOffset(local, z), reference.toFormat("yyyy-MM-dd'T'HH:mm:ssZZ"), `${name} ${local}`);
        assert.equal(
          utcToLocal(local, z),
          DateTime.fromSQL(local, { zone: 'utc' }).setZone(z).toFormat('yyyy-MM-dd HH:mm:ss'),
          `${name} ${local}`,
        );
        assert.equal(parseDateInput(local, z), reference.toFormat('yyyy-MM-dd HH:mm:ss'), `${name} ${local}`);
      }
    }
  });
});

describe('timezoneAbbr', () => {
  it('follows DST', () => {
    assert.equal(timezoneAbbr('2027-01-18 09:30:00', PARIS, 'Europe/Paris'), 'CET');
    assert.equal(timezoneAbbr('2027-07-18 09:30:00', PARIS, 'Europe/Paris'), 'CEST');
    assert.equal(timezoneAbbr('2030-11-02 12:00:00', NEW_YORK, 'America/New_York'), 'EDT');
    assert.equal(timezoneAbbr('2030-11-03 12:00:00', NEW_YORK, 'America/New_York'), 'EST');
    assert.equal(timezoneAbbr('2031-03-30 01:59:59', PARIS, 'Europe/Paris'), 'CET');
    assert.equal(timezoneAbbr('2031-03-30 03:00:00', PARIS, 'Europe/Paris'), 'CEST');
  });

  it('names other zones', () => {
    assert.equal(timezoneAbbr('2027-01-18 09:30:00', UTC, 'UTC'), 'UTC');
    assert.equal(timezoneAbbr('2027-01-18 09:30:00', TOKYO, 'Asia/Tokyo'), 'JST');
    assert.equal(timezoneAbbr('2027-07-18 09:30:00', zone('Europe/London'), 'Europe/London'), 'BST');
    assert.equal(timezoneAbbr('2027-01-18 09:30:00', zone('Asia/Kolkata'), 'Asia/Kolkata'), 'IST');
    assert.equal(timezoneAbbr('2027-01-18 09:30:00', zone('Asia/Kathmandu'), 'Asia/Kathmandu'), 'GMT+5:45');
  });

  it('names a zone by the day, not only by its offset and year', () => {
    // Metlakatla kept the offset -08:00 in 2019 under two names: PST in January, AKDT in June.
    const metlakatla = zone('America/Metlakatla');
    assert.equal(timezoneAbbr('2019-01-15 12:00:00', metlakatla, 'America/Metlakatla'), 'PST');
    assert.equal(timezoneAbbr('2019-06-15 12:00:00', metlakatla, 'America/Metlakatla'), 'AKDT');
  });

  it('names fixed offsets as given', () => {
    assert.equal(timezoneAbbr('2027-01-18 09:30:00', zone('UTC+2'), 'UTC+2'), 'UTC+2');
    assert.equal(timezoneAbbr('2027-01-18 09:30:00', zone('UTC+5.5'), 'UTC+5.5'), 'UTC+5.5');
  });
});

describe('toIsoWithOffset / formatSql / dateDetails', () => {
  it('writes ISO 8601 with the offset of that moment', () => {
    assert.equal(toIsoWithOffset('2027-05-18 09:30:00', PARIS), '2027-05-18T09:30:00+02:00');
    assert.equal(toIsoWithOffset('2027-01-18 09:30:00', PARIS), '2027-01-18T09:30:00+01:00');
    assert.equal(toIsoWithOffset('2027-01-18 09:30:00', UTC), '2027-01-18T09:30:00+00:00');
    assert.equal(toIsoWithOffset('2027-01-18 09:30:00', zone('UTC-5:30')), '2027-01-18T09:30:00-05:30');
  });

  it('writes hours and minutes of a local mean time, whose offset has seconds', () => {
    // Abidjan kept its local mean time, -00:16:08, until 1912.
    const abidjan = zone('Africa/Abidjan');
    assert.equal(toIsoWithOffset('1850-01-01 00:00:00', abidjan), '1850-01-01T00:00:00-00:16');
    assert.equal(localToUtc('1850-01-01 00:00:00', abidjan), '1850-01-01 00:16:08');
    assert.equal(utcToLocal('1850-01-01 00:16:08', abidjan), '1850-01-01 00:00:00');
  });

  it('formats SQL-style wall clock', () => {
    assert.equal(formatSql(DateTime.fromISO('2027-05-08T07:06:05.789', { zone: 'Asia/Tokyo' })), '2027-05-08 07:06:05');
  });

  it('splits a date string', () => {
    assert.deepEqual(dateDetails('2027-05-08 09:03:04'), {
      year: '2027',
      month: '05',
      day: '08',
      hour: '09',
      minutes: '03',
      seconds: '04',
    });
    assert.deepEqual(dateDetails('2027-05-08'), {
      year: '2027',
      month: '05',
      day: '08',
      hour: '00',
      minutes: '00',
      seconds: '00',
    });
  });
});
