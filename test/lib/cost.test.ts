import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { costDetails, formatCost, parseCostInput } from '../../src/lib/cost.js';

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
