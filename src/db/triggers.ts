import { sql, type Kysely } from 'kysely';
import { dialectOf, type DialectName } from './dialect.js';

/**
 * Row triggers, described once and written for both dialects.
 *
 * Which triggers exist today, and what each does: src/db/schema/sqlite.sql and postgres.sql (the
 * `-- trigger` entries, and on PostgreSQL the `-- functions` they execute), the schema every
 * migration leaves, written by `npm run schema` and checked by test/db/schema-snapshot.test.ts.
 * Why: they keep what every write must keep in its own transaction, whatever path writes:
 *
 * - `event_window_count` (009), `event_term_window_count_*` (013), `*facet_count*` (018) and
 *   `search_window_count` (019): the per-day counts behind the exact totals of public lists
 *   (021 makes the last three again to leave protected events out);
 * - `events_search_*` (012, SQLite): the FTS5 trigram index over events' text, through the queue
 *   the background indexes (033);
 * - `change_log_*` (016): the change log behind the sync feed (its terms' triggers differ between
 *   the dialects beyond one description, and are written out per dialect there);
 * - `webhook_outbox` (017): a webhook delivery for each public change logged.
 *
 * A trigger fires on some of insert, update and delete of a table's rows. SQLite has one trigger
 * per operation, `<name>_<operation>` (just `<name>` when it fires on one), whose body is the
 * statements that operation runs. PostgreSQL has one function, `<name>()` (or `fn`), running the
 * statements of the operation that fired it (`tg_op`), or a body of its own (`plpgsql`, where
 * PostgreSQL's says it otherwise: the write-order lock, one statement for several operations),
 * and a trigger `<name>` executing it; when some operations fire before the row is written and
 * others after, one trigger per timing: `<name>_<operation>`, or `<name>_write` for several.
 *
 * Bodies are kept as written, whitespace included: SQLite stores a trigger's text and PostgreSQL a
 * function's, and the snapshots show them, so a body moved here from a migration leaves the
 * schema as it was.
 */

export type Operation = 'insert' | 'update' | 'delete';

export interface RowTrigger {
  name: string;
  table: string;
  /**
   * The operations it fires on, each with the statements it runs there on the rows `new` (insert,
   * update) and `old` (update, delete): SQLite's trigger body, between `begin` and `end`. SQLite's
   * triggers are made in this order.
   */
  on: Partial<Record<Operation, string>>;
  /** The columns whose update fires it (any column when absent). */
  updateOf?: string;
  /** The operations that fire before the row is written; the others fire after. */
  before?: Operation[];
  /** A condition on `new`/`old` under which it fires. */
  when?: string;
  /**
   * PostgreSQL: the body of its function, between `$$`, where it is not the statements of `on`
   * run for the operation that fired it (see {@link functionBody}). Absent with `fn`: the function
   * is another trigger's.
   */
  plpgsql?: string;
  /** PostgreSQL: the function's name when it is not `name` (several triggers share one). */
  fn?: string;
}

const operationsOf = (trigger: RowTrigger) => Object.keys(trigger.on) as Operation[];

const timingOf = (trigger: RowTrigger, operation: Operation) =>
  trigger.before?.includes(operation) ? 'before' : 'after';

/** `update of a, b` for an update limited to some columns, else the operation itself. */
const event = (trigger: RowTrigger, operation: Operation) =>
  operation === 'update' && trigger.updateOf ? `update of ${trigger.updateOf}` : operation;

/** SQLite's triggers: their names and statements. */
function sqliteTriggers(trigger: RowTrigger): { name: string; create: string }[] {
  const operations = operationsOf(trigger);
  const when = trigger.when ? ` when ${trigger.when}` : '';
  return operations.map((operation) => {
    const name = operations.length === 1 ? trigger.name : `${trigger.name}_${operation}`;
    const fires = `${timingOf(trigger, operation)} ${event(trigger, operation)} on ${trigger.table}`;
    return { name, create: `create trigger ${name} ${fires}${when} begin${trigger.on[operation]}end` };
  });
}

/** PostgreSQL's triggers, one per timing: their names and statements. */
function postgresTriggers(trigger: RowTrigger): { name: string; create: string }[] {
  const operations = operationsOf(trigger);
  const timings = (['before', 'after'] as const).filter((timing) =>
    operations.some((operation) => timingOf(trigger, operation) === timing),
  );
  const when = trigger.when ? ` when (${trigger.when})` : '';
  return timings.map((timing) => {
    const fired = operations.filter((operation) => timingOf(trigger, operation) === timing);
    const name = timings.length === 1 ? trigger.name : `${trigger.name}_${fired.length === 1 ? fired[0] : 'write'}`;
    const events = fired.map((operation) => event(trigger, operation)).join(' or ');
    return {
      name,
      create: `create trigger ${name} ${timing} ${events} on ${trigger.table} for each row${when} execute function ${trigger.fn ?? trigger.name}()`,
    };
  });
}

/**
 * The PostgreSQL function's body when the description gives none: the statements of `on` for the
 * operation that fired it (`tg_op`), then the row a trigger before the write must return.
 */
function functionBody(trigger: RowTrigger): string {
  const operations = operationsOf(trigger);
  const returned = trigger.before?.length ? "case when tg_op = 'DELETE' then old else new end" : 'null';
  if (operations.length === 1) return ` begin${trigger.on[operations[0]!]}return ${returned}; end `;
  const branches = operations.map((operation, i) => {
    const test =
      i === operations.length - 1 ? 'else' : `${i === 0 ? 'if' : 'elsif'} tg_op = '${operation.toUpperCase()}' then`;
    return `${test}${trigger.on[operation]}`;
  });
  return ` begin ${branches.join('')}end if; return ${returned}; end `;
}

/** Whether the description makes its PostgreSQL function (else it uses another trigger's, `fn`). */
const ownsFunction = (trigger: RowTrigger) => trigger.plpgsql !== undefined || trigger.fn === undefined;

/** The statements that make a trigger on one dialect, in order. */
export function createTriggerSql(dialect: DialectName, trigger: RowTrigger): string[] {
  if (dialect === 'sqlite') return sqliteTriggers(trigger).map((t) => t.create);
  const body = trigger.plpgsql ?? functionBody(trigger);
  const fn = ownsFunction(trigger)
    ? [`create function ${trigger.fn ?? trigger.name}() returns trigger language plpgsql as $$${body}$$`]
    : [];
  return [...fn, ...postgresTriggers(trigger).map((t) => t.create)];
}

/** The statements that drop a trigger (and on PostgreSQL its own function) on one dialect. */
export function dropTriggerSql(dialect: DialectName, trigger: RowTrigger): string[] {
  if (dialect === 'sqlite') return sqliteTriggers(trigger).map((t) => `drop trigger if exists ${t.name}`);
  const triggers = postgresTriggers(trigger).map((t) => `drop trigger if exists ${t.name} on ${trigger.table}`);
  const fn = ownsFunction(trigger) ? [`drop function if exists ${trigger.fn ?? trigger.name}()`] : [];
  return [...triggers, ...fn];
}

/** Makes the triggers, in order, on the database's dialect. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function createTriggers(db: Kysely<any>, ...triggers: RowTrigger[]): Promise<void> {
  for (const trigger of triggers)
    for (const statement of createTriggerSql(dialectOf(db), trigger)) await sql.raw(statement).execute(db);
}

/**
 * Drops the triggers (and their functions) on the database's dialect, last first: given as they
 * were made, a trigger using another's function (`fn`) goes before that function.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function dropTriggers(db: Kysely<any>, ...triggers: RowTrigger[]): Promise<void> {
  for (const trigger of [...triggers].reverse())
    for (const statement of dropTriggerSql(dialectOf(db), trigger)) await sql.raw(statement).execute(db);
}
