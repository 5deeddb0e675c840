import ICAL from 'ical.js';
import { OVERRIDE_PREFIX } from './import.types.js';
import { excerpt } from '../../lib/redact.js';
import { Problems } from '../../http/problems.js';
import { zoneOrUtc } from '../../lib/dates.js';
import { checkRecurrence, type RecurrencePolicy } from '../recurrence/recurrence.input.js';
import type { Recurrence } from '../recurrence/recurrence.rule.js';
import { compact, occurrenceWall, tzidOf, type Component, type FeedZones, type Time } from './import.ics-zones.js';
import { eventRecord, text, utcStamp } from './import.ics-event.js';
import type { IcsReading } from './import.ics.js';

/**
 * A recurring VEVENT (RRULE or RDATE) and the VEVENTs that override its occurrences (same UID, a
 * RECURRENCE-ID). A series this service can hold is one record with its `recurrence` (rule, extra
 * and excluded dates), and each override a record naming the occurrence it edits (or cancels);
 * a series it would refuse is expanded by ical.js into its occurrences up to the horizon instead.
 */

type IcalEvent = InstanceType<typeof ICAL.Event>;

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

/** The overrides of series `uid` (VEVENTs with its UID and a RECURRENCE-ID), each at its occurrence's wall time. */
function overridesOf(reading: IcsReading, uid: string, timezone: string | undefined, startLocal: string): Override[] {
  return (reading.overrides.get(uid) ?? []).flatMap((component): Override[] => {
    const recurrenceId = component.getFirstPropertyValue('recurrence-id');
    if (!(recurrenceId instanceof ICAL.Time)) return [];
    const wall = occurrenceWall(
      reading.zones,
      recurrenceId,
      tzidOf(component.getFirstProperty('recurrence-id')),
      timezone,
      startLocal,
    );
    return [{ component, recurrenceId, wall, cancelled: text(component, 'status').toUpperCase() === 'CANCELLED' }];
  });
}

/** The TZIDs of one VEVENT's start and end (its end's defaults to its start's). */
interface Tzids {
  start: string | undefined;
  end: string | undefined;
}

/**
 * A master VEVENT with a rule or extra dates. A series this service can hold is imported as one
 * (its rule, extra and excluded dates), then each override as an edit of the occurrence it
 * names: an exception of the series, as a client's. Otherwise its occurrences, each an event.
 */
export function readSeries(reading: IcsReading, vevent: Component, event: IcalEvent, uid: string, tzids: Tzids): void {
  const { zones, options, now } = reading;
  const series = eventRecord(reading, vevent, uid, event.startDate, event.endDate, tzids.start, tzids.end);
  const { local, timezone } = zones.zoned(event.startDate, tzids.start);
  const startLocal = event.startDate.isDate ? `${local} 00:00:00` : local;
  const overrides = overridesOf(reading, uid, timezone, startLocal);
  const policy = {
    max: options.recurrence?.max ?? 1000,
    horizonDays: options.recurrence?.horizonDays ?? 730,
    now: () => now,
  };
  if ('reason' in series) {
    reading.add(series);
    return;
  }
  const recurrence = seriesRecurrence(vevent, overrides, startLocal, timezone, zones, policy, reading.warnings);
  if (recurrence) {
    series.payload['recurrence'] = recurrence;
    reading.add(series);
    for (const override of overrides) readOverride(reading, uid, override, tzids);
    return;
  }
  readOccurrences(reading, vevent, event, uid, tzids, { overrides, timezone, startLocal });
}

/** An override of an occurrence of a series imported as one: the edit of that occurrence, or its cancellation. */
function readOverride(reading: IcsReading, uid: string, override: Override, tzids: Tzids): void {
  const sourceId = `${OVERRIDE_PREFIX}${uid}@${compact(override.recurrenceId)}`;
  const occurrence = { series: uid, recurrenceId: override.wall, cancelled: override.cancelled };
  if (override.cancelled) {
    reading.events.push({
      kind: 'event',
      sourceId,
      lang: reading.lang,
      modified: utcStamp(override.component),
      payload: {},
      occurrence,
    });
    return;
  }
  const moved = new ICAL.Event(override.component);
  const record = eventRecord(
    reading,
    override.component,
    sourceId,
    moved.startDate,
    moved.endDate,
    tzidOf(override.component.getFirstProperty('dtstart')) ?? tzids.start,
    tzidOf(override.component.getFirstProperty('dtend')) ?? tzids.end,
  );
  reading.add('reason' in record ? record : { ...record, occurrence });
}

/**
 * A series this service would refuse, as its occurrences from now to the horizon (at most
 * `maxOccurrences`), each override in place of the occurrence it names.
 */
function readOccurrences(
  reading: IcsReading,
  vevent: Component,
  event: IcalEvent,
  uid: string,
  tzids: Tzids,
  series: { overrides: Override[]; timezone: string | undefined; startLocal: string },
): void {
  const { zones, now, horizonDays, maxOccurrences } = reading;
  const horizon = ICAL.Time.fromJSDate(new Date(now.getTime() + horizonDays * 86_400_000), true);
  const from = ICAL.Time.fromJSDate(now, true);
  // Each override replaces the instance whose wall time in the series' zone its RECURRENCE-ID
  // names: ical.js knows only the zones a feed defines, so it would miss one written in UTC.
  const byWall = new Map(series.overrides.map((o) => [o.wall, o.component]));
  const iterator = event.iterator();
  let count = 0;
  for (let next = iterator.next(); next && count < maxOccurrences; next = iterator.next()) {
    if (next.compare(horizon) > 0) break;
    const override = byWall.get(occurrenceWall(zones, next, tzids.start, series.timezone, series.startLocal));
    const component = override ?? vevent;
    const { startDate, endDate } = override ? new ICAL.Event(override) : event.getOccurrenceDetails(next);
    if (endDate.compare(from) < 0) continue;
    const record = eventRecord(
      reading,
      component,
      `${uid}@${compact(next)}`,
      startDate,
      endDate,
      tzidOf(component.getFirstProperty('dtstart')) ?? tzids.start,
      tzidOf(component.getFirstProperty('dtend')) ?? tzids.end,
    );
    reading.add(record);
    if (!('reason' in record)) count += 1;
  }
  reading.warnings.push(
    `Series "${excerpt(text(vevent, 'summary'), 100)}" (${excerpt(uid, 100)}) imported as its ${count} occurrences in the next ${horizonDays} days.`,
  );
}
