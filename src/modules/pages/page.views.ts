import { DateTime } from 'luxon';
import { firstDayOfWeek, formats, wallDate } from './page.i18n.js';
import type { PagePaths } from './page.links.js';
import type { GridBar, GridDay } from './page.grid.js';
import type { GridEvent } from './page.repository.js';

/** The month grid and the date arithmetic of the views; no SQL, no HTTP. */

const MONTH = /^(\d{4})-(\d{2})$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** Years a view may show: beyond them a URL is more likely a crawler's loop than a calendar. */
const FIRST_YEAR = 1900;
const LAST_YEAR = 2200;

function inRange(date: DateTime): boolean {
  return date.isValid && date.year >= FIRST_YEAR && date.year <= LAST_YEAR;
}

/** `2027-03` as the month's first day, or null when it is not a month the views show. */
export function parseMonth(value: string): DateTime | null {
  const match = MONTH.exec(value);
  if (!match) return null;
  const date = DateTime.fromObject({ year: Number(match[1]), month: Number(match[2]), day: 1 }, { zone: 'utc' });
  return inRange(date) ? date : null;
}

export function parseDay(value: string): DateTime | null {
  if (!DAY.test(value)) return null;
  const date = DateTime.fromISO(value, { zone: 'utc' });
  return inRange(date) ? date : null;
}

const iso = (date: DateTime) => date.toISODate()!;

/** The days a month grid shows: whole weeks from the language's first weekday. */
export function gridDays(month: DateTime, lang: string): string[] {
  const start = weekStart(month, lang);
  const end = month.endOf('month').startOf('day');
  const trail = (7 - ((end.diff(start, 'days').days + 1) % 7)) % 7;
  const days: string[] = [];
  for (let day = start; day <= end.plus({ days: trail }); day = day.plus({ days: 1 })) days.push(iso(day));
  return days;
}

/** An event as a cell shows it: its page and, on the day a timed event starts, its time. */
export type CellEvent = GridEvent & { href: string; time: string };

/** A lane of a cell: a bar (drawn on its first day in the row, continued on the others) or a gap. */
export type CellLane = (Omit<GridBar, 'event'> & { event: CellEvent }) | null;

export interface GridCell {
  date: string;
  number: number;
  inMonth: boolean;
  isToday: boolean;
  isPast: boolean;
  href: string;
  label: string;
  lanes: CellLane[];
  events: CellEvent[];
  more: number;
}

/** A day's cell as the templates show it. */
export function gridCell(
  date: string,
  day: GridDay | undefined,
  lang: string,
  today: string,
  paths: PagePaths,
  query: string,
) {
  const cell = day ?? { lanes: [], events: [], more: 0 };
  const shown = (e: GridEvent): CellEvent => ({
    ...e,
    href: paths.event(e.slug),
    // A timed event shows its start on the day it starts; all-day and continuing ones show none.
    time: e.all_day === 1 || e.start_local.slice(0, 10) !== date ? '' : formats.time(lang, e.start_local),
  });
  return {
    date,
    number: Number(date.slice(8)),
    isToday: date === today,
    isPast: date < today,
    href: paths.day(date) + query,
    label: formats.longDay(lang, date),
    more: cell.more,
    lanes: cell.lanes.map((lane) => (lane === null ? null : { ...lane, event: shown(lane.event) })),
    events: cell.events.map(shown),
  };
}

export function monthView(
  month: DateTime,
  days: string[],
  grid: Map<string, GridDay>,
  lang: string,
  today: string,
  paths: PagePaths,
  query: string,
) {
  const cells: GridCell[] = days.map((date) => ({
    ...gridCell(date, grid.get(date), lang, today, paths, query),
    inMonth: date.slice(0, 7) === iso(month).slice(0, 7),
  }));
  const weeks: GridCell[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  const key = (date: DateTime) => iso(date).slice(0, 7);
  return {
    caption: formats.month(lang, iso(month)),
    weekdays: days
      .slice(0, 7)
      .map((d) => ({ short: formats.weekdayShort(lang, d), long: formats.weekdayLong(lang, d) })),
    weeks,
    prev: paths.month(key(month.minus({ months: 1 }))) + query,
    next: paths.month(key(month.plus({ months: 1 }))) + query,
    prevLabel: formats.month(lang, iso(month.minus({ months: 1 }))),
    nextLabel: formats.month(lang, iso(month.plus({ months: 1 }))),
  };
}

export function dayNeighbours(day: DateTime) {
  return { prev: iso(day.minus({ days: 1 })), next: iso(day.plus({ days: 1 })) };
}

// --- The week ----------------------------------------------------------------------------------

/** The first day of the week holding `day`, by the language's first weekday (as the month grid's rows). */
export function weekStart(day: DateTime, lang: string): DateTime {
  const first = firstDayOfWeek(lang);
  // Luxon's weekday: 1 = Monday … 7 = Sunday; `first`: 0 = Sunday.
  return day.minus({ days: (day.weekday - (first === 0 ? 7 : first) + 7) % 7 });
}

export function weekDays(start: DateTime): string[] {
  return Array.from({ length: 7 }, (_, i) => iso(start.plus({ days: i })));
}

const rangeFormats = new Map<string, Intl.DateTimeFormat>();
/** "December 13 – 19, 2026": Intl's range, which leaves out what both ends share. */
function dayRange(lang: string, from: string, to: string): string {
  let f = rangeFormats.get(lang);
  if (!f)
    rangeFormats.set(
      lang,
      (f = new Intl.DateTimeFormat(lang, { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' })),
    );
  return f.formatRange(wallDate(from), wallDate(to));
}

/** Hours a timed event covers: from its start hour to the hour its end reaches (at least one). */
function hours(e: GridEvent): [number, number] {
  const start = Number(e.start_local.slice(11, 13));
  const endMinutes = Number(e.end_local.slice(11, 13)) * 60 + Number(e.end_local.slice(14, 16));
  return [start, Math.min(24, Math.max(start + 1, Math.ceil(endMinutes / 60)))];
}

/**
 * The week view: its days, each with its bars and all-day events (the row on top) and its timed
 * events placed by hour (`at` the row of the start hour among the hours the week uses, `len` the
 * hours it lasts), and the neighbouring weeks.
 */
export function weekView(
  start: DateTime,
  grid: Map<string, GridDay>,
  lang: string,
  today: string,
  paths: PagePaths,
  query: string,
) {
  const days = weekDays(start);
  const cells = days.map((date) => gridCell(date, grid.get(date), lang, today, paths, query));
  const timed = cells.flatMap((c) => c.events.filter((e) => e.all_day !== 1));
  const first = timed.length === 0 ? 0 : Math.min(...timed.map((e) => hours(e)[0]));
  return {
    caption: dayRange(lang, days[0]!, days[6]!),
    days: cells.map((cell) => ({
      ...cell,
      weekday: formats.weekdayLong(lang, cell.date),
      short: formats.shortDay(lang, cell.date),
      allDay: cell.events.filter((e) => e.all_day === 1),
      timed: cell.events
        .filter((e) => e.all_day !== 1)
        .map((e) => {
          const [from, to] = hours(e);
          return { ...e, at: from - first + 1, len: to - from };
        }),
    })),
    prev: paths.week(iso(start.minus({ weeks: 1 }))) + query,
    next: paths.week(iso(start.plus({ weeks: 1 }))) + query,
  };
}
