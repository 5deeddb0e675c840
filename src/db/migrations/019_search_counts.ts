import type { Kysely } from 'kysely';
import { dialectOf, LOWERS_TO_ASCII, WRITE_ORDER_LOCK } from '../dialect.js';
import { createTriggers, dropTriggers, type RowTrigger } from '../triggers.js';

/**
 * Per-day counts of the searches that no index narrows (a common word, a word of one or two
 * characters): the exact `total` of `search=jazz` over a year would otherwise test every event of
 * the year. Such a search is registered once (src/modules/events/event-counts.service.ts): its
 * words in `search_phrase_words`, the day pairs of its matching listed published events in
 * `search_window_counts`; a public list of whole days searching it is then counted by summing, as
 * 009 does for all events.
 *
 * Triggers keep them in every write's transaction: an event written takes itself off the counts
 * of the phrases its old text matched and onto those its new text matches, with the list's own
 * test (every word contained, case-insensitively, in the title, description or excerpt). On
 * PostgreSQL the trigger takes the write-order lock (016) shared before it reads the phrases, and
 * a registration holds it exclusive while it counts, so every write is either in the first count
 * or counted by its trigger, never both nor neither. The phrases are few (the application keeps at most a
 * few hundred, least recently used out), so a write tests a bounded number of patterns.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  await db.schema
    .createTable('search_phrases')
    .addColumn('id', postgres ? 'serial' : 'integer', (c) =>
      postgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('phrase', 'text', (c) => c.notNull().unique())
    .addColumn('used_utc', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('search_phrases_used').on('search_phrases').columns(['used_utc']).execute();
  await db.schema
    .createTable('search_phrase_words')
    .addColumn('phrase_id', 'integer', (c) => c.notNull().references('search_phrases.id').onDelete('cascade'))
    .addColumn('pattern', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('search_phrase_words_pk', ['phrase_id', 'pattern'])
    .execute();
  await db.schema
    .createTable('search_window_counts')
    .addColumn('phrase_id', 'integer', (c) => c.notNull().references('search_phrases.id').onDelete('cascade'))
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('start_day', 'text', (c) => c.notNull())
    .addColumn('end_day', 'text', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('search_window_counts_pk', ['phrase_id', 'lang', 'start_day', 'end_day'])
    .execute();

  await createSearchCountTriggers(db, ANY_TEXT);
}

/**
 * Where a phrase's words are looked for in the event `row`, given the test of one of its columns,
 * and the event columns that test and the counts read.
 */
export interface SearchedText {
  contains: (row: string, test: (column: string) => string) => string;
  columns: string;
}

/** As this migration made it: title, description or excerpt (021 looks at protected events' titles only). */
export const ANY_TEXT: SearchedText = {
  contains: (_row, test) => ['title', 'description', 'excerpt'].map(test).join(' or '),
  columns: 'title, description, excerpt, status, hide_from_listings, lang, start_local, end_local',
};

/**
 * The triggers that keep the counts of registered searches, looking for their words in `searched`;
 * `sliced`: only of the events a search's counts already hold (029: `counted_through`).
 */
export async function createSearchCountTriggers(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  db: Kysely<any>,
  searched: SearchedText,
  sliced = false,
  folding = false,
): Promise<void> {
  await createTriggers(db, searchCountTrigger(dialectOf(db) === 'postgres', searched, sliced, folding));
}

/**
 * An event written takes itself off the counts its old text matched and onto those its new text
 * matches. `folding` (032): on SQLite, a word whose `watch` is not null is tested by SQLite's own
 * LIKE, and by lower() only in a text that holds one of the characters of its `watch`.
 */
function searchCountTrigger(postgres: boolean, searched: SearchedText, sliced = false, folding = false): RowTrigger {
  /** The list's test of one word (event-search.repository.ts, dialect.ts containsInsensitive) on the event `row`. */
  const contains = (row: string, column: string) => {
    const text = `${row}.${column}`;
    if (postgres) return `${text} ilike w.pattern escape '\\'`;
    const lowered = `lower(${text}) like lower(w.pattern) escape '\\'`;
    if (!folding) return lowered;
    const holds = LOWERS_TO_ASCII.map((c) => `(instr(w.watch, '${c}') > 0 and ${text} glob '*${c}*')`).join(' or ');
    return `(case when w.watch is null then ${lowered} else (${text} like w.pattern escape '\\' or ((${holds}) and ${lowered})) end)`;
  };
  /** The ids of the phrases whose every word the event `row` contains. */
  const counted = (row: string) => (sliced ? `(p.counted_through is null or ${row}.id <= p.counted_through) and ` : '');
  const matching = (row: string) => `select p.id from search_phrases p where ${counted(row)}not exists (
      select 1 from search_phrase_words w where w.phrase_id = p.id
        and not coalesce(${searched.contains(row, (column) => contains(row, column))}, false))`;
  const visible = (row: string) => `${row}.status = 'publish' and ${row}.hide_from_listings = 0`;
  const add = `insert into search_window_counts (phrase_id, lang, start_day, end_day, n)
      select m.id, new.lang, substr(new.start_local, 1, 10), substr(new.end_local, 1, 10), 1 from (${matching('new')}) m where ${visible('new')}
      on conflict (phrase_id, lang, start_day, end_day) do update set n = ${postgres ? 'search_window_counts.n' : 'n'} + 1;`;
  const remove = `update search_window_counts set n = n - 1
      where ${visible('old')} and lang = old.lang and start_day = substr(old.start_local, 1, 10) and end_day = substr(old.end_local, 1, 10)
        and phrase_id in (${matching('old')});`;

  return {
    name: 'search_window_count',
    table: 'events',
    on: { insert: ` ${add} `, delete: ` ${remove} `, update: ` ${remove} ${add} ` },
    updateOf: searched.columns,
    plpgsql: `
      begin
        perform pg_advisory_xact_lock_shared(${WRITE_ORDER_LOCK});
        if tg_op in ('UPDATE', 'DELETE') then ${remove} end if;
        if tg_op in ('INSERT', 'UPDATE') then ${add} end if;
        return null;
      end `,
  };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function dropSearchCountTriggers(db: Kysely<any>): Promise<void> {
  // Whatever text they searched: a drop reads only their names.
  await dropTriggers(db, searchCountTrigger(dialectOf(db) === 'postgres', ANY_TEXT));
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await dropSearchCountTriggers(db);
  for (const table of ['search_window_counts', 'search_phrase_words', 'search_phrases'])
    await db.schema.dropTable(table).execute();
}
