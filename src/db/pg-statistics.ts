import type pg from 'pg';

/**
 * PostgreSQL plans from its tables' statistics, which only ANALYZE refreshes. Autovacuum does it
 * when it runs, up to a minute late; a server where it is off (this project's CI machines, some
 * managed plans during bulk loads) never does, and a database filled through the service went on
 * planning for the empty tables it started with: an import of 20,000 events fell from 78 to 19
 * events a second, reading every row of a link table for each event it wrote, and creates through
 * the API suffer the same. So every instance checks, every `intervalMs`, which of the schema's
 * tables changed by more than autovacuum's own threshold since their last analysis (the server's
 * `autovacuum_analyze_threshold` + `autovacuum_analyze_scale_factor` × rows; the activity counters
 * are kept whether autovacuum runs or not) and analyzes those. Whichever of it and autovacuum
 * comes first resets the counter, so the other finds nothing to do. One instance at a time (an
 * advisory lock it only tries), so instances sharing a database do not analyze twice.
 */
const STALE_TABLES = `
  select s.relname from pg_stat_user_tables s join pg_class c on c.oid = s.relid
  where s.schemaname = current_schema()
    and s.n_mod_since_analyze > cast(current_setting('autovacuum_analyze_threshold') as float8)
      + cast(current_setting('autovacuum_analyze_scale_factor') as float8) * greatest(c.reltuples, 0)
  order by s.relname`;

/**
 * Analyzes the tables whose statistics are stale (see above); returns their names. On a connection
 * of its own from the pool, not through Kysely: this is upkeep, not a statement of any request, and
 * tests that count a request's statements must not see it.
 */
export async function refreshStaleStatistics(pool: pg.Pool): Promise<string[]> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const lock = await client.query<{ taken: boolean }>(
      `select pg_try_advisory_xact_lock(hashtext('cal:statistics')) as taken`,
    );
    const stale = lock.rows[0]?.taken ? (await client.query<{ relname: string }>(STALE_TABLES)).rows : [];
    for (const { relname } of stale) await client.query(`analyze ${client.escapeIdentifier(relname)}`);
    await client.query('commit');
    return stale.map((r) => r.relname);
  } catch (error) {
    await client.query('rollback').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/** Checks every `intervalMs` (one check at a time) until the returned stop, which waits for a check under way. */
export function keepStatistics(
  pool: pg.Pool,
  intervalMs: number,
  onError: (error: Error) => void,
): () => Promise<void> {
  let running: Promise<void> | null = null;
  const timer = setInterval(() => {
    running ??= refreshStaleStatistics(pool)
      .then(() => undefined, onError)
      .finally(() => {
        running = null;
      });
  }, intervalMs).unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
