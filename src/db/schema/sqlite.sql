-- table app_passwords
CREATE TABLE "app_passwords" ("id" integer primary key autoincrement, "user_id" integer not null references "users" ("id") on delete cascade, "name" text default '' not null, "hash" text not null, "created" text not null);

-- table change_log
CREATE TABLE "change_log" ("position" integer primary key autoincrement, "kind" text not null, "record_id" integer not null, "lang" text not null, "change" text not null, "is_public" integer not null, "was_public" integer not null, "author" integer not null, "at_utc" text not null);

-- table change_log_state
CREATE TABLE "change_log_state" ("id" integer primary key, "pruned_through" integer not null);

-- table data_version_shards
CREATE TABLE "data_version_shards" ("shard" integer primary key, "n" bigint not null);

-- table event_facet_window_counts
CREATE TABLE "event_facet_window_counts" ("lang" text not null, "facet" text not null, "facet_id" integer not null, "start_day" text not null, "end_day" text not null, "n" integer not null, constraint "event_facet_window_counts_pk" primary key ("lang", "facet", "facet_id", "start_day", "end_day"));

-- table event_organizers
CREATE TABLE "event_organizers" ("event_id" integer not null references "events" ("id") on delete cascade, "organizer_id" integer not null references "organizers" ("id") on delete cascade, "position" integer not null, "event_lang" text default '' not null, "event_status" text default '' not null, "event_hide_from_listings" integer default 0 not null, "event_start_local" text default '' not null, "event_end_local" text default '' not null, "event_protected" integer default 0 not null, constraint "event_organizers_pk" primary key ("event_id", "organizer_id"));

-- table event_recurrence
CREATE TABLE "event_recurrence" ("series_id" integer primary key, "rrule" text not null, "rdates" text default '[]' not null, "exdates" text default '[]' not null, "expanded_until" text not null, "complete" integer default 0 not null);

-- table event_term_window_counts
CREATE TABLE "event_term_window_counts" ("lang" text not null, "term_id" integer not null, "start_day" text not null, "end_day" text not null, "n" integer not null, constraint "event_term_window_counts_pk" primary key ("lang", "term_id", "start_day", "end_day"));

-- table event_terms
CREATE TABLE "event_terms" ("event_id" integer not null references "events" ("id") on delete cascade, "term_id" integer not null references "terms" ("id") on delete cascade, "event_lang" text default '' not null, "event_status" text default '' not null, "event_hide_from_listings" integer default 0 not null, "event_start_local" text default '' not null, "event_end_local" text default '' not null, "event_protected" integer default 0 not null, constraint "event_terms_pk" primary key ("event_id", "term_id"));

-- table event_window_counts
CREATE TABLE "event_window_counts" ("lang" text not null, "start_day" text not null, "end_day" text not null, "n" integer not null, constraint "event_window_counts_pk" primary key ("lang", "start_day", "end_day"));

-- table events
CREATE TABLE "events" ("id" integer primary key references "posts" ("id") on delete cascade, "lang" text not null, "trid" integer not null, "author" integer default 0 not null, "status" text not null, "password" text default '' not null, "slug" text not null, "title" text not null, "description" text default '' not null, "excerpt" text default '' not null, "date" text not null, "date_utc" text not null, "modified" text not null, "modified_utc" text not null, "image_id" integer, "all_day" integer default 0 not null, "start_local" text not null, "end_local" text not null, "start_utc" text not null, "end_utc" text not null, "timezone" text default '' not null, "timezone_abbr" text default '' not null, "cost" text default '[]' not null, "currency_symbol" text default '' not null, "currency_code" text default '' not null, "currency_position" text default '' not null, "website" text, "show_map" integer default 1 not null, "show_map_link" integer default 1 not null, "hide_from_listings" integer default 0 not null, "sticky" integer default 0 not null, "featured" integer default 0 not null, "venue_id" integer, "post_parent" integer, "trashed_from" text, "revision" integer default 0 not null, "series_id" integer, "recurrence_id" text, "recurrence_exception" integer default 0 not null);

-- table events_search
CREATE VIRTUAL TABLE events_search using fts5(title, description, excerpt, content='events', content_rowid='id', tokenize='trigram');

-- table events_search_config
CREATE TABLE 'events_search_config'(k PRIMARY KEY, v) WITHOUT ROWID;

-- table events_search_data
CREATE TABLE 'events_search_data'(id INTEGER PRIMARY KEY, block BLOB);

-- table events_search_docsize
CREATE TABLE 'events_search_docsize'(id INTEGER PRIMARY KEY, sz BLOB);

-- table events_search_idx
CREATE TABLE 'events_search_idx'(segid, term, pgno, PRIMARY KEY(segid, term)) WITHOUT ROWID;

-- table events_search_pending
CREATE TABLE "events_search_pending" (id integer primary key);

-- table failure_counts
CREATE TABLE "failure_counts" ("key_hash" text primary key, "failures" integer not null, "reset_at" bigint not null);

-- table images
CREATE TABLE "images" ("id" integer primary key references "posts" ("id") on delete cascade, "url" text not null unique, "extension" text default '' not null, "width" integer, "height" integer);

-- table import_map
CREATE TABLE "import_map" ("source" text not null, "kind" text not null, "source_id" text not null, "lang" text not null, "local_id" integer not null, "source_modified" text, "hash" text not null, "imported_at" text not null, constraint "import_map_pk" primary key ("source", "kind", "source_id"));

-- table imports
CREATE TABLE "imports" ("id" integer primary key, "status" text not null, "options" text not null, "progress" text not null, "report" text, "error" text, "user_id" integer not null, "started" text not null, "heartbeat" text not null, "finished" text);

-- table mail_outbox
CREATE TABLE "mail_outbox" ("id" integer primary key, "to_address" text not null, "lang" text not null, "kind" text not null, "subject" text not null, "text_body" text not null, "html_body" text not null, "headers" text not null, "dedupe" text, "status" text not null, "attempts" integer default 0 not null, "next_attempt_utc" text not null, "lease_until" text, "last_error" text, "message_id" text, "created_utc" text not null, "sent_utc" text);

-- table organizers
CREATE TABLE "organizers" ("id" integer primary key references "posts" ("id") on delete cascade, "lang" text not null, "trid" integer not null, "author" integer default 0 not null, "status" text not null, "password" text default '' not null, "slug" text not null, "title" text not null, "description" text default '' not null, "excerpt" text default '' not null, "date" text not null, "date_utc" text not null, "modified" text not null, "modified_utc" text not null, "image_id" integer, "phone" text default '' not null, "website" text default '' not null, "email" text default '' not null);

-- table posts
CREATE TABLE "posts" ("id" integer primary key autoincrement, "type" text not null);

-- table search_phrase_words
CREATE TABLE "search_phrase_words" ("phrase_id" integer not null references "search_phrases" ("id") on delete cascade, "pattern" text not null, "watch" text, constraint "search_phrase_words_pk" primary key ("phrase_id", "pattern"));

-- table search_phrases
CREATE TABLE "search_phrases" ("id" integer primary key autoincrement, "phrase" text not null unique, "used_utc" text not null, "counted_through" integer);

-- table search_window_counts
CREATE TABLE "search_window_counts" ("phrase_id" integer not null references "search_phrases" ("id") on delete cascade, "lang" text not null, "start_day" text not null, "end_day" text not null, "n" integer not null, constraint "search_window_counts_pk" primary key ("phrase_id", "lang", "start_day", "end_day"));

-- table sessions
CREATE TABLE "sessions" ("id" integer primary key, "token_hash" text not null, "user_id" integer not null references "users" ("id") on delete cascade, "nonce" text not null, "created" text not null, "last_seen" text not null, "expires" text not null, "ip" text default '' not null, "user_agent" text default '' not null);

-- table settings
CREATE TABLE "settings" ("key" text primary key, "value" text not null);

-- table spam_blocks
CREATE TABLE "spam_blocks" ("key" text primary key, "until_utc" text not null, "submission_id" integer);

-- table submissions
CREATE TABLE "submissions" ("id" integer primary key, "event_id" integer not null references "events" ("id") on delete cascade, "lang" text not null, "state" text not null, "name" text not null, "email" text not null, "user_id" integer references "users" ("id") on delete set null, "ip" text not null, "ip_key" text not null, "email_key" text not null, "user_agent" text default '' not null, "verified" integer not null, "confirmed" integer not null, "confirm_hash" text, "duplicate_of" integer, "links" integer default 0 not null, "new_venue" integer, "new_organizers" text default '[]' not null, "new_tags" text default '[]' not null, "reason" text default '' not null, "created_utc" text not null, "decided_utc" text, "decided_by" integer references "users" ("id") on delete set null);

-- table terms
CREATE TABLE "terms" ("id" integer primary key autoincrement, "taxonomy" text not null, "lang" text not null, "trid" integer not null, "name" text not null, "slug" text not null, "description" text default '' not null, "parent" integer default 0 not null, "count" integer default 0 not null);

-- table used_challenges
CREATE TABLE "used_challenges" ("key" text primary key, "until_utc" text not null);

-- table users
CREATE TABLE "users" ("id" integer primary key autoincrement, "username" text not null unique, "email" text default '' not null, "role" text not null, "registered" text not null, "login_hash" text, "submission_mail" text default 'none' not null);

-- table venues
CREATE TABLE "venues" ("id" integer primary key references "posts" ("id") on delete cascade, "lang" text not null, "trid" integer not null, "author" integer default 0 not null, "status" text not null, "password" text default '' not null, "slug" text not null, "title" text not null, "description" text default '' not null, "excerpt" text default '' not null, "date" text not null, "date_utc" text not null, "modified" text not null, "modified_utc" text not null, "image_id" integer, "address" text default '' not null, "city" text default '' not null, "country" text default '' not null, "province" text default '' not null, "state" text default '' not null, "zip" text default '' not null, "phone" text default '' not null, "website" text default '' not null, "stateprovince" text default '' not null, "show_map" integer default 1 not null, "show_map_link" integer default 1 not null, "geo_lat" double precision, "geo_lng" double precision);

-- table webhook_deliveries
CREATE TABLE "webhook_deliveries" ("id" integer primary key autoincrement, "webhook_id" integer not null references "webhooks" ("id") on delete cascade, "position" bigint not null, "kind" text not null, "record_id" integer not null, "lang" text not null, "event_type" text not null, "change_at_utc" text not null, "status" text not null, "attempts" integer default 0 not null, "next_attempt_utc" text not null, "lease_until" text, "last_status" integer, "last_error" text, "last_response" text, "last_latency_ms" integer, "created_utc" text not null, "delivered_utc" text);

-- table webhook_patterns
CREATE TABLE "webhook_patterns" ("webhook_id" integer not null references "webhooks" ("id") on delete cascade, "pattern" text not null, constraint "webhook_patterns_pk" primary key ("webhook_id", "pattern"));

-- table webhooks
CREATE TABLE "webhooks" ("id" integer primary key autoincrement, "url" text not null, "events" text not null, "languages" text not null, "lang_filter" text not null, "active" integer not null, "status" text not null, "secret" text not null, "failing_since" text, "created_utc" text not null);

-- index app_passwords_user
CREATE INDEX "app_passwords_user" on "app_passwords" ("user_id");

-- index change_log_at
CREATE INDEX "change_log_at" on "change_log" ("at_utc");

-- index change_log_lang_position
CREATE INDEX "change_log_lang_position" on "change_log" ("lang", "position");

-- index event_organizers_organizer
CREATE INDEX "event_organizers_organizer" on "event_organizers" ("organizer_id", "event_id");

-- index event_organizers_public_start
CREATE INDEX "event_organizers_public_start" on "event_organizers" ("organizer_id", "event_lang", "event_start_local", "event_id", "event_end_local") where event_status = 'publish' and event_hide_from_listings = 0 and event_protected = 0;

-- index event_recurrence_open
CREATE INDEX "event_recurrence_open" on "event_recurrence" ("expanded_until") where complete = 0;

-- index event_terms_public_start
CREATE INDEX "event_terms_public_start" on "event_terms" ("term_id", "event_lang", "event_start_local", "event_id", "event_end_local") where event_status = 'publish' and event_hide_from_listings = 0 and event_protected = 0;

-- index event_terms_term
CREATE INDEX "event_terms_term" on "event_terms" ("term_id", "event_id");

-- index events_author
CREATE INDEX "events_author" on "events" ("author");

-- index events_lang_date
CREATE INDEX "events_lang_date" on "events" ("lang", "date", "id");

-- index events_lang_slug
CREATE INDEX "events_lang_slug" on "events" ("lang", "slug");

-- index events_lang_start
CREATE INDEX "events_lang_start" on "events" ("lang", "start_local", "id");

-- index events_lang_status_start
CREATE INDEX "events_lang_status_start" on "events" ("lang", "status", "start_local", "id");

-- index events_parent
CREATE INDEX "events_parent" on "events" ("post_parent");

-- index events_public_featured
CREATE INDEX "events_public_featured" on "events" ("lang", "featured", "start_local", "id", "end_local") where status = 'publish' AND hide_from_listings = 0 AND featured = 1;

-- index events_public_multiday
CREATE INDEX "events_public_multiday" on "events" ("lang", "status", "start_local", "id", "end_local", "slug", "title", "all_day", "featured") where status = 'publish' AND hide_from_listings = 0 AND substr(end_local, 1, 10) > substr(start_local, 1, 10);

-- index events_public_start
CREATE INDEX "events_public_start" on "events" ("lang", "start_local", "id") where status = 'publish' AND hide_from_listings = 0;

-- index events_public_venue
CREATE INDEX "events_public_venue" on "events" ("venue_id", "lang", "start_local", "end_local") where status = 'publish' AND hide_from_listings = 0;

-- index events_public_window
CREATE INDEX "events_public_window" on "events" ("lang", "start_local", "end_local") where status = 'publish' AND hide_from_listings = 0;

-- index events_series
CREATE INDEX "events_series" on "events" ("series_id", "recurrence_id") where series_id is not null;

-- index events_trashed_window
CREATE INDEX "events_trashed_window" on "events" ("lang", "start_local") where status = 'trash';

-- index events_trid
CREATE INDEX "events_trid" on "events" ("trid");

-- index events_venue
CREATE INDEX "events_venue" on "events" ("venue_id", "start_local");

-- index failure_counts_reset
CREATE INDEX "failure_counts_reset" on "failure_counts" ("reset_at");

-- index imports_status
CREATE INDEX "imports_status" on "imports" ("status", "heartbeat");

-- index mail_outbox_dedupe
CREATE UNIQUE INDEX "mail_outbox_dedupe" on "mail_outbox" ("dedupe");

-- index mail_outbox_due
CREATE INDEX "mail_outbox_due" on "mail_outbox" ("next_attempt_utc", "id") where status = 'pending';

-- index mail_outbox_status
CREATE INDEX "mail_outbox_status" on "mail_outbox" ("status", "id");

-- index organizers_author
CREATE INDEX "organizers_author" on "organizers" ("author");

-- index organizers_lang_date
CREATE INDEX "organizers_lang_date" on "organizers" ("lang", "date", "id");

-- index organizers_lang_slug
CREATE INDEX "organizers_lang_slug" on "organizers" ("lang", "slug");

-- index organizers_lang_title_ci
CREATE INDEX "organizers_lang_title_ci" on "organizers" (lang, lower(title));

-- index organizers_trid
CREATE INDEX "organizers_trid" on "organizers" ("trid");

-- index search_phrases_used
CREATE INDEX "search_phrases_used" on "search_phrases" ("used_utc");

-- index sessions_expires
CREATE INDEX "sessions_expires" on "sessions" ("expires");

-- index sessions_last_seen
CREATE INDEX "sessions_last_seen" on "sessions" ("last_seen");

-- index sessions_token
CREATE UNIQUE INDEX "sessions_token" on "sessions" ("token_hash");

-- index sessions_user
CREATE INDEX "sessions_user" on "sessions" ("user_id");

-- index submissions_confirm
CREATE INDEX "submissions_confirm" on "submissions" ("confirm_hash") where confirm_hash is not null;

-- index submissions_email
CREATE INDEX "submissions_email" on "submissions" ("email_key", "created_utc");

-- index submissions_event
CREATE UNIQUE INDEX "submissions_event" on "submissions" ("event_id");

-- index submissions_ip
CREATE INDEX "submissions_ip" on "submissions" ("ip_key", "created_utc");

-- index submissions_state
CREATE INDEX "submissions_state" on "submissions" ("state", "id");

-- index terms_parent
CREATE INDEX "terms_parent" on "terms" ("parent");

-- index terms_tax_lang_lname
CREATE INDEX "terms_tax_lang_lname" on "terms" ("taxonomy", "lang", lower(name));

-- index terms_tax_lang_name
CREATE INDEX "terms_tax_lang_name" on "terms" ("taxonomy", "lang", "name");

-- index terms_tax_lang_slug
CREATE UNIQUE INDEX "terms_tax_lang_slug" on "terms" ("taxonomy", "lang", "slug");

-- index terms_trid_lang
CREATE INDEX "terms_trid_lang" on "terms" ("trid", "lang", "taxonomy");

-- index used_challenges_until
CREATE INDEX "used_challenges_until" on "used_challenges" ("until_utc");

-- index venues_author
CREATE INDEX "venues_author" on "venues" ("author");

-- index venues_geo
CREATE INDEX "venues_geo" on "venues" ("geo_lat", "geo_lng");

-- index venues_lang_date
CREATE INDEX "venues_lang_date" on "venues" ("lang", "date", "id");

-- index venues_lang_slug
CREATE INDEX "venues_lang_slug" on "venues" ("lang", "slug");

-- index venues_lang_title_ci
CREATE INDEX "venues_lang_title_ci" on "venues" (lang, lower(title));

-- index venues_trid
CREATE INDEX "venues_trid" on "venues" ("trid");

-- index webhook_deliveries_due
CREATE INDEX "webhook_deliveries_due" on "webhook_deliveries" ("next_attempt_utc", "id") where status = 'pending';

-- index webhook_deliveries_log
CREATE INDEX "webhook_deliveries_log" on "webhook_deliveries" ("webhook_id", "id");

-- index webhook_deliveries_record
CREATE INDEX "webhook_deliveries_record" on "webhook_deliveries" ("webhook_id", "kind", "record_id", "position") where status = 'pending';

-- trigger change_log_events_delete
CREATE TRIGGER change_log_events_delete after delete on events begin
        insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       values ('event', old.id, old.lang, 'deleted', 0, (case when old.status = 'publish' then 1 else 0 end), old.author, strftime('%Y-%m-%d %H:%M:%S', 'now'));
      end;

-- trigger change_log_events_insert
CREATE TRIGGER change_log_events_insert after insert on events begin
        insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       values ('event', new.id, new.lang, 'created', (case when new.status = 'publish' then 1 else 0 end), 0, new.author, strftime('%Y-%m-%d %H:%M:%S', 'now'));
        insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select 'event', m.id, m.lang, 'updated', (case when m.status = 'publish' then 1 else 0 end), (case when m.status = 'publish' then 1 else 0 end), m.author, strftime('%Y-%m-%d %H:%M:%S', 'now')
       from events m where m.trid = new.trid and m.id <> new.id and m.status <> 'trash';
      end;

-- trigger change_log_events_update
CREATE TRIGGER change_log_events_update after update of lang, trid, author, status, password, slug, title, description, excerpt, date, date_utc, modified, modified_utc, image_id, all_day, start_local, end_local, start_utc, end_utc, timezone, timezone_abbr, cost, currency_symbol, currency_code, currency_position, website, show_map, show_map_link, hide_from_listings, sticky, featured, venue_id, post_parent, series_id, recurrence_id on events begin
        insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       values ('event', new.id, new.lang, case when new.status = 'trash' and old.status <> 'trash' then 'trashed' else 'updated' end, (case when new.status = 'publish' then 1 else 0 end), (case when old.status = 'publish' then 1 else 0 end), new.author, strftime('%Y-%m-%d %H:%M:%S', 'now'));
        insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select 'event', m.id, m.lang, 'updated', (case when m.status = 'publish' then 1 else 0 end), (case when m.status = 'publish' then 1 else 0 end), m.author, strftime('%Y-%m-%d %H:%M:%S', 'now')
       from events m where m.trid = old.trid and m.id <> new.id and m.status <> 'trash' and old.trid <> new.trid;
        insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select 'event', m.id, m.lang, 'updated', (case when m.status = 'publish' then 1 else 0 end), (case when m.status = 'publish' then 1 else 0 end), m.author, strftime('%Y-%m-%d %H:%M:%S', 'now')
       from events m where m.trid = new.trid and m.id <> new.id and m.status <> 'trash' and old.trid <> new.trid;
      end;

-- trigger change_log_organizers_delete
CREATE TRIGGER change_log_organizers_delete after delete on organizers begin
        insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       values ('organizer', old.id, old.lang, 'deleted', 0, (case when old.status = 'publish' then 1 else 0 end), old.author, strftime('%Y-%m-%d %H:%M:%S', 'now'));
      end;

-- trigger change_log_organizers_insert
CREATE TRIGGER change_log_organizers_insert after insert on organizers begin
        insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       values ('organizer', new.id, new.lang, 'created', (case when new.status = 'publish' then 1 else 0 end), 0, new.author, strftime('%Y-%m-%d %H:%M:%S', 'now'));
        insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select 'organizer', m.id, m.lang, 'updated', (case when m.status = 'publish' then 1 else 0 end), (case when m.status = 'publish' then 1 else 0 end), m.author, strftime('%Y-%m-%d %H:%M:%S', 'now')
       from organizers m where m.trid = new.trid and m.id <> new.id and m.status <> 'trash';
        insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select distinct 'event', e.id, e.lang, 'updated', (case when e.status = 'publish' then 1 else 0 end), (case when e.status = 'publish' then 1 else 0 end), e.author, strftime('%Y-%m-%d %H:%M:%S', 'now') from events e join event_organizers eo on eo.event_id = e.id where eo.organizer_id in (select o.id from organizers o where o.trid = new.trid) and e.status <> 'trash';
      end;

-- trigger change_log_organizers_update
CREATE TRIGGER change_log_organizers_update after update on organizers begin
        insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       values ('organizer', new.id, new.lang, case when new.status = 'trash' and old.status <> 'trash' then 'trashed' else 'updated' end, (case when new.status = 'publish' then 1 else 0 end), (case when old.status = 'publish' then 1 else 0 end), new.author, strftime('%Y-%m-%d %H:%M:%S', 'now'));
        insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select 'organizer', m.id, m.lang, 'updated', (case when m.status = 'publish' then 1 else 0 end), (case when m.status = 'publish' then 1 else 0 end), m.author, strftime('%Y-%m-%d %H:%M:%S', 'now')
       from organizers m where m.trid = old.trid and m.id <> new.id and m.status <> 'trash' and old.trid <> new.trid;
        insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select 'organizer', m.id, m.lang, 'updated', (case when m.status = 'publish' then 1 else 0 end), (case when m.status = 'publish' then 1 else 0 end), m.author, strftime('%Y-%m-%d %H:%M:%S', 'now')
       from organizers m where m.trid = new.trid and m.id <> new.id and m.status <> 'trash' and old.trid <> new.trid;
        insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select distinct 'event', e.id, e.lang, 'updated', (case when e.status = 'publish' then 1 else 0 end), (case when e.status = 'publish' then 1 else 0 end), e.author, strftime('%Y-%m-%d %H:%M:%S', 'now') from events e join event_organizers eo on eo.event_id = e.id where eo.organizer_id in (select o.id from organizers o where o.trid = new.trid) and e.status <> 'trash';
      end;

-- trigger change_log_series_exception
CREATE TRIGGER change_log_series_exception after update of recurrence_exception on events when new.series_id is not null begin insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select 'event', s.id, s.lang, 'updated', (case when s.status = 'publish' then 1 else 0 end), (case when s.status = 'publish' then 1 else 0 end), s.author, strftime('%Y-%m-%d %H:%M:%S', 'now') from events s where s.id = new.series_id and s.status <> 'trash'; end;

-- trigger change_log_series_rule_insert
CREATE TRIGGER change_log_series_rule_insert after insert on event_recurrence begin insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select 'event', s.id, s.lang, 'updated', (case when s.status = 'publish' then 1 else 0 end), (case when s.status = 'publish' then 1 else 0 end), s.author, strftime('%Y-%m-%d %H:%M:%S', 'now') from events s where s.id = new.series_id and s.status <> 'trash'; end;

-- trigger change_log_series_rule_update
CREATE TRIGGER change_log_series_rule_update after update on event_recurrence begin insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select 'event', s.id, s.lang, 'updated', (case when s.status = 'publish' then 1 else 0 end), (case when s.status = 'publish' then 1 else 0 end), s.author, strftime('%Y-%m-%d %H:%M:%S', 'now') from events s where s.id = new.series_id and s.status <> 'trash'; end;

-- trigger change_log_terms_delete
CREATE TRIGGER change_log_terms_delete before delete on terms begin
      insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc) values (case when old.taxonomy = 'cal_events_cat' then 'category' else 'tag' end, old.id, old.lang, 'deleted', 1, 1, 0, strftime('%Y-%m-%d %H:%M:%S', 'now'));
      insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select distinct 'event', e.id, e.lang, 'updated', (case when e.status = 'publish' then 1 else 0 end), (case when e.status = 'publish' then 1 else 0 end), e.author, strftime('%Y-%m-%d %H:%M:%S', 'now') from events e join event_terms et on et.event_id = e.id where et.term_id in (select t.id from terms t where t.trid = old.trid) and e.status <> 'trash';
    end;

-- trigger change_log_terms_dependents
CREATE TRIGGER change_log_terms_dependents after update of name, slug, description, parent, trid on terms
      when new.name <> old.name or new.slug <> old.slug or new.description <> old.description or new.parent <> old.parent or new.trid <> old.trid begin
      insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select distinct 'event', e.id, e.lang, 'updated', (case when e.status = 'publish' then 1 else 0 end), (case when e.status = 'publish' then 1 else 0 end), e.author, strftime('%Y-%m-%d %H:%M:%S', 'now') from events e join event_terms et on et.event_id = e.id where et.term_id in (select t.id from terms t where t.trid = new.trid) and e.status <> 'trash';
    end;

-- trigger change_log_terms_insert
CREATE TRIGGER change_log_terms_insert after insert on terms begin
      insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc) values (case when new.taxonomy = 'cal_events_cat' then 'category' else 'tag' end, new.id, new.lang, 'created', 1, 1, 0, strftime('%Y-%m-%d %H:%M:%S', 'now'));
      insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select case when m.taxonomy = 'cal_events_cat' then 'category' else 'tag' end, m.id, m.lang, 'updated', 1, 1, 0, strftime('%Y-%m-%d %H:%M:%S', 'now')
       from terms m where m.trid = new.trid and m.id <> new.id;
    end;

-- trigger change_log_terms_update
CREATE TRIGGER change_log_terms_update after update on terms begin
      insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc) values (case when new.taxonomy = 'cal_events_cat' then 'category' else 'tag' end, new.id, new.lang, 'updated', 1, 1, 0, strftime('%Y-%m-%d %H:%M:%S', 'now'));
      insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select case when m.taxonomy = 'cal_events_cat' then 'category' else 'tag' end, m.id, m.lang, 'updated', 1, 1, 0, strftime('%Y-%m-%d %H:%M:%S', 'now')
       from terms m where m.trid = old.trid and m.id <> new.id and old.trid <> new.trid;
      insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select case when m.taxonomy = 'cal_events_cat' then 'category' else 'tag' end, m.id, m.lang, 'updated', 1, 1, 0, strftime('%Y-%m-%d %H:%M:%S', 'now')
       from terms m where m.trid = new.trid and m.id <> new.id and old.trid <> new.trid;
    end;

-- trigger change_log_venues_delete
CREATE TRIGGER change_log_venues_delete after delete on venues begin
        insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       values ('venue', old.id, old.lang, 'deleted', 0, (case when old.status = 'publish' then 1 else 0 end), old.author, strftime('%Y-%m-%d %H:%M:%S', 'now'));
      end;

-- trigger change_log_venues_insert
CREATE TRIGGER change_log_venues_insert after insert on venues begin
        insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       values ('venue', new.id, new.lang, 'created', (case when new.status = 'publish' then 1 else 0 end), 0, new.author, strftime('%Y-%m-%d %H:%M:%S', 'now'));
        insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select 'venue', m.id, m.lang, 'updated', (case when m.status = 'publish' then 1 else 0 end), (case when m.status = 'publish' then 1 else 0 end), m.author, strftime('%Y-%m-%d %H:%M:%S', 'now')
       from venues m where m.trid = new.trid and m.id <> new.id and m.status <> 'trash';
        insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select distinct 'event', e.id, e.lang, 'updated', (case when e.status = 'publish' then 1 else 0 end), (case when e.status = 'publish' then 1 else 0 end), e.author, strftime('%Y-%m-%d %H:%M:%S', 'now') from events e where e.venue_id in (select v.id from venues v where v.trid = new.trid) and e.status <> 'trash';
      end;

-- trigger change_log_venues_update
CREATE TRIGGER change_log_venues_update after update on venues begin
        insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       values ('venue', new.id, new.lang, case when new.status = 'trash' and old.status <> 'trash' then 'trashed' else 'updated' end, (case when new.status = 'publish' then 1 else 0 end), (case when old.status = 'publish' then 1 else 0 end), new.author, strftime('%Y-%m-%d %H:%M:%S', 'now'));
        insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select 'venue', m.id, m.lang, 'updated', (case when m.status = 'publish' then 1 else 0 end), (case when m.status = 'publish' then 1 else 0 end), m.author, strftime('%Y-%m-%d %H:%M:%S', 'now')
       from venues m where m.trid = old.trid and m.id <> new.id and m.status <> 'trash' and old.trid <> new.trid;
        insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select 'venue', m.id, m.lang, 'updated', (case when m.status = 'publish' then 1 else 0 end), (case when m.status = 'publish' then 1 else 0 end), m.author, strftime('%Y-%m-%d %H:%M:%S', 'now')
       from venues m where m.trid = new.trid and m.id <> new.id and m.status <> 'trash' and old.trid <> new.trid;
        insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select distinct 'event', e.id, e.lang, 'updated', (case when e.status = 'publish' then 1 else 0 end), (case when e.status = 'publish' then 1 else 0 end), e.author, strftime('%Y-%m-%d %H:%M:%S', 'now') from events e where e.venue_id in (select v.id from venues v where v.trid = new.trid) and e.status <> 'trash';
      end;

-- trigger event_facet_count_delete
CREATE TRIGGER event_facet_count_delete before delete on events begin update event_facet_window_counts set n = n - 1
      where old.status = 'publish' and old.hide_from_listings = 0 and old.password = '' and lang = old.lang and start_day = substr(old.start_local, 1, 10) and end_day = substr(old.end_local, 1, 10)
        and (facet, facet_id) in (select f.facet, f.facet_id from (
  select 'venue' as facet, old.venue_id as facet_id where old.venue_id is not null
  union all select 'featured', 0 where old.featured = 1
  union all select 'featured_venue', old.venue_id where old.featured = 1 and old.venue_id is not null
  union all select 'organizer', eo.organizer_id from event_organizers eo where eo.event_id = old.id
  union all select 'featured_organizer', eo.organizer_id from event_organizers eo where eo.event_id = old.id and old.featured = 1
  union all select 'featured_term', et.term_id from event_terms et where et.event_id = old.id and old.featured = 1) f); end;

-- trigger event_facet_count_insert
CREATE TRIGGER event_facet_count_insert after insert on events begin insert into event_facet_window_counts (lang, facet, facet_id, start_day, end_day, n)
      select new.lang, f.facet, f.facet_id, substr(new.start_local, 1, 10) as start_day, substr(new.end_local, 1, 10) as end_day, 1 from (
  select 'venue' as facet, new.venue_id as facet_id where new.venue_id is not null
  union all select 'featured', 0 where new.featured = 1
  union all select 'featured_venue', new.venue_id where new.featured = 1 and new.venue_id is not null
  union all select 'organizer', eo.organizer_id from event_organizers eo where eo.event_id = new.id
  union all select 'featured_organizer', eo.organizer_id from event_organizers eo where eo.event_id = new.id and new.featured = 1
  union all select 'featured_term', et.term_id from event_terms et where et.event_id = new.id and new.featured = 1) f where new.status = 'publish' and new.hide_from_listings = 0 and new.password = ''
      on conflict (lang, facet, facet_id, start_day, end_day) do update set n = n + 1; end;

-- trigger event_facet_count_update
CREATE TRIGGER event_facet_count_update after update of status, hide_from_listings, lang, start_local, end_local, password, venue_id, featured on events begin
        update event_facet_window_counts set n = n - 1
      where old.status = 'publish' and old.hide_from_listings = 0 and old.password = '' and lang = old.lang and start_day = substr(old.start_local, 1, 10) and end_day = substr(old.end_local, 1, 10)
        and (facet, facet_id) in (select f.facet, f.facet_id from (
  select 'venue' as facet, old.venue_id as facet_id where old.venue_id is not null
  union all select 'featured', 0 where old.featured = 1
  union all select 'featured_venue', old.venue_id where old.featured = 1 and old.venue_id is not null
  union all select 'organizer', eo.organizer_id from event_organizers eo where eo.event_id = old.id
  union all select 'featured_organizer', eo.organizer_id from event_organizers eo where eo.event_id = old.id and old.featured = 1
  union all select 'featured_term', et.term_id from event_terms et where et.event_id = old.id and old.featured = 1) f);
        insert into event_facet_window_counts (lang, facet, facet_id, start_day, end_day, n)
      select new.lang, f.facet, f.facet_id, substr(new.start_local, 1, 10) as start_day, substr(new.end_local, 1, 10) as end_day, 1 from (
  select 'venue' as facet, new.venue_id as facet_id where new.venue_id is not null
  union all select 'featured', 0 where new.featured = 1
  union all select 'featured_venue', new.venue_id where new.featured = 1 and new.venue_id is not null
  union all select 'organizer', eo.organizer_id from event_organizers eo where eo.event_id = new.id
  union all select 'featured_organizer', eo.organizer_id from event_organizers eo where eo.event_id = new.id and new.featured = 1
  union all select 'featured_term', et.term_id from event_terms et where et.event_id = new.id and new.featured = 1) f where new.status = 'publish' and new.hide_from_listings = 0 and new.password = ''
      on conflict (lang, facet, facet_id, start_day, end_day) do update set n = n + 1;
      end;

-- trigger event_organizers_facet_count_delete
CREATE TRIGGER event_organizers_facet_count_delete after delete on event_organizers begin update event_facet_window_counts set n = n - 1
      where (lang, facet, facet_id, start_day, end_day) in (select e.lang, f.facet, f.facet_id, substr(e.start_local, 1, 10) as start_day, substr(e.end_local, 1, 10) as end_day
  from events e join (select 'organizer' as facet, old.organizer_id as facet_id, 0 as featured_only
    union all select 'featured_organizer', old.organizer_id, 1) f on f.featured_only = 0 or e.featured = 1
  where e.id = old.event_id and e.status = 'publish' and e.hide_from_listings = 0 and e.password = ''); end;

-- trigger event_organizers_facet_count_insert
CREATE TRIGGER event_organizers_facet_count_insert after insert on event_organizers begin insert into event_facet_window_counts (lang, facet, facet_id, start_day, end_day, n)
      select r.*, 1 from (select e.lang, f.facet, f.facet_id, substr(e.start_local, 1, 10) as start_day, substr(e.end_local, 1, 10) as end_day
  from events e join (select 'organizer' as facet, new.organizer_id as facet_id, 0 as featured_only
    union all select 'featured_organizer', new.organizer_id, 1) f on f.featured_only = 0 or e.featured = 1
  where e.id = new.event_id and e.status = 'publish' and e.hide_from_listings = 0 and e.password = '') r where true on conflict (lang, facet, facet_id, start_day, end_day) do update set n = n + 1; end;

-- trigger event_organizers_order
CREATE TRIGGER event_organizers_order after insert on event_organizers begin update event_organizers set (event_lang, event_status, event_hide_from_listings, event_start_local, event_end_local, event_protected) = (select e.lang, e.status, e.hide_from_listings, e.start_local, e.end_local, case when e.password <> '' then 1 else 0 end from events e where e.id = new.event_id) where event_id = new.event_id and organizer_id = new.organizer_id; end;

-- trigger event_term_window_count_event_delete
CREATE TRIGGER event_term_window_count_event_delete before delete on events begin
        update event_term_window_counts set n = n - 1
      where old.status = 'publish' and old.hide_from_listings = 0 and old.password = '' and lang = old.lang and term_id in (select term_id from event_terms where event_id = old.id)
        and start_day = substr(old.start_local, 1, 10) and end_day = substr(old.end_local, 1, 10);
      end;

-- trigger event_term_window_count_event_update
CREATE TRIGGER event_term_window_count_event_update after update of status, hide_from_listings, lang, start_local, end_local, password on events begin
        update event_term_window_counts set n = n - 1
      where old.status = 'publish' and old.hide_from_listings = 0 and old.password = '' and lang = old.lang and term_id in (select term_id from event_terms where event_id = old.id)
        and start_day = substr(old.start_local, 1, 10) and end_day = substr(old.end_local, 1, 10);
        insert into event_term_window_counts (lang, term_id, start_day, end_day, n)
      select new.lang, t.term_id, substr(new.start_local, 1, 10), substr(new.end_local, 1, 10), 1 from (select term_id from event_terms where event_id = new.id) t where new.status = 'publish' and new.hide_from_listings = 0 and new.password = ''
      on conflict (lang, term_id, start_day, end_day) do update set n = n + 1;
      end;

-- trigger event_term_window_count_link_delete
CREATE TRIGGER event_term_window_count_link_delete after delete on event_terms begin
        update event_term_window_counts set n = n - 1
          where (lang, term_id, start_day, end_day) in (select e.lang, old.term_id, substr(e.start_local, 1, 10), substr(e.end_local, 1, 10) from events e where e.id = old.event_id and e.status = 'publish' and e.hide_from_listings = 0 and e.password = '');
      end;

-- trigger event_term_window_count_link_insert
CREATE TRIGGER event_term_window_count_link_insert after insert on event_terms begin
        insert into event_term_window_counts (lang, term_id, start_day, end_day, n)
          select e.lang, new.term_id, substr(e.start_local, 1, 10), substr(e.end_local, 1, 10), 1 from events e where e.id = new.event_id and e.status = 'publish' and e.hide_from_listings = 0 and e.password = ''
          on conflict (lang, term_id, start_day, end_day) do update set n = n + 1;
      end;

-- trigger event_terms_facet_count_delete
CREATE TRIGGER event_terms_facet_count_delete after delete on event_terms begin update event_facet_window_counts set n = n - 1
      where (lang, facet, facet_id, start_day, end_day) in (select e.lang, f.facet, f.facet_id, substr(e.start_local, 1, 10) as start_day, substr(e.end_local, 1, 10) as end_day
  from events e join (select 'featured_term' as facet, old.term_id as facet_id, 1 as featured_only) f on f.featured_only = 0 or e.featured = 1
  where e.id = old.event_id and e.status = 'publish' and e.hide_from_listings = 0 and e.password = ''); end;

-- trigger event_terms_facet_count_insert
CREATE TRIGGER event_terms_facet_count_insert after insert on event_terms begin insert into event_facet_window_counts (lang, facet, facet_id, start_day, end_day, n)
      select r.*, 1 from (select e.lang, f.facet, f.facet_id, substr(e.start_local, 1, 10) as start_day, substr(e.end_local, 1, 10) as end_day
  from events e join (select 'featured_term' as facet, new.term_id as facet_id, 1 as featured_only) f on f.featured_only = 0 or e.featured = 1
  where e.id = new.event_id and e.status = 'publish' and e.hide_from_listings = 0 and e.password = '') r where true on conflict (lang, facet, facet_id, start_day, end_day) do update set n = n + 1; end;

-- trigger event_terms_order
CREATE TRIGGER event_terms_order after insert on event_terms begin update event_terms set (event_lang, event_status, event_hide_from_listings, event_start_local, event_end_local, event_protected) = (select e.lang, e.status, e.hide_from_listings, e.start_local, e.end_local, case when e.password <> '' then 1 else 0 end from events e where e.id = new.event_id) where event_id = new.event_id and term_id = new.term_id; end;

-- trigger event_window_count_delete
CREATE TRIGGER event_window_count_delete after delete on events begin update event_window_counts set n = n - 1
        where old.status = 'publish' and old.hide_from_listings = 0 and lang = old.lang and start_day = substr(old.start_local, 1, 10) and end_day = substr(old.end_local, 1, 10); end;

-- trigger event_window_count_insert
CREATE TRIGGER event_window_count_insert after insert on events begin insert into event_window_counts (lang, start_day, end_day, n)
        select new.lang, substr(new.start_local, 1, 10), substr(new.end_local, 1, 10), 1 where new.status = 'publish' and new.hide_from_listings = 0
        on conflict (lang, start_day, end_day) do update set n = n + 1; end;

-- trigger event_window_count_update
CREATE TRIGGER event_window_count_update after update of status, hide_from_listings, lang, start_local, end_local on events begin update event_window_counts set n = n - 1
        where old.status = 'publish' and old.hide_from_listings = 0 and lang = old.lang and start_day = substr(old.start_local, 1, 10) and end_day = substr(old.end_local, 1, 10); insert into event_window_counts (lang, start_day, end_day, n)
        select new.lang, substr(new.start_local, 1, 10), substr(new.end_local, 1, 10), 1 where new.status = 'publish' and new.hide_from_listings = 0
        on conflict (lang, start_day, end_day) do update set n = n + 1; end;

-- trigger events_link_order
CREATE TRIGGER events_link_order after update of lang, status, hide_from_listings, start_local, end_local, password on events when old.lang <> new.lang or old.status <> new.status or old.hide_from_listings <> new.hide_from_listings or old.start_local <> new.start_local or old.end_local <> new.end_local or old.password <> new.password begin update event_terms set event_lang = new.lang, event_status = new.status, event_hide_from_listings = new.hide_from_listings, event_start_local = new.start_local, event_end_local = new.end_local, event_protected = case when new.password <> '' then 1 else 0 end where event_id = new.id; update event_organizers set event_lang = new.lang, event_status = new.status, event_hide_from_listings = new.hide_from_listings, event_start_local = new.start_local, event_end_local = new.end_local, event_protected = case when new.password <> '' then 1 else 0 end where event_id = new.id; end;

-- trigger events_search_delete
CREATE TRIGGER events_search_delete after delete on events begin
      insert into events_search(events_search, rowid, title, description, excerpt) select 'delete', old.id, old.title, old.description, old.excerpt where not exists (select 1 from events_search_pending where id = old.id);
      delete from events_search_pending where id = old.id;
    end;

-- trigger events_search_insert
CREATE TRIGGER events_search_insert after insert on events begin
      insert or ignore into events_search_pending (id) values (new.id);
    end;

-- trigger events_search_update
CREATE TRIGGER events_search_update after update of title, description, excerpt on events begin
      insert into events_search(events_search, rowid, title, description, excerpt) select 'delete', old.id, old.title, old.description, old.excerpt where not exists (select 1 from events_search_pending where id = old.id);
      insert or ignore into events_search_pending (id) values (new.id);
    end;

-- trigger search_window_count_delete
CREATE TRIGGER search_window_count_delete after delete on events begin update search_window_counts set n = n - 1
      where old.status = 'publish' and old.hide_from_listings = 0 and lang = old.lang and start_day = substr(old.start_local, 1, 10) and end_day = substr(old.end_local, 1, 10)
        and phrase_id in (select p.id from search_phrases p where (p.counted_through is null or old.id <= p.counted_through) and not exists (
      select 1 from search_phrase_words w where w.phrase_id = p.id
        and not coalesce((case when w.watch is null then lower(old.title) like lower(w.pattern) escape '\' else (old.title like w.pattern escape '\' or (((instr(w.watch, 'K') > 0 and old.title glob '*K*') or (instr(w.watch, 'İ') > 0 and old.title glob '*İ*')) and lower(old.title) like lower(w.pattern) escape '\')) end) or (old.password = '' and ((case when w.watch is null then lower(old.description) like lower(w.pattern) escape '\' else (old.description like w.pattern escape '\' or (((instr(w.watch, 'K') > 0 and old.description glob '*K*') or (instr(w.watch, 'İ') > 0 and old.description glob '*İ*')) and lower(old.description) like lower(w.pattern) escape '\')) end) or (case when w.watch is null then lower(old.excerpt) like lower(w.pattern) escape '\' else (old.excerpt like w.pattern escape '\' or (((instr(w.watch, 'K') > 0 and old.excerpt glob '*K*') or (instr(w.watch, 'İ') > 0 and old.excerpt glob '*İ*')) and lower(old.excerpt) like lower(w.pattern) escape '\')) end))), false))); end;

-- trigger search_window_count_insert
CREATE TRIGGER search_window_count_insert after insert on events begin insert into search_window_counts (phrase_id, lang, start_day, end_day, n)
      select m.id, new.lang, substr(new.start_local, 1, 10), substr(new.end_local, 1, 10), 1 from (select p.id from search_phrases p where (p.counted_through is null or new.id <= p.counted_through) and not exists (
      select 1 from search_phrase_words w where w.phrase_id = p.id
        and not coalesce((case when w.watch is null then lower(new.title) like lower(w.pattern) escape '\' else (new.title like w.pattern escape '\' or (((instr(w.watch, 'K') > 0 and new.title glob '*K*') or (instr(w.watch, 'İ') > 0 and new.title glob '*İ*')) and lower(new.title) like lower(w.pattern) escape '\')) end) or (new.password = '' and ((case when w.watch is null then lower(new.description) like lower(w.pattern) escape '\' else (new.description like w.pattern escape '\' or (((instr(w.watch, 'K') > 0 and new.description glob '*K*') or (instr(w.watch, 'İ') > 0 and new.description glob '*İ*')) and lower(new.description) like lower(w.pattern) escape '\')) end) or (case when w.watch is null then lower(new.excerpt) like lower(w.pattern) escape '\' else (new.excerpt like w.pattern escape '\' or (((instr(w.watch, 'K') > 0 and new.excerpt glob '*K*') or (instr(w.watch, 'İ') > 0 and new.excerpt glob '*İ*')) and lower(new.excerpt) like lower(w.pattern) escape '\')) end))), false))) m where new.status = 'publish' and new.hide_from_listings = 0
      on conflict (phrase_id, lang, start_day, end_day) do update set n = n + 1; end;

-- trigger search_window_count_update
CREATE TRIGGER search_window_count_update after update of title, description, excerpt, status, hide_from_listings, lang, start_local, end_local, password on events begin update search_window_counts set n = n - 1
      where old.status = 'publish' and old.hide_from_listings = 0 and lang = old.lang and start_day = substr(old.start_local, 1, 10) and end_day = substr(old.end_local, 1, 10)
        and phrase_id in (select p.id from search_phrases p where (p.counted_through is null or old.id <= p.counted_through) and not exists (
      select 1 from search_phrase_words w where w.phrase_id = p.id
        and not coalesce((case when w.watch is null then lower(old.title) like lower(w.pattern) escape '\' else (old.title like w.pattern escape '\' or (((instr(w.watch, 'K') > 0 and old.title glob '*K*') or (instr(w.watch, 'İ') > 0 and old.title glob '*İ*')) and lower(old.title) like lower(w.pattern) escape '\')) end) or (old.password = '' and ((case when w.watch is null then lower(old.description) like lower(w.pattern) escape '\' else (old.description like w.pattern escape '\' or (((instr(w.watch, 'K') > 0 and old.description glob '*K*') or (instr(w.watch, 'İ') > 0 and old.description glob '*İ*')) and lower(old.description) like lower(w.pattern) escape '\')) end) or (case when w.watch is null then lower(old.excerpt) like lower(w.pattern) escape '\' else (old.excerpt like w.pattern escape '\' or (((instr(w.watch, 'K') > 0 and old.excerpt glob '*K*') or (instr(w.watch, 'İ') > 0 and old.excerpt glob '*İ*')) and lower(old.excerpt) like lower(w.pattern) escape '\')) end))), false))); insert into search_window_counts (phrase_id, lang, start_day, end_day, n)
      select m.id, new.lang, substr(new.start_local, 1, 10), substr(new.end_local, 1, 10), 1 from (select p.id from search_phrases p where (p.counted_through is null or new.id <= p.counted_through) and not exists (
      select 1 from search_phrase_words w where w.phrase_id = p.id
        and not coalesce((case when w.watch is null then lower(new.title) like lower(w.pattern) escape '\' else (new.title like w.pattern escape '\' or (((instr(w.watch, 'K') > 0 and new.title glob '*K*') or (instr(w.watch, 'İ') > 0 and new.title glob '*İ*')) and lower(new.title) like lower(w.pattern) escape '\')) end) or (new.password = '' and ((case when w.watch is null then lower(new.description) like lower(w.pattern) escape '\' else (new.description like w.pattern escape '\' or (((instr(w.watch, 'K') > 0 and new.description glob '*K*') or (instr(w.watch, 'İ') > 0 and new.description glob '*İ*')) and lower(new.description) like lower(w.pattern) escape '\')) end) or (case when w.watch is null then lower(new.excerpt) like lower(w.pattern) escape '\' else (new.excerpt like w.pattern escape '\' or (((instr(w.watch, 'K') > 0 and new.excerpt glob '*K*') or (instr(w.watch, 'İ') > 0 and new.excerpt glob '*İ*')) and lower(new.excerpt) like lower(w.pattern) escape '\')) end))), false))) m where new.status = 'publish' and new.hide_from_listings = 0
      on conflict (phrase_id, lang, start_day, end_day) do update set n = n + 1; end;

-- trigger webhook_outbox
CREATE TRIGGER webhook_outbox after insert on change_log when new.is_public = 1 or new.was_public = 1 begin insert into webhook_deliveries (webhook_id, position, kind, record_id, lang, event_type, change_at_utc, status, attempts, next_attempt_utc, created_utc)
      select w.id, new.position, new.kind, new.record_id, new.lang, new.kind || '.' || (case when new.is_public = 1 then new.change when new.change = 'deleted' then 'deleted' else 'trashed' end), new.at_utc, 'pending', 0, new.at_utc, new.at_utc
      from webhooks w
      where w.active = 1 and (w.lang_filter = '' or instr(w.lang_filter, ',' || new.lang || ',') > 0)
        and exists (select 1 from webhook_patterns p where p.webhook_id = w.id and p.pattern in ('*', new.kind || '.*', new.kind || '.' || (case when new.is_public = 1 then new.change when new.change = 'deleted' then 'deleted' else 'trashed' end))); end;
