import { createHash } from 'node:crypto';
import ICAL from 'ical.js';
import { IANAZone } from 'luxon';
import { OVERRIDE_PREFIX, type Skipped, type SourceRecord } from './import.types.js';
import { SourceError } from './source.http.js';
import { excerpt } from '../../lib/redact.js';
import { Problems } from '../../http/problems.js';
import { localToUtc, utcToLocal, zoneOrUtc } from '../../lib/dates.js';
import { checkRecurrence, type RecurrencePolicy } from '../recurrence/recurrence.input.js';
import type { Recurrence } from '../recurrence/recurrence.rule.js';

/**
 * An iCalendar feed (RFC 5545, as Google, Apple, Outlook and others write them) read as import
 * records: each VEVENT an event, LOCATION a venue, ORGANIZER an organizer, CATEGORIES categories.
 * Parsed by ical.js; times keep their wall clock and their zone (the service stores both), so
 * nothing is converted unless the zone is one only the feed knows (then through its VTIMEZONE, to
 * UTC). A series (RRULE) is one record with its `recurrence`, and each RECURRENCE-ID override one
 * record naming the occurrence it edits (or cancels); a series this service would refuse is
 * expanded by ical.js into its occurrences for the next year instead.
 */

type Component = InstanceType<typeof ICAL.Component>;
type Time = InstanceType<typeof ICAL.Time>;
type Property = InstanceType<typeof ICAL.Property>;
type Json = Record<string, unknown>;

export interface IcsOptions {
  lang: string;
  /** A category every event gets (its name). */
  category?: string | undefined;
  /** Overrides the feed's own name. */
  calendarName?: string | undefined;
  now?: Date;
  /** How far ahead a series this service would refuse is expanded into occurrences (days). */
  horizonDays?: number;
  /** At most this many occurrences of such a series. */
  maxOccurrences?: number;
  /** The service's own limits on a series (CAL_RECURRENCE_MAX, CAL_RECURRENCE_HORIZON_DAYS). */
  recurrence?: Pick<RecurrencePolicy, 'max' | 'horizonDays'>;
}

export interface IcsRead {
  records: SourceRecord[];
  skipped: Skipped[];
  warnings: string[];
  calendarName: string | null;
}

/**
 * Outlook's Windows zone names (CLDR windowsZones, the common ones) to IANA names.
 */
const WINDOWS_ZONES: Record<string, string> = {
  'W. Europe Standard Time': 'Europe/Berlin',
  'Romance Standard Time': 'Europe/Paris',
  'Central Europe Standard Time': 'Europe/Budapest',
  'Central European Standard Time': 'Europe/Warsaw',
  'GMT Standard Time': 'Europe/London',
  'Greenwich Standard Time': 'Atlantic/Reykjavik',
  'E. Europe Standard Time': 'Europe/Chisinau',
  'FLE Standard Time': 'Europe/Kiev',
  'GTB Standard Time': 'Europe/Bucharest',
  'Russian Standard Time': 'Europe/Moscow',
  'Eastern Standard Time': 'America/New_York',
  'Central Standard Time': 'America/Chicago',
  'Mountain Standard Time': 'America/Denver',
  'US Mountain Standard Time': 'America/Phoenix',
  'Pacific Standard Time': 'America/Los_Angeles',
  'Alaskan Standard Time': 'America/Anchorage',
  'Hawaiian Standard Time': 'Pacific/Honolulu',
  'Atlantic Standard Time': 'America/Halifax',
  'Canada Central Standard Time': 'America/Regina',
  'SA Pacific Standard Time': 'America/Bogota',
  'E. South America Standard Time': 'America/Sao_Paulo',
  'Argentina Standard Time': 'America/Buenos_Aires',
  'Tokyo Standard Time': 'Asia/Tokyo',
  'China Standard Time': 'Asia/Shanghai',
  'India Standard Time': 'Asia/Calcutta',
  'Singapore Standard Time': 'Asia/Singapore',
  'AUS Eastern Standard Time': 'Australia/Sydney',
  'New Zealand Standard Time': 'Pacific/Auckland',
  'South Africa Standard Time': 'Africa/Johannesburg',
  'Arabian Standard Time': 'Asia/Dubai',
  'Israel Standard Time': 'Asia/Jerusalem',
  'Turkey Standard Time': 'Europe/Istanbul',
  UTC: 'UTC',
  'Coordinated Universal Time': 'UTC',
};

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const day = (t: Time) => `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}`;
const wall = (t: Time) => `${day(t)} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;
const compact = (t: Time) => (t.isDate ? day(t).replace(/-/g, '') : wall(t).replace(/[-:]/g, '').replace(' ', 'T'));
const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Plain text as HTML: blank lines make paragraphs, single newlines breaks. */
function textToHtml(text: string): string {
  return text
    .trim()
    .split(/\n\s*\n/)
    .map((p) => `<p>${escapeHtml(p.trim()).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

/** The IANA zone a TZID names: itself, a Windows name, or the tail of a `/vendor/…/Europe/Paris` path. */
export function ianaZone(tzid: string): string | null {
  if (IANAZone.isValidZone(tzid)) return tzid;
  const windows = WINDOWS_ZONES[tzid.trim()];
  if (windows) return windows;
  const tail = /([A-Za-z_]+\/[A-Za-z_]+(?:\/[A-Za-z_]+)?)$/.exec(tzid)?.[1];
  return tail && IANAZone.isValidZone(tail) ? tail : null;
}

interface Zoned {
  /** Wall clock in `timezone` (or in the site's zone when timezone is undefined: a floating time). */
  local: string;
  timezone: string | undefined;
}

/** Reads feed-local zones (a TZID no IANA name matches) through the feed's VTIMEZONE. */
class FeedZones {
  private readonly zones = new Map<string, InstanceType<typeof ICAL.Timezone>>();
  readonly unknown = new Set<string>();

  constructor(calendar: Component) {
    for (const vtimezone of calendar.getAllSubcomponents('vtimezone')) {
      const tzid = String(vtimezone.getFirstPropertyValue('tzid') ?? '');
      if (tzid) this.zones.set(tzid, new ICAL.Timezone({ component: vtimezone, tzid }));
    }
  }

  /** A time of the feed as wall clock and zone; `tzid` is its TZID parameter, if any. */
  zoned(time: Time, tzid: string | undefined): Zoned {
    if (time.isDate) return { local: day(time), timezone: undefined };
    if (time.zone === ICAL.Timezone.utcTimezone) return { local: wall(time), timezone: 'UTC' };
    if (tzid === undefined) return { local: wall(time), timezone: undefined };
    const iana = ianaZone(tzid);
    if (iana) return { local: wall(time), timezone: iana };
    const zone = this.zones.get(tzid);
    if (!zone) {
      this.unknown.add(tzid);
      return { local: wall(time), timezone: undefined };
    }
    const utc = time.clone();
    utc.adjust(0, 0, 0, -zone.utcOffset(time));
    return { local: wall(utc), timezone: 'UTC' };
  }
}

const tzidOf = (prop: Property | null): string | undefined => {
  const value = prop?.getParameter('tzid');
  return typeof value === 'string' ? value : undefined;
};

function text(component: Component, name: string): string {
  const value = component.getFirstPropertyValue(name);
  return typeof value === 'string' ? value.trim() : '';
}

function utcStamp(component: Component): string | null {
  for (const name of ['last-modified', 'dtstamp']) {
    const value = component.getFirstPropertyValue(name);
    if (value instanceof ICAL.Time) return wall(value.convertToZone(ICAL.Timezone.utcTimezone));
  }
  return null;
}

/** The names of a CATEGORIES list (several properties, each a comma list). */
function categoriesOf(component: Component): string[] {
  return component
    .getAllProperties('categories')
    .flatMap((p) => p.getValues().map(String))
    .map((c) => c.trim())
    .filter(Boolean);
}

const keyOf = (value: string) => value.trim().replace(/\s+/g, ' ').toLowerCase();

/** A time of the feed as a wall time in `timezone` (the series' zone), whatever zone it was written in. */
function wallIn(zones: FeedZones, time: Time, tzid: string | undefined, timezone: string | undefined): string {
  const zoned = zones.zoned(time, tzid);
  if (time.isDate || zoned.timezone === timezone || zoned.timezone === undefined || timezone === undefined)
    return zoned.local;
  return utcToLocal(localToUtc(zoned.local, zoneOrUtc(zoned.timezone)), zoneOrUtc(timezone));
}

/** A RECURRENCE-ID (or RDATE, EXDATE) as the wall time of an occurrence of a series starting at `startLocal` in `timezone`. */
function occurrenceWall(
  zones: FeedZones,
  time: Time,
  tzid: string | undefined,
  timezone: string | undefined,
  startLocal: string,
): string {
  const local = wallIn(zones, time, tzid, timezone);
  return local.length === 10 ? `${local} ${startLocal.slice(11)}` : local;
}

/** The times of every RDATE or EXDATE property (a PERIOD counts by its start). */
function dateValues(vevent: Component, name: string): { time: Time; tzid: string | undefined }[] {
  return vevent.getAllProperties(name).flatMap((p) =>
    p.getValues().flatMap((v: unknown) => {
      const time = v instanceof ICAL.Period ? v.start : v;
      return time instanceof ICAL.Time ? [{ time, tzid: tzidOf(p) }] : [];
    }),
  );
}

/** An override of one occurrence of a series: its RECURRENCE-ID as the series' wall time, and whether it cancels it. */
interface Override {
  component: Component;
  recurrenceId: Time;
  wall: string;
  cancelled: boolean;
}

/**
 * The `recurrence` of a master VEVENT as this service takes it, or null (with a warning saying
 * why) when the service would refuse it (several RRULEs, an hourly rule, too many occurrences, an
 * excluded or edited first occurrence, which here is the series itself): such a series is
 * imported as its occurrences instead. Cancelled overrides are EXDATEs; the others are applied to
 * their occurrences once the series is written.
 */
function seriesRecurrence(
  vevent: Component,
  overrides: Override[],
  startLocal: string,
  timezone: string | undefined,
  zones: FeedZones,
  policy: RecurrencePolicy,
  warnings: string[],
): Recurrence | null {
  const rules = vevent.getAllProperties('rrule');
  const summary = excerpt(text(vevent, 'summary'), 100);
  if (rules.length !== 1) {
    warnings.push(
      `Series "${summary}" has ${rules.length === 0 ? 'only RDATEs' : 'several RRULEs'}: imported as its occurrences.`,
    );
    return null;
  }
  if (overrides.some((o) => !o.cancelled && o.wall === startLocal)) {
    warnings.push(
      `Series "${summary}" has its first occurrence edited on its own, which a series here cannot hold (the series is its first occurrence): imported as its occurrences.`,
    );
    return null;
  }
  const walls = (name: string) =>
    dateValues(vevent, name).map((d) => occurrenceWall(zones, d.time, d.tzid, timezone, startLocal));
  const cancelled = overrides.filter((o) => o.cancelled).map((o) => o.wall);
  const candidate = {
    rrule: String(rules[0]!.getFirstValue()),
    rdates: walls('rdate'),
    exdates: [...new Set([...walls('exdate'), ...cancelled])],
  };
  const problems = new Problems();
  const checked = checkRecurrence(candidate, zoneOrUtc(timezone ?? 'UTC'), startLocal, policy, problems);
  if (!checked) {
    warnings.push(
      `Series "${summary}" has a rule this service does not take (${excerpt(problems.reasons().join(' '))}): imported as its occurrences.`,
    );
    return null;
  }
  return checked.recurrence;
}

export function readIcs(input: string, options: IcsOptions): IcsRead {
  const head = input.replace(/^\uFEFF/, '').trimStart();
  if (!/^BEGIN:VCALENDAR/i.test(head))
    throw new SourceError(`Not an iCalendar file: it starts with "${excerpt(head, 30)}".`);
  let calendar: Component;
  try {
    calendar = new ICAL.Component(ICAL.parse(head));
  } catch (error) {
    // ical.js quotes the offending line, which may be anything up to the whole feed.
    throw new SourceError(`The iCalendar file does not parse: ${excerpt((error as Error).message)}.`);
  }
  const now = options.now ?? new Date();
  const horizonDays = options.horizonDays ?? 365;
  const maxOccurrences = options.maxOccurrences ?? 1000;
  const zones = new FeedZones(calendar);
  const warnings: string[] = [];
  const skipped: Skipped[] = [];
  const events: SourceRecord[] = [];
  const venues = new Map<string, SourceRecord>();
  const organizers = new Map<string, SourceRecord>();
  const categories = new Map<string, SourceRecord>();
  const lang = options.lang;

  const category = (name: string): string => {
    const sourceId = `category:${keyOf(name)}`;
    if (!categories.has(sourceId))
      categories.set(sourceId, { kind: 'category', sourceId, lang, modified: null, payload: { name } });
    return sourceId;
  };
  const venue = (component: Component): string | undefined => {
    const location = text(component, 'location');
    if (!location) return undefined;
    const sourceId = `location:${keyOf(location)}`;
    if (!venues.has(sourceId)) {
      // "Name\nStreet, City" (Apple), "Name, Street, City" (Google): the name first, then the address.
      const apple = component.getFirstProperty('x-apple-structured-location')?.getParameter('x-title');
      const lines = location
        .split(/\n/)
        .map((l) => l.trim())
        .filter(Boolean);
      const comma = location.indexOf(',');
      let name = lines.length > 1 ? lines[0]! : comma > 0 ? location.slice(0, comma).trim() : location;
      let address = lines.length > 1 ? lines.slice(1).join(', ') : comma > 0 ? location.slice(comma + 1).trim() : '';
      if (typeof apple === 'string' && apple.trim() && apple.trim() !== name) {
        name = apple.trim();
        address = location.replace(/\n/g, ', ');
      }
      const payload: Json = { venue: name, ...(address ? { address } : {}) };
      const geo = component.getFirstPropertyValue('geo');
      if (Array.isArray(geo) && geo.length === 2)
        Object.assign(payload, { geo_lat: Number(geo[0]), geo_lng: Number(geo[1]) });
      venues.set(sourceId, { kind: 'venue', sourceId, lang, modified: null, payload });
    }
    return sourceId;
  };
  const organizer = (component: Component): string | undefined => {
    const prop = component.getFirstProperty('organizer');
    if (!prop) return undefined;
    const email = String(prop.getFirstValue() ?? '')
      .replace(/^mailto:/i, '')
      .trim()
      .toLowerCase();
    const cn = prop.getParameter('cn');
    const name = typeof cn === 'string' && cn.trim() ? cn.trim() : email;
    if (!name) return undefined;
    const sourceId = `organizer:${email || keyOf(name)}`;
    if (!organizers.has(sourceId))
      organizers.set(sourceId, {
        kind: 'organizer',
        sourceId,
        lang,
        modified: null,
        payload: { organizer: name, ...(email.includes('@') ? { email } : {}) },
      });
    return sourceId;
  };

  /** One event record from a VEVENT, at `start`/`end` (an occurrence of a series, or its own). */
  const toEvent = (
    component: Component,
    sourceId: string,
    start: Time,
    end: Time,
    startTzid: string | undefined,
    endTzid: string | undefined,
  ): SourceRecord | Skipped => {
    const title = text(component, 'summary');
    if (!title) return { kind: 'event', sourceId, lang, reason: 'no SUMMARY (title)' };
    const status = text(component, 'status').toUpperCase();
    if (status === 'CANCELLED') return { kind: 'event', sourceId, lang, reason: 'cancelled in the source' };
    const allDay = start.isDate;
    const from = zones.zoned(start, startTzid);
    let until = zones.zoned(end, endTzid);
    if (allDay) {
      // DTEND of a date is exclusive (RFC 5545 3.6.1): the last day is the one before.
      const last = end.clone();
      last.adjust(-1, 0, 0, 0);
      until = { local: day(last) < from.local ? from.local : day(last), timezone: undefined };
    }
    const confidential = ['PRIVATE', 'CONFIDENTIAL'].includes(text(component, 'class').toUpperCase());
    const payload: Json = {
      title,
      status: status === 'TENTATIVE' ? 'draft' : confidential ? 'private' : 'publish',
      start_date: from.local,
      end_date: until.local,
    };
    if (allDay) payload['all_day'] = true;
    else if (from.timezone) payload['timezone'] = from.timezone;
    const html = component
      .getAllProperties('x-alt-desc')
      .find((p) => String(p.getParameter('fmttype') ?? '').toLowerCase() === 'text/html')
      ?.getFirstValue();
    const description =
      typeof html === 'string' && html.trim()
        ? html.trim()
        : text(component, 'description')
          ? textToHtml(text(component, 'description'))
          : '';
    if (description) payload['description'] = description;
    const url = text(component, 'url');
    if (/^https?:\/\//i.test(url)) payload['website'] = url;
    const image = [...component.getAllProperties('image'), ...component.getAllProperties('attach')]
      .map((p) => ({
        value: String(p.getFirstValue() ?? ''),
        type: String(p.getParameter('fmttype') ?? ''),
        image: p.name === 'image',
      }))
      .find(
        (a) =>
          /^https?:\/\//i.test(a.value) &&
          (a.image || a.type.startsWith('image/') || /\.(jpe?g|png|gif|webp)(\?|$)/i.test(a.value)),
      );
    if (image) payload['image'] = image.value;
    const categoryIds = [
      ...categoriesOf(component).map(category),
      ...(options.category ? [category(options.category)] : []),
    ];
    const venueId = venue(component);
    const organizerId = organizer(component);
    return {
      kind: 'event',
      sourceId,
      lang,
      modified: utcStamp(component),
      payload,
      links: {
        ...(venueId ? { venue: venueId } : {}),
        ...(organizerId ? { organizers: [organizerId] } : {}),
        categories: [...new Set(categoryIds)],
      },
    };
  };
  const add = (record: SourceRecord | Skipped) => ('reason' in record ? skipped.push(record) : events.push(record));

  const vevents = calendar.getAllSubcomponents('vevent');
  const overrides = new Map<string, Component[]>();
  for (const vevent of vevents) {
    if (vevent.hasProperty('recurrence-id') && vevent.hasProperty('uid'))
      overrides.set(text(vevent, 'uid'), [...(overrides.get(text(vevent, 'uid')) ?? []), vevent]);
  }
  const horizon = ICAL.Time.fromJSDate(new Date(now.getTime() + horizonDays * 86_400_000), true);
  const from = ICAL.Time.fromJSDate(now, true);

  for (const vevent of vevents) {
    let uid = text(vevent, 'uid');
    const start = vevent.getFirstPropertyValue('dtstart');
    if (!(start instanceof ICAL.Time)) {
      skipped.push({ kind: 'event', sourceId: uid || '?', lang, reason: 'no readable DTSTART' });
      continue;
    }
    if (!uid) {
      uid = `nouid-${createHash('sha256')
        .update(`${start.toString()}\n${text(vevent, 'summary')}`)
        .digest('hex')
        .slice(0, 16)}`;
      warnings.push(`An event without UID ("${excerpt(text(vevent, 'summary'), 100)}") was given the id ${uid}.`);
    }
    const startTzid = tzidOf(vevent.getFirstProperty('dtstart'));
    const endTzid = tzidOf(vevent.getFirstProperty('dtend')) ?? startTzid;
    // An override of a series is written with its occurrence; alone (no series here), as itself.
    if (vevent.hasProperty('recurrence-id')) {
      const event = new ICAL.Event(vevent);
      const master = vevents.some((v) => v !== vevent && text(v, 'uid') === uid && !v.hasProperty('recurrence-id'));
      if (!master)
        add(
          toEvent(vevent, `${uid}@${compact(event.recurrenceId)}`, event.startDate, event.endDate, startTzid, endTzid),
        );
      continue;
    }
    const event = new ICAL.Event(vevent);
    if (!event.isRecurring()) {
      add(toEvent(vevent, uid, event.startDate, event.endDate, startTzid, endTzid));
      continue;
    }
    // A series this service can hold is imported as one (its rule, extra and excluded dates), then
    // each override as an edit of the occurrence it names: an exception of the series, as a client's.
    const series = toEvent(vevent, uid, event.startDate, event.endDate, startTzid, endTzid);
    const { local, timezone } = zones.zoned(event.startDate, startTzid);
    const startLocal = event.startDate.isDate ? `${local} 00:00:00` : local;
    const seriesOverrides = (overrides.get(uid) ?? []).flatMap((component): Override[] => {
      const recurrenceId = component.getFirstPropertyValue('recurrence-id');
      if (!(recurrenceId instanceof ICAL.Time)) return [];
      const wall = occurrenceWall(
        zones,
        recurrenceId,
        tzidOf(component.getFirstProperty('recurrence-id')),
        timezone,
        startLocal,
      );
      return [{ component, recurrenceId, wall, cancelled: text(component, 'status').toUpperCase() === 'CANCELLED' }];
    });
    const policy = {
      max: options.recurrence?.max ?? 1000,
      horizonDays: options.recurrence?.horizonDays ?? 730,
      now: () => now,
    };
    if ('reason' in series) {
      add(series);
      continue;
    }
    const recurrence = seriesRecurrence(vevent, seriesOverrides, startLocal, timezone, zones, policy, warnings);
    if (recurrence) {
      series.payload['recurrence'] = recurrence;
      add(series);
      for (const override of seriesOverrides) {
        const sourceId = `${OVERRIDE_PREFIX}${uid}@${compact(override.recurrenceId)}`;
        const occurrence = { series: uid, recurrenceId: override.wall, cancelled: override.cancelled };
        if (override.cancelled) {
          events.push({
            kind: 'event',
            sourceId,
            lang,
            modified: utcStamp(override.component),
            payload: {},
            occurrence,
          });
          continue;
        }
        const moved = new ICAL.Event(override.component);
        const record = toEvent(
          override.component,
          sourceId,
          moved.startDate,
          moved.endDate,
          tzidOf(override.component.getFirstProperty('dtstart')) ?? startTzid,
          tzidOf(override.component.getFirstProperty('dtend')) ?? endTzid,
        );
        add('reason' in record ? record : { ...record, occurrence });
      }
      continue;
    }
    // Each override replaces the instance whose wall time in the series' zone its RECURRENCE-ID
    // names: ical.js knows only the zones a feed defines, so it would miss one written in UTC.
    const byWall = new Map(seriesOverrides.map((o) => [o.wall, o.component]));
    const iterator = event.iterator();
    let count = 0;
    for (let next = iterator.next(); next && count < maxOccurrences; next = iterator.next()) {
      if (next.compare(horizon) > 0) break;
      const override = byWall.get(occurrenceWall(zones, next, startTzid, timezone, startLocal));
      const component = override ?? vevent;
      const { startDate, endDate } = override ? new ICAL.Event(override) : event.getOccurrenceDetails(next);
      if (endDate.compare(from) < 0) continue;
      const record = toEvent(
        component,
        `${uid}@${compact(next)}`,
        startDate,
        endDate,
        tzidOf(component.getFirstProperty('dtstart')) ?? startTzid,
        tzidOf(component.getFirstProperty('dtend')) ?? endTzid,
      );
      add(record);
      if (!('reason' in record)) count += 1;
    }
    warnings.push(
      `Series "${excerpt(text(vevent, 'summary'), 100)}" (${excerpt(uid, 100)}) imported as its ${count} occurrences in the next ${horizonDays} days.`,
    );
  }
  for (const tzid of zones.unknown)
    warnings.push(
      `Time zone "${excerpt(tzid, 100)}" is neither an IANA name nor defined in the file: its times were read in the site's time zone.`,
    );
  const name = options.calendarName ?? (text(calendar, 'x-wr-calname') || text(calendar, 'name') || null);
  return {
    records: [...categories.values(), ...venues.values(), ...organizers.values(), ...events],
    skipped,
    warnings,
    calendarName: name,
  };
}
