import type BetterSqlite3 from 'better-sqlite3';
import path from 'node:path';
import { Kysely, Migrator, PostgresDialect, type Migration } from 'kysely';
import type { Database, Db } from './database.js';
import type { DialectName } from './dialect.js';
import { sqliteDatabase } from './sqlite-statements.js';
import { bulkCache, tuneSqliteMemory } from './sqlite-memory.js';
import { addSqliteFunctions } from './sqlite-functions.js';
import { SqliteReadersDialect } from './sqlite-dialect.js';
import { useNamedStatements } from './pg-named.js';
import { keepStatistics } from './pg-statistics.js';
import type { SqliteReaders } from './sqlite-readers.js';
import { privateDirectory, privateFiles, withPrivateUmask } from '../lib/private-files.js';

/**
 * A migration imported when it runs: a database already at this version (every start but the
 * first, every `cal-events` command) loads none of them, nor what they import (sanitize-html for
 * 020: half a second of a command's start-up).
 */
function lazy(load: () => Promise<Migration>): Migration {
  return {
    up: async (db) => (await load()).up(db),
    down: async (db) => (await load()).down?.(db),
  };
}

/** Migrations in order; listed here (not read from disk) so they run the same from src/ and dist/. */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '001_initial': lazy(() => import('./migrations/001_initial.js')),
  '002_linked_title_ci': lazy(() => import('./migrations/002_linked_title_ci.js')),
  '003_terms': lazy(() => import('./migrations/003_terms.js')),
  '004_event_window': lazy(() => import('./migrations/004_event_window.js')),
  '005_term_groups': lazy(() => import('./migrations/005_term_groups.js')),
  '006_monotonic_ids': lazy(() => import('./migrations/006_monotonic_ids.js')),
  '007_search_trigram': lazy(() => import('./migrations/007_search_trigram.js')),
  '008_auth_version': lazy(() => import('./migrations/008_auth_version.js')),
  '009_event_window_counts': lazy(() => import('./migrations/009_event_window_counts.js')),
  '010_feed_status': lazy(() => import('./migrations/010_feed_status.js')),
  '011_imports': lazy(() => import('./migrations/011_imports.js')),
  '012_search_fts': lazy(() => import('./migrations/012_search_fts.js')),
  '013_event_term_window_counts': lazy(() => import('./migrations/013_event_term_window_counts.js')),
  '015_recurrence': lazy(() => import('./migrations/015_recurrence.js')),
  '016_change_log': lazy(() => import('./migrations/016_change_log.js')),
  '017_webhooks': lazy(() => import('./migrations/017_webhooks.js')),
  '018_event_facet_window_counts': lazy(() => import('./migrations/018_event_facet_window_counts.js')),
  '019_search_counts': lazy(() => import('./migrations/019_search_counts.js')),
  '020_sanitize_html': lazy(() => import('./migrations/020_sanitize_html.js')),
  '021_protected_events': lazy(() => import('./migrations/021_protected_events.js')),
  '022_sessions': lazy(() => import('./migrations/022_sessions.js')),
  '023_events_status_index': lazy(() => import('./migrations/023_events_status_index.js')),
  '024_submissions': lazy(() => import('./migrations/024_submissions.js')),
  '025_link_order': lazy(() => import('./migrations/025_link_order.js')),
  '026_write_order': lazy(() => import('./migrations/026_write_order.js')),
  '027_multiday_index': lazy(() => import('./migrations/027_multiday_index.js')),
  '028_multiday_index_status': lazy(() => import('./migrations/028_multiday_index_status.js')),
  '029_search_counts_sliced': lazy(() => import('./migrations/029_search_counts_sliced.js')),
  '030_featured_index': lazy(() => import('./migrations/030_featured_index.js')),
  '031_public_start_end': lazy(() => import('./migrations/031_public_start_end.js')),
  '032_search_words_folding': lazy(() => import('./migrations/032_search_words_folding.js')),
  '033_search_index_queue': lazy(() => import('./migrations/033_search_index_queue.js')),
  '034_webhook_record_order': lazy(() => import('./migrations/034_webhook_record_order.js')),
};

/** Names of the migrations this version knows (a backup that ran others was made by a later version). */
export const MIGRATION_NAMES: readonly string[] = Object.keys(MIGRATIONS);

/** The embedded database's file in DATA_DIR. */
export const SQLITE_FILE = 'calendar.sqlite';

// Where it always was for its callers; in a file of its own so reader threads load it alone.
export { addSqliteFunctions };

export interface Storage {
  db: Db;
  dialect: DialectName;
  /** SQLite's reader threads (sqlite-readers.ts), when reads may run in them; tests look at them. */
  readers?: SqliteReaders | undefined;
  /**
   * Runs `work`, a long run of writes (an import), with the memory it needs to keep a steady
   * pace: on SQLite a larger page cache for the main connection meanwhile (sqlite-memory.ts).
   */
  bulkWrites<T>(work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface StorageOptions {
  dataDir: string;
  databaseUrl?: string | undefined;
  /** PostgreSQL: most connections in the pool (CAL_PG_POOL_SIZE; 10 when not given). */
  pgPoolSize?: number | undefined;
  /**
   * PostgreSQL: how often stale planner statistics are looked for and refreshed (pg-statistics.ts),
   * in ms; 10 s when not given, 0 for never.
   */
  statisticsIntervalMs?: number | undefined;
  /** Sees every SQL statement; used by tests that assert a constant number of queries, and bench/explain-lists.ts. */
  onQuery?: (sql: string, durationMs: number, parameters: readonly unknown[]) => void;
  /**
   * SQLite: most reader threads (CAL_SQLITE_READERS: the service passes it); none by default, so a
   * command, a test or a script runs every statement on the main connection and starts no thread.
   */
  sqliteReaders?: number | undefined;
}

/**
 * Opens the database: PostgreSQL when `databaseUrl` is set, else SQLite (WAL) in `dataDir`, a
 * directory of the service user's alone (0700, its files 0600: see lib/private-files.ts).
 * Only the driver in use is loaded (each costs memory the other back end never needs).
 * Nothing is migrated here; call {@link migrate}.
 */
export async function connect(options: StorageOptions): Promise<Storage> {
  const log = options.onQuery
    ? {
        log: (e: { query: { sql: string; parameters: readonly unknown[] }; queryDurationMillis: number }) =>
          options.onQuery?.(e.query.sql, e.queryDurationMillis, e.query.parameters),
      }
    : {};
  if (options.databaseUrl) {
    const { default: pg } = await import('pg');
    // COUNT(*) and BIGINT come back as strings from pg by default; our counts and ids fit in a double.
    pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));
    pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number.parseFloat(v));
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.pgPoolSize ?? 10 });
    useNamedStatements(pool, pg.Query);
    // An idle connection the server closes (restart, failover, a dropped database) is discarded by
    // the pool; without a listener its 'error' event would crash the process.
    pool.on('error', (err) => process.emitWarning(`PostgreSQL connection lost: ${err.message}`));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), ...log });
    const interval = options.statisticsIntervalMs ?? 10_000;
    const stopStatistics =
      interval > 0
        ? keepStatistics(pool, interval, (err) => process.emitWarning(`Statistics not refreshed: ${err.message}`))
        : async () => undefined;
    return {
      db,
      dialect: 'postgres',
      bulkWrites: (work) => work(),
      close: async () => {
        await stopStatistics();
        await db.destroy();
      },
    };
  }
  privateDirectory(options.dataDir);
  const file = path.join(options.dataDir, SQLITE_FILE);
  // Made 0644 by earlier versions. SQLite gives the WAL and shared-memory files it makes later the
  // database's own mode, so a 0600 database keeps them 0600 too.
  privateFiles(file, `${file}-wal`, `${file}-shm`);
  const { default: SQLite } = await import('better-sqlite3');
  const sqlite = withPrivateUmask(() => {
    const opened = new SQLite(file);
    opened.pragma('journal_mode = WAL');
    return opened;
  });
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  tuneSqliteMemory(sqlite);
  // The planner's statistics, as SQLite advises for every connection it opens: without them it
  // prefers the (lang, start_local) index that orders a list over the index of its venue or term,
  // and walks thousands of events for a page of one venue. Not bounded (SQLite's advice is 400
  // rows an index): a bounded ANALYZE reads the first rows of each index, which all share its
  // first columns (one language, one status), and tells the planner that `lang = ? and status = ?`
  // names 401 events of a million; after a migration added an index, a venue's month then took
  // 10 s at a million events instead of 0.1 s. Optimize analyzes only a table whose statistics
  // are missing or that grew tenfold: about 3 s for a million events, rarely.
  sqlite.pragma('analysis_limit = 0');
  sqlite.pragma('optimize = 0x10002');
  withoutSamples(sqlite);
  // And again as the data grows, as SQLite advises for long-lived connections (between
  // transactions: a transaction may hold the main connection across requests).
  const optimizer = setInterval(() => {
    if (sqlite.inTransaction) return;
    sqlite.pragma('optimize');
    withoutSamples(sqlite);
  }, 6 * 3_600_000).unref();
  addSqliteFunctions(sqlite);
  // The readers copy the main connection's settings that bear on reading (memory, waits), and never write.
  const pragmas = ['busy_timeout', 'cache_size', 'mmap_size', 'temp_store'].map(
    (name) => `${name} = ${String(sqlite.pragma(name, { simple: true }))}`,
  );
  const dialect = new SqliteReadersDialect(sqlite, sqliteDatabase(sqlite), {
    setup: { file, pragmas: [...pragmas, 'query_only = 1'] },
    max: options.sqliteReaders ?? 0,
  });
  const db = new Kysely<Database>({ dialect, ...log });
  return {
    db,
    dialect: 'sqlite',
    readers: dialect.readers ?? undefined,
    bulkWrites: bulkCache(sqlite),
    close: () => {
      clearInterval(optimizer);
      return db.destroy();
    },
  };
}

/** Whether migrations this build knows have not run on the database (readiness checks it). */
export async function migrationsPending(db: Db): Promise<boolean> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
  return (await migrator.getMigrations()).some((m) => m.executedAt === undefined);
}

/**
 * Brings the schema up to date (or to `target`, a migration name: tests of a migration start from
 * the one before it); throws (and so stops start-up) on any failure.
 */
export async function migrate(db: Db, target?: string): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
  const { error, results } = target === undefined ? await migrator.migrateToLatest() : await migrator.migrateTo(target);
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Database migration failed${failed ? ` at ${failed.migrationName}` : ''}`, { cause: error });
  }
}

/**
 * ANALYZE keeps, beside each index's averages (sqlite_stat1), samples of its keys (sqlite_stat4,
 * with the SQLITE_ENABLE_STAT4 that better-sqlite3 builds). A statement whose plan read a sample
 * for a bound value (`start_local >= ?`, `lang = ?`: nearly every list) is prepared afresh, parsed
 * and planned again, at every run: a day of a month grid cost 103 µs instead of 9 at a million
 * events, and a month page 40 % of its time. The averages choose the same indexes for our
 * statements (bench/explain-lists.ts at a million events; the partial indexes, featured events'
 * for one, carry their own row counts), so the samples are dropped after each ANALYZE and the
 * planner reads the statistics again.
 */
function withoutSamples(sqlite: BetterSqlite3.Database): void {
  const samples = sqlite.prepare("select 1 from sqlite_schema where name = 'sqlite_stat4'").get();
  if (!samples || !sqlite.prepare('select 1 from sqlite_stat4 limit 1').get()) return;
  sqlite.exec('delete from sqlite_stat4; analyze sqlite_schema');
}
