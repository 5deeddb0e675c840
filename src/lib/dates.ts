/**
 * Dates and time zones the way The Events Calendar (WordPress/PHP) handles them.
 *
 * Stored and returned dates are wall-clock strings `YYYY-MM-DD HH:MM:SS` (no `T`, no offset), either in the
 * event's zone ("local") or in UTC. Client-sent dates are read like PHP's `strtotime()`: a hand-written grammar
 * covers the forms WordPress clients send, with PHP's semantics; chrono-node reads the rest.
 *
 * The code lives in src/lib/dates/, one file per job: zones.ts (zone names), convert.ts (stored strings and the
 * conversions between zones), abbreviations.ts ('CET'/'CEST'), natural.ts and grammar.ts (client input). Modules
 * import the public names through this file, so they do not depend on how that folder is split.
 */
export { isValidTimezone, parseZone, zoneOrUtc, type Zone } from './dates/zones.js';
export {
  DAY,
  dateDetails,
  formatSql,
  localToUtc,
  shiftDays,
  storedWall,
  toIsoWithOffset,
  utcToLocal,
} from './dates/convert.js';
export { timezoneAbbr } from './dates/abbreviations.js';
export { DATE_MAX_LENGTH, parseDateInput, parseDateTime } from './dates/natural.js';
