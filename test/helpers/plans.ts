import { CompiledQuery, type QueryExecutor } from 'kysely';
import type { TestApp } from './app.js';

/** Every statement `work` sends through the app's storage, with its parameters. */
export async function statementsOf(t: TestApp, work: () => Promise<unknown>): Promise<CompiledQuery[]> {
  const executor: QueryExecutor = t.storage.db.getExecutor();
  const original = executor.executeQuery.bind(executor);
  const seen: CompiledQuery[] = [];
  executor.executeQuery = ((...args: Parameters<QueryExecutor['executeQuery']>) => {
    seen.push(args[0]);
    return original(...args);
  }) as QueryExecutor['executeQuery'];
  try {
    await work();
  } finally {
    executor.executeQuery = original;
  }
  return seen;
}

/**
 * The plan of `query` as text: SQLite's `explain query plan` details, or PostgreSQL's `explain`
 * without sequential scans (on a test's small tables it would rightly prefer them, which says
 * nothing about a large one).
 */
export async function planOf(t: TestApp, query: CompiledQuery): Promise<string> {
  if (t.backend === 'sqlite') {
    const { rows } = await t.storage.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${query.sql}`, [...query.parameters]),
    );
    return rows.map((r) => r.detail).join('\n');
  }
  return t.storage.db.connection().execute(async (c) => {
    await c.executeQuery(CompiledQuery.raw('set enable_seqscan = off'));
    try {
      const { rows } = await c.executeQuery<{ 'QUERY PLAN': string }>(
        CompiledQuery.raw(`explain ${query.sql}`, [...query.parameters]),
      );
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    } finally {
      await c.executeQuery(CompiledQuery.raw('reset enable_seqscan'));
    }
  });
}
