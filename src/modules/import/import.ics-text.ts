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
 * - A line with neither `:` nor `;` (a description's newline written as is), which ical.js
 *   refuses, continues the line before it, as an escaped newline.
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

/** The content lines of a feed (or a part of it starting on line `firstLine`), unfolded and repaired, from its physical lines. */
export function contentLines(lines: readonly string[], notes: IcsNotes, firstLine = 1): string[] {
  const out: string[] = [];
  let current: string | null = null;
  let start = 0;
  let number = firstLine - 1;
  let blankBefore = false;
  for (const line of lines) {
    number += 1;
    if (line === '' || ((line[0] === ' ' || line[0] === '\t') && line.trim() === '')) {
      blankBefore = current !== null;
      continue;
    }
    if (line[0] === ' ' || line[0] === '\t') {
      if (current === null) {
        notes.add('Indented lines before any property, dropped', `line ${number}`);
        continue;
      }
      if (blankBefore)
        notes.add('Continuation lines after a blank line, read as continuing the line before it', `line ${number}`);
      current += line.slice(1);
      blankBefore = false;
      continue;
    }
    blankBefore = false;
    // ical.js refuses a line with neither `:` nor `;`; one with them it reads as some property.
    if (current !== null && !line.includes(':') && !line.includes(';')) {
      // A text value's newline written as is; between components there is no value to continue.
      if (/^(BEGIN|END):/i.test(current)) notes.add('Lines without a property name, dropped', `line ${number}`);
      else {
        notes.add(
          'Lines without a property name, read as a new line of the property before them',
          `line ${number}: "${excerpt(line, 40)}"`,
        );
        current += `\\n${line}`;
      }
      continue;
    }
    if (current !== null) pushRepaired(out, current, start, notes);
    current = line;
    start = number;
  }
  if (current !== null) pushRepaired(out, current, start, notes);
  return out;
}

/** A feed's text (or a part of it starting on line `firstLine`) as ical.js will read it: content lines, unfolded and repaired. */
export function tolerantIcs(text: string, notes: IcsNotes, firstLine = 1): string {
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

function pushRepaired(out: string[], line: string, number: number, notes: IcsNotes): void {
  const repaired = repairLine(line, number, notes);
  if (repaired !== null) out.push(repaired);
}

/**
 * One content line with its date values made readable (see the module's comment), or null when
 * it says nothing readable and would cost its event: an RRULE without FREQ (`RRULE:`, as one
 * holiday feed writes), an RDATE or EXDATE of values that are no dates (`VALUE=TIME:083000`).
 * Other lines as they are.
 */
export function repairLine(line: string, number: number, notes: IcsNotes): string | null {
  const name = NAME.exec(line.slice(0, 81))?.[0].toUpperCase();
  if (name === 'RRULE' || name === 'EXRULE') {
    if (/FREQ=/i.test(line.slice(0, 2000))) return line;
    notes.add('Rules without FREQ (an empty RRULE), dropped', `line ${number}: ${excerpt(line, 60)}`);
    return null;
  }
  const stamp = name !== undefined && STAMP_PROPERTIES.has(name);
  if (name === undefined || (!stamp && !DATE_PROPERTIES.has(name))) return line;
  const colon = valueStart(line, name.length);
  if (colon < 0) return line;
  let params = line.slice(name.length, colon);
  const raw = line.slice(colon + 1);
  const declared = /;VALUE=([A-Za-z-]*)/i.exec(params)?.[1]?.toUpperCase();
  if (declared === 'PERIOD' || raw.includes('/')) return line;
  let values = raw.split(',').map((v) => basicForm(v.trim()));
  // Most lines are right as they are (a date-time, or dates declared so): nothing to do or note.
  if (!stamp && values.every((v) => (declared === 'DATE' ? DATE : DATE_TIME).test(v)) && values.join(',') === raw)
    return line;
  const where = `line ${number}: ${excerpt(`${name}:${raw}`, 60)}`;
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
