import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { contentLine, escapeText, htmlToText, paramValue } from '../../../src/modules/feeds/ical.text.js';
import { autop, stripTags } from '../../../src/lib/html.js';
import { formatOfAccept } from '../../../src/modules/events/event.format.js';

describe('iCalendar text serialization', () => {
  it('should escape TEXT values as RFC 5545 3.3.11 says', () => {
    assert.equal(escapeText('a,b;c\\d\ne\r\nf\rg'), 'a\\,b\\;c\\\\d\\ne\\nf\\ng');
    assert.equal(escapeText('bell\u0007 tab\t'), 'bell tab\t');
  });

  it('should quote parameter values that need it and drop what cannot appear', () => {
    assert.equal(paramValue('Plain name'), 'Plain name');
    assert.equal(paramValue('Jazz, Inc.'), '"Jazz, Inc."');
    assert.equal(paramValue('Say "hi"; now'), `"Say 'hi'; now"`);
    assert.equal(paramValue('two\nlines'), 'two lines');
  });

  it('should fold at 75 octets between code points only, and unfold to the original', () => {
    const samples = [
      'x'.repeat(200),
      'é'.repeat(100),
      '🎷'.repeat(60),
      `SUMMARY:${'שלום עולם '.repeat(12)}`,
      `A:${'a'.repeat(73)}🎷${'b'.repeat(80)}`,
      'short',
    ];
    for (const sample of samples) {
      const folded = contentLine(sample);
      assert.ok(folded.endsWith('\r\n'));
      const lines = folded.slice(0, -2).split('\r\n');
      lines.forEach((line, i) => {
        const bytes = Buffer.from(line);
        assert.ok(bytes.length <= 75, `${bytes.length} octets`);
        assert.equal(bytes.toString(), line, 'no split UTF-8 sequence');
        if (i > 0) assert.equal(line[0], ' ');
      });
      assert.equal(folded.slice(0, -2).replace(/\r\n /g, ''), sample);
      // Each physical line is as full as it may be: the next code point would not have fitted.
      for (let i = 0; i < lines.length - 1; i += 1) {
        const next = [...lines[i + 1]!.slice(1)][0]!;
        assert.ok(Buffer.byteLength(lines[i]!) + Buffer.byteLength(next) > 75);
      }
    }
  });

  it('should turn rendered HTML into plain text, with or without the HTML parser', () => {
    assert.equal(
      htmlToText(autop('First line\nsecond line\n\nNew paragraph'), stripTags),
      'First line\nsecond line\n\nNew paragraph',
    );
    assert.equal(htmlToText(autop('a < b > c'), stripTags), 'a < b > c');
    assert.equal(
      htmlToText('<p>Fish &amp; chips</p><ul><li>one</li><li>two</li></ul><script>x()</script>', stripTags),
      'Fish & chips\n\n- one\n- two',
    );
    for (const text of ['One\ntwo', 'Para one\n\nPara two\nline', 'Tabs\tand   spaces ']) {
      const html = autop(text);
      // The fast path (no parser) gives what the parser gives.
      assert.equal(htmlToText(html, stripTags), htmlToText(`${html}<span></span>`, stripTags), text);
    }
  });

  it('should pick the format an Accept header prefers, JSON on ties and wildcards', () => {
    assert.equal(formatOfAccept(undefined), 'json');
    assert.equal(formatOfAccept('*/*'), 'json');
    assert.equal(formatOfAccept('text/calendar'), 'ical');
    assert.equal(formatOfAccept('application/ld+json'), 'jsonld');
    assert.equal(formatOfAccept('text/calendar, application/json'), 'json');
    assert.equal(formatOfAccept('application/json;q=0.9, text/calendar'), 'ical');
    assert.equal(formatOfAccept('text/calendar;q=0'), 'json');
    assert.equal(formatOfAccept('TEXT/Calendar; charset=utf-8'), 'ical');
  });
});
