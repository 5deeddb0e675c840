import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { costDetails, formatCost, parseCostInput } from '../../src/lib/cost.js';
import { costOffer, currencyCode, displayCost } from '../../src/lib/cost-reading.js';

describe('parseCostInput', () => {
  it('accepts strings, numbers and flat arrays of them', () => {
    assert.deepEqual(parseCostInput(15), { raw: ['15'], symbol: '', position: '' });
    assert.deepEqual(parseCostInput(['0$', 20, '30$'])?.raw, ['0$', '20', '30$']);
  });

  it('reads the currency symbol and its position from the costs, as the original does', () => {
    assert.deepEqual(parseCostInput('20$'), { raw: ['20$'], symbol: '$', position: 'postfix' });
    assert.deepEqual(parseCostInput('$23'), { raw: ['$23'], symbol: '$', position: 'prefix' });
    assert.deepEqual(parseCostInput(['0$', '20$', '30$']), {
      raw: ['0$', '20$', '30$'],
      symbol: '$',
      position: 'postfix',
    });
    assert.deepEqual(parseCostInput(['$1', '2€']), { raw: ['$1', '2€'], symbol: '', position: '' });
    assert.deepEqual(parseCostInput('Donation'), { raw: ['Donation'], symbol: '', position: '' });
  });

  it('treats null and empty strings as no cost', () => {
    assert.deepEqual(parseCostInput(null)?.raw, []);
    assert.deepEqual(parseCostInput('')?.raw, []);
    assert.deepEqual(parseCostInput(['', '10'])?.raw, ['10']);
  });

  it('rejects other types', () => {
    for (const input of [{}, true, [['10']], [null], NaN, undefined]) {
      assert.equal(parseCostInput(input), null, String(input));
    }
  });
});

describe('formatCost', () => {
  const cases: [string[], string][] = [
    [['23'], '$23'],
    [['15'], '$15'],
    [['20$'], '20$'],
    [['€10'], '€10'],
    [['€ 10'], '€ 10'],
    [['0$', '20$', '30$'], 'Free – 30$'],
    [['0', '20', '30'], 'Free – $30'],
    [['0'], 'Free'],
    [['0.00'], 'Free'],
    [[], ''],
    [['10 - 20'], '$10 – $20'],
    [['From 10 to 20'], '$10 – $20'],
    [['25,55'], '$25,55'],
    [['10', '10.00'], '$10'],
    [['Donation'], 'Donation'],
    [['Donation', '5'], '$5'],
  ];
  for (const [raw, expected] of cases) {
    it(`${JSON.stringify(raw)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(formatCost(raw, '', ''), expected);
    });
  }

  it('uses the event symbol and position', () => {
    assert.equal(formatCost(['10'], '€', 'postfix'), '10€');
    assert.equal(formatCost(['10'], '€', 'prefix'), '€10');
    assert.equal(formatCost(['10'], '', ''), '$10');
    assert.equal(formatCost(['10'], '', '', '£'), '£10');
  });
});

describe('costDetails', () => {
  it('returns the meta fields and sorted, de-duplicated numeric values', () => {
    assert.deepEqual(costDetails(['30$', '0$', '20$', '20'], '$', 'USD', 'prefix'), {
      currency_symbol: '$',
      currency_code: 'USD',
      currency_position: 'prefix',
      values: ['0', '20', '30'],
    });
  });

  it('normalises number formats', () => {
    const values = (raw: string[]) => costDetails(raw, '', '', '').values;
    assert.deepEqual(values(['25,55']), ['25.55']);
    assert.deepEqual(values(['15.00']), ['15']);
    assert.deepEqual(values(['1,000']), ['1000']);
    assert.deepEqual(values(['1.234,56']), ['1234.56']);
    assert.deepEqual(values(['1,234.56']), ['1234.56']);
    assert.deepEqual(values(['1.000.000']), ['1000000']);
    assert.deepEqual(values(['10 - 20']), ['10', '20']);
    assert.deepEqual(values(['Donation']), []);
    assert.deepEqual(values([]), []);
  });
});

describe('displayCost (the pages)', () => {
  const cases: [string[], string, string, string][] = [
    // The author's words stay when the text is more than a price.
    [['Pass 5 jours : 30 €'], '€', 'postfix', 'Pass 5 jours : 30 €'],
    [['29 € incl. brunch'], '€', 'postfix', '29 € incl. brunch'],
    [['Donation'], '', '', 'Donation'],
    [['From 10 to 20'], '', '', 'From 10 to 20'],
    [['10 - 5'], '', '', '10 - 5'],
    [['$10 - 20€'], '', '', '$10 - 20€'],
    // A range keeps both ends and its currency where it was written.
    [['25–60 €'], '€', 'postfix', '25–60 €'],
    [['25 - 60 €'], '€', 'postfix', '25–60 €'],
    [['$10 - $20'], '$', 'prefix', '$10–$20'],
    [['10-20'], '€', 'postfix', '10€–20€'],
    // A bare price takes the event's symbol on its side; without one it stays bare.
    [['23'], '$', 'prefix', '$23'],
    [['23'], '', '', '23'],
    [['12,50 €'], '€', 'postfix', '12,50 €'],
    [['EUR 10'], '', '', 'EUR 10'],
    // Zero is free in the page's language; a word for free stays as written.
    [['0'], '', '', 'Gratuit'],
    [['0 €'], '€', 'postfix', 'Gratuit'],
    [['Free'], '', '', 'Free'],
    [['0$', '20$', '30$'], '$', 'postfix', 'Gratuit, 20$, 30$'],
    [[], '', '', ''],
  ];
  for (const [raw, symbol, position, expected] of cases) {
    it(`${JSON.stringify(raw)} → ${JSON.stringify(expected)}`, () => {
      assert.equal(displayCost(raw, symbol, position, 'Gratuit'), expected);
    });
  }

  it('reads at most a stored cost’s 200 characters', () => {
    assert.equal(displayCost([`${'1'.repeat(300)} €`], '', '', 'Free'), '1'.repeat(200));
  });
});

describe('costOffer (structured data)', () => {
  const cases: [string[], string, string, ReturnType<typeof costOffer>][] = [
    [['Pass 5 jours : 30 €'], '€', '', null],
    [['29 € incl. brunch'], '€', '', { free: false, low: 29, high: 29, currency: 'EUR' }],
    [['25–60 €'], '€', '', { free: false, low: 25, high: 60, currency: 'EUR' }],
    [['$10 - $20'], '$', '', { free: false, low: 10, high: 20, currency: 'USD' }],
    [['¥3000'], '¥', '', { free: false, low: 3000, high: 3000, currency: 'JPY' }],
    [['£5'], '', '', { free: false, low: 5, high: 5, currency: 'GBP' }],
    [['CHF 20'], '', '', { free: false, low: 20, high: 20, currency: 'CHF' }],
    [['20'], '', 'EUR', { free: false, low: 20, high: 20, currency: 'EUR' }],
    [['20'], '', '', { free: false, low: 20, high: 20, currency: '' }],
    [['0$', '20$', '30$'], '$', '', { free: false, low: 0, high: 30, currency: 'USD' }],
    [['$1', '2€'], '', '', null],
    [['Free'], '', '', { free: true }],
    [['Gratuit'], '', '', { free: true }],
    [['Entrée libre!'], '', '', { free: true }],
    [['無料'], '', '', { free: true }],
    [['0'], '', '', { free: true }],
    [['Donation'], '', '', null],
    [[], '', '', null],
  ];
  for (const [raw, symbol, code, expected] of cases) {
    it(`${JSON.stringify(raw)} → ${JSON.stringify(expected)}`, () => {
      assert.deepEqual(costOffer(raw, symbol, code), expected);
    });
  }

  it('names currencies by their ISO code', () => {
    assert.equal(currencyCode('€'), 'EUR');
    assert.equal(currencyCode('EUR'), 'EUR');
    assert.equal(currencyCode('US$'), 'USD');
    assert.equal(currencyCode('¤'), '');
    assert.equal(currencyCode('XYZ'), '');
  });
});
