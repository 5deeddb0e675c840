/**
 * A calendar's text cut into its parts by one pass over its lines, before any parser reads it: the
 * calendar itself (its properties, VTIMEZONEs and whatever else it holds) and each VEVENT as a
 * slice of the text with its line number and the few properties that say which revision of which
 * event it is. ical.js then parses the calendar once and each VEVENT on its own: no jCal of the
 * whole file is ever held (a 50,000-event feed is parsed one event at a time), and a VEVENT ical.js
 * cannot read costs that event, with its line, not the file.
 */

/** One VEVENT of the text: where it is and which revision of which event it says it is. */
export interface VeventBlock {
  /** Offsets of its BEGIN:VEVENT line and just after its END:VEVENT line in the scanned text. */
  start: number;
  end: number;
  /** Line number (from 1) of its BEGIN:VEVENT. */
  line: number;
  uid: string;
  /** The RECURRENCE-ID's value as written (no parameters), '' when it has none. */
  recurrenceId: string;
  sequence: number;
  /** LAST-MODIFIED and DTSTAMP as written (compared as text: both are UTC in practice). */
  lastModified: string;
  dtstamp: string;
  /** Has an END:VEVENT (an unclosed one runs to the end of its calendar and fails to parse). */
  closed: boolean;
}

export interface ScannedCalendar {
  /** The calendar without its VEVENTs (a VCALENDAR for ical.js, small whatever the feed's size). */
  calendarText: string;
  blocks: VeventBlock[];
}

/** Properties longer than this are cut before they are read: a UID or a date is never that long. */
const MAX_PROPERTY = 2000;

/** The value of a content line: after the first colon outside a quoted parameter. */
function valueOf(line: string): string {
  let quoted = false;
  for (let i = 0; i < line.length; i += 1) {
    const c = line[i];
    if (c === '"') quoted = !quoted;
    else if (c === ':' && !quoted) return line.slice(i + 1).trim();
  }
  return '';
}

/** The property name of a content line, upper case (up to its first `;` or `:`). */
function nameOf(line: string): string {
  let i = 0;
  while (i < line.length && line[i] !== ';' && line[i] !== ':') i += 1;
  return line.slice(0, i).trim().toUpperCase();
}

/** Reads the revision properties of a VEVENT's own (not its alarms') content lines into `block`. */
function note(block: VeventBlock, line: string): void {
  switch (nameOf(line)) {
    case 'UID':
      block.uid = valueOf(line);
      break;
    case 'RECURRENCE-ID':
      block.recurrenceId = valueOf(line).toUpperCase();
      break;
    case 'SEQUENCE': {
      const value = valueOf(line);
      block.sequence = /^\d{1,9}$/.test(value) ? Number(value) : 0;
      break;
    }
    case 'LAST-MODIFIED':
      block.lastModified = valueOf(line);
      break;
    case 'DTSTAMP':
      block.dtstamp = valueOf(line);
      break;
  }
}

/**
 * Cuts `text` (a VCALENDAR, folded or not, CRLF or LF) into its calendar and its VEVENTs. Lines
 * are found with indexOf, never a regular expression over the text; a folded line is unfolded
 * only for the few properties read here, and only up to MAX_PROPERTY characters.
 */
export function scanCalendar(text: string): ScannedCalendar {
  const calendarLines: string[] = [];
  const blocks: VeventBlock[] = [];
  let depth = 0;
  let block: VeventBlock | null = null;
  /** Depth of the open VEVENT's own lines (its VALARMs are deeper). */
  let blockDepth = 0;
  let pending = '';
  let lineNumber = 0;
  const flush = () => {
    if (block && pending) note(block, pending);
    pending = '';
  };
  const close = (at: number, closed: boolean) => {
    flush();
    if (block) blocks.push({ ...block, end: at, closed });
    block = null;
  };
  for (let at = 0; at < text.length;) {
    let next = text.indexOf('\n', at);
    if (next === -1) next = text.length;
    const raw = text.slice(at, next);
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const lineStart = at;
    at = next + 1;
    lineNumber += 1;
    const folded = line.startsWith(' ') || line.startsWith('\t');
    if (block && folded) {
      if (pending && pending.length < MAX_PROPERTY) pending += line.slice(1, MAX_PROPERTY);
      continue;
    }
    const head = folded ? '' : line.slice(0, 40).trim().toUpperCase();
    if (head.startsWith('BEGIN:')) {
      depth += 1;
      if (!block && head === 'BEGIN:VEVENT') {
        block = {
          start: lineStart,
          end: lineStart,
          line: lineNumber,
          uid: '',
          recurrenceId: '',
          sequence: 0,
          lastModified: '',
          dtstamp: '',
          closed: false,
        };
        blockDepth = depth;
        continue;
      }
    } else if (head.startsWith('END:')) {
      depth -= 1;
      if (block && head === 'END:VEVENT' && depth === blockDepth - 1) {
        close(Math.min(at, text.length), true);
        continue;
      }
      // Another component ending inside a VEVENT (the calendar) ends it too, unclosed: ical.js
      // will say what is missing, for that event alone.
      if (block && depth < blockDepth) {
        close(lineStart, false);
        depth -= 1;
      }
    }
    if (block) {
      flush();
      if (depth === blockDepth) pending = line.slice(0, MAX_PROPERTY);
    } else calendarLines.push(line);
  }
  close(text.length, false);
  return { calendarText: calendarLines.join('\r\n'), blocks };
}

/** The text of one VEVENT, for ical.js. */
export const blockText = (text: string, block: VeventBlock): string =>
  block.closed ? text.slice(block.start, block.end) : `${text.slice(block.start, block.end)}\r\nEND:VEVENT`;

/** Of two revisions of one event (or one occurrence), whether `b` replaces `a`. */
function newer(a: VeventBlock, b: VeventBlock): boolean {
  if (a.sequence !== b.sequence) return b.sequence > a.sequence;
  if (a.lastModified !== b.lastModified) return b.lastModified > a.lastModified;
  if (a.dtstamp !== b.dtstamp) return b.dtstamp > a.dtstamp;
  return true; // the last in the file
}

/**
 * The VEVENTs that count, in file order: of several with one UID (and one RECURRENCE-ID), the
 * latest revision (RFC 5546: the highest SEQUENCE; then the latest LAST-MODIFIED, DTSTAMP, and the
 * last in the file), so a feed holding old and new versions of an event imports one. VEVENTs
 * without a UID are each their own. `dropped` counts the older revisions left out.
 */
export function latestRevisions(blocks: VeventBlock[]): { kept: VeventBlock[]; dropped: number } {
  const latest = new Map<string, VeventBlock>();
  for (const block of blocks) {
    if (!block.uid) continue;
    const key = `${block.uid}\n${block.recurrenceId}`;
    const known = latest.get(key);
    if (!known || newer(known, block)) latest.set(key, block);
  }
  const kept = blocks.filter((b) => !b.uid || latest.get(`${b.uid}\n${b.recurrenceId}`) === b);
  return { kept, dropped: blocks.length - kept.length };
}
