import { sql, type Kysely } from 'kysely';
import { dialectOf, WRITE_ORDER_LOCK } from '../dialect.js';

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
 * Every trigger takes one transaction-level advisory lock before its position is drawn and holds
 * it to commit, so positions are drawn in commit order (writers of the log run one after another
 * from their first logged change; SQLite's writers are serial anyway).
 */

const KIND_OF_TERM = "case when taxonomy = 'cal_events_cat' then 'category' else 'tag' end";
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

  const now = postgres
    ? "to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS')"
    : "strftime('%Y-%m-%d %H:%M:%S', 'now')";
  const lock = postgres ? `perform pg_advisory_xact_lock(${WRITE_ORDER_LOCK});` : '';
  const log = (kind: string, row: string, change: string, isPublic: string, wasPublic: string) =>
    `insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       values (${kind}, ${row}.id, ${row}.lang, ${change}, ${isPublic}, ${wasPublic}, ${row}.author, ${now});`;
  const published = (row: string) => `(case when ${row}.status = 'publish' then 1 else 0 end)`;
  const change = "case when new.status = 'trash' and old.status <> 'trash' then 'trashed' else 'updated' end";
  /** Every live event that shows something of the records `ids` (a select of ids), as updated. */
  const dependentEvents = (
    join: string,
  ) => `insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select distinct 'event', e.id, e.lang, 'updated', ${published('e')}, ${published('e')}, e.author, ${now} from events e ${join} where e.status <> 'trash';`;
  /** The other live members of a translation group `trid` of `table`, as updated (their `translations` changed). */
  const groupMembers = (
    table: string,
    kind: string,
    trid: string,
    self: string,
  ) => `insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select ${kind}, m.id, m.lang, 'updated', ${table === 'terms' ? '1, 1, 0' : `${published('m')}, ${published('m')}, m.author`}, ${now}
       from ${table} m where m.trid = ${trid} and m.id <> ${self}${table === 'terms' ? '' : " and m.status <> 'trash'"};`;
  const viaVenue = (trid: string) => `where e.venue_id in (select v.id from venues v where v.trid = ${trid}) and 1 = 1`;
  const viaOrganizer = (trid: string) =>
    `join event_organizers eo on eo.event_id = e.id where eo.organizer_id in (select o.id from organizers o where o.trid = ${trid}) and 1 = 1`;
  const viaTerm = (trid: string) =>
    `join event_terms et on et.event_id = e.id where et.term_id in (select t.id from terms t where t.trid = ${trid}) and 1 = 1`;
  // The joins above end in a where clause; dependentEvents appends its own condition with "and".
  const dependents = (join: string) => dependentEvents(join).replace('and 1 = 1 where', 'and');

  /** The series row (its `recurrence`, and the exceptions editors see, live outside it). */
  const seriesRow = (
    seriesId: string,
  ) => `insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select 'event', s.id, s.lang, 'updated', ${published('s')}, ${published('s')}, s.author, ${now} from events s where s.id = ${seriesId} and s.status <> 'trash';`;

  const posts = [
    { table: 'events', kind: "'event'", updateOf: EVENT_COLUMNS, extra: (_row: string) => '' },
    { table: 'venues', kind: "'venue'", updateOf: null, extra: (row: string) => dependents(viaVenue(`${row}.trid`)) },
    {
      table: 'organizers',
      kind: "'organizer'",
      updateOf: null,
      extra: (row: string) => dependents(viaOrganizer(`${row}.trid`)),
    },
  ];
  const termKind = (row: string) => KIND_OF_TERM.replace('taxonomy', `${row}.taxonomy`);
  const termLog = (row: string, change: string) =>
    `insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc) values (${termKind(row)}, ${row}.id, ${row}.lang, '${change}', 1, 1, 0, ${now});`;

  if (postgres) {
    for (const { table, kind, updateOf, extra } of posts) {
      await sql
        .raw(
          `
        create function change_log_${table}() returns trigger language plpgsql as $$
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
        end $$`,
        )
        .execute(db);
      await sql
        .raw(
          `create trigger change_log_${table} after insert or update${updateOf ? ` of ${updateOf}` : ''} or delete on ${table} for each row execute function change_log_${table}()`,
        )
        .execute(db);
    }
    await sql
      .raw(
        `
      create function change_log_terms() returns trigger language plpgsql as $$
      begin
        ${lock}
        if tg_op = 'INSERT' then
          ${termLog('new', 'created')}
          if new.trid <> new.id then ${groupMembers('terms', termKind('m'), 'new.trid', 'new.id')} ${dependents(viaTerm('new.trid'))} end if;
        elsif tg_op = 'UPDATE' then
          ${termLog('new', 'updated')}
          if new.trid <> old.trid then ${groupMembers('terms', termKind('m'), 'old.trid', 'new.id')} ${groupMembers('terms', termKind('m'), 'new.trid', 'new.id')} end if;
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
    // Before the delete: the foreign key's cascade removes the term's event links with the row.
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
    await sql
      .raw(
        `
      create function change_log_series() returns trigger language plpgsql as $$
      begin
        ${lock}
        ${seriesRow('new.series_id')}
        return null;
      end $$`,
      )
      .execute(db);
    await sql`create trigger change_log_series_rule after insert or update on event_recurrence for each row execute function change_log_series()`.execute(
      db,
    );
    await sql`create trigger change_log_series_exception after update of recurrence_exception on events for each row when (new.series_id is not null) execute function change_log_series()`.execute(
      db,
    );
    return;
  }

  for (const { table, kind, updateOf, extra } of posts) {
    await sql
      .raw(
        `create trigger change_log_${table}_insert after insert on ${table} begin
        ${log(kind, 'new', "'created'", published('new'), '0')}
        ${groupMembers(table, kind, 'new.trid', 'new.id')}
        ${extra('new')}
      end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger change_log_${table}_update after update${updateOf ? ` of ${updateOf}` : ''} on ${table} begin
        ${log(kind, 'new', change, published('new'), published('old'))}
        ${groupMembers(table, kind, 'old.trid', 'new.id').replace(';', ' and old.trid <> new.trid;')}
        ${groupMembers(table, kind, 'new.trid', 'new.id').replace(';', ' and old.trid <> new.trid;')}
        ${extra('new')}
      end`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger change_log_${table}_delete after delete on ${table} begin
        ${log(kind, 'old', "'deleted'", '0', published('old'))}
      end`,
      )
      .execute(db);
  }
  await sql
    .raw(
      `create trigger change_log_terms_insert after insert on terms begin
      ${termLog('new', 'created')}
      ${groupMembers('terms', termKind('m'), 'new.trid', 'new.id')}
    end`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger change_log_terms_update after update on terms begin
      ${termLog('new', 'updated')}
      ${groupMembers('terms', termKind('m'), 'old.trid', 'new.id').replace(';', ' and old.trid <> new.trid;')}
      ${groupMembers('terms', termKind('m'), 'new.trid', 'new.id').replace(';', ' and old.trid <> new.trid;')}
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
  for (const event of ['insert', 'update']) {
    await sql
      .raw(
        `create trigger change_log_series_rule_${event} after ${event} on event_recurrence begin ${seriesRow('new.series_id')} end`,
      )
      .execute(db);
  }
  await sql
    .raw(
      `create trigger change_log_series_exception after update of recurrence_exception on events when new.series_id is not null begin ${seriesRow('new.series_id')} end`,
    )
    .execute(db);
  // Before the delete: the foreign key's cascade removes the term's event links with the row.
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
  for (const table of ['events', 'venues', 'organizers', 'terms']) {
    if (postgres)
      await sql
        .raw(`drop trigger if exists change_log_${table} on ${table}; drop function if exists change_log_${table}()`)
        .execute(db);
  }
  if (postgres)
    await sql
      .raw(
        'drop trigger if exists change_log_terms_dependents on terms; drop function if exists change_log_terms_dependents();',
      )
      .execute(db);
  if (postgres)
    await sql
      .raw(
        'drop trigger if exists change_log_series_rule on event_recurrence; drop trigger if exists change_log_series_exception on events; drop function if exists change_log_series()',
      )
      .execute(db);
  if (!postgres) {
    for (const name of [
      'series_rule_insert',
      'series_rule_update',
      'series_exception',
      'events_insert',
      'events_update',
      'events_delete',
      'venues_insert',
      'venues_update',
      'venues_delete',
      'organizers_insert',
      'organizers_update',
      'organizers_delete',
      'terms_insert',
      'terms_update',
      'terms_dependents',
      'terms_delete',
    ]) {
      await sql.raw(`drop trigger if exists change_log_${name}`).execute(db);
    }
  }
  await db.schema.dropTable('change_log_state').execute();
  await db.schema.dropTable('change_log').execute();
}
