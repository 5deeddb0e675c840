import type { Kysely } from 'kysely';
import { likeWatch } from '../dialect.js';
import { createSearchCountTriggers, dropSearchCountTriggers } from './019_search_counts.js';
import { SHOWN_TEXT } from './021_protected_events.js';

/**
 * SQLite: the triggers that keep registered searches' counts test a word with SQLite's own LIKE
 * where it matches as lower() on both sides does (dialect.ts, likeFolding), as the lists now do.
 * lower() is a JavaScript function there: each call copies the text into JavaScript and back,
 * and a written event's title, description and excerpt were lowered once for every word of every
 * registered search (a few dozen common words at a million events), in the write's transaction.
 *
 * `watch`: for such a word, the characters a text must hold for lower() to be asked as well ('' for
 * none); null for a word only lower() tests (beyond ASCII, or with a `_`). Filled by the
 * application when it registers a search (addPhrase), here for those registered before.
 * PostgreSQL's triggers test with ilike, in C already: only the column is added there.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('search_phrase_words').addColumn('watch', 'text').execute();
  const words = await db.selectFrom('search_phrase_words').select(['phrase_id', 'pattern']).execute();
  for (const word of words as { phrase_id: number; pattern: string }[])
    await db
      .updateTable('search_phrase_words')
      .set({ watch: likeWatch(word.pattern) })
      .where('phrase_id', '=', word.phrase_id)
      .where('pattern', '=', word.pattern)
      .execute();
  await dropSearchCountTriggers(db);
  await createSearchCountTriggers(db, SHOWN_TEXT, true, true);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await dropSearchCountTriggers(db);
  await createSearchCountTriggers(db, SHOWN_TEXT, true);
  await db.schema.alterTable('search_phrase_words').dropColumn('watch').execute();
}
