import { createHash } from 'node:crypto';
import type { CompiledQuery, Compilable, DialectAdapter } from 'kysely';
import type { Db } from './database.js';

/**
 * Building and compiling a Kysely query costs more than running a small one on SQLite (5 to 10 µs
 * against 1 to 3), so the queries on hot paths are built once per dialect and list length, with
 * placeholders in place of their arguments, and afterwards only run.
 *
 * The one rule for a prepared query's `build`: every value that may change between calls comes in
 * through `args` (a scalar, or a list whose length may shape the SQL) and is handed to Kysely as it
 * is: never combined with anything in JavaScript (`%${args.text}`), never tested (`args.x === null`).
 * A value taken from elsewhere, or computed from a placeholder, would be frozen into the first
 * compilation; so the test suite sets CAL_VERIFY_PREPARED, which builds every call anew and compares.
 * A LIMIT is the exception: SQLite's is written into the statement (sqlite-dialect.ts), so it is a
 * number of the query's own, never an argument.
 */

type Scalar = string | number | null;
/** Arguments: scalars, or lists of scalars. */
export type PreparedArgs<A> = { [K in keyof A]: Scalar | readonly Scalar[] };
type AnyArgs = Record<string, unknown>;

/** Stands for `args[name]` (or `args[name][index]`) in the compiled parameters. */
class Placeholder {
  constructor(
    readonly name: string,
    readonly index: number | null,
  ) {}
}

const verify = process.env['CAL_VERIFY_PREPARED'] === '1';

/** What decides the SQL of a call: the argument names and the lengths of the lists. */
function shapeOf(args: AnyArgs): string {
  let shape = '';
  for (const name in args) {
    const value = args[name];
    shape += Array.isArray(value) ? `${name}[${value.length}],` : `${name},`;
  }
  return shape;
}

function placeholders<A>(args: A): A {
  const stand: AnyArgs = {};
  for (const name in args) {
    const value: unknown = args[name];
    stand[name] = Array.isArray(value) ? value.map((_, i) => new Placeholder(name, i)) : new Placeholder(name, null);
  }
  return stand as A;
}

function bind(template: CompiledQuery, args: AnyArgs): unknown[] {
  return template.parameters.map((p) => {
    if (!(p instanceof Placeholder)) return p;
    const value = args[p.name];
    return p.index === null ? value : (value as readonly Scalar[])[p.index];
  });
}

/** Shapes kept per dialect; a query with lists has one per length (event pages are at most 100). */
const MAX_SHAPES = 200;

/**
 * The SQL of every prepared template, with the name it runs under as a PostgreSQL named statement
 * (src/db/pg-named.ts): PostgreSQL then parses and plans it once per connection instead of on every
 * call (planning the one statement that embeds a page's records took about 1 ms, more than running
 * it). The texts are the templates' own, so the map holds at most MAX_SHAPES per prepared query.
 */
const statementNames = new Map<string, string>();

/** The named statement `sql` runs as, when it is a prepared query's template. */
export function statementName(sql: string): string | undefined {
  return statementNames.get(sql);
}

function register(template: CompiledQuery): void {
  if (!statementNames.has(template.sql)) {
    statementNames.set(template.sql, `cal_${createHash('sha256').update(template.sql).digest('hex').slice(0, 24)}`);
  }
}

/**
 * A query run as `run(db, args)`: `build(db, args)` makes it the first time for a shape, with
 * placeholders for the arguments; later calls only bind the arguments. `db` may be a transaction.
 */
export function prepared<A extends PreparedArgs<A>, R>(
  build: (db: Db, args: A) => Compilable<R>,
): (db: Db, args: A) => Promise<R[]> {
  const templates = new WeakMap<DialectAdapter, Map<string, CompiledQuery>>();
  return async (db, args) => {
    const adapter = db.getExecutor().adapter;
    let shapes = templates.get(adapter);
    if (!shapes) templates.set(adapter, (shapes = new Map()));
    const shape = shapeOf(args as AnyArgs);
    let template = shapes.get(shape);
    if (!template) {
      template = build(db, placeholders(args)).compile();
      if (shapes.size >= MAX_SHAPES) shapes.clear();
      shapes.set(shape, template);
      register(template);
    }
    // The template's query node and id go along unchanged: no plugin is installed to look at them.
    const query: CompiledQuery = { ...template, parameters: bind(template, args as AnyArgs) };
    if (verify) assertSame(query, build(db, args).compile());
    const result = await db.executeQuery<R>(query as CompiledQuery<R>);
    return result.rows;
  };
}

function assertSame(prepared: CompiledQuery, fresh: CompiledQuery): void {
  if (prepared.sql !== fresh.sql || JSON.stringify(prepared.parameters) !== JSON.stringify(fresh.parameters)) {
    throw new Error(
      `A prepared query differs from its fresh build:\n${prepared.sql}\n${JSON.stringify(prepared.parameters)}\n${fresh.sql}\n${JSON.stringify(fresh.parameters)}`,
    );
  }
}
