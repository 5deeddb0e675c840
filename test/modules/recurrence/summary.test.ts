import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { zoneOrUtc } from '../../../src/lib/dates.js';
import { parseRule, expand, withUntil, withCount } from '../../../src/modules/recurrence/recurrence.rule.js';
import { summarize } from '../../../src/modules/recurrence/recurrence.summary.js';

const paris = zoneOrUtc('Europe/Paris');
const rule = (text: string) => {
  const parsed = parseRule(text, paris);
  assert.notEqual(typeof parsed, 'string', String(parsed));
  return parsed as Exclude<typeof parsed, string>;
};

describe('recurrence summaries', () => {
  const cases: [string, string, Record<string, string>][] = [
    [
      'FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;UNTIL=20271231T235959Z',
      '2027-01-05 19:00:00',
      {
        en: 'Every 2 weeks on Tuesday until 31 December 2027',
        fr: 'Toutes les 2 semaines le mardi jusqu\u2019au 31 décembre 2027'.replace('\u2019', "'"),
        de: 'Alle 2 Wochen am Dienstag bis 31. Dezember 2027',
        it: 'Ogni 2 settimane di martedì fino al 31 dicembre 2027',
        es: 'Cada 2 semanas el martes hasta el 31 de diciembre de 2027',
      },
    ],
    [
      'FREQ=DAILY;COUNT=5',
      '2027-01-05 07:00:00',
      { en: 'Every day 5 times', fr: 'Tous les jours 5 fois', de: 'Täglich 5 Mal' },
    ],
    [
      'FREQ=WEEKLY;BYDAY=MO,WE,FR',
      '2027-01-04 07:00:00',
      { en: 'Every week on Monday, Wednesday and Friday', fr: 'Toutes les semaines le lundi, mercredi et vendredi' },
    ],
    [
      'FREQ=MONTHLY;BYDAY=2TU',
      '2027-01-12 18:00:00',
      { en: 'Every month on the second Tuesday', it: 'Ogni mese il secondo martedì', es: 'Cada mes el segundo martes' },
    ],
    [
      'FREQ=MONTHLY;BYDAY=-1FR',
      '2027-01-29 18:00:00',
      { it: "Ogni mese l'ultimo venerdì", de: 'Monatlich am letzten Freitag' },
    ],
    [
      'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29',
      '2028-02-29 10:00:00',
      { en: 'Every year on day 29 in February', fr: 'Tous les ans le 29 en février' },
    ],
  ];
  for (const [text, start, expected] of cases) {
    for (const [lang, summary] of Object.entries(expected)) {
      it(`${text} in ${lang}`, () => assert.equal(summarize(rule(text), start, lang), summary));
    }
  }

  it('should name the last weekday of a month, and fall back to the library text for what the frames do not cover', () => {
    const lastWeekday = rule('FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;COUNT=4');
    assert.equal(summarize(lastWeekday, '2027-01-29 17:00:00', 'en'), 'Every month on the last weekday 4 times');
    assert.equal(summarize(lastWeekday, '2027-01-29 17:00:00', 'de'), 'Monatlich am letzten Werktag 4 Mal');
    assert.equal(summarize(rule('FREQ=DAILY;BYHOUR=9,17'), '2027-01-29 09:00:00', 'fr'), 'Every day at 9 and 17');
  });
});

describe('recurrence rules', () => {
  it('should count DTSTART as the first of COUNT even off the rule (RFC 5545)', () => {
    const { starts } = expand(
      rule('FREQ=MONTHLY;BYDAY=-1FR;COUNT=3'),
      { rrule: '', rdates: [], exdates: [] },
      '2027-02-05 08:00:00',
      '2030-01-01 00:00:00',
      100,
    );
    assert.deepEqual(starts, ['2027-02-05 08:00:00', '2027-02-26 08:00:00', '2027-03-26 08:00:00']);
  });

  it('should rewrite a rule for a split', () => {
    assert.equal(withUntil('RRULE:FREQ=DAILY;COUNT=10', '2027-09-11 23:59:59'), 'FREQ=DAILY;UNTIL=20270911T235959Z');
    assert.equal(withCount('FREQ=DAILY;UNTIL=20270911T235959Z;BYHOUR=9', 4), 'FREQ=DAILY;BYHOUR=9;COUNT=4');
  });

  it('should read UNTIL in UTC into the zone and a date-only UNTIL as the end of that day', () => {
    assert.equal(rule('FREQ=DAILY;UNTIL=20270330T220000Z').untilLocal, '2027-03-31 00:00:00');
    assert.equal(rule('FREQ=DAILY;UNTIL=20270330').untilLocal, '2027-03-30 23:59:59');
  });

  it('should stop expanding a rule without end at the bound and say it is open', () => {
    const expansion = expand(
      rule('FREQ=WEEKLY'),
      { rrule: '', rdates: [], exdates: [] },
      '2027-01-04 10:00:00',
      '2027-02-01 10:00:00',
      100,
    );
    assert.equal(expansion.starts.length, 5);
    assert.equal(expansion.complete, false);
  });
});
