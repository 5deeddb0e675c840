import type pg from 'pg';
import { statementName } from './prepared.js';

type Query = (...args: unknown[]) => unknown;

/**
 * Makes a pool's connections run a prepared query's template (src/db/prepared.ts) as a named
 * statement, parsed and planned once per connection (pg remembers which names a connection has
 * parsed); every other statement runs as before. Kysely calls `query(sql, parameters)`.
 *
 * The named statement is handed to pg as a `Query` built from the text and values, its name set
 * after: given a config object, pg copies it through its property descriptors first, about 4 µs a
 * statement, and the copy is an object V8 reads slowly from then on (a create's dozen statements
 * spent a tenth of a millisecond there).
 *
 * A named statement whose tables changed columns since it was prepared (another instance migrated
 * the schema) fails with 0A000 ("cached plan must not change result type"): that connection then
 * runs its statements unnamed, as before, rather than fail again.
 */
export function useNamedStatements(pool: pg.Pool, NamedQuery: typeof pg.Query): void {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as Query;
    const named = (name: string, text: string, values: unknown[]) =>
      new Promise((resolve, reject) => {
        const statement = new NamedQuery(text, values, (err, result) => (err ? reject(err) : resolve(result)));
        (statement as { name?: string }).name = name;
        query(statement);
      });
    let unnamed = false;
    (client as unknown as { query: Query }).query = (...args: unknown[]) => {
      const [text, values] = args;
      const name =
        !unnamed && args.length === 2 && typeof text === 'string' && Array.isArray(values)
          ? statementName(text)
          : undefined;
      if (name === undefined) return query(...args);
      return named(name, text as string, values as unknown[]).catch((err: { code?: string }) => {
        if (err.code !== '0A000') throw err;
        unnamed = true;
        return query(...args);
      });
    };
  });
}
