import { excerpt } from '../../lib/redact.js';

/**
 * The text of an iCalendar feed made readable by ical.js the way other readers take it, before
 * it is parsed: ical.js refuses a whole file for one line it cannot read, where calendar programs
 * and other libraries read on. Each repair is noted (IcsNotes) and reported as one warning per
 * kind, with a count and the first lines, so a 5,000-event feed makes a few warnings, not 5,000.
 *
 * - Lines are unfolded here (RFC 5545 3.1): a line that starts with a space or a tab continues the
 *   line before it, even across blank lines, which are dropped (ical.js drops them too, but then
 *   refuses the continuation that follows one).
 * - A line with no value (no `:`), which ical.js refuses, is a newline
 *   written as is in the text before it (DESCRIPTION, SUMMARY…), so it continues that text; after
 *   any other property it is dropped.
 * - RRULEs are read without spaces (`BYDAY=MO, TU`); an RDATE period of dates as its first day.
 * - Dates without `VALUE=DATE` (`DTSTART:20190101`, `EXDATE:20200116`), which ical.js reads as
 *   broken date-times (`2019-01-01T::`), are given it; a date-time where `VALUE=DATE` was declared
 *   is read as that date; `2019-01-01T10:00` forms and times without seconds are written as the
 *   RFC's.
 * - What would cost its event for nothing is dropped: an RRULE without FREQ (`RRULE:`), RDATE or
 *   EXDATE values that are no dates.
 */

interface Note {
  count: number;
  examples: string[];
}

/** Repairs and guesses made while reading one feed, each kind reported once with how often. */
export class IcsNotes {
  private readonly notes = new Map<string, Note>();
  private readonly seen = new WeakMap<object, Set<string>>();

  /**
   * Notes that `what` (a sentence's subject: what was found and how it was read) happened, at
   * `where` (a line, an event). With `once`, an object (a VEVENT) is counted once for `what`
   * however often it is read (a series' occurrences are read from one VEVENT).
   */
  add(what: string, where: string, once?: object): void {
    if (once) {
      const kinds = this.seen.get(once) ?? new Set<string>();
      if (kinds.has(what)) return;
      this.seen.set(once, kinds.add(what));
    }
    const note = this.notes.get(what) ?? { count: 0, examples: [] };
    note.count += 1;
    if (note.examples.length < 3) note.examples.push(where);
    this.notes.set(what, note);
  }

  /** One warning per kind noted: `what: count (the first places…)`. */
  warnings(): string[] {
    return [...this.notes].map(
      ([what, n]) => `${what}: ${n.count} (${n.examples.join('; ')}${n.count > n.examples.length ? '; …' : ''}).`,
    );
  }
}

/**
 * A property name at the start of a content line: RFC 5545's are letters, digits and dashes, but
 * ical.js takes any name, and so do the programs that write `X-MS_OLK…`; no spaces, though.
 */
const NAME = /^[^\s:;,"]{1,80}(?=[;:])/;

/** The properties whose value is a date or date-time (a list of them for EXDATE and RDATE). */
const DATE_PROPERTIES = new Set(['DTSTART', 'DTEND', 'DUE', 'RECURRENCE-ID', 'EXDATE', 'RDATE']);
/** Date-times that are always UTC (RFC 5545 3.8.7): a bare date is its midnight, UTC. */
const STAMP_PROPERTIES = new Set(['DTSTAMP', 'CREATED', 'LAST-MODIFIED']);

const DATE = /^\d{8}$/;
const DATE_TIME = /^\d{8}T\d{6}Z?$/;
/** `2019-01-01`, `2019-01-01T10:00:00Z`, `20190101T1000`: dates and times other programs write. */
const LOOSE = /^(\d{4})-?(\d{2})-?(\d{2})(?:[T ](\d{2}):?(\d{2})(?::?(\d{2}))?)?(Z?)$/i;

/** Where a note is: `line 12: what`, or `what` alone when the line's number in the feed is not known. */
const place = (number: number | undefined, what: string) => (number === undefined ? what : `line ${number}: ${what}`);
/** The same for a line counted from `firstLine`, if the feed's. */
const at = (number: number, firstLine: number | undefined, what: string) =>
  place(firstLine === undefined ? undefined : number, what);

/**
 * The content lines of a feed, unfolded and repaired, from its physical lines: the feed's own
 * (from `firstLine`, named by their numbers in the notes), or a text cut from it whose lines are
 * not the feed's (`firstLine` undefined: the notes name no line).
 */
export function contentLines(lines: readonly string[], notes: IcsNotes, firstLine?: number): string[] {
  const out: string[] = [];
  const depth = { open: 0 };
  let current: string | null = null;
  let start = 0;
  let number = (firstLine ?? 1) - 1;
  let blankBefore = false;
  for (const line of lines) {
    number += 1;
    if (line === '' || ((line[0] === ' ' || line[0] === '\t') && line.trim() === '')) {
      blankBefore = current !== null;
      continue;
    }
    if (line[0] === ' ' || line[0] === '\t') {
      if (current === null) {
        notes.add(
          'Indented lines before any property, dropped',
          at(number, firstLine, `"${excerpt(line.trim(), 40)}"`),
        );
        continue;
      }
      if (blankBefore)
        notes.add(
          'Continuation lines after a blank line, read as continuing the line before it',
          at(number, firstLine, `"${excerpt(line.trim(), 40)}"`),
        );
      current += line.slice(1);
      blankBefore = false;
      continue;
    }
    blankBefore = false;
    if (current !== null) finishLine(out, current, firstLine === undefined ? undefined : start, notes, depth);
    current = line;
    start = number;
  }
  if (current !== null) finishLine(out, current, firstLine === undefined ? undefined : start, notes, depth);
  return out;
}

/** Properties whose text may hold a newline written as is (then the next line is no property). */
const TEXT_PROPERTY = /^(DESCRIPTION|SUMMARY|LOCATION|COMMENT|CONTACT|X-ALT-DESC)[;:]/i;

/**
 * One unfolded line onto `out`, repaired. A line with no value (no `:` at all), which
 * ical.js refuses, is a newline written as is in the text before it, or else dropped.
 */
function finishLine(
  out: string[],
  line: string,
  number: number | undefined,
  notes: IcsNotes,
  depth: { open: number },
): void {
  // After the last END (a feed's comment after END:VCALENDAR) ical.js has nowhere to put a line.
  const begin = /^BEGIN:/i.test(line);
  if (!begin && depth.open <= 0) {
    notes.add('Lines outside the calendar (after END:VCALENDAR), dropped', place(number, `"${excerpt(line, 40)}"`));
    return;
  }
  if (begin) depth.open += 1;
  else if (/^END:/i.test(line)) depth.open -= 1;
  else if (!line.includes(':')) {
    const previous = out.length > 0 ? out[out.length - 1]! : '';
    if (TEXT_PROPERTY.test(previous)) {
      notes.add(
        'Lines without a property name, read as a new line of the text before them',
        place(number, `"${excerpt(line, 40)}"`),
      );
      out[out.length - 1] = `${previous}\\n${line}`;
    } else notes.add('Lines that are no property (no value), dropped', place(number, `"${excerpt(line, 40)}"`));
    return;
  }
  const repaired = repairLine(line, number, notes);
  if (repaired !== null) out.push(repaired);
}

/** A feed's text (or a part of it: see contentLines) as ical.js will read it: content lines, unfolded and repaired. */
export function tolerantIcs(text: string, notes: IcsNotes, firstLine?: number): string {
  return contentLines(text.split(/\r\n|\n|\r/), notes, firstLine).join('\r\n');
}

/** The index of the colon that ends a content line's name and parameters (a quoted parameter may hold colons), or -1. */
function valueStart(line: string, from: number): number {
  let quoted = false;
  for (let i = from; i < line.length; i += 1) {
    const c = line[i];
    if (c === '"') quoted = !quoted;
    else if (c === ':' && !quoted) return i;
  }
  return -1;
}

/** A date or date-time value in RFC 5545's basic form, or the value unchanged when it is neither. */
function basicForm(value: string): string {
  const m = value.length <= 24 ? LOOSE.exec(value) : null;
  if (!m) return value;
  const [, y, mo, d, h, mi, s, z] = m;
  return h === undefined ? `${y}${mo}${d}` : `${y}${mo}${d}T${h}${mi}${s ?? '00'}${z ? 'Z' : ''}`;
}

/**
 * One content line with its date values made readable (see the module's comment), or null when
 * it says nothing readable and would cost its event: an RRULE without FREQ (`RRULE:`, as one
 * holiday feed writes), an RDATE or EXDATE of values that are no dates (`VALUE=TIME:083000`).
 * Other lines as they are.
 */
export function repairLine(line: string, number: number | undefined, notes: IcsNotes): string | null {
  const name = NAME.exec(line.slice(0, 81))?.[0].toUpperCase();
  if (name === 'RRULE' || name === 'EXRULE') {
    const rule = line.slice(0, 2000);
    if (!/FREQ=/i.test(rule)) {
      notes.add('Rules without FREQ (an empty RRULE), dropped', place(number, excerpt(line, 60)));
      return null;
    }
    if (!/\s/.test(rule)) return line;
    notes.add('Rules with spaces (BYDAY=MO, TU), read without them', place(number, excerpt(line, 60)));
    return rule.replace(/\s+/g, '');
  }
  const stamp = name !== undefined && STAMP_PROPERTIES.has(name);
  if (name === undefined || (!stamp && !DATE_PROPERTIES.has(name))) return line;
  const colon = valueStart(line, name.length);
  if (colon < 0) return line;
  let params = line.slice(name.length, colon);
  const raw = line.slice(colon + 1);
  const declared = /;VALUE=([A-Za-z-]*)/i.exec(params)?.[1]?.toUpperCase();
  if (declared === 'PERIOD' || raw.includes('/')) {
    // A period is of date-times (RFC 5545 3.3.9); one of dates is read as its first day.
    const starts = raw.split(',').map((v) => v.trim().split('/')[0]!);
    if (name !== 'RDATE' || !starts.every((v) => DATE.test(v))) return line;
    notes.add('Periods of dates, read as their first days', place(number, excerpt(`${name}:${raw}`, 60)));
    return `${name}${params.replace(/;VALUE=[A-Za-z-]*/i, '')};VALUE=DATE:${starts.join(',')}`;
  }
  let values = raw.split(',').map((v) => basicForm(v.trim()));
  // Most lines are right as they are (a date-time, or dates declared so): nothing to do or note.
  if (!stamp && values.every((v) => (declared === 'DATE' ? DATE : DATE_TIME).test(v)) && values.join(',') === raw)
    return line;
  const where = place(number, excerpt(`${name}:${raw}`, 60));
  if ((name === 'RDATE' || name === 'EXDATE') && !values.every((v) => DATE.test(v) || DATE_TIME.test(v))) {
    notes.add('RDATE and EXDATE values that are no dates, dropped', where);
    return null;
  }
  if (values.join(',') !== raw)
    notes.add('Dates or times not in the form of RFC 5545 (2019-01-01T10:00), read as such', where);
  if (stamp) {
    // DTSTAMP and the like are UTC date-times only: a date is its midnight.
    values = values.map((v) => (DATE.test(v) ? `${v}T000000Z` : v));
  } else if (declared === 'DATE') {
    if (values.some((v) => DATE_TIME.test(v))) {
      notes.add('Date-times where VALUE=DATE was declared, read as the date (all-day)', where);
      values = values.map((v) => (DATE_TIME.test(v) ? v.slice(0, 8) : v));
    }
  } else if (values.every((v) => DATE.test(v))) {
    notes.add('Dates without VALUE=DATE, read as dates (all-day)', where);
    params = declared ? params.replace(/;VALUE=[A-Za-z-]*/i, ';VALUE=DATE') : `${params};VALUE=DATE`;
  } else if (values.some((v) => DATE.test(v))) {
    notes.add('Dates among date-times, read as their midnight', where);
    values = values.map((v) => (DATE.test(v) ? `${v}T000000` : v));
  }
  return `${name}${params}:${values.join(',')}`;
}
