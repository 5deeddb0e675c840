import { tzlib_get_ical_block, tzlib_get_timezones } from 'timezones-ical-library';
import { CRLF } from './ical.text.js';

/**
 * VTIMEZONE components from the time zone database (timezones-ical-library: the IANA rules as
 * RRULEs, aliases such as `US/Eastern` resolved to their canonical `TZID`). A zone the library
 * does not know, `UTC` and the fixed offsets the service accepts (`UTC+2`) get no VTIMEZONE: their
 * events are written in UTC form (`…Z`), which every client reads without one.
 */

export interface IcalZone {
  /** The TZID events refer to (canonical name), or null for UTC form. */
  tzid: string | null;
  /** The VTIMEZONE component, CRLF-terminated; '' for UTC form. */
  block: string;
}

const UTC_FORM: IcalZone = { tzid: null, block: '' };
let known: Set<string> | null = null;
const zones = new Map<string, IcalZone>();

/** The iCalendar form of an event's stored time zone name (looked up once per name). */
export function icalZone(name: string): IcalZone {
  let zone = zones.get(name);
  if (zone) return zone;
  known ??= new Set(tzlib_get_timezones() as string[]);
  zone = UTC_FORM;
  // UTC itself (the library maps it to Etc/UTC) and Etc/* offsets are plain UTC-form instants.
  if (known.has(name) && !/^(UTC|Etc\/.*|GMT.*|Zulu|Universal|UCT)$/i.test(name)) {
    const result = tzlib_get_ical_block(name);
    const [block, tzidLine] = Array.isArray(result) ? result : [];
    const tzid = tzidLine?.startsWith('TZID=') ? tzidLine.slice(5) : null;
    if (block && tzid) zone = { tzid, block: block.replace(/\r?\n/g, CRLF) + CRLF };
  }
  if (zones.size < 1000) zones.set(name, zone);
  return zone;
}

/** The VTIMEZONE components of the given zone names, each once, in a stable order. */
export function timezoneBlocks(names: Iterable<string>): string {
  const blocks = new Map<string, string>();
  for (const name of names) {
    const { tzid, block } = icalZone(name);
    if (tzid !== null) blocks.set(tzid, block);
  }
  return [...blocks.keys()]
    .sort()
    .map((tzid) => blocks.get(tzid)!)
    .join('');
}
