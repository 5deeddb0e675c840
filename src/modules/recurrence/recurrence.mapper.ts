import type { EventRow } from '../../db/database.js';
import type { RequestContext } from '../../http/context.js';
import { zoneOrUtc } from '../../lib/dates.js';
import type { StoredRecurrence } from './recurrence.repository.js';
import { parseRule } from './recurrence.rule.js';
import { summarize } from './recurrence.summary.js';

/** What the event objects of a page need about series (recurrence.service.ts loads it). */
export interface SeriesRelations {
  rules: Map<number, StoredRecurrence>;
  exceptions: Map<number, { id: number; recurrence_id: string }[]>;
}

export const isSeries = (row: EventRow): boolean =>
  row.series_id !== null && row.series_id !== undefined && row.series_id === row.id;

/**
 * The keys a recurring event adds after the original's: `recurrence` on the series, `series_id`
 * and `recurrence_id` on every occurrence (the series being the first). Plain events add none.
 */
export function recurrenceFields(row: EventRow, rel: SeriesRelations, ctx: RequestContext): Record<string, unknown> {
  if (row.series_id === null || row.series_id === undefined) return {};
  const fields: Record<string, unknown> = {};
  const stored = isSeries(row) ? rel.rules.get(row.id) : undefined;
  if (stored) {
    const rule = parseRule(stored.rrule, zoneOrUtc(row.timezone));
    const recurrence: Record<string, unknown> = {
      rrule: stored.rrule,
      rdates: stored.rdates,
      exdates: stored.exdates,
      summary: typeof rule === 'string' ? stored.rrule : summarize(rule, row.start_local, ctx.lang),
    };
    const exceptions = rel.exceptions.get(row.id);
    if (exceptions) recurrence['exceptions'] = exceptions;
    fields['recurrence'] = recurrence;
  }
  fields['series_id'] = row.series_id;
  fields['recurrence_id'] = row.recurrence_id;
  return fields;
}
