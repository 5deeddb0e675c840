import { DateTime } from 'luxon';
import { firstDayOfWeek, formats } from './page.i18n.js';
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
  const first = firstDayOfWeek(lang);
  // Luxon's weekday: 1 = Monday … 7 = Sunday; `first`: 0 = Sunday.
  const lead = (month.weekday - (first === 0 ? 7 : first) + 7) % 7;
  const start = month.minus({ days: lead });
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
