import ICAL from 'ical.js';
import { OVERRIDE_PREFIX } from './import.types.js';
import { excerpt } from '../../lib/redact.js';
import { Problems } from '../../http/problems.js';
import { zoneOrUtc } from '../../lib/dates.js';
import { checkRecurrence, type CheckedRecurrence, type RecurrencePolicy } from '../recurrence/recurrence.input.js';
import { expand, SPAN_YEARS, withCount } from '../recurrence/recurrence.rule.js';
import { compact, occurrenceWall, tzidOf, type Component, type Time } from './import.ics-zones.js';
import { eventRecord, text, utcStamp } from './import.ics-event.js';
import type { IcsReading } from './import.ics.js';

/**
 * A recurring VEVENT (RRULE or RDATE) and the VEVENTs that override its occurrences (same UID, a
 * RECURRENCE-ID). Kept as one or more series of this service whenever it can hold them: the rule
 * with its extra and excluded dates; a first occurrence excluded or edited moves the start to the
 * first one that remains (the edited one is an event of its own); RDATEs alone are a series of one
 * rule occurrence and its extra dates; several RRULEs are several series sharing the UID. Each
 * override is a record naming the occurrence it edits (or cancels); one at a date no rule makes
 * (Google's "this and following" split) an event of its own. A series it cannot hold is expanded
 * by ical.js into its occurrences, within the bounds of ExpansionBudget, over its whole span.
 */

type IcalEvent = InstanceType<typeof ICAL.Event>;

/** Rule instances one series' expansion may walk, and the whole feed's expansions together. */
const WALK_PER_SERIES = 50_000;
const WALK_PER_FEED = 1_000_000;
/** Wall-clock bounds of one series' expansion and of all of a feed's (ms). */
const SERIES_MS = 2_000;
const FEED_MS = 20_000;
/** A rule repeating more often than hourly is not a series of events (see fineGrained). */
const FINEST_INTERVAL_S = 3_600;
/** Occurrences of a reshaped series compared with ical.js's own expansion before it is kept. */
const CHECKED_OCCURRENCES = 200;

/**
 * What expanding series into occurrences may still walk in one feed. ical.js walks a rule from its
 * start, instance by instance: a FREQ=HOURLY rule from 2000 has 230,000 instances before today.
 * Every walk is bounded by the instances it visits (kept or not) and by time, so no rule can hold
 * the import; a walk cut short says why.
 */
export class ExpansionBudget {
  walked = 0;
  private readonly deadline = Date.now() + FEED_MS;

  /** Visits the occurrences of a series in order until `visit` says stop (null) or a bound does (why). */
  walk(iterator: { next(): Time | null }, visit: (time: Time) => boolean): string | null {
    const deadline = Math.min(this.deadline, Date.now() + SERIES_MS);
    for (let walked = 1, next = iterator.next(); next; walked += 1, next = iterator.next()) {
      this.walked += 1;
      if (walked > WALK_PER_SERIES) return `its expansion stopped after ${WALK_PER_SERIES} instances`;
      if (this.walked > WALK_PER_FEED) return `the feed's expansions stopped after ${WALK_PER_FEED} instances in all`;
      if (walked % 256 === 0 && Date.now() > deadline)
        return `its expansion stopped after ${SERIES_MS / 1000} s (${walked} instances)`;
      if (!visit(next)) return null;
    }
    return null;
  }
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

/**
 * RDATE;VALUE=PERIOD as the dates the periods start on (RFC 5545 3.8.5.2: the period's start is
 * the occurrence), which is what ical.js's expansion can read (it calls a Time's methods on them).
 */
export function periodsAsDates(vevent: Component): void {
  for (const property of vevent.getAllProperties('rdate')) {
    const values = property.getValues() as unknown[];
    if (!values.some((v) => v instanceof ICAL.Period)) continue;
    const starts = values.map((v) => (v instanceof ICAL.Period ? v.start : v));
    property.removeParameter('value');
    property.resetType(starts.every((v) => v instanceof ICAL.Time && v.isDate) ? 'date' : 'date-time');
    property.setValues(starts as never);
  }
}

/**
 * The occurrences of a series in order, as RFC 5545 makes them: DTSTART first, then every RRULE's
 * instances and the RDATEs, less the EXDATEs, each once; ordered and compared by their wall time
 * in the series' zone. (ical.js's own expansion stops at the first of several RRULEs to end.)
 */
class Occurrences {
  private readonly rules: { iterator: { next(): Time | null }; head: Time | null; wall: string }[];
  private readonly rdates: { time: Time; wall: string }[];
  private readonly exdates: Set<string>;
  private start: Time | null;
  private last = '';

  constructor(context: SeriesContext) {
    const { vevent, event } = context;
    this.start = event.startDate;
    this.exdates = new Set(datesOf(context, 'exdate').map((d) => d.wall));
    this.rdates = datesOf(context, 'rdate').sort((a, b) => (a.wall < b.wall ? 1 : -1)); // latest first: popped from the end
    this.rules = vevent.getAllProperties('rrule').map((p) => {
      const iterator = (p.getFirstValue() as InstanceType<typeof ICAL.Recur>).iterator(event.startDate) as {
        next(): Time | null;
      };
      return { iterator, head: null, wall: '' };
    });
    for (const rule of this.rules) this.advance(rule, context);
    this.context = context;
  }

  private readonly context: SeriesContext;

  private advance(
    rule: { iterator: { next(): Time | null }; head: Time | null; wall: string },
    context: SeriesContext,
  ) {
    // The library's iterator hands back one Time it moves on: each head is a copy.
    rule.head = rule.iterator.next()?.clone() ?? null;
    rule.wall = rule.head ? wallOf(context, rule.head, context.tzids.start) : '';
  }

  next(): Time | null {
    for (;;) {
      let time: Time | null = null;
      let wall = '';
      if (this.start) {
        time = this.start;
        wall = this.context.startLocal;
        this.start = null;
      } else {
        const rule = this.rules.filter((r) => r.head).sort((a, b) => (a.wall < b.wall ? -1 : 1))[0];
        const rdate = this.rdates[this.rdates.length - 1];
        if (rule && (!rdate || rule.wall <= rdate.wall)) {
          [time, wall] = [rule.head, rule.wall];
          this.advance(rule, this.context);
        } else if (rdate) {
          [time, wall] = [rdate.time, rdate.wall];
          this.rdates.pop();
        } else return null;
      }
      if (wall <= this.last || this.exdates.has(wall)) {
        // An instance met again (DTSTART, two rules, an RDATE on an instance) or excluded.
        if (wall > this.last) this.last = wall;
        continue;
      }
      this.last = wall;
      return time;
    }
  }
}

/** A time of the series (an instance, an RDATE, an EXDATE) as a wall time in its zone. */
const wallOf = (context: SeriesContext, time: Time, tzid: string | undefined): string =>
  occurrenceWall(context.reading.zones, time, tzid, context.timezone, context.startLocal);

/** The RDATEs or EXDATEs of the series, each with its wall time in the series' zone. */
const datesOf = (context: SeriesContext, name: 'rdate' | 'exdate'): { time: Time; wall: string }[] =>
  dateValues(context.vevent, name).map((d) => ({ time: d.time, wall: wallOf(context, d.time, d.tzid) }));

/** An override of one occurrence of a series: its RECURRENCE-ID as the series' wall time, and whether it cancels it. */
interface Override {
  component: Component;
  recurrenceId: Time;
  wall: string;
  cancelled: boolean;
}

/** The TZIDs of one VEVENT's start and end (its end's defaults to its start's). */
interface Tzids {
  start: string | undefined;
  end: string | undefined;
}

/** The series being read: its VEVENT and how its times are written. */
interface SeriesContext {
  reading: IcsReading;
  vevent: Component;
  event: IcalEvent;
  uid: string;
  tzids: Tzids;
  timezone: string | undefined;
  startLocal: string;
  overrides: Override[];
  policy: RecurrencePolicy;
  label: string;
}

/**
 * A series without an end refused for its number of occurrences from the import's since (a daily
 * meeting since 2015 makes about 1,460 from two years back to two years ahead, over
 * CAL_RECURRENCE_MAX): kept as a series from the earliest day that keeps it under the cap, found
 * by halving the days between that since and today (the occurrences made only fall as since moves
 * later), with a warning. Null when even today's since does not make it acceptable.
 */
function mostHistory(
  context: SeriesContext,
  attempt: (policy: RecurrencePolicy) => CheckedRecurrence | string,
): CheckedRecurrence | null {
  const { policy } = context;
  if (policy.since === undefined) return null;
  const dayOf = (n: number) => new Date(n * 86_400_000).toISOString().slice(0, 10);
  const asked = Math.floor(Date.parse(`${policy.since}T00:00:00Z`) / 86_400_000);
  const today = Math.floor(policy.now().getTime() / 86_400_000);
  const at = (n: number) => attempt({ ...policy, since: dayOf(n) });
  let best = at(today);
  if (typeof best === 'string' || asked >= today) return null;
  // best is accepted from day `high`; no day before `low` is.
  let low = asked + 1;
  let high = today;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    const checked = at(middle);
    if (typeof checked === 'string') low = middle + 1;
    else [best, high] = [checked, middle];
  }
  context.reading.warnings.push(
    `${context.label} has more than ${policy.max} occurrences from ${policy.since}: kept as a series from ${dayOf(high)}, the most history the cap allows.`,
  );
  return best;
}

/** One series of this service planned from the VEVENT: its start and its checked recurrence. */
interface PlannedSeries {
  sourceId: string;
  startLocal: string;
  checked: CheckedRecurrence;
  /** Its occurrences through the latest override, once asked (generates). */
  made?: Set<string>;
}

/** A series this service will hold, or why not (then it is expanded into its occurrences). */
type Plan = { series: PlannedSeries[]; standalone: Override[] } | { refused: string };

/**
 * The overrides of the series (VEVENTs with its UID and a RECURRENCE-ID), each at its occurrence's
 * wall time. One whose times ical.js cannot read is a skip of its own: it costs that override, not
 * its series.
 */
function overridesOf(reading: IcsReading, uid: string, timezone: string | undefined, startLocal: string): Override[] {
  return reading.overridesOf(uid).flatMap((component): Override[] => {
    try {
      const recurrenceId = component.getFirstPropertyValue('recurrence-id');
      if (!(recurrenceId instanceof ICAL.Time)) return [];
      const moved = new ICAL.Event(component);
      void [moved.startDate, moved.endDate]; // read now, so a broken value throws here
      const wall = occurrenceWall(
        reading.zones,
        recurrenceId,
        tzidOf(component.getFirstProperty('recurrence-id')),
        timezone,
        startLocal,
      );
      return [{ component, recurrenceId, wall, cancelled: text(component, 'status').toUpperCase() === 'CANCELLED' }];
    } catch (error) {
      const reason = `override of ${excerpt(uid, 100)} unreadable: ${excerpt(error instanceof Error ? error.message : String(error))}`;
      reading.add({ kind: 'event', sourceId: uid, lang: reading.lang, reason, line: reading.lineOf(component) });
      return [];
    }
  });
}

/** The interval in seconds of a SECONDLY or MINUTELY rule, else null. */
function fineGrained(rule: string): number | null {
  const freq = /(?:^|;)FREQ=(SECONDLY|MINUTELY)(?:;|$)/i.exec(rule)?.[1]?.toUpperCase();
  if (!freq) return null;
  const interval = Number(/(?:^|;)INTERVAL=(\d{1,9})(?:;|$)/i.exec(rule)?.[1] ?? 1) || 1;
  return freq === 'SECONDLY' ? interval : interval * 60;
}

/**
 * A master VEVENT with a rule or extra dates. Kept as series of this service when it can hold
 * them, then each override as an edit of the occurrence it names; otherwise its occurrences, each
 * an event. A rule repeating more often than hourly (every second, every 15 minutes) is imported
 * as its first occurrence alone, with a warning: thousands of one-second events are no calendar.
 */
export function readSeries(reading: IcsReading, vevent: Component, event: IcalEvent, uid: string, tzids: Tzids): void {
  const { zones, options, now } = reading;
  periodsAsDates(vevent);
  const { local, timezone, feedZone } = zones.zoned(event.startDate, tzids.start);
  const startLocal = event.startDate.isDate ? `${local} 00:00:00` : local;
  const rules = vevent.getAllProperties('rrule').map((p) => String(p.getFirstValue()));
  const label = `Series "${excerpt(text(vevent, 'summary'), 100)}" (${excerpt(uid, 100)})`;
  const fine = rules.map(fineGrained).find((s) => s !== null && s < FINEST_INTERVAL_S);
  if (fine !== undefined && fine !== null) {
    reading.warnings.push(
      `${label} repeats every ${fine < 60 ? `${fine} s` : `${fine / 60} min`}, more often than hourly: imported as its first occurrence only.`,
    );
    reading.add(eventRecord(reading, vevent, uid, event.startDate, event.endDate, tzids.start, tzids.end));
    return;
  }
  const context: SeriesContext = {
    reading,
    vevent,
    event,
    uid,
    tzids,
    timezone,
    startLocal,
    overrides: overridesOf(reading, uid, timezone, startLocal),
    policy: {
      max: options.recurrence?.max ?? 1000,
      horizonDays: options.recurrence?.horizonDays ?? 730,
      since: options.recurrence?.since,
      now: () => now,
    },
    label,
  };
  // A zone only the file defines is read in UTC: a rule kept in UTC would move by an hour at its changes.
  const plan: Plan = feedZone
    ? {
        refused: `is written in a time zone only the file defines ("${excerpt(feedZone, 60)}", no IANA zone has its rules)`,
      }
    : planSeries(context, rules);
  if ('refused' in plan) {
    reading.warnings.push(`${label} ${plan.refused}: imported as its occurrences.`);
    readOccurrences(context);
    return;
  }
  const byStart = new Map(plan.series.map((s) => [s.sourceId, s]));
  let before = 0;
  for (const series of plan.series) {
    const { start, end } = timesAt(context, series.startLocal);
    const record = eventRecord(reading, vevent, series.sourceId, start, end, tzids.start, tzids.end);
    if (!('reason' in record)) record.payload['recurrence'] = series.checked.recurrence;
    reading.add(record);
  }
  readEarlyDates(context);
  for (const override of context.overrides) {
    if (plan.standalone.includes(override)) {
      if (!override.cancelled) readAlone(context.reading, override.component, context.uid, context.tzids);
      continue;
    }
    const owner = plan.series.find((s) => generates(s, override.wall, context.overrides)) ?? byStart.get(uid)!;
    const { recurrence } = owner.checked;
    if (recurrence.since === undefined || override.wall >= recurrence.since || override.wall === owner.startLocal) {
      readOverride(reading, owner.sourceId, override, tzids);
      continue;
    }
    // The service makes no occurrence before the import's since, so there is none to edit: the
    // rule leaves that date out (the feeds then say the series as the source does) and an edited
    // occurrence is an event of its own, at its own time with its own text.
    before += 1;
    recurrence.exdates = [...new Set([...recurrence.exdates, override.wall])].sort();
    if (!override.cancelled) readAlone(reading, override.component, uid, tzids);
  }
  if (before > 0)
    reading.warnings.push(
      `${label}: ${before} override(s) of occurrences before the import's since: their dates left out of the rule, the edited ones imported as events of their own.`,
    );
}

/** Whether a rule of the VEVENT has no end (no COUNT, no UNTIL): its occurrences are made from the import's since. */
const isEndless = (vevent: Component): boolean =>
  vevent.getAllProperties('rrule').some((p) => !/(?:^|;)(COUNT|UNTIL)=/i.test(String(p.getFirstValue())));

/**
 * RDATEs before DTSTART (Google's birthdays write the earlier years so): RFC 5545 makes them
 * occurrences, but a series of this service starts at its first, so each is an event of its own
 * (`uid@date`), with the series' text and length. An override naming one is read in its place
 * (readAlone); an endless series' dates before the import's since are left out, as its own are.
 */
function readEarlyDates(context: SeriesContext): void {
  const { reading, vevent, uid, tzids, startLocal, overrides, label } = context;
  const since = isEndless(vevent) && context.policy.since ? `${context.policy.since} 00:00:00` : null;
  const excluded = new Set(datesOf(context, 'exdate').map((d) => d.wall));
  // Each date by its wall time, named by its own value as an occurrence is (`uid@20131210`, `uid@20131210T100000`).
  const dates = new Map<string, Time>();
  for (const { time, wall } of datesOf(context, 'rdate')) {
    if (
      wall < startLocal &&
      !excluded.has(wall) &&
      !overrides.some((o) => o.wall === wall) &&
      (since === null || wall >= since)
    )
      dates.set(wall, time);
  }
  const walls = [...dates.keys()].sort();
  for (const wall of walls) {
    const { start, end } = timesAt(context, wall);
    const id = `${uid}@${compact(dates.get(wall)!)}`;
    reading.add(eventRecord(reading, vevent, id, start, end, tzids.start, tzids.end));
  }
  if (walls.length > 0)
    reading.warnings.push(`${label}: ${walls.length} RDATE(s) before its DTSTART imported as events of their own.`);
}

/**
 * Whether a planned series has an occurrence at `wall` (before EXDATEs: a cancelled override names
 * an excluded one). Its occurrences are walked once, by the service's own expansion, through the
 * latest date an override names.
 */
function generates(series: PlannedSeries, wall: string, overrides: Override[]): boolean {
  if (wall < series.startLocal) return false;
  if (!series.made) {
    const through = overrides.reduce((latest, o) => (o.wall > latest ? o.wall : latest), series.startLocal);
    const { checked } = series;
    const recurrence = { ...checked.recurrence, exdates: [] };
    series.made = new Set(expand(checked.rule, recurrence, series.startLocal, through, WALK_PER_SERIES).starts);
  }
  return series.made.has(wall);
}

/** The start and end of an occurrence of the series at `wall` (its wall time in the series' zone). */
function timesAt(context: SeriesContext, wall: string): { start: Time; end: Time } {
  const { event, startLocal } = context;
  if (wall === startLocal) return { start: event.startDate, end: event.endDate };
  const [date, clock] = wall.split(' ') as [string, string];
  const start = ICAL.Time.fromData({
    year: Number(date.slice(0, 4)),
    month: Number(date.slice(5, 7)),
    day: Number(date.slice(8, 10)),
    hour: Number(clock.slice(0, 2)),
    minute: Number(clock.slice(3, 5)),
    second: Number(clock.slice(6, 8)),
    isDate: event.startDate.isDate,
  });
  // A wall time in UTC (the series' zone was read through the feed's VTIMEZONE) stays UTC.
  if (context.timezone === 'UTC') start.zone = ICAL.Timezone.utcTimezone;
  const end = start.clone();
  end.addDuration(event.duration);
  return { start, end };
}

/**
 * The series of this service the VEVENT becomes, or why it cannot be one. The first occurrence
 * excluded (Google writes an EXDATE when the first meeting is deleted) or edited moves the start
 * to the first that remains; RDATEs alone hang on a rule of one occurrence; each further RRULE is
 * a series of its own from its first instance. Any such reshaping is kept only if its occurrences
 * are those the original makes (the first CHECKED_OCCURRENCES of them, walked by ical.js's rules).
 */
function planSeries(context: SeriesContext, written: string[]): Plan {
  const { reading, startLocal, timezone, overrides, uid } = context;
  // COUNT and UNTIL together (RFC 5545 forbids it, some programs write it): the COUNT, if the
  // occurrences then are the same (the comparison below says).
  const rules = written.map((r) =>
    /(?:^|;)COUNT=/i.test(r) && /(?:^|;)UNTIL=/i.test(r)
      ? r
          .split(';')
          .filter((part) => !/^UNTIL=/i.test(part))
          .join(';')
      : r,
  );
  const walls = (name: 'rdate' | 'exdate') => datesOf(context, name).map((d) => d.wall);
  const rdates = walls('rdate');
  const cancelled = new Set(overrides.filter((o) => o.cancelled).map((o) => o.wall));
  const exdates = [...new Set([...walls('exdate'), ...cancelled])];
  const editedFirst = overrides.find((o) => !o.cancelled && o.wall === startLocal);
  const gone = new Set([...exdates, ...(editedFirst ? [startLocal] : [])]);
  const reshaped = rules.length !== 1 || gone.has(startLocal) || rules.some((r, i) => r !== written[i]);
  const zone = zoneOrUtc(timezone ?? 'UTC');

  // The first occurrence that remains, where the (first) series starts.
  let start = startLocal;
  if (gone.has(startLocal)) {
    let found: string | null = null;
    const stopped = reading.budget.walk(new Occurrences(context), (time) => {
      const wall = occurrenceWall(reading.zones, time, context.tzids.start, timezone, startLocal);
      if (wall <= startLocal || gone.has(wall)) return true;
      found = wall;
      return false;
    });
    if (found === null) return { refused: stopped ?? 'has no occurrence left' };
    start = found;
    if (rdates.includes(start)) return { refused: 'has its first remaining occurrence on an RDATE' };
  }
  const check = (rrule: string, from: string, extra: string[], excluded: string[]): CheckedRecurrence | string => {
    const candidate = { rrule, rdates: extra, exdates: excluded.filter((d) => d > from) };
    const attempt = (policy: RecurrencePolicy) => {
      const problems = new Problems();
      const checked = checkRecurrence(candidate, zone, from, policy, problems);
      return checked ?? `has a rule this service does not take (${excerpt(problems.reasons().join(' '))})`;
    };
    const checked = attempt(context.policy);
    return typeof checked === 'string' ? (mostHistory(context, attempt) ?? checked) : checked;
  };
  // A COUNT rule starting later has as many fewer occurrences as it had before its new start.
  const countless = (rrule: string, skipped: number): string => {
    const count = /(?:^|;)COUNT=(\d{1,9})(?:;|$)/i.exec(rrule)?.[1];
    return count === undefined || skipped === 0 ? rrule : withCount(rrule, Math.max(1, Number(count) - skipped));
  };
  const before = (rrule: string, from: string, until: string, instancesOnly: boolean): number | string => {
    const own = check(rrule, from, [], []);
    if (typeof own === 'string') return own;
    const walked = expand(own.rule, own.recurrence, from, until, WALK_PER_SERIES);
    return (instancesOnly ? walked.ruleInstances : walked.starts).filter((d) => d < until).length;
  };

  const planned: PlannedSeries[] = [];
  // RDATEs alone: DTSTART and each extra date, on a rule of one occurrence.
  const firstRule = rules[0] ?? 'FREQ=DAILY;COUNT=1';
  if (rules.length === 0 && start !== startLocal) return { refused: 'has only RDATEs and its first is excluded' };
  const skippedFirst = start === startLocal ? 0 : before(firstRule, startLocal, start, false);
  if (typeof skippedFirst === 'string') return { refused: skippedFirst };
  const first = check(
    countless(firstRule, skippedFirst),
    start,
    rdates.filter((d) => d > start),
    exdates,
  );
  if (typeof first === 'string') return { refused: first };
  planned.push({ sourceId: uid, startLocal: start, checked: first });
  for (const [index, rrule] of rules.slice(1).entries()) {
    const own = check(rrule, startLocal, [], []);
    if (typeof own === 'string') return { refused: own };
    // Its first instance after the series' start (DTSTART itself is the first series').
    const instances = expand(own.rule, own.recurrence, startLocal, '9999-12-31 23:59:59', 50).ruleInstances;
    const next = instances.find((d) => d > startLocal && !gone.has(d));
    if (next === undefined) continue;
    const skipped = before(rrule, startLocal, next, true);
    if (typeof skipped === 'string') return { refused: skipped };
    const more = check(countless(rrule, skipped), next, [], exdates);
    if (typeof more === 'string') return { refused: more };
    planned.push({ sourceId: `${uid}#rrule${index + 2}`, startLocal: next, checked: more });
  }
  if (reshaped) {
    const mismatch = compareWithIcal(context, planned, gone);
    if (mismatch) return { refused: mismatch };
  }
  // Overrides at a date no series makes (a "this and following" split): events of their own.
  const standalone = overrides.filter(
    (o) => o === editedFirst || (!o.cancelled && !planned.some((s) => generates(s, o.wall, overrides))),
  );
  return { series: planned, standalone };
}

/**
 * Null when the planned series make the occurrences of the VEVENT (Occurrences, over ical.js's
 * rule iterators), as far as the first CHECKED_OCCURRENCES of them; else why not.
 */
function compareWithIcal(context: SeriesContext, planned: PlannedSeries[], gone: Set<string>): string | null {
  const { reading, startLocal, timezone } = context;
  const span = `${String(Number(startLocal.slice(0, 4)) + SPAN_YEARS - 1).padStart(4, '0')}${startLocal.slice(4)}`;
  const expected = new Set<string>(gone.has(startLocal) ? [] : [startLocal]);
  let through = span;
  const stopped = reading.budget.walk(new Occurrences(context), (time) => {
    const wall = occurrenceWall(reading.zones, time, context.tzids.start, timezone, startLocal);
    if (wall > span) return false;
    if (!gone.has(wall)) expected.add(wall);
    if (expected.size < CHECKED_OCCURRENCES) return true;
    through = wall;
    return false;
  });
  if (stopped) return stopped;
  const made = new Set(
    planned.flatMap((s) => expand(s.checked.rule, s.checked.recurrence, s.startLocal, through, WALK_PER_SERIES).starts),
  );
  const want = [...expected].filter((w) => w <= through).sort();
  const have = [...made].sort();
  const differ = want.length !== have.length || want.some((w, i) => w !== have[i]);
  return differ ? 'cannot be held as series of this service with the same occurrences' : null;
}

/** An override of an occurrence of a series imported as one: the edit of that occurrence, or its cancellation. */
function readOverride(reading: IcsReading, seriesId: string, override: Override, tzids: Tzids): void {
  const sourceId = `${OVERRIDE_PREFIX}${seriesId}@${compact(override.recurrenceId)}`;
  const occurrence = { series: seriesId, recurrenceId: override.wall, cancelled: override.cancelled };
  if (override.cancelled) {
    reading.add({
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
  reading.add('reason' in record ? { ...record, line: reading.lineOf(override.component) } : { ...record, occurrence });
}

/**
 * An override read as an event of its own, named by its series' UID and the occurrence it stands
 * for (or `sourceId`): one no series here makes, the edited first occurrence, one of an event that
 * does not repeat. Its times without a TZID take the series' (`tzids`).
 */
export function readAlone(
  reading: IcsReading,
  component: Component,
  uid: string,
  tzids: Tzids = { start: undefined, end: undefined },
  sourceId?: string,
): void {
  const moved = new ICAL.Event(component);
  const startTzid = tzidOf(component.getFirstProperty('dtstart')) ?? tzids.start;
  const record = eventRecord(
    reading,
    component,
    sourceId ?? `${uid}@${compact(moved.recurrenceId)}`,
    moved.startDate,
    moved.endDate,
    startTzid,
    tzidOf(component.getFirstProperty('dtend')) ?? tzids.end ?? startTzid,
  );
  reading.add('reason' in record ? { ...record, line: reading.lineOf(component) } : record);
}

/**
 * A series this service cannot hold, as its occurrences over its whole span: from its start (or
 * the import's `since`, for a rule without an end) to its end or the horizon, whichever is first, the latest `maxOccurrences` of them if
 * there are more, each override in place of the occurrence it names and one naming no occurrence
 * as an event of its own. The walk is bounded (ExpansionBudget): one cut short says so.
 */
function readOccurrences(context: SeriesContext): void {
  const { reading, vevent, event, uid, tzids, timezone, startLocal, overrides, label } = context;
  const { zones, now, horizonDays, maxOccurrences, options } = reading;
  // The horizon from today, or from the series' start when that is later (as the service's own).
  const from = Math.max(now.getTime(), event.startDate.toJSDate().getTime());
  const horizon = ICAL.Time.fromJSDate(new Date(from + horizonDays * 86_400_000), true);
  // Like the service's own series: one without an end from `since`, one with an end whole.
  const sinceDay = isEndless(vevent) ? options.recurrence?.since : undefined;
  const since = sinceDay ? `${sinceDay} 00:00:00` : null;
  // Each override replaces the instance whose wall time in the series' zone its RECURRENCE-ID
  // names: ical.js knows only the zones a feed defines, so it would miss one written in UTC.
  const byWall = new Map(overrides.map((o) => [o.wall, o]));
  const used = new Set<Override>();
  const kept: { time: Time; wall: string }[] = [];
  let earlier = 0;
  const keep = (time: Time, wall: string) => {
    if (since !== null && wall < since) return;
    kept.push({ time, wall });
    // Only the latest maxOccurrences are kept; the array is trimmed now and then, not per push.
    if (kept.length >= 2 * maxOccurrences) earlier += kept.splice(0, kept.length - maxOccurrences).length;
  };
  const stopped = reading.budget.walk(new Occurrences(context), (next) => {
    if (next.compare(horizon) > 0) return false;
    keep(next, occurrenceWall(zones, next, tzids.start, timezone, startLocal));
    return true;
  });
  if (stopped) {
    // What was walked is the distant past of a rule too fine for its span: no use as a calendar.
    reading.add({
      kind: 'event',
      sourceId: uid,
      lang: reading.lang,
      reason: `${stopped} before its end or the horizon: not imported (a series this service cannot hold)`,
    });
    return;
  }
  if (kept.length > maxOccurrences) earlier += kept.splice(0, kept.length - maxOccurrences).length;
  let count = 0;
  for (const { time, wall } of kept) {
    const override = byWall.get(wall);
    if (override) used.add(override);
    if (override?.cancelled) continue;
    const component = override?.component ?? vevent;
    const { startDate, endDate } = override ? new ICAL.Event(component) : event.getOccurrenceDetails(time);
    const record = eventRecord(
      reading,
      component,
      `${uid}@${compact(time)}`,
      startDate,
      endDate,
      tzidOf(component.getFirstProperty('dtstart')) ?? tzids.start,
      tzidOf(component.getFirstProperty('dtend')) ?? tzids.end,
    );
    reading.add(record);
    if (!('reason' in record)) count += 1;
  }
  for (const override of overrides)
    if (!used.has(override) && !override.cancelled && (since === null || override.wall >= since))
      readAlone(context.reading, override.component, context.uid, context.tzids);
  const cut = earlier > 0 ? [`the ${earlier} earlier ones were not imported (at most ${maxOccurrences})`] : [];
  reading.warnings.push(
    `${label} imported as its ${count} occurrences up to ${horizonDays} days ahead${sinceDay ? ` since ${sinceDay}` : ''}${cut.length ? `; ${cut.join('; ')}` : ''}.`,
  );
}
