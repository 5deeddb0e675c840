import {
  CompiledQuery,
  createQueryId,
  IdentifierNode,
  RawNode,
  SelectQueryNode,
  SqliteDialect,
  SqliteQueryCompiler,
  ValueNode,
  type DatabaseConnection,
  type Driver,
  type LimitNode,
  type QueryCompiler,
  type QueryResult,
  type SqliteDatabase,
} from 'kysely';
import type BetterSqlite3 from 'better-sqlite3';
import { SqliteReaders, type ReaderSetup } from './sqlite-readers.js';
import { threadCpuMs } from '../lib/cpu-clock.js';

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

  override createQueryCompiler(): QueryCompiler {
    return new LiteralLimitCompiler();
  }

  /** The reader threads, when there may be any. */
  get readers(): SqliteReaders | null {
    return this.#driver.readers;
  }
}

/**
 * SQLite's compiler, with a LIMIT that is a whole number written into the statement instead of
 * bound to it. SQLite (3.53, better-sqlite3's) reads the value of a bound LIMIT when it plans, and
 * so prepares such a statement afresh at every run: parsing and planning it again, which for a
 * grid's union of 35 days cost more than running it (a day's first 4 events: about 30 µs bound,
 * 7 to 12 written). Offsets stay bound (SQLite does not plan from them), so a list's pages share
 * one statement per page size. A prepared query (src/db/prepared.ts) writes its LIMIT as a
 * number, not from its arguments: a placeholder would stay bound, and CAL_VERIFY_PREPARED finds
 * its SQL unlike the fresh build's.
 */
class LiteralLimitCompiler extends SqliteQueryCompiler {
  protected override visitLimit(node: LimitNode): void {
    if (ValueNode.is(node.limit) && Number.isSafeInteger(node.limit.value)) {
      this.append(`limit ${String(node.limit.value)}`);
      return;
    }
    super.visitLimit(node);
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

/**
 * Group commit: write transactions that queue for the main connection while one runs join its
 * SQLite transaction, each in a savepoint, and commit with it. A commit writes every page the
 * transaction changed to the WAL (some 44 for a new event: one per table and index it touches,
 * most of them the same pages for the next event) and pays SQLite's checkpoints for them; writers
 * sharing one commit write the shared pages once (16 clients creating events: some 1.3 to 1.5
 * times as many creates a second, a third less CPU each; issue 30's note).
 *
 * - better-sqlite3 runs a transaction without giving the event loop a turn, so other writers
 *   never queue by themselves. When writes come as a stream (one ended under
 *   `groupLimits.streamMs` ago), the first of a group waits one turn before it begins, in which
 *   writes under way queue behind it while statements (reads) still run; SQLite's write lock is
 *   not taken yet, so another connection to the file is not held up either. A lone write does not
 *   wait and commits alone.
 * - A group goes on only while nothing but transactions waits: a statement in line (a read outside
 *   a transaction) ends it and runs in its turn after the commit, so it never reads a write that
 *   has not committed. No writer joins a group of `groupLimits.members` or one begun
 *   `groupLimits.ms` ago.
 * - Each member's commit resolves only when the group's has; a member that fails is rolled back
 *   to its savepoint alone; a commit that fails fails every member (none of them was answered).
 */

/**
 * The most writes a group takes in, and for how long (ms) from its start; tests that must see a
 * whole group on a loaded machine raise the time.
 */
export const groupLimits = {
  members: 32,
  ms: 5,
  /** A transaction that ended less than this long ago (ms) before another begins: writes come as a stream. */
  streamMs: 5,
};
/** The savepoint of a transaction that joined a group (one at a time: members run one after another). */
const MEMBER = 'cal_group_member';

interface Settle {
  resolve(): void;
  reject(error: unknown): void;
}

/** The SQLite transaction a group's members share: open, with the members that ended in it. */
interface Group {
  started: number;
  /** Members that ended well, waiting for the commit (the one ending it is not among them). */
  waiting: Settle[];
}

class SqliteReadersDriver implements Driver {
  readonly #sqlite: BetterSqlite3.Database;
  readonly #database: SqliteDatabase;
  readonly #main = new MainConnection();
  readonly #readers: SqliteReaders | null;
  /** The group of write transactions open on the main connection, if any (see groupLimits). */
  #group: Group | null = null;
  /** When the last transaction ended its work (performance.now()). */
  #lastEnd = -Infinity;
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
              const cpu = threadCpuMs();
              const { rows } = this.run(sql, parameters);
              // The thread's CPU time bounds it: a statement the host took the process off the
              // CPU in the middle of (a busy neighbour) did not cost its wall time.
              return { rows, ms: Math.min(performance.now() - started, threadCpuMs() - cpu) };
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
    await this.#main.lock('transaction');
    routed.holdsMain = true;
    // A group is open only when the transaction before this one handed the connection on to it.
    routed.member = this.#group !== null;
    // Under a stream of writes, the first of a group waits one turn of the event loop before
    // SQLite's write lock is taken, so that writes under way queue behind it (groupLimits);
    // statements use the connection meanwhile.
    if (!routed.member && !this.#main.transactionWaits && performance.now() - this.#lastEnd < groupLimits.streamMs)
      await this.#main.holdTurn();
    try {
      // Through the connection, so Kysely's logging sees it as with its own driver.
      await connection.executeQuery(CompiledQuery.raw(routed.member ? `savepoint ${MEMBER}` : 'begin'));
    } catch (error) {
      // Kysely only releases the connection now: the members waiting in the group must not be left open.
      if (routed.member) await this.#commitGroup(connection).catch(() => undefined);
      throw error;
    }
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const routed = connection as RoutedConnection;
    this.#lastEnd = performance.now();
    if (routed.member) await connection.executeQuery(CompiledQuery.raw(`release ${MEMBER}`));
    const group = (this.#group ??= { started: performance.now(), waiting: [] });
    if (this.#groupGoesOn(group)) {
      const committed = new Promise<void>((resolve, reject) => group.waiting.push({ resolve, reject }));
      // The next writer runs in the same SQLite transaction; this one's commit is the group's.
      this.#handOn(routed);
      return committed;
    }
    await this.#commitGroup(connection);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const routed = connection as RoutedConnection;
    this.#lastEnd = performance.now();
    // It ended well and handed the connection on; its group's commit failed (and was rolled back).
    if (!routed.holdsMain) return;
    const group = this.#group;
    if (!this.#sqlite.inTransaction) {
      // SQLite ended the transaction itself (a full disk, an I/O error): the group's earlier members went with it.
      this.#group = null;
      for (const member of group?.waiting ?? []) member.reject(new Error('SQLite rolled back the write transaction'));
      return;
    }
    if (!routed.member) {
      // It began the transaction and no member ended in it yet, or its commit failed: all of it goes.
      this.#group = null;
      await connection.executeQuery(CompiledQuery.raw('rollback'));
      for (const member of group?.waiting ?? []) member.reject(new Error('the write transaction was rolled back'));
      return;
    }
    await connection.executeQuery(CompiledQuery.raw(`rollback to ${MEMBER}`));
    await connection.executeQuery(CompiledQuery.raw(`release ${MEMBER}`));
    // The members before it keep their work: the group goes on, or commits now.
    if (this.#groupGoesOn(group!)) return this.#handOn(routed);
    await this.#commitGroup(connection).catch(() => undefined);
  }

  /** Passes the main connection, and the open group with it, to the next transaction in line. */
  #handOn(routed: RoutedConnection): void {
    routed.holdsMain = false;
    this.#main.unlock();
  }

  /** Whether the group stays open for the next writer: only transactions wait, and it has room and time left. */
  #groupGoesOn(group: Group): boolean {
    return (
      this.#main.onlyTransactionsWait &&
      group.waiting.length + 1 < groupLimits.members &&
      performance.now() - group.started < groupLimits.ms
    );
  }

  /** Commits the open group through `connection` (its last member's), settling the members that wait for it. */
  async #commitGroup(connection: DatabaseConnection): Promise<void> {
    const waiting = this.#group?.waiting ?? [];
    this.#group = null;
    try {
      await connection.executeQuery(CompiledQuery.raw('commit'));
    } catch (error) {
      if (this.#sqlite.inTransaction)
        await connection.executeQuery(CompiledQuery.raw('rollback')).catch(() => undefined);
      for (const member of waiting) member.reject(error);
      throw error;
    }
    for (const member of waiting) member.resolve();
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
    if (!held) await this.#main.lock('statement');
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
    await this.#main.lock('statement');
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
  /** Its transaction joined an open group, in a savepoint (see groupLimits). */
  member = false;
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

type Use = 'transaction' | 'statement';

/**
 * The main connection runs one transaction (or statement) at a time, as Kysely's SQLite mutex
 * has it, handed on in the order asked for; what waits in line decides whether a group of write
 * transactions goes on. A transaction that waits a turn to start a group (`holdTurn`) lets
 * statements have the connection meanwhile, and keeps later transactions in line behind it.
 */
class MainConnection {
  #held = false;
  /** A transaction is waiting its turn (holdTurn): statements may take the connection, transactions queue. */
  #turn: { resume: (() => void) | null } | null = null;
  readonly #line: { use: Use; take: () => void }[] = [];

  lock(use: Use): Promise<void> {
    if (!this.#held && (use === 'statement' || !this.#turn)) {
      this.#held = true;
      return Promise.resolve();
    }
    return new Promise((take) => this.#line.push({ use, take }));
  }

  unlock(): void {
    // A transaction whose turn is over takes the connection back first.
    const resume = this.#turn?.resume;
    if (resume) {
      this.#turn!.resume = null;
      return resume();
    }
    const index = this.#turn ? this.#line.findIndex((waiting) => waiting.use === 'statement') : 0;
    if (index >= 0 && index < this.#line.length) return this.#line.splice(index, 1)[0]!.take();
    this.#held = false;
  }

  /**
   * Gives up the connection for one turn of the event loop to statements only (a transaction
   * holding it calls this before it begins), then takes it back ahead of every transaction that
   * asked for it meanwhile.
   */
  async holdTurn(): Promise<void> {
    const turn: { resume: (() => void) | null } = { resume: null };
    this.#turn = turn;
    this.unlock();
    await new Promise((resolve) => setImmediate(resolve));
    if (this.#held) await new Promise<void>((resume) => (turn.resume = resume));
    else this.#held = true;
    this.#turn = null;
  }

  /** A transaction waits for the connection (statements may too). */
  get transactionWaits(): boolean {
    return this.#line.some((waiting) => waiting.use === 'transaction');
  }

  /** Transactions, and only transactions, wait for the connection. */
  get onlyTransactionsWait(): boolean {
    return this.#line.length > 0 && this.#line.every((waiting) => waiting.use === 'transaction');
  }
}
