import { sql, type Kysely, type CreateTableBuilder } from 'kysely';
import { dialectOf, serialColumn } from '../dialect.js';

type Table = CreateTableBuilder<string, never>;

/** Columns shared by events, venues and organizers (see PostColumns). */
function postColumns(t: Table): Table {
  return t
    .addColumn('id', 'integer', (c) => c.primaryKey().references('posts.id').onDelete('cascade'))
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('trid', 'integer', (c) => c.notNull())
    .addColumn('author', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('password', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('excerpt', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('date_utc', 'text', (c) => c.notNull())
    .addColumn('modified', 'text', (c) => c.notNull())
    .addColumn('modified_utc', 'text', (c) => c.notNull())
    .addColumn('image_id', 'integer');
}

const flag = (t: Table, name: string, dflt: number): Table =>
  t.addColumn(name, 'integer', (c) => c.notNull().defaultTo(dflt));
const text = (t: Table, name: string): Table => t.addColumn(name, 'text', (c) => c.notNull().defaultTo(''));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);

  await db.schema
    .createTable('posts')
    .addColumn('id', serialColumn(dialect), (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .execute();

  let events = postColumns(db.schema.createTable('events') as Table);
  events = flag(events, 'all_day', 0);
  for (const c of ['start_local', 'end_local', 'start_utc', 'end_utc'])
    events = events.addColumn(c, 'text', (col) => col.notNull());
  for (const c of ['timezone', 'timezone_abbr']) events = text(events, c);
  events = events.addColumn('cost', 'text', (c) => c.notNull().defaultTo('[]'));
  for (const c of ['currency_symbol', 'currency_code', 'currency_position']) events = text(events, c);
  events = events.addColumn('website', 'text');
  events = flag(
    flag(flag(flag(flag(events, 'show_map', 1), 'show_map_link', 1), 'hide_from_listings', 0), 'sticky', 0),
    'featured',
    0,
  );
  events = events.addColumn('venue_id', 'integer').addColumn('post_parent', 'integer');
  await events.execute();

  let venues = postColumns(db.schema.createTable('venues') as Table);
  for (const c of ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website', 'stateprovince'])
    venues = text(venues, c);
  venues = flag(flag(venues, 'show_map', 1), 'show_map_link', 1)
    .addColumn('geo_lat', 'double precision')
    .addColumn('geo_lng', 'double precision');
  await venues.execute();

  let organizers = postColumns(db.schema.createTable('organizers') as Table);
  for (const c of ['phone', 'website', 'email']) organizers = text(organizers, c);
  await organizers.execute();

  await db.schema
    .createTable('event_organizers')
    .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('organizer_id', 'integer', (c) => c.notNull().references('organizers.id').onDelete('cascade'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_organizers_pk', ['event_id', 'organizer_id'])
    .execute();

  await db.schema
    .createTable('terms')
    .addColumn('id', serialColumn(dialect), (c) => c.primaryKey())
    .addColumn('taxonomy', 'text', (c) => c.notNull())
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('trid', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('parent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('event_terms')
    .addColumn('event_id', 'integer', (c) => c.notNull().references('events.id').onDelete('cascade'))
    .addColumn('term_id', 'integer', (c) => c.notNull().references('terms.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('event_terms_pk', ['event_id', 'term_id'])
    .execute();

  await db.schema
    .createTable('images')
    .addColumn('id', 'integer', (c) => c.primaryKey().references('posts.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull().unique())
    .addColumn('extension', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('width', 'integer')
    .addColumn('height', 'integer')
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', serialColumn(dialect), (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('registered', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('app_passwords')
    .addColumn('id', serialColumn(dialect), (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('created', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();

  // The list filters of SPEC.md, each served by an index. Ordering is always (start_local, id).
  const indexes: [string, string, string[], string?][] = [
    ['events_lang_start', 'events', ['lang', 'start_local', 'id']],
    // Anonymous readers' lists: published, listed events only; the query repeats the predicate literally.
    ['events_public_start', 'events', ['lang', 'start_local', 'id'], "status = 'publish' AND hide_from_listings = 0"],
    ['events_lang_slug', 'events', ['lang', 'slug']],
    ['events_trid', 'events', ['trid']],
    ['events_venue', 'events', ['venue_id', 'start_local']],
    ['events_parent', 'events', ['post_parent']],
    ['events_author', 'events', ['author']],
    ['events_lang_date', 'events', ['lang', 'date', 'id']],
    ['venues_lang_date', 'venues', ['lang', 'date', 'id']],
    ['venues_lang_slug', 'venues', ['lang', 'slug']],
    ['venues_trid', 'venues', ['trid']],
    ['venues_author', 'venues', ['author']],
    ['venues_geo', 'venues', ['geo_lat', 'geo_lng']],
    ['organizers_lang_date', 'organizers', ['lang', 'date', 'id']],
    ['organizers_lang_slug', 'organizers', ['lang', 'slug']],
    ['organizers_trid', 'organizers', ['trid']],
    ['organizers_author', 'organizers', ['author']],
    ['event_organizers_organizer', 'event_organizers', ['organizer_id', 'event_id']],
    ['event_terms_term', 'event_terms', ['term_id', 'event_id']],
    ['terms_tax_lang_name', 'terms', ['taxonomy', 'lang', 'name']],
    ['terms_tax_lang_slug', 'terms', ['taxonomy', 'lang', 'slug']],
    ['terms_parent', 'terms', ['parent']],
    ['terms_trid', 'terms', ['trid']],
    ['app_passwords_user', 'app_passwords', ['user_id']],
  ];
  for (const [name, table, columns, where] of indexes) {
    let ix = db.schema.createIndex(name).on(table).columns(columns);
    if (where) ix = ix.where(sql.raw<boolean>(where));
    await ix.execute();
  }
  await db.insertInto('settings').values({ key: 'data_version', value: '0' }).execute();
}
