import {
  CompiledQuery,
  createQueryId,
  IdentifierNode,
  RawNode,
  SelectQueryNode,
  SqliteDialect,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  type SqliteDatabase,
} from 'kysely';
import type BetterSqlite3 from 'better-sqlite3';
import { SqliteReaders, type ReaderSetup } from './sqlite-readers.js';

/**
 * Kysely's SQLite dialect with reads sent to reader threads (sqlite-readers.ts): a statement that
 * only reads and runs outside a transaction goes to a thread; every write, and everything in a
 * transaction, runs on the main connection, one at a time as with Kysely's own SQLite driver (a
 * transaction holds the main connection from `begin` to its end). A read sent after a commit
 * returned sees it: WAL gives each new statement the last committed state.
 */
export class SqliteReadersDialect extends SqliteDialect {
  readonly #driver: SqliteReadersDriver;

  /**
   * `sqlite`: the main connection, `database` the same as Kysely's SQLite dialect takes it;
   * `readers`: what the threads open and how many may run (none: everything on the main connection).
   */
  constructor(sqlite: BetterSqlite3.Database, database: SqliteDatabase, readers: ReaderThreads | null) {
    super({ database });
    this.#driver = new SqliteReadersDriver(sqlite, database, readers);
  }

  override createDriver(): Driver {
    return this.#driver;
  }

  /** The reader threads, when there may be any. */
  get readers(): SqliteReaders | null {
    return this.#driver.readers;
  }
}

export interface ReaderThreads {
  setup: ReaderSetup;
  max: number;
}

type SavepointCompiler = (node: RawNode, queryId: ReturnType<typeof createQueryId>) => CompiledQuery;

/** As Kysely's own driver words them (its parser is not exported). */
function savepointNode(command: string, name: string): RawNode {
  return RawNode.createWithChildren([RawNode.createWithSql(`${command} `), IdentifierNode.create(name)]);
}

/** Raw statements whose read-only answer is known (bounded: raw SQL rarely varies). */
const MAX_KNOWN = 500;

class SqliteReadersDriver implements Driver {
  readonly #sqlite: BetterSqlite3.Database;
  readonly #database: SqliteDatabase;
  readonly #main = new Mutex();
  readonly #readers: SqliteReaders | null;
  readonly #rawReadOnly = new Map<string, boolean>();
  /** Connections are plain routing objects, reused so Kysely wraps each with its logging once. */
  readonly #free: RoutedConnection[] = [];

  constructor(sqlite: BetterSqlite3.Database, database: SqliteDatabase, readers: ReaderThreads | null) {
    this.#sqlite = sqlite;
    this.#database = database;
    this.#readers =
      readers && readers.max > 0
        ? new SqliteReaders(readers.setup, readers.max, (sql, parameters) =>
            this.#exclusive(() => {
              const started = performance.now();
              const { rows } = this.run(sql, parameters);
              return { rows, ms: performance.now() - started };
            }),
          )
        : null;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return this.#free.pop() ?? new RoutedConnection(this);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const routed = connection as RoutedConnection;
    if (routed.holdsMain) {
      routed.holdsMain = false;
      this.#main.unlock();
    }
    this.#free.push(routed);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const routed = connection as RoutedConnection;
    await this.#main.lock();
    routed.holdsMain = true;
    // Through the connection, so Kysely's logging sees it as with its own driver.
    await connection.executeQuery(CompiledQuery.raw('begin'));
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('commit'));
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('rollback'));
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: SavepointCompiler): Promise<void> {
    await connection.executeQuery(compile(savepointNode('savepoint', name), createQueryId()));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: SavepointCompiler): Promise<void> {
    await connection.executeQuery(compile(savepointNode('rollback to', name), createQueryId()));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: SavepointCompiler): Promise<void> {
    await connection.executeQuery(compile(savepointNode('release', name), createQueryId()));
  }

  async destroy(): Promise<void> {
    await this.#readers?.close();
    this.#database.close();
  }

  /** The reader threads, when there are any (tests look at them). */
  get readers(): SqliteReaders | null {
    return this.#readers;
  }

  /** Runs a statement of a connection: in a thread when it only reads and no transaction is open on it. */
  execute(connection: RoutedConnection, query: CompiledQuery): Promise<QueryResult<unknown>> {
    if (connection.holdsMain) return Promise.resolve(this.run(query.sql, query.parameters));
    if (this.#readers && this.#readsOnly(query))
      return this.#readers.run(query.sql, query.parameters).then((rows) => ({ rows }));
    return this.#exclusive(() => this.run(query.sql, query.parameters));
  }

  async *stream(connection: RoutedConnection, query: CompiledQuery): AsyncIterableIterator<QueryResult<unknown>> {
    if (!SelectQueryNode.is(query.query)) throw new Error('Sqlite driver only supports streaming of select queries');
    const held = connection.holdsMain;
    if (!held) await this.#main.lock();
    try {
      for (const row of this.#database.prepare(query.sql).iterate(query.parameters)) yield { rows: [row] };
    } finally {
      if (!held) this.#main.unlock();
    }
  }

  /** On the main connection, as Kysely's SqliteConnection runs it. */
  run(sql: string, parameters: readonly unknown[]): QueryResult<unknown> {
    const statement = this.#database.prepare(sql);
    if (statement.reader) return { rows: statement.all(parameters) };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return {
      numAffectedRows: changes === undefined || changes === null ? undefined : BigInt(changes),
      insertId: lastInsertRowid === undefined || lastInsertRowid === null ? undefined : BigInt(lastInsertRowid),
      rows: [],
    };
  }

  async #exclusive<T>(work: () => T): Promise<T> {
    await this.#main.lock();
    try {
      return work();
    } finally {
      this.#main.unlock();
    }
  }

  /**
   * A compiled select only reads (SQLite has no writing CTEs). Raw SQL reads when it is a select
   * (or `with … select`) SQLite itself calls read-only: `begin` and pragmas are read-only to
   * SQLite but belong to the main connection.
   */
  #readsOnly(query: CompiledQuery): boolean {
    if (SelectQueryNode.is(query.query)) return true;
    if (!RawNode.is(query.query) || !/^\s*(select|with)\b/i.test(query.sql)) return false;
    let known = this.#rawReadOnly.get(query.sql);
    if (known === undefined) {
      known = this.#sqlite.prepare(query.sql).readonly;
      if (this.#rawReadOnly.size >= MAX_KNOWN) this.#rawReadOnly.clear();
      this.#rawReadOnly.set(query.sql, known);
    }
    return known;
  }
}

class RoutedConnection implements DatabaseConnection {
  /** Holds the main connection: inside a transaction, from `begin` to its release. */
  holdsMain = false;
  readonly #driver: SqliteReadersDriver;

  constructor(driver: SqliteReadersDriver) {
    this.#driver = driver;
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.#driver.execute(this, query) as Promise<QueryResult<R>>;
  }

  streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    return this.#driver.stream(this, query) as AsyncIterableIterator<QueryResult<R>>;
  }
}

/** Kysely's SQLite mutex: the main connection runs one transaction (or statement) at a time. */
class Mutex {
  #promise: Promise<void> | undefined;
  #resolve: (() => void) | undefined;

  async lock(): Promise<void> {
    while (this.#promise) await this.#promise;
    this.#promise = new Promise((resolve) => (this.#resolve = resolve));
  }

  unlock(): void {
    const resolve = this.#resolve;
    this.#promise = undefined;
    this.#resolve = undefined;
    resolve?.();
  }
}
