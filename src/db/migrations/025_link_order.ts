import { sql, type Kysely, type SqlBool } from 'kysely';
import { dialectOf } from '../dialect.js';
import { createTriggers, dropTriggers, type RowTrigger } from '../triggers.js';

/**
 * A term's or an organizer's events in list order, read from the link table (issue 30). The
 * list's key (language, status, listing, start and end) and whether the event is protected by a
 * password are carried in `event_terms` and `event_organizers`, and a partial index of the links
 * of listed, published, unprotected events (what a public list filtered by a link shows: a
 * protected event's links are hidden from it), by term or organizer then the list's order,
 * mirrors `events_public_start`: a page of `categories=jazz` or `organizer=201` walks the term's
 * or organizer's own events from the window's start, instead of every event of the window probed
 * against the link table (387 ms for page 10 of an organizer's year on PostgreSQL at a million
 * events). The end closes the index: a window's page and total are read from it alone.
 *
 * The copies are named `event_<column>`: a join of a link table with `events` that names a
 * column unqualified (`lang`, `status`) stays unambiguous. The password itself is not copied.
 *
 * Triggers keep the copies exact in every write's transaction: a link takes its event's key when
 * it is made (on PostgreSQL before the row is written; SQLite's triggers cannot change the row
 * they fire for, so there an update of it just after), and an event whose key changes passes it
 * to its links. A link removed takes its copy with it.
 */
const LINK_TABLES = [
  { table: 'event_terms', key: 'term_id' },
  { table: 'event_organizers', key: 'organizer_id' },
] as const;

/** The copies, `event_<name>`, each with its value on the event row `e`. */
const CARRIED = [
  { name: 'lang', type: 'text', of: (e: string) => `${e}.lang` },
  { name: 'status', type: 'text', of: (e: string) => `${e}.status` },
  { name: 'hide_from_listings', type: 'integer', of: (e: string) => `${e}.hide_from_listings` },
  { name: 'start_local', type: 'text', of: (e: string) => `${e}.start_local` },
  { name: 'end_local', type: 'text', of: (e: string) => `${e}.end_local` },
  { name: 'protected', type: 'integer', of: (e: string) => `case when ${e}.password <> '' then 1 else 0 end` },
] as const;
/** The event columns the copies are made of. */
const SOURCES = ['lang', 'status', 'hide_from_listings', 'start_local', 'end_local', 'password'];
const copies = CARRIED.map((c) => `event_${c.name}`).join(', ');
const valuesOf = (e: string) => CARRIED.map((c) => c.of(e)).join(', ');

function linkTriggers(postgres: boolean): RowTrigger[] {
  const made = LINK_TABLES.map(({ table, key }): RowTrigger =>
    postgres
      ? {
          name: `${table}_order`,
          table,
          on: { insert: '' },
          before: ['insert'],
          plpgsql: ` begin select ${valuesOf('e')} into ${CARRIED.map((c) => `new.event_${c.name}`).join(', ')} from events e where e.id = new.event_id; return new; end `,
        }
      : {
          name: `${table}_order`,
          table,
          on: {
            insert: ` update ${table} set (${copies}) = (select ${valuesOf('e')} from events e where e.id = new.event_id) where event_id = new.event_id and ${key} = new.${key}; `,
          },
        },
  );
  const passed: RowTrigger = {
    name: 'events_link_order',
    table: 'events',
    on: {
      update: `${LINK_TABLES.map(
        ({ table }) =>
          ` update ${table} set ${CARRIED.map((c) => `event_${c.name} = ${c.of('new')}`).join(', ')} where event_id = new.id;`,
      ).join('')} `,
    },
    updateOf: SOURCES.join(', '),
    when: SOURCES.map((c) => `old.${c} <> new.${c}`).join(' or '),
  };
  return [...made, passed];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  for (const { table, key } of LINK_TABLES) {
    for (const { name, type } of CARRIED)
      await db.schema
        .alterTable(table)
        .addColumn(`event_${name}`, type, (c) => c.notNull().defaultTo(type === 'integer' ? 0 : ''))
        .execute();
    // One statement over the table: the links already stored take their event's key.
    await sql
      .raw(
        `update ${table} set ${CARRIED.map((c) => `event_${c.name} = ${c.of('e')}`).join(', ')} from events e where e.id = ${table}.event_id`,
      )
      .execute(db);
    await db.schema
      .createIndex(`${table}_public_start`)
      .on(table)
      .columns([key, 'event_lang', 'event_start_local', 'event_id', 'event_end_local'])
      // Literals, as the list's conditions write them (a partial index is used only then).
      .where(sql.raw<SqlBool>(`event_status = 'publish' and event_hide_from_listings = 0 and event_protected = 0`))
      .execute();
  }
  await createTriggers(db, ...linkTriggers(dialectOf(db) === 'postgres'));
  // Every link was just written again: PostgreSQL's planner learns the new columns now, not when
  // autovacuum next passes (ANALYZE runs in the migration's transaction; VACUUM could not).
  if (dialectOf(db) === 'postgres') for (const { table } of LINK_TABLES) await sql.raw(`analyze ${table}`).execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await dropTriggers(db, ...linkTriggers(dialectOf(db) === 'postgres'));
  for (const { table } of LINK_TABLES) {
    await db.schema.dropIndex(`${table}_public_start`).execute();
    for (const { name } of CARRIED) await db.schema.alterTable(table).dropColumn(`event_${name}`).execute();
  }
}
