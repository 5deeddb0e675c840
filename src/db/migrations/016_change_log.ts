import { sql, type Kysely } from 'kysely';
import { dialectOf, WRITE_ORDER_LOCK } from '../dialect.js';
import { createTriggers, dropTriggers, type RowTrigger } from '../triggers.js';

/**
 * The change log behind the sync feed (issue 19): one row per change of an event, venue,
 * organizer, category or tag, in commit order, written by triggers in the transaction of the
 * write itself, so no write path (API, importer, recurrence, command line) can forget it.
 *
 * - A record's own changes: created, updated, trashed (status moved to trash), deleted. An
 *   event's revision bump alone is not a change (it follows every update in the same transaction).
 * - Changes of what a record shows of others: an event embeds its venue, organizers and terms (in
 *   the reader's language, with their translations), and every record lists its translations; a
 *   change there is logged as an update of each record that shows it, so a client that applies the
 *   feed ends with what GET returns. (Term counts, which move with every event write, are logged
 *   for the term, not for every event that embeds it.)
 * - `is_public`/`was_public`: readable by anyone after/before (published); the feed shows
 *   anonymous readers the changes of records that are or were public, so a draft never shows up
 *   there, and one unpublished shows as a tombstone. `author` lets authors see their own drafts.
 *
 * Commit order: on PostgreSQL a position taken inside a transaction becomes visible when that
 * transaction commits, in any order; a reader could see 11 before 10 commits and skip 10 for good.
 * Every trigger takes the write-order lock, shared, before its position is drawn and holds it to
 * commit (writers do not wait for one another); the feed takes it exclusive for a moment to learn
 * the last position drawn, all of whose writers have then ended, and reads no further (026 and
 * sync.repository.ts). This migration took it exclusive at first, so that writers of the log ran
 * one after another; 026 rewrote its functions. SQLite's writers are serial anyway.
 */

/** Every events column but `revision` and `recurrence_exception`, which only follow another change. */
const EVENT_COLUMNS =
  'lang, trid, author, status, password, slug, title, description, excerpt, date, date_utc, modified, modified_utc, image_id, all_day, start_local, end_local, start_utc, end_utc, timezone, timezone_abbr, cost, currency_symbol, currency_code, currency_position, website, show_map, show_map_link, hide_from_listings, sticky, featured, venue_id, post_parent, series_id, recurrence_id';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  await db.schema
    .createTable('change_log')
    .addColumn('position', postgres ? 'bigserial' : 'integer', (c) =>
      postgres ? c.primaryKey() : c.primaryKey().autoIncrement(),
    )
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('record_id', 'integer', (c) => c.notNull())
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('change', 'text', (c) => c.notNull())
    .addColumn('is_public', 'integer', (c) => c.notNull())
    .addColumn('was_public', 'integer', (c) => c.notNull())
    .addColumn('author', 'integer', (c) => c.notNull())
    .addColumn('at_utc', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('change_log_lang_position').on('change_log').columns(['lang', 'position']).execute();
  await db.schema.createIndex('change_log_at').on('change_log').columns(['at_utc']).execute();
  // The oldest position still answered: tokens before it are 410 (the history was pruned).
  await db.schema
    .createTable('change_log_state')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('pruned_through', 'integer', (c) => c.notNull())
    .execute();
  await db.insertInto('change_log_state').values({ id: 1, pruned_through: 0 }).execute();

  const statements = logStatements(postgres);
  await createTriggers(db, ...postTriggers(statements));
  await createTermTriggers(db, postgres, statements);
  await createTriggers(db, ...seriesTriggers(statements));
}

/** What the triggers write, on the dialect's clock, and (PostgreSQL) the write-order lock. */
function logStatements(postgres: boolean) {
  const now = postgres
    ? "to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS')"
    : "strftime('%Y-%m-%d %H:%M:%S', 'now')";
  const published = (row: string) => `(case when ${row}.status = 'publish' then 1 else 0 end)`;
  const termKind = (row: string) => `case when ${row}.taxonomy = 'cal_events_cat' then 'category' else 'tag' end`;
  return {
    lock: postgres ? `perform pg_advisory_xact_lock_shared(${WRITE_ORDER_LOCK});` : '',
    published,
    termKind,
    change: "case when new.status = 'trash' and old.status <> 'trash' then 'trashed' else 'updated' end",
    /** A record's own change. */
    log: (kind: string, row: string, change: string, isPublic: string, wasPublic: string) =>
      `insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       values (${kind}, ${row}.id, ${row}.lang, ${change}, ${isPublic}, ${wasPublic}, ${row}.author, ${now});`,
    /** Every live event that shows something of the records `via` finds (a join and where clause), as updated. */
    dependents: (
      via: string,
    ) => `insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select distinct 'event', e.id, e.lang, 'updated', ${published('e')}, ${published('e')}, e.author, ${now} from events e ${via} and e.status <> 'trash';`,
    /**
     * The other live members of a translation group `trid` of `table`, as updated (their
     * `translations` changed); `also`, a further condition.
     */
    groupMembers: (
      table: string,
      kind: string,
      trid: string,
      self: string,
      also = '',
    ) => `insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select ${kind}, m.id, m.lang, 'updated', ${table === 'terms' ? '1, 1, 0' : `${published('m')}, ${published('m')}, m.author`}, ${now}
       from ${table} m where m.trid = ${trid} and m.id <> ${self}${table === 'terms' ? '' : " and m.status <> 'trash'"}${also};`,
    /** A term's own change. */
    termLog: (row: string, change: string) =>
      `insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc) values (${termKind(row)}, ${row}.id, ${row}.lang, '${change}', 1, 1, 0, ${now});`,
    /** The series row (its `recurrence`, and the exceptions editors see, live outside it). */
    seriesRow: (
      seriesId: string,
    ) => `insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select 'event', s.id, s.lang, 'updated', ${published('s')}, ${published('s')}, s.author, ${now} from events s where s.id = ${seriesId} and s.status <> 'trash';`,
  };
}

type LogStatements = ReturnType<typeof logStatements>;

/** The events that show a venue, organizer or term of the translation group `trid`, for `dependents`. */
const viaVenue = (trid: string) => `where e.venue_id in (select v.id from venues v where v.trid = ${trid})`;
const viaOrganizer = (trid: string) =>
  `join event_organizers eo on eo.event_id = e.id where eo.organizer_id in (select o.id from organizers o where o.trid = ${trid})`;
const viaTerm = (trid: string) =>
  `join event_terms et on et.event_id = e.id where et.term_id in (select t.id from terms t where t.trid = ${trid})`;

/** A change of group moves a record out of one translation group and into another. */
const MOVED = ' and old.trid <> new.trid';

const POSTS = [
  { table: 'events', kind: "'event'", updateOf: EVENT_COLUMNS, via: undefined },
  { table: 'venues', kind: "'venue'", updateOf: undefined, via: viaVenue },
  { table: 'organizers', kind: "'organizer'", updateOf: undefined, via: viaOrganizer },
];

/** Events, venues and organizers: their own changes, their translations', the events that show them. */
function postTriggers(s: LogStatements): RowTrigger[] {
  const { lock, log, published, change, groupMembers } = s;
  return POSTS.map(({ table, kind, updateOf, via }) => {
    const extra = (row: string) => (via ? s.dependents(via(`${row}.trid`)) : '');
    return {
      name: `change_log_${table}`,
      table,
      on: {
        insert: `
        ${log(kind, 'new', "'created'", published('new'), '0')}
        ${groupMembers(table, kind, 'new.trid', 'new.id')}
        ${extra('new')}
      `,
        update: `
        ${log(kind, 'new', change, published('new'), published('old'))}
        ${groupMembers(table, kind, 'old.trid', 'new.id', MOVED)}
        ${groupMembers(table, kind, 'new.trid', 'new.id', MOVED)}
        ${extra('new')}
      `,
        delete: `
        ${log(kind, 'old', "'deleted'", '0', published('old'))}
      `,
      },
      updateOf,
      plpgsql: `
        begin
          ${lock}
          if tg_op = 'INSERT' then
            ${log(kind, 'new', "'created'", published('new'), '0')}
            if new.trid <> new.id then ${groupMembers(table, kind, 'new.trid', 'new.id')} ${extra('new')} end if;
          elsif tg_op = 'UPDATE' then
            ${log(kind, 'new', change, published('new'), published('old'))}
            if new.trid <> old.trid then ${groupMembers(table, kind, 'old.trid', 'new.id')} ${groupMembers(table, kind, 'new.trid', 'new.id')} end if;
            ${extra('new')}
          else
            ${log(kind, 'old', "'deleted'", '0', published('old'))}
          end if;
          return null;
        end `,
    };
  });
}

/** A series' rule written, or one of its occurrences' exceptions changed: the series row changed. */
function seriesTriggers({ lock, seriesRow }: LogStatements): RowTrigger[] {
  const logSeries = ` ${seriesRow('new.series_id')} `;
  return [
    {
      name: 'change_log_series_rule',
      table: 'event_recurrence',
      on: { insert: logSeries, update: logSeries },
      fn: 'change_log_series',
      plpgsql: `
      begin
        ${lock}
        ${seriesRow('new.series_id')}
        return null;
      end `,
    },
    {
      name: 'change_log_series_exception',
      table: 'events',
      on: { update: logSeries },
      updateOf: 'recurrence_exception',
      when: 'new.series_id is not null',
      fn: 'change_log_series',
    },
  ];
}

/**
 * Terms: their own changes, their translations', the events that show them. Written out per
 * dialect, as the two do it differently: SQLite logs the events from a trigger of their own on an
 * update of what they show (its `when` on a line of its own, which the snapshot keeps), PostgreSQL
 * from the function's update branch; both log them before a delete, as the foreign key's cascade
 * removes the term's event links with the row.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function createTermTriggers(db: Kysely<any>, postgres: boolean, s: LogStatements): Promise<void> {
  const { lock, termKind, groupMembers, dependents, termLog } = s;
  const members = (trid: string, also?: string) => groupMembers('terms', termKind('m'), trid, 'new.id', also);
  if (postgres) {
    await sql
      .raw(
        `
      create function change_log_terms() returns trigger language plpgsql as $$
      begin
        ${lock}
        if tg_op = 'INSERT' then
          ${termLog('new', 'created')}
          if new.trid <> new.id then ${members('new.trid')} ${dependents(viaTerm('new.trid'))} end if;
        elsif tg_op = 'UPDATE' then
          ${termLog('new', 'updated')}
          if new.trid <> old.trid then ${members('old.trid')} ${members('new.trid')} end if;
          if new.name <> old.name or new.slug <> old.slug or new.description <> old.description or new.parent <> old.parent or new.trid <> old.trid then ${dependents(viaTerm('new.trid'))} end if;
        else
          ${termLog('old', 'deleted')}
        end if;
        return null;
      end $$`,
      )
      .execute(db);
    await sql`create trigger change_log_terms after insert or update or delete on terms for each row execute function change_log_terms()`.execute(
      db,
    );
    await sql
      .raw(
        `
      create function change_log_terms_dependents() returns trigger language plpgsql as $$
      begin
        ${lock}
        ${dependents(viaTerm('old.trid'))}
        return old;
      end $$`,
      )
      .execute(db);
    await sql`create trigger change_log_terms_dependents before delete on terms for each row execute function change_log_terms_dependents()`.execute(
      db,
    );
    return;
  }
  await sql
    .raw(
      `create trigger change_log_terms_insert after insert on terms begin
      ${termLog('new', 'created')}
      ${members('new.trid')}
    end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger change_log_terms_update after update on terms begin
      ${termLog('new', 'updated')}
      ${members('old.trid', MOVED)}
      ${members('new.trid', MOVED)}
    end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger change_log_terms_dependents after update of name, slug, description, parent, trid on terms
      when new.name <> old.name or new.slug <> old.slug or new.description <> old.description or new.parent <> old.parent or new.trid <> old.trid begin
      ${dependents(viaTerm('new.trid'))}
    end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger change_log_terms_delete before delete on terms begin
      ${termLog('old', 'deleted')}
      ${dependents(viaTerm('old.trid'))}
    end`,
    )
    .execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  const statements = logStatements(postgres);
  await dropTriggers(db, ...postTriggers(statements), ...seriesTriggers(statements));
  if (postgres)
    await sql
      .raw(
        'drop trigger if exists change_log_terms on terms; drop function if exists change_log_terms(); drop trigger if exists change_log_terms_dependents on terms; drop function if exists change_log_terms_dependents();',
      )
      .execute(db);
  else
    for (const name of ['terms_insert', 'terms_update', 'terms_dependents', 'terms_delete'])
      await sql.raw(`drop trigger if exists change_log_${name}`).execute(db);
  await db.schema.dropTable('change_log_state').execute();
  await db.schema.dropTable('change_log').execute();
}
