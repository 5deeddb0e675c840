import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/database.js';
import { bumpDataVersion } from '../../db/data-version.js';
import { lockRow } from '../../db/dialect.js';
import { inTransaction } from '../../db/transaction.js';
import { zoneOrUtc } from '../../lib/dates.js';
import { materializedThrough, type RecurrencePolicy } from './recurrence.input.js';
import { materialize } from './recurrence.service.js';
import * as store from './recurrence.repository.js';
import { expand, parseRule } from './recurrence.rule.js';
import { nowUtc } from '../../lib/clock.js';

/**
 * The background step that keeps open-ended series materialized to the horizon as time passes.
 * Safe with several instances on one database: each series is extended under its row lock and
 * re-checked inside, and a date already present is never created twice.
 */

const BATCH = 50;
const HOUR = 3_600_000;
/** Local times of different zones are compared with one UTC cut-off: a day's slack covers any offset. */
const SLACK = 86_400_000;

/** Extends one series if it is still due; returns the number of occurrences created. */
async function extendSeries(
  db: Db,
  seriesId: number,
  policy: RecurrencePolicy,
  at: Date,
  cutoff: string,
): Promise<number> {
  return inTransaction(db, async (trx) => {
    await lockRow(trx, 'events', seriesId);
    const stored = await store.findRecurrence(trx, seriesId);
    if (!stored || stored.complete || stored.expandedUntil >= cutoff) return 0;
    const series = await store.findEvent(trx, seriesId);
    const rule = series ? parseRule(stored.rrule, zoneOrUtc(series.timezone)) : 'gone';
    if (!series || series.status === 'trash' || series.series_id !== series.id || typeof rule === 'string') {
      // Nothing to extend any more: take it off the list.
      await store.saveRecurrence(trx, seriesId, stored, stored.expandedUntil, true);
      return 0;
    }
    const through = materializedThrough(policy, rule, zoneOrUtc(series.timezone), series.start_local, at);
    const expansion = expand(rule, stored, series.start_local, through, policy.max, stored.expandedUntil);
    const existing = new Set((await store.liveOccurrences(trx, seriesId)).map((row) => row.recurrence_id));
    const fresh = expansion.starts.filter((wall) => !existing.has(wall));
    // A rule without an end stops at CAL_RECURRENCE_MAX occurrences, as a create would refuse more.
    const room = Math.max(0, policy.max - (await store.occurrenceCount(trx, seriesId)));
    const created = await materialize(trx, series, fresh.slice(0, room));
    await store.saveRecurrence(trx, seriesId, stored, through, expansion.complete || fresh.length > room);
    if (created.length > 0) await bumpDataVersion(trx);
    return created.length;
  });
}

/** Extends every due series as of `at`; returns the number of occurrences created. Tests pass a moved clock. */
export async function extendHorizons(db: Db, policy: RecurrencePolicy, at: Date = policy.now()): Promise<number> {
  const cutoff = nowUtc(new Date(at.getTime() + policy.horizonDays * 86_400_000 - SLACK));
  let created = 0;
  const seen = new Set<number>();
  for (;;) {
    const due = (await store.openSeries(db, cutoff, BATCH)).filter((id) => !seen.has(id));
    if (due.length === 0) return created;
    for (const id of due) {
      seen.add(id);
      created += await extendSeries(db, id, policy, at, cutoff);
    }
  }
}

/** Runs the step shortly after start-up and then hourly, in the background of this instance. */
export function startHorizonStep(app: FastifyInstance, db: Db, policy: RecurrencePolicy): void {
  let timer: NodeJS.Timeout | undefined;
  let first: NodeJS.Timeout | undefined;
  const run = () => {
    extendHorizons(db, policy).catch((error: unknown) =>
      app.log.error({ err: error }, 'extending recurring series failed'),
    );
  };
  app.addHook('onReady', async () => {
    timer = setInterval(run, HOUR);
    timer.unref();
    first = setTimeout(run, 5_000).unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    clearTimeout(first);
  });
}
