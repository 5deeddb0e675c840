import { sql, type Kysely } from 'kysely';
import { sanitizeRichText } from '../../lib/html.js';

/**
 * Every description and excerpt through the one sanitizer (src/lib/html.ts). Until now editors'
 * and administrators' HTML was stored as sent (WordPress's `unfiltered_html`) and printed by the
 * pages, feeds and API: a script an editor saved would run in an administrator's browser (issue
 * 25). Writes sanitize from now on; this cleans what is already stored, once, rather than paying
 * the sanitizer on every read. Rows whose HTML is already clean are not written, so the change
 * feed and webhooks report only records whose content really changed.
 *
 * It calls the application's sanitizer on purpose: the point is that stored and new HTML pass the
 * same policy. Rows are read in pages by id, so memory stays flat at any size.
 */

const PAGE = 500;
const TABLES = [
  { table: 'events', columns: ['description', 'excerpt'] },
  { table: 'venues', columns: ['description', 'excerpt'] },
  { table: 'organizers', columns: ['description', 'excerpt'] },
  { table: 'terms', columns: ['description'] },
] as const;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const { table, columns } of TABLES) {
    let after = 0;
    for (;;) {
      const rows = (await db
        .selectFrom(table)
        .select(['id', ...columns])
        .where('id', '>', after)
        .orderBy('id')
        .limit(PAGE)
        .execute()) as Record<string, unknown>[];
      if (rows.length === 0) break;
      const changed = rows
        .map((row) => ({ id: Number(row['id']), before: columns.map((c) => String(row[c] ?? '')) }))
        .map(({ id, before }) => ({ id, before, after: before.map(sanitizeRichText) }))
        .filter(({ before, after }) => after.some((html, i) => html !== before[i]));
      // One statement a page, not a round trip a row (half the time at 100,000 events).
      if (changed.length > 0) {
        // PostgreSQL types a parameter in VALUES as text: the id is cast to meet the integer column.
        const values = sql.join(changed.map(({ id, after }) => sql`(cast(${id} as integer), ${sql.join(after)})`));
        const names = ['id', ...columns].map((c) => sql.ref(c));
        const assignments = sql.join(columns.map((c) => sql`${sql.ref(c)} = v.${sql.ref(c)}`));
        await sql`with v (${sql.join(names)}) as (values ${values})
          update ${sql.table(table)} set ${assignments} from v where ${sql.ref(`${table}.id`)} = v.id`.execute(db);
      }
      after = Number(rows[rows.length - 1]!['id']);
    }
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(_db: Kysely<any>): Promise<void> {
  // What was removed cannot be put back, and must not be.
}
