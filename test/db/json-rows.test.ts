import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { backends } from '../helpers/app.js';
import { createScratchDatabase } from '../helpers/scratch-postgres.js';
import { connect, type Storage } from '../../src/db/connect.js';
import { jsonRows } from '../../src/db/dialect.js';

/** Values a page's embedded records hold: integers, floats, texts that JSON escapes, nulls. */
const ROWS = [
  { id: 1, title: 'Plain', lat: 30.2672, note: null, n: 3 },
  { id: 2, title: 'Quotes " and \\ and\nlines', lat: -0.1, note: 'Été à 東京 🎉', n: 9_007_199_254 },
  { id: 3, title: '', lat: 0.30000000000000004, note: '</script>', n: 0 },
];
const COLUMNS = ['id', 'title', 'lat', 'note', 'n'] as const;

/**
 * jsonRows (src/db/dialect.ts) as the embedded records read it: a subquery's rows as one JSON
 * array, which must parse to what the driver reads of the same rows, with the columns named and
 * no other (PostgreSQL writes each row whole, SQLite each column as a pair).
 */
for (const backend of backends()) {
  describe(`jsonRows [${backend}]`, () => {
    let storage: Storage;
    let drop: (() => Promise<void>) | undefined;
    before(async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cal-json-rows-'));
      const scratch =
        backend === 'postgres' ? await createScratchDatabase(process.env['TEST_DATABASE_URL']!, 'cal_json_rows') : null;
      drop = scratch?.drop;
      storage = await connect({ dataDir, databaseUrl: scratch?.url });
      const real = backend === 'postgres' ? sql`double precision` : sql`real`;
      await sql`create table sample (id integer primary key, title text not null, lat ${real}, note text, n bigint not null, hidden text)`.execute(
        storage.db,
      );
      for (const row of ROWS)
        await sql`insert into sample values (${row.id}, ${row.title}, ${row.lat}, ${row.note}, ${row.n}, 'not named')`.execute(
          storage.db,
        );
    });
    after(async () => {
      await storage.close();
      await drop?.();
    });

    const read = async (where: ReturnType<typeof sql>) => {
      // Every column, `hidden` too: only those named may come out.
      const rows = sql`select * from sample where ${where} order by id`;
      const { rows: found } = await sql<{
        list: unknown;
      }>`select ${jsonRows(storage.db, COLUMNS, rows)} as list`.execute(storage.db);
      const list = found[0]!.list;
      return (typeof list === 'string' ? JSON.parse(list) : list) as Record<string, unknown>[];
    };

    it('should give the rows the driver reads, with the named columns only, in their order', async () => {
      const list = await read(sql`1 = 1`);
      const { rows } = await sql<
        Record<string, unknown>
      >`select id, title, lat, note, n from sample order by id`.execute(storage.db);
      // PostgreSQL's driver reads a bigint as text; JSON writes it as the number it is.
      const driver = rows.map((row) => ({ ...row, n: Number(row['n']) }));
      assert.deepEqual(list, driver);
      assert.deepEqual(list, ROWS);
      for (const row of list) assert.deepEqual(Object.keys(row), [...COLUMNS]);
    });

    it('should give an empty array for no rows', async () => {
      assert.deepEqual(await read(sql`id < 0`), []);
    });
  });
}
