import { sql, type Kysely, type SqlBool } from 'kysely';
import { dialectOf } from '../dialect.js';
import { createTriggers, dropTriggers, type RowTrigger } from '../triggers.js';

/**
 * A term's or an organizer's events in list order, read from the link table (issue 30). The
 * list's key (language, status, listing, start and end) is carried in `event_terms` and
 * `event_organizers`, and a partial index of the listed published links, by term or organizer
 * then the list's order, mirrors `events_public_start`: a page of `categories=jazz` or
 * `organizer=201` walks the term's or organizer's own events from the window's start, instead of
 * every event of the window probed against the link table (387 ms for page 10 of an organizer's
 * year on PostgreSQL at a million events). The end closes the index, so a window's links are
 * told from it alone.
 *
 * The copies are named `event_<column>`: a join of a link table with `events` that names a
 * column unqualified (`lang`, `status`) stays unambiguous.
 *
 * Triggers keep the copy exact in every write's transaction: a link takes its event's key when it
 * is made (on PostgreSQL before the row is written; SQLite's triggers cannot change the row they
 * fire for, so there an update of it just after), and an event whose key changes passes it to its
 * links. A link removed takes its copy with it.
 */
const LINK_TABLES = [
  { table: 'event_terms', key: 'term_id' },
  { table: 'event_organizers', key: 'organizer_id' },
] as const;

/** The event's columns carried, each as `event_<column>`. */
const CARRIED = ['lang', 'status', 'hide_from_listings', 'start_local', 'end_local'] as const;
const copies = CARRIED.map((c) => `event_${c}`).join(', ');
const fromEvent = CARRIED.map((c) => `e.${c}`).join(', ');

function linkTriggers(postgres: boolean): RowTrigger[] {
  const made = LINK_TABLES.map(({ table, key }): RowTrigger =>
    postgres
      ? {
          name: `${table}_order`,
          table,
          on: { insert: '' },
          before: ['insert'],
          plpgsql: ` begin select ${fromEvent} into ${CARRIED.map((c) => `new.event_${c}`).join(', ')} from events e where e.id = new.event_id; return new; end `,
        }
      : {
          name: `${table}_order`,
          table,
          on: {
            insert: ` update ${table} set (${copies}) = (select ${fromEvent} from events e where e.id = new.event_id) where event_id = new.event_id and ${key} = new.${key}; `,
          },
        },
  );
  const passed: RowTrigger = {
    name: 'events_link_order',
    table: 'events',
    on: {
      update: `${LINK_TABLES.map(
        ({ table }) =>
          ` update ${table} set ${CARRIED.map((c) => `event_${c} = new.${c}`).join(', ')} where event_id = new.id;`,
      ).join('')} `,
    },
    updateOf: CARRIED.join(', '),
    when: CARRIED.map((c) => `old.${c} <> new.${c}`).join(' or '),
  };
  return [...made, passed];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const { table, key } of LINK_TABLES) {
    for (const column of CARRIED)
      await db.schema
        .alterTable(table)
        .addColumn(`event_${column}`, column === 'hide_from_listings' ? 'integer' : 'text', (c) =>
          c.notNull().defaultTo(column === 'hide_from_listings' ? 0 : ''),
        )
        .execute();
    // One statement over the table: the links already stored take their event's key.
    await sql
      .raw(
        `update ${table} set ${CARRIED.map((c) => `event_${c} = e.${c}`).join(', ')} from events e where e.id = ${table}.event_id`,
      )
      .execute(db);
    await db.schema
      .createIndex(`${table}_public_start`)
      .on(table)
      .columns([key, 'event_lang', 'event_start_local', 'event_id', 'event_end_local'])
      // Literals, as the list's conditions write them (a partial index is used only then).
      .where(sql.raw<SqlBool>(`event_status = 'publish' and event_hide_from_listings = 0`))
      .execute();
  }
  await createTriggers(db, ...linkTriggers(dialectOf(db) === 'postgres'));
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await dropTriggers(db, ...linkTriggers(dialectOf(db) === 'postgres'));
  for (const { table } of LINK_TABLES) {
    await db.schema.dropIndex(`${table}_public_start`).execute();
    for (const column of CARRIED) await db.schema.alterTable(table).dropColumn(`event_${column}`).execute();
  }
}
