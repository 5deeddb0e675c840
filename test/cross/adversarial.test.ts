import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formatCost, parseCostInput, COST_MAX_LENGTH } from '../../src/lib/cost.js';
import { DATE_MAX_LENGTH, parseDateInput, parseDateTime, zoneOrUtc } from '../../src/lib/dates.js';
import { autop, MAX_NESTING, nestingDepth, sanitizeRichText, stripTags } from '../../src/lib/html.js';
import { slugify } from '../../src/lib/slug.js';
import { htmlToText } from '../../src/modules/feeds/ical.text.js';

/**
 * Every parser and pattern that reads client text, fed the input that made an earlier version
 * quadratic (or worse), at a size where that version took from ten seconds to minutes. The bound
 * is the process's CPU time, not the clock's: the work is synchronous, so that is its own cost,
 * whatever else runs on the cores: the table cells below take 0.65 s of CPU, which the clock gave
 * as 1.3 s beside two busy processes and as 2.4 s (over the bound) with three test files on two
 * cores. It is generous and still far below what the old code needed, so a regression back to
 * super-linear time fails here rather than freezing a service.
 */
const BOUND_MS = 2000;

function timed<T>(work: () => T): { value: T; ms: number } {
  const started = process.cpuUsage();
  const value = work();
  const { user, system } = process.cpuUsage(started);
  return { value, ms: (user + system) / 1000 };
}

function assertFast<T>(label: string, work: () => T): T {
  const { value, ms } = timed(work);
  assert.ok(ms < BOUND_MS, `${label} took ${Math.round(ms)} ms of CPU`);
  return value;
}

describe('adversarial input', () => {
  it('reads a cost that is one long run of letters or signs in linear time (24,000 letters took 1.1 s; 200,000 would take a minute)', () => {
    for (const text of [
      'a'.repeat(200_000),
      '€'.repeat(200_000),
      'a€'.repeat(100_000),
      `${'ab'.repeat(100_000)}1`,
      '1a'.repeat(100_000),
    ]) {
      assertFast(`cost of ${text.length} characters`, () => formatCost([text], '', ''));
    }
  });

  it('still reads costs as before', () => {
    assert.equal(formatCost(['abc10'], '', ''), 'abc10');
    assert.equal(formatCost(['10€', '5'], '', ''), '$5 – 10€');
    assert.equal(formatCost(['€ 10 to €20'], '', ''), '€ 10 – €20');
  });

  it('refuses a cost over its bounds before reading it', () => {
    assert.equal(parseCostInput('9'.repeat(COST_MAX_LENGTH + 1)), null);
    assert.equal(parseCostInput(Array.from({ length: 21 }, () => '1')), null);
    assert.notEqual(parseCostInput('9'.repeat(COST_MAX_LENGTH)), null);
  });

  it('refuses a date text longer than 64 characters without parsing it', () => {
    const zone = zoneOrUtc('Europe/Paris');
    for (const text of [
      'tomorrow '.repeat(2000),
      'a'.repeat(12_000),
      `2027-01-05 10:00${' '.repeat(100)}`,
      '1/'.repeat(6000),
    ]) {
      assert.equal(
        assertFast('date', () => parseDateInput(text, zone)),
        null,
      );
      assert.equal(
        assertFast('date', () => parseDateTime(text, zone)),
        null,
      );
    }
    assert.equal(
      parseDateInput(`next friday${' '.repeat(DATE_MAX_LENGTH - 11)}`, zone, new Date('2027-01-05T12:00:00Z')),
      '2027-01-08 00:00:00',
    );
  });

  it('renders a description that is a run of unclosed block tags in linear time (40 KB took 0.65 s; 1 MB would take minutes)', () => {
    for (const text of [
      `<p>${'<p'.repeat(500_000)}`,
      `<div>${'</div'.repeat(200_000)}>`,
      `x\n\n${'<p'.repeat(500_000)}>`,
    ]) {
      assertFast(`autop of ${text.length} characters`, () => autop(text));
    }
  });

  it('sanitizes, strips and converts deeply nested or unclosed markup in linear time', () => {
    const inputs = [
      '<b>'.repeat(100_000),
      '<a href="'.repeat(50_000),
      `${'<div><p>'.repeat(50_000)}x`,
      '<!--'.repeat(100_000),
      '&#'.repeat(200_000),
      `<${'a'.repeat(200_000)}`,
      `<a ${'b'.repeat(200_000)}`,
      '<li>'.repeat(100_000),
      '<b></i>'.repeat(50_000),
      // The parser opens an element for each of these too: `/>` and a `<` inside quotes hide nothing.
      '<b/>'.repeat(260_000),
      '<b x="<">'.repeat(120_000),
      '<tr><td>'.repeat(100_000),
    ];
    for (const text of inputs) {
      const clean = assertFast(`sanitize ${text.slice(0, 8)}…`, () => sanitizeRichText(text));
      assertFast('stripTags', () => stripTags(clean));
      assertFast('htmlToText', () => htmlToText(clean, stripTags));
    }
  });

  it('keeps text nested deeper than any document as escaped text, and real nesting as HTML', () => {
    assert.equal(nestingDepth('<ul><li>a<li>b<li>c</ul><p>x<p>y'), 2);
    assert.equal(nestingDepth('<div><b></i></b></div><br><img src="x" /><hr/>'), 2);
    assert.equal(nestingDepth('<table><tr><td>a<td>b<tr><td>c</table>'), 3);
    assert.equal(nestingDepth('<b/><b x="<"><i/>'), 3);
    assert.equal(sanitizeRichText('<b/>'.repeat(MAX_NESTING + 1)), '&lt;b/&gt;'.repeat(MAX_NESTING + 1));
    const deep = `${'<b>'.repeat(MAX_NESTING + 1)}x`;
    assert.equal(sanitizeRichText(deep), `${'&lt;b&gt;'.repeat(MAX_NESTING + 1)}x`);
    const fine = `${'<blockquote>'.repeat(50)}x${'</blockquote>'.repeat(50)}`;
    assert.equal(sanitizeRichText(fine), fine);
  });

  it('makes slugs of long titles in linear time', () => {
    for (const text of [
      '<'.repeat(200_000),
      `<${'a'.repeat(200_000)}`,
      '&'.repeat(200_000),
      `${'a '.repeat(100_000)}`,
    ]) {
      assertFast('slugify', () => slugify(text));
    }
  });
});
