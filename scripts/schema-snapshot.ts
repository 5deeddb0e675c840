/**
 * Writes the schema snapshots (src/db/schema/sqlite.sql, and postgres.sql when TEST_DATABASE_URL
 * names a PostgreSQL server) from fresh databases migrated by this version:
 *
 *   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run schema
 */
import fs from 'node:fs';
import { backends, createTestApp } from '../test/helpers/app.js';
import { dumpSchema, SNAPSHOTS } from '../test/helpers/schema.js';

for (const backend of backends()) {
  const t = await createTestApp(backend);
  try {
    fs.mkdirSync(new URL('.', SNAPSHOTS[backend]), { recursive: true });
    fs.writeFileSync(SNAPSHOTS[backend], await dumpSchema(t.storage));
    console.log(`wrote ${SNAPSHOTS[backend].pathname}`);
  } finally {
    await t.close();
  }
}
