import type { GridEvent } from './page.repository.js';

/**
 * The month and week grids' layout, pure: which events a day's cell shows and how many it does
 * not. An event lasting several days is one bar per week row, in one lane across the row (lanes
 * are the first slots of each day), then the day's other events in time order; a day shows `cap`
 * slots at most and counts every event of the day it does not show, so the cell and the day page
 * hold the same events. A row's layout depends on the row's events only, so a day outside the
 * month looks the same in both months' grids.
 */

/** The days an event covers, by its local dates: from its start day to its end day. */
export const startDay = (e: GridEvent) => e.start_local.slice(0, 10);
export const endDay = (e: GridEvent) => {
  const end = e.end_local.slice(0, 10);
  return end < startDay(e) ? startDay(e) : end;
};
export const isMultiDay = (e: GridEvent) => endDay(e) > startDay(e);

/** One day's part of a bar: where it is drawn (its first day in the row) or continued. */
export interface GridBar {
  event: GridEvent;
  /** The bar's first day in this row: the one that draws it across `span` days. */
  first: boolean;
  span: number;
  /** Started in an earlier row, goes on in a later one: the bar's ends say so. */
  before: boolean;
  after: boolean;
}

export interface GridDay {
  /** The day's lanes, top down: a bar, or null for a lane that another day of the row uses. */
  lanes: (GridBar | null)[];
  /** The day's other events shown (starting and ending that day), by start. */
  events: GridEvent[];
  /** Events of the day not shown: the day page lists them. */
  more: number;
}

/** What the layout reads: the events and how many each day has (starting that day or going on). */
export interface GridInput {
  days: string[];
  /** Multi-day events reaching into the grid, by start. */
  bars: GridEvent[];
  /** The first events starting each day, by start (more than `cap` of a day are not shown anyway). */
  starting: Map<string, GridEvent[]>;
  totals: Map<string, number>;
  cap: number;
}

interface Segment {
  event: GridEvent;
  from: number;
  to: number;
  before: boolean;
  after: boolean;
}

/** The row's bars as segments, longest first among those starting on the same day, then by start. */
function segments(row: string[], bars: GridEvent[]): Segment[] {
  const first = row[0]!;
  const last = row[row.length - 1]!;
  return bars
    .filter((e) => startDay(e) <= last && endDay(e) >= first)
    .map((event) => ({
      event,
      from: startDay(event) < first ? 0 : row.indexOf(startDay(event)),
      to: endDay(event) > last ? row.length - 1 : row.indexOf(endDay(event)),
      before: startDay(event) < first,
      after: endDay(event) > last,
    }))
    .sort(
      (a, b) =>
        a.from - b.from ||
        b.to - b.from - (a.to - a.from) ||
        (a.event.start_local < b.event.start_local ? -1 : a.event.start_local > b.event.start_local ? 1 : 0) ||
        a.event.id - b.event.id,
    );
}

/** Lanes of one week row: each segment in the lowest lane free on all its days, below `cap`. */
function rowLanes(row: string[], bars: GridEvent[], cap: number): (GridBar | null)[][] {
  const lanes: (GridBar | null)[][] = row.map(() => []);
  const taken: boolean[][] = [];
  for (const s of segments(row, bars)) {
    const cols = Array.from({ length: s.to - s.from + 1 }, (_, i) => s.from + i);
    let lane = 0;
    while (lane < cap && cols.some((c) => taken[lane]?.[c])) lane += 1;
    if (lane >= cap) continue;
    taken[lane] ??= [];
    for (const c of cols) {
      taken[lane]![c] = true;
      const day = lanes[c]!;
      while (day.length <= lane) day.push(null);
      day[lane] = {
        event: s.event,
        first: c === s.from,
        span: s.to - s.from + 1,
        before: s.before,
        after: s.after,
      };
    }
  }
  return lanes;
}

/** Every day's cell of the grid (whole weeks of `days`). */
export function layoutGrid({ days, bars, starting, totals, cap }: GridInput): Map<string, GridDay> {
  const grid = new Map<string, GridDay>();
  for (let i = 0; i < days.length; i += 7) {
    const row = days.slice(i, i + 7);
    const lanes = rowLanes(row, bars, cap);
    row.forEach((day, c) => {
      const dayLanes = lanes[c]!;
      const events = (starting.get(day) ?? []).filter((e) => !isMultiDay(e)).slice(0, cap - dayLanes.length);
      const shown = dayLanes.filter((l) => l !== null).length + events.length;
      grid.set(day, { lanes: dayLanes, events, more: Math.max(0, (totals.get(day) ?? 0) - shown) });
    });
  }
  return grid;
}

/**
 * How many events each day has: those starting that day (`starts`) and the multi-day events that
 * started before and go on (counted from `pairs`, the number of events per start and end day).
 */
export function dayTotals(
  days: string[],
  starts: Map<string, number>,
  pairs: { start_day: string; end_day: string; n: number }[],
): Map<string, number> {
  return new Map(
    days.map((day) => [
      day,
      (starts.get(day) ?? 0) + pairs.reduce((sum, p) => (p.start_day < day && p.end_day >= day ? sum + p.n : sum), 0),
    ]),
  );
}

/** The (start day, end day) pairs of events, counted: the bars read, when they are all of them. */
export function pairsOf(events: GridEvent[]): { start_day: string; end_day: string; n: number }[] {
  return events.map((e) => ({ start_day: startDay(e), end_day: endDay(e), n: 1 }));
}
