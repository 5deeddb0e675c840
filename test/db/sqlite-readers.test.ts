import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { connect, migrate, SQLITE_FILE, type Storage } from '../../src/db/connect.js';
import { StatementCosts } from '../../src/db/sqlite-readers.js';
import { isValidTimezone } from '../../src/lib/dates.js';
import { createUser } from '../../src/modules/users/user.service.js';
import { injector, queryCounter, type QueryCounter, type TestApp } from '../helpers/app.js';

/**
 * SQLite's reads in worker threads (src/db/sqlite-readers.ts): over HTTP and through Kysely, on a
 * service with reader threads as server.ts starts it (CAL_SQLITE_READERS), SQLite only (PostgreSQL
 * has a pool of connections).
 */

const EVENTS = '/cal/events/v1/events';

/** A statement that keeps a thread busy a while (some hundreds of ms): counts two million rows. */
const slowCount = sql<{
  n: number;
}>`with recursive c(x) as (select 1 union all select x + 1 from c where x < 2000000) select count(*) as n from c`;

interface Service {
  app: FastifyInstance;
  storage: Storage;
  request: TestApp['request'];
  dataDir: string;
  /** The statements onQuery saw, told apart from the background's (the workers' rounds, every second). */
  queries: QueryCounter;
  editor: string;
  close(): Promise<void>;
}

/** A route of the tests' own that runs `slowCount`, so that a slow read is asked over HTTP. */
const SLOW_ROUTE = '/test/slow-count';
/** The contract's body of a read refused (ServiceUnavailable, src/http/errors.ts). */
const BUSY = {
  code: 'rest_service_unavailable',
  message: 'The service is overloaded. Try again shortly.',
  data: { status: 503 },
};
/** The same read in a streamed answer, as a feed or a page makes one: before its first byte. */
const SLOW_STREAM_ROUTE = '/test/slow-stream';

async function startService(readers: number, warm = true): Promise<Service> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-test-'));
  const config = loadConfig(
    { DATA_DIR: dataDir, LOG_LEVEL: 'silent', CAL_MAX_EVENT_LOOP_DELAY_MS: '0', CAL_METRICS: '1' },
    isValidTimezone,
  );
  const queries = queryCounter();
  const storage = await connect({
    dataDir: config.dataDir,
    sqliteReaders: readers,
    onQuery: (text) => queries.observe(text),
  });
  await migrate(storage.db);
  const app = await buildApp(config, { storage, logger: false });
  app.get(SLOW_ROUTE, async () => (await slowCount.execute(storage.db)).rows[0]);
  app.get(SLOW_STREAM_ROUTE, (_request, reply) =>
    reply
      .type('text/calendar; charset=utf-8')
      .header('ETag', '"stream"')
      .send(
        Readable.from(
          (async function* () {
            const { rows } = await slowCount.execute(storage.db);
            yield `COUNTED:${rows[0]!.n}\r\n`.repeat(100);
          })(),
        ),
      ),
  );
  await app.ready();
  const { user, application_password } = await createUser(storage.db, { username: 'editor1', role: 'editor' });
  // Every thread ready, so each read below goes to one (until then reads run on the main connection).
  if (warm) await storage.readers?.warm();
  return {
    app,
    storage,
    request: injector(app),
    dataDir,
    queries,
    editor: `Basic ${Buffer.from(`${user.username}:${application_password}`).toString('base64')}`,
    async close() {
      await app.close();
      await storage.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const ran = (s: Service): number => s.storage.readers!.stats().ran;

/** A sample of GET /metrics, by its name and labels as printed (`cal_sqlite_reads_total{outcome="thread"}`). */
async function metric(s: Service, series: string): Promise<number> {
  const { body } = await s.request({ url: '/metrics' });
  const line = body.split('\n').find((text: string) => text.startsWith(`${series} `));
  assert.ok(line, `${series} in /metrics`);
  return Number(line.slice(series.length + 1));
}

describe("SQLite reader threads' statement costs", () => {
  it('should call a statement quick after twenty quick runs, not after one long run until it is typically quick again, and never once slow', () => {
    const costs = new StatementCosts();
    assert.equal(costs.quick('a'), false, 'never run');
    assert.equal(costs.slow('a'), false);
    for (let i = 0; i < 19; i += 1) costs.measured('a', 0.3);
    assert.equal(costs.quick('a'), false, 'run 19 times');
    costs.measured('a', 0.3);
    assert.equal(costs.quick('a'), true);
    // A run a busy host stretched (a thread's runs are timed by the clock): out of the main
    // connection for a few runs, not for good.
    costs.measured('a', 30);
    assert.equal(costs.quick('a'), false);
    let runs = 0;
    for (; !costs.quick('a') && runs < 10; runs += 1) costs.measured('a', 0.3);
    assert.ok(costs.quick('a') && runs <= 3, `quick again after ${runs} runs`);
    assert.equal(costs.slow('a'), false);
    // Once slow (50 ms: it held the loop that long), never quick again: its values may make it slow.
    costs.measured('a', 60);
    for (let i = 0; i < 100; i += 1) costs.measured('a', 0.3);
    assert.equal(costs.quick('a'), false);
    assert.equal(costs.slow('a'), true);
  });
});

describe('SQLite reads in worker threads', () => {
  let s: Service;
  before(async () => {
    s = await startService(2);
  });
  after(() => fs.rmSync(s.dataDir, { recursive: true, force: true }));

  it('should answer reads from a thread, each seeing the write committed just before it', async () => {
    assert.deepEqual(s.storage.readers!.stats().ready, 2);
    const created = await s.request({
      method: 'POST',
      url: EVENTS,
      auth: s.editor,
      payload: {
        title: 'Version 0',
        status: 'publish',
        start_date: '2031-05-01 10:00:00',
        end_date: '2031-05-01 11:00:00',
      },
    });
    assert.equal(created.statusCode, 201, created.body);
    const id = created.data.id as number;
    const before = ran(s);
    for (let version = 1; version <= 10; version += 1) {
      const updated = await s.request({
        method: 'PATCH',
        url: `${EVENTS}/${id}`,
        auth: s.editor,
        payload: { title: `Version ${version}` },
      });
      assert.equal(updated.statusCode, 200, updated.body);
      const single = await s.request({ url: `${EVENTS}/${id}` });
      assert.equal(single.data.title, `Version ${version}`);
      const list = await s.request({ url: `${EVENTS}?start_date=2031-05-01&end_date=2031-05-01` });
      assert.deepEqual(
        list.data.events.map((e: { title: string }) => e.title),
        [`Version ${version}`],
      );
    }
    // Each statement in a thread until it is known to be quick (20 runs under a millisecond).
    assert.ok(ran(s) - before >= 20, `${ran(s) - before} reads in threads`);
  });

  it('should answer requests while a slow read runs in a thread', async () => {
    const created = await s.request({
      method: 'POST',
      url: EVENTS,
      auth: s.editor,
      payload: {
        title: 'Beside a slow read',
        status: 'publish',
        start_date: '2031-06-01 10:00:00',
        end_date: '2031-06-01 11:00:00',
      },
    });
    let slowDone = false;
    const slow = slowCount.execute(s.storage.db).then((result) => {
      slowDone = true;
      return result;
    });
    // On the main connection the slow read would stop the loop: nothing would answer before it ends.
    const answered: number[] = [];
    while (!slowDone && answered.length < 6) {
      const live = await s.request({ url: '/health/live' });
      const single = await s.request({ url: `${EVENTS}/${created.data.id}` });
      assert.equal(single.data.title, 'Beside a slow read');
      if (!slowDone) answered.push(live.statusCode, single.statusCode);
    }
    assert.deepEqual(answered, [200, 200, 200, 200, 200, 200]);
    assert.equal((await slow).rows[0]!.n, 2_000_000);
  });

  it('should run a read known to be quick on the main connection, and send it back to the threads once it is not', async () => {
    // Learnt in the threads: 20 runs, none as long as a millisecond. On a loaded host one run may
    // take longer, and that text is then never quick: learn the same read under another text.
    let upTo!: (n: number) => Promise<{ rows: { n: number }[] }>;
    for (let attempt = 0; ; attempt += 1) {
      const tag = sql.raw(`/* attempt ${attempt} */`);
      upTo = (n) =>
        sql<{
          n: number;
        }>`with recursive c(x) as (select 1 union all select x + 1 from c where x < ${n}) select count(*) as n ${tag} from c`.execute(
          s.storage.db,
        );
      for (let i = 0; i < 20; i += 1) await upTo(2);
      const learnt = s.storage.readers!.stats().quick;
      await upTo(2);
      if (s.storage.readers!.stats().quick > learnt) break;
      assert.ok(attempt < 50, 'a read of two rows was never learnt quick');
    }
    let slowDone = 0;
    const slow = [slowCount.execute(s.storage.db), slowCount.execute(s.storage.db)].map((read) =>
      read.then(() => (slowDone += 1)),
    );
    const { quick } = s.storage.readers!.stats();
    // On the main connection: it need not wait for a thread, all busy with the slow reads.
    assert.deepEqual((await upTo(2)).rows, [{ n: 2 }]);
    assert.equal(slowDone, 0);
    assert.equal(s.storage.readers!.stats().quick, quick + 1);
    await Promise.all(slow);
    // Its values make it long once (on the main connection): from then on it runs in a thread.
    assert.deepEqual((await upTo(300_000)).rows, [{ n: 300_000 }]);
    const threadReads = ran(s);
    assert.deepEqual((await upTo(2)).rows, [{ n: 2 }]);
    assert.equal(ran(s), threadReads + 1);
    assert.equal(s.storage.readers!.stats().quick, quick + 2);
  });

  it('should refuse a slow read at once, rather than queue it, when four per thread wait, answered 503 in the contract body', async () => {
    // Known slow already (the tests above ran it): each waits for a thread. Two run, eight wait,
    // the last two are refused, and the service's error handler answers those, and only those.
    const answers = await Promise.all(Array.from({ length: 12 }, () => s.request({ url: SLOW_ROUTE })));
    const busy = answers.filter((answer) => answer.statusCode === 503);
    assert.equal(busy.length, 2);
    for (const answer of busy) {
      assert.deepEqual(answer.data, BUSY);
      assert.equal(answer.headers['retry-after'], '2');
    }
    assert.deepEqual(
      answers.filter((answer) => answer.statusCode === 200).map((answer) => answer.data),
      Array.from({ length: 10 }, () => ({ n: 2_000_000 })),
    );
    assert.equal(await metric(s, 'cal_sqlite_reads_total{outcome="refused"}'), 2);
    assert.equal(await metric(s, 'cal_sqlite_reader_threads'), 2);
  });

  it('should answer a streamed answer refused before its first byte with the plain 503, none of the stream’s coding or tag', async () => {
    const stream = () => s.request({ url: SLOW_STREAM_ROUTE, headers: { 'accept-encoding': 'gzip' } });
    const whole = await stream();
    assert.equal(whole.statusCode, 200);
    assert.equal(whole.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(whole.rawPayload).toString(), 'COUNTED:2000000\r\n'.repeat(100));
    // Both threads busy and eight waiting: the stream's read is refused.
    const busy = Array.from({ length: 10 }, () => slowCount.execute(s.storage.db));
    const refused = await stream();
    await Promise.all(busy);
    assert.equal(refused.statusCode, 503);
    assert.equal(refused.headers['content-encoding'], undefined, 'the error is not gzip');
    assert.equal(refused.headers['etag'], undefined);
    assert.match(String(refused.headers['content-type']), /^application\/json/);
    assert.deepEqual(JSON.parse(refused.body), BUSY);
  });

  // On the main connection alone, the read outside the transaction would wait for it: the timeout ends that.
  it(
    'should run a transaction on the main connection, where reads see its own writes and threads do not',
    { timeout: 20_000 },
    async () => {
      const setting = (db: Storage['db']) =>
        db.selectFrom('settings').select('value').where('key', '=', 'readers-test').executeTakeFirst();
      await s.storage.db.insertInto('settings').values({ key: 'readers-test', value: 'committed' }).execute();
      const threadReads = ran(s);
      const { value, texts } = await s.queries.during(async () => {
        const [inside, outside] = await s.storage.db.transaction().execute(async (trx) => {
          await trx.updateTable('settings').set({ value: 'uncommitted' }).where('key', '=', 'readers-test').execute();
          return [await setting(trx), await setting(s.storage.db)];
        });
        return { inside, outside, after: await setting(s.storage.db) };
      });
      assert.deepEqual(value.inside, { value: 'uncommitted' });
      // Read in a thread while the transaction was open: the state committed before it (the main
      // connection would have answered the uncommitted one). At least that read: the background's
      // may have run in a thread meanwhile too.
      assert.deepEqual(value.outside, { value: 'committed' });
      assert.ok(ran(s) - threadReads >= 1);
      assert.deepEqual(value.after, { value: 'uncommitted' });
      // onQuery saw each statement once: begin, update, the two selects, commit, the last select.
      assert.deepEqual(
        texts.map((text) => text.split(' ')[0]),
        ['begin', 'update', 'select', 'select', 'commit', 'select'],
      );
    },
  );

  it('should survive a thread that stops mid-read: the read runs again on the main connection, the next in a new thread', async () => {
    const retried = s.storage.readers!.stats().retried;
    const slow = sql<{
      n: number;
    }>`with recursive c(x) as (select 1 union all select x + 1 from c where x < 100000) select count(*) as n from c`.execute(
      s.storage.db,
    );
    await s.storage.readers!.terminate();
    assert.equal((await slow).rows[0]!.n, 100_000);
    // At least this read: a read of the app's background (the webhook and mail workers' rounds,
    // every second) may have been in a thread too when they stopped, and runs again as well.
    assert.ok(s.storage.readers!.stats().retried >= retried + 1, JSON.stringify(s.storage.readers!.stats()));
    await s.storage.readers!.warm();
    const before = ran(s);
    const next = await sql<{ n: number }>`select count(*) as n from events where id > ${0}`.execute(s.storage.db);
    assert.ok(next.rows[0]!.n > 0);
    assert.equal(ran(s), before + 1);
  });

  it('should end the threads and their connections when the storage closes', async () => {
    assert.equal(s.storage.readers!.stats().threads, 2);
    await s.app.close();
    await s.storage.close();
    assert.equal(s.storage.readers!.stats().threads, 0);
    // SQLite removes the WAL when the last connection to the database closes: no thread kept one open.
    assert.equal(fs.existsSync(path.join(s.dataDir, `${SQLITE_FILE}-wal`)), false);
  });
});

describe('SQLite reader threads, started once a read was slow', () => {
  let s: Service;
  before(async () => {
    s = await startService(2, false);
  });
  after(() => s.close());

  it('should run every read on the main connection, starting no thread, while reads are quick', async () => {
    for (let i = 0; i < 5; i += 1) {
      assert.equal((await s.request({ url: `${EVENTS}?per_page=5&start_date=2031-0${i + 1}-01` })).statusCode, 200);
    }
    assert.deepEqual(
      { ...s.storage.readers!.stats(), quick: 0 },
      { threads: 0, ready: 0, ran: 0, retried: 0, quick: 0, refused: 0, needed: false },
    );
    assert.equal(await metric(s, 'cal_sqlite_reader_threads'), 0);
  });

  it('should start threads after a read held the main connection, and run the next slow reads in them', async () => {
    // Hundreds of ms on the main connection: it held every other request that long.
    assert.equal((await slowCount.execute(s.storage.db)).rows[0]!.n, 2_000_000);
    assert.equal(s.storage.readers!.stats().needed, true);
    // The next read starts a thread (and runs on the main connection while it starts).
    await sql`select ${1} as one`.execute(s.storage.db);
    assert.equal(s.storage.readers!.stats().threads, 1);
    for (let waited = 0; s.storage.readers!.stats().ready === 0; waited += 1) {
      assert.ok(waited < 200, 'the thread never became ready');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    // The slow read's text is known slow: in a thread now, while the loop answers requests.
    let slowDone = false;
    const slow = slowCount.execute(s.storage.db).then(() => (slowDone = true));
    const live = await s.request({ url: '/health/live' });
    assert.equal(live.statusCode, 200);
    assert.equal(slowDone, false);
    await slow;
    assert.ok(s.storage.readers!.stats().ran >= 1);
    // One, or two if a background read came while the first was busy.
    assert.ok((await metric(s, 'cal_sqlite_reader_threads')) >= 1);
    assert.ok((await metric(s, 'cal_sqlite_reads_total{outcome="thread"}')) >= 1);
  });
});
