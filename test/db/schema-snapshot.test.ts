import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { backends, createTestApp } from '../helpers/app.js';
import { dumpSchema, SNAPSHOTS } from '../helpers/schema.js';

/**
 * What the migrations make, on each back end, is the committed snapshot (src/db/schema/): a change
 * to a migration is reviewed as a change to the tables, indexes and triggers it leaves.
 */
for (const backend of backends()) {
  describe(`schema snapshot [${backend}]`, () => {
    it('should be what the migrations make (npm run schema writes it again after a deliberate change)', async () => {
      const t = await createTestApp(backend);
      try {
        const actual = await dumpSchema(t.storage);
        const committed = fs.readFileSync(SNAPSHOTS[backend], 'utf8');
        assert.ok(
          actual === committed,
          `src/db/schema/${backend}.sql differs from what the migrations make: run npm run schema and review the difference`,
        );
      } finally {
        await t.close();
      }
    });
  });
}
