/** Zone abbreviations ('CET'/'CEST', 'EST'/'EDT') for a local time, as PHP's `T` format writes them. */
import { LRUCache } from 'lru-cache';
import { DAY, instantOf, offsetAt, storedWall } from './convert.js';
import type { Zone } from './zones.js';

/**
 * ICU has no tz-database abbreviations: it names a zone only in the locales where that name is in common use
 * ('CET' in en-GB, 'EST' in en-US, 'JST' in ja) and says 'GMT+1' elsewhere. So ask a few locales, in order, and
 * keep the first real abbreviation.
 */
const ABBR_LOCALES = ['en-US', 'en-CA', 'en-GB', 'en-IE', 'en-AU', 'en-NZ', 'en-IN', 'en-ZA', 'en-SG', 'en-HK', 'ja'];
const GMT_STYLE = /^(GMT|UTC)[+-]/;
const formatters = new Map<string, Intl.DateTimeFormat>();
const abbreviations = new LRUCache<string, string>({ max: 1000 });

function zoneNameIn(locale: string, ianaName: string, millis: number): string {
  const key = `${locale}|${ianaName}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, { timeZone: ianaName, timeZoneName: 'short' });
    formatters.set(key, formatter);
  }
  return formatter.formatToParts(millis).find((part) => part.type === 'timeZoneName')?.value ?? '';
}

function firstAbbreviation(ianaName: string, millis: number): string {
  for (const locale of ABBR_LOCALES) {
    const name = zoneNameIn(locale, ianaName, millis);
    if (!GMT_STYLE.test(name)) return name;
  }
  return zoneNameIn(ABBR_LOCALES[0]!, ianaName, millis);
}

/**
 * Abbreviation of the zone at that local time, DST-aware: 'CET'/'CEST', 'EST'/'EDT', 'UTC'. Fixed offsets are
 * named as the caller wrote them (`tzName`, e.g. 'UTC+2'). Zones without a common abbreviation get ICU's
 * 'GMT+5:45' style.
 */
export function timezoneAbbr(local: string, zone: Zone, tzName: string): string {
  if (zone.type !== 'iana') return tzName.trim() || zone.name;
  const millis = instantOf(storedWall(local), zone);
  // Asking ICU takes a few locales at several microseconds each. A zone's name changes with its
  // offset, and sometimes without (Metlakatla's PST and AKDT in 2019), but never within a day.
  const key = `${zone.name}|${offsetAt(zone, millis)}|${Math.floor(millis / DAY)}`;
  let abbr = abbreviations.get(key);
  if (abbr === undefined) {
    abbr = firstAbbreviation(zone.name, millis);
    abbreviations.set(key, abbr);
  }
  return abbr;
}
