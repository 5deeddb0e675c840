-- table app_passwords
--   app_passwords_pkey: PRIMARY KEY (id)
--   app_passwords_user_id_fkey: FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
app_passwords.id integer not null default nextval('app_passwords_id_seq'::regclass)
app_passwords.user_id integer not null
app_passwords.name text not null default ''::text
app_passwords.hash text not null
app_passwords.created text not null

-- table change_log
--   change_log_pkey: PRIMARY KEY ("position")
change_log.position bigint not null default nextval('change_log_position_seq'::regclass)
change_log.kind text not null
change_log.record_id integer not null
change_log.lang text not null
change_log.change text not null
change_log.is_public integer not null
change_log.was_public integer not null
change_log.author integer not null
change_log.at_utc text not null

-- table change_log_state
--   change_log_state_pkey: PRIMARY KEY (id)
change_log_state.id integer not null
change_log_state.pruned_through integer not null

-- table data_version_shards
--   data_version_shards_pkey: PRIMARY KEY (shard)
data_version_shards.shard integer not null
data_version_shards.n bigint not null

-- table event_facet_window_counts
--   event_facet_window_counts_pk: PRIMARY KEY (lang, facet, facet_id, start_day, end_day)
event_facet_window_counts.lang text not null
event_facet_window_counts.facet text not null
event_facet_window_counts.facet_id integer not null
event_facet_window_counts.start_day text not null
event_facet_window_counts.end_day text not null
event_facet_window_counts.n integer not null

-- table event_organizers
--   event_organizers_event_id_fkey: FOREIGN KEY (event_id) REFERENCES events(id) ON DELETE CASCADE
--   event_organizers_organizer_id_fkey: FOREIGN KEY (organizer_id) REFERENCES organizers(id) ON DELETE CASCADE
--   event_organizers_pk: PRIMARY KEY (event_id, organizer_id)
event_organizers.event_id integer not null
event_organizers.organizer_id integer not null
event_organizers.position integer not null
event_organizers.event_lang text not null default ''::text
event_organizers.event_status text not null default ''::text
event_organizers.event_hide_from_listings integer not null default 0
event_organizers.event_start_local text not null default ''::text
event_organizers.event_end_local text not null default ''::text
event_organizers.event_protected integer not null default 0

-- table event_recurrence
--   event_recurrence_pkey: PRIMARY KEY (series_id)
event_recurrence.series_id integer not null
event_recurrence.rrule text not null
event_recurrence.rdates text not null default '[]'::text
event_recurrence.exdates text not null default '[]'::text
event_recurrence.expanded_until text not null
event_recurrence.complete integer not null default 0

-- table event_term_window_counts
--   event_term_window_counts_pk: PRIMARY KEY (lang, term_id, start_day, end_day)
event_term_window_counts.lang text not null
event_term_window_counts.term_id integer not null
event_term_window_counts.start_day text not null
event_term_window_counts.end_day text not null
event_term_window_counts.n integer not null

-- table event_terms
--   event_terms_event_id_fkey: FOREIGN KEY (event_id) REFERENCES events(id) ON DELETE CASCADE
--   event_terms_pk: PRIMARY KEY (event_id, term_id)
--   event_terms_term_id_fkey: FOREIGN KEY (term_id) REFERENCES terms(id) ON DELETE CASCADE
event_terms.event_id integer not null
event_terms.term_id integer not null
event_terms.event_lang text not null default ''::text
event_terms.event_status text not null default ''::text
event_terms.event_hide_from_listings integer not null default 0
event_terms.event_start_local text not null default ''::text
event_terms.event_end_local text not null default ''::text
event_terms.event_protected integer not null default 0

-- table event_window_counts
--   event_window_counts_pk: PRIMARY KEY (lang, start_day, end_day)
event_window_counts.lang text not null
event_window_counts.start_day text not null
event_window_counts.end_day text not null
event_window_counts.n integer not null

-- table events
--   events_id_fkey: FOREIGN KEY (id) REFERENCES posts(id) ON DELETE CASCADE
--   events_pkey: PRIMARY KEY (id)
events.id integer not null
events.lang text not null
events.trid integer not null
events.author integer not null default 0
events.status text not null
events.password text not null default ''::text
events.slug text not null
events.title text not null
events.description text not null default ''::text
events.excerpt text not null default ''::text
events.date text not null
events.date_utc text not null
events.modified text not null
events.modified_utc text not null
events.image_id integer
events.all_day integer not null default 0
events.start_local text not null
events.end_local text not null
events.start_utc text not null
events.end_utc text not null
events.timezone text not null default ''::text
events.timezone_abbr text not null default ''::text
events.cost text not null default '[]'::text
events.currency_symbol text not null default ''::text
events.currency_code text not null default ''::text
events.currency_position text not null default ''::text
events.website text
events.show_map integer not null default 1
events.show_map_link integer not null default 1
events.hide_from_listings integer not null default 0
events.sticky integer not null default 0
events.featured integer not null default 0
events.venue_id integer
events.post_parent integer
events.trashed_from text
events.revision integer not null default 0
events.series_id integer
events.recurrence_id text
events.recurrence_exception integer not null default 0

-- table failure_counts
--   failure_counts_pkey: PRIMARY KEY (key_hash)
failure_counts.key_hash text not null
failure_counts.failures integer not null
failure_counts.reset_at bigint not null

-- table images
--   images_id_fkey: FOREIGN KEY (id) REFERENCES posts(id) ON DELETE CASCADE
--   images_pkey: PRIMARY KEY (id)
--   images_url_key: UNIQUE (url)
images.id integer not null
images.url text not null
images.extension text not null default ''::text
images.width integer
images.height integer

-- table import_map
--   import_map_pk: PRIMARY KEY (source, kind, source_id)
import_map.source text not null
import_map.kind text not null
import_map.source_id text not null
import_map.lang text not null
import_map.local_id integer not null
import_map.source_modified text
import_map.hash text not null
import_map.imported_at text not null

-- table imports
--   imports_pkey: PRIMARY KEY (id)
imports.id integer not null default nextval('imports_id_seq'::regclass)
imports.status text not null
imports.options text not null
imports.progress text not null
imports.report text
imports.error text
imports.user_id integer not null
imports.started text not null
imports.heartbeat text not null
imports.finished text

-- table mail_outbox
--   mail_outbox_pkey: PRIMARY KEY (id)
mail_outbox.id integer not null default nextval('mail_outbox_id_seq'::regclass)
mail_outbox.to_address text not null
mail_outbox.lang text not null
mail_outbox.kind text not null
mail_outbox.subject text not null
mail_outbox.text_body text not null
mail_outbox.html_body text not null
mail_outbox.headers text not null
mail_outbox.dedupe text
mail_outbox.status text not null
mail_outbox.attempts integer not null default 0
mail_outbox.next_attempt_utc text not null
mail_outbox.lease_until text
mail_outbox.last_error text
mail_outbox.message_id text
mail_outbox.created_utc text not null
mail_outbox.sent_utc text

-- table organizers
--   organizers_id_fkey: FOREIGN KEY (id) REFERENCES posts(id) ON DELETE CASCADE
--   organizers_pkey: PRIMARY KEY (id)
organizers.id integer not null
organizers.lang text not null
organizers.trid integer not null
organizers.author integer not null default 0
organizers.status text not null
organizers.password text not null default ''::text
organizers.slug text not null
organizers.title text not null
organizers.description text not null default ''::text
organizers.excerpt text not null default ''::text
organizers.date text not null
organizers.date_utc text not null
organizers.modified text not null
organizers.modified_utc text not null
organizers.image_id integer
organizers.phone text not null default ''::text
organizers.website text not null default ''::text
organizers.email text not null default ''::text

-- table posts
--   posts_pkey: PRIMARY KEY (id)
posts.id integer not null default nextval('posts_id_seq'::regclass)
posts.type text not null

-- table search_phrase_words
--   search_phrase_words_phrase_id_fkey: FOREIGN KEY (phrase_id) REFERENCES search_phrases(id) ON DELETE CASCADE
--   search_phrase_words_pk: PRIMARY KEY (phrase_id, pattern)
search_phrase_words.phrase_id integer not null
search_phrase_words.pattern text not null
search_phrase_words.watch text

-- table search_phrases
--   search_phrases_phrase_key: UNIQUE (phrase)
--   search_phrases_pkey: PRIMARY KEY (id)
search_phrases.id integer not null default nextval('search_phrases_id_seq'::regclass)
search_phrases.phrase text not null
search_phrases.used_utc text not null
search_phrases.counted_through integer

-- table search_window_counts
--   search_window_counts_phrase_id_fkey: FOREIGN KEY (phrase_id) REFERENCES search_phrases(id) ON DELETE CASCADE
--   search_window_counts_pk: PRIMARY KEY (phrase_id, lang, start_day, end_day)
search_window_counts.phrase_id integer not null
search_window_counts.lang text not null
search_window_counts.start_day text not null
search_window_counts.end_day text not null
search_window_counts.n integer not null

-- table sessions
--   sessions_pkey: PRIMARY KEY (id)
--   sessions_user_id_fkey: FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE CASCADE
sessions.id integer not null default nextval('sessions_id_seq'::regclass)
sessions.token_hash text not null
sessions.user_id integer not null
sessions.nonce text not null
sessions.created text not null
sessions.last_seen text not null
sessions.expires text not null
sessions.ip text not null default ''::text
sessions.user_agent text not null default ''::text

-- table settings
--   settings_pkey: PRIMARY KEY (key)
settings.key text not null
settings.value text not null

-- table spam_blocks
--   spam_blocks_pkey: PRIMARY KEY (key)
spam_blocks.key text not null
spam_blocks.until_utc text not null
spam_blocks.submission_id integer

-- table submissions
--   submissions_decided_by_fkey: FOREIGN KEY (decided_by) REFERENCES users(id) ON DELETE SET NULL
--   submissions_event_id_fkey: FOREIGN KEY (event_id) REFERENCES events(id) ON DELETE CASCADE
--   submissions_pkey: PRIMARY KEY (id)
--   submissions_user_id_fkey: FOREIGN KEY (user_id) REFERENCES users(id) ON DELETE SET NULL
submissions.id integer not null default nextval('submissions_id_seq'::regclass)
submissions.event_id integer not null
submissions.lang text not null
submissions.state text not null
submissions.name text not null
submissions.email text not null
submissions.user_id integer
submissions.ip text not null
submissions.ip_key text not null
submissions.email_key text not null
submissions.user_agent text not null default ''::text
submissions.verified integer not null
submissions.confirmed integer not null
submissions.confirm_hash text
submissions.duplicate_of integer
submissions.links integer not null default 0
submissions.new_venue integer
submissions.new_organizers text not null default '[]'::text
submissions.new_tags text not null default '[]'::text
submissions.reason text not null default ''::text
submissions.created_utc text not null
submissions.decided_utc text
submissions.decided_by integer

-- table terms
--   terms_pkey: PRIMARY KEY (id)
terms.id integer not null default nextval('terms_id_seq'::regclass)
terms.taxonomy text not null
terms.lang text not null
terms.trid integer not null
terms.name text not null
terms.slug text not null
terms.description text not null default ''::text
terms.parent integer not null default 0
terms.count integer not null default 0

-- table used_challenges
--   used_challenges_pkey: PRIMARY KEY (key)
used_challenges.key text not null
used_challenges.until_utc text not null

-- table users
--   users_pkey: PRIMARY KEY (id)
--   users_username_key: UNIQUE (username)
users.id integer not null default nextval('users_id_seq'::regclass)
users.username text not null
users.email text not null default ''::text
users.role text not null
users.registered text not null
users.login_hash text
users.submission_mail text not null default 'none'::text

-- table venues
--   venues_id_fkey: FOREIGN KEY (id) REFERENCES posts(id) ON DELETE CASCADE
--   venues_pkey: PRIMARY KEY (id)
venues.id integer not null
venues.lang text not null
venues.trid integer not null
venues.author integer not null default 0
venues.status text not null
venues.password text not null default ''::text
venues.slug text not null
venues.title text not null
venues.description text not null default ''::text
venues.excerpt text not null default ''::text
venues.date text not null
venues.date_utc text not null
venues.modified text not null
venues.modified_utc text not null
venues.image_id integer
venues.address text not null default ''::text
venues.city text not null default ''::text
venues.country text not null default ''::text
venues.province text not null default ''::text
venues.state text not null default ''::text
venues.zip text not null default ''::text
venues.phone text not null default ''::text
venues.website text not null default ''::text
venues.stateprovince text not null default ''::text
venues.show_map integer not null default 1
venues.show_map_link integer not null default 1
venues.geo_lat double precision
venues.geo_lng double precision

-- table webhook_deliveries
--   webhook_deliveries_pkey: PRIMARY KEY (id)
--   webhook_deliveries_webhook_id_fkey: FOREIGN KEY (webhook_id) REFERENCES webhooks(id) ON DELETE CASCADE
webhook_deliveries.id integer not null default nextval('webhook_deliveries_id_seq'::regclass)
webhook_deliveries.webhook_id integer not null
webhook_deliveries.position bigint not null
webhook_deliveries.kind text not null
webhook_deliveries.record_id integer not null
webhook_deliveries.lang text not null
webhook_deliveries.event_type text not null
webhook_deliveries.change_at_utc text not null
webhook_deliveries.status text not null
webhook_deliveries.attempts integer not null default 0
webhook_deliveries.next_attempt_utc text not null
webhook_deliveries.lease_until text
webhook_deliveries.last_status integer
webhook_deliveries.last_error text
webhook_deliveries.last_response text
webhook_deliveries.last_latency_ms integer
webhook_deliveries.created_utc text not null
webhook_deliveries.delivered_utc text

-- table webhook_patterns
--   webhook_patterns_pk: PRIMARY KEY (webhook_id, pattern)
--   webhook_patterns_webhook_id_fkey: FOREIGN KEY (webhook_id) REFERENCES webhooks(id) ON DELETE CASCADE
webhook_patterns.webhook_id integer not null
webhook_patterns.pattern text not null

-- table webhooks
--   webhooks_pkey: PRIMARY KEY (id)
webhooks.id integer not null default nextval('webhooks_id_seq'::regclass)
webhooks.url text not null
webhooks.events text not null
webhooks.languages text not null
webhooks.lang_filter text not null
webhooks.active integer not null
webhooks.status text not null
webhooks.secret text not null
webhooks.failing_since text
webhooks.created_utc text not null

-- indexes
CREATE UNIQUE INDEX app_passwords_pkey ON public.app_passwords USING btree (id);
CREATE INDEX app_passwords_user ON public.app_passwords USING btree (user_id);
CREATE INDEX change_log_at ON public.change_log USING btree (at_utc);
CREATE INDEX change_log_lang_position ON public.change_log USING btree (lang, "position");
CREATE UNIQUE INDEX change_log_pkey ON public.change_log USING btree ("position");
CREATE UNIQUE INDEX change_log_state_pkey ON public.change_log_state USING btree (id);
CREATE UNIQUE INDEX data_version_shards_pkey ON public.data_version_shards USING btree (shard);
CREATE UNIQUE INDEX event_facet_window_counts_pk ON public.event_facet_window_counts USING btree (lang, facet, facet_id, start_day, end_day);
CREATE INDEX event_organizers_organizer ON public.event_organizers USING btree (organizer_id, event_id);
CREATE UNIQUE INDEX event_organizers_pk ON public.event_organizers USING btree (event_id, organizer_id);
CREATE INDEX event_organizers_public_start ON public.event_organizers USING btree (organizer_id, event_lang, event_start_local, event_id, event_end_local) WHERE ((event_status = 'publish'::text) AND (event_hide_from_listings = 0) AND (event_protected = 0));
CREATE INDEX event_recurrence_open ON public.event_recurrence USING btree (expanded_until) WHERE (complete = 0);
CREATE UNIQUE INDEX event_recurrence_pkey ON public.event_recurrence USING btree (series_id);
CREATE UNIQUE INDEX event_term_window_counts_pk ON public.event_term_window_counts USING btree (lang, term_id, start_day, end_day);
CREATE UNIQUE INDEX event_terms_pk ON public.event_terms USING btree (event_id, term_id);
CREATE INDEX event_terms_public_start ON public.event_terms USING btree (term_id, event_lang, event_start_local, event_id, event_end_local) WHERE ((event_status = 'publish'::text) AND (event_hide_from_listings = 0) AND (event_protected = 0));
CREATE INDEX event_terms_term ON public.event_terms USING btree (term_id, event_id);
CREATE UNIQUE INDEX event_window_counts_pk ON public.event_window_counts USING btree (lang, start_day, end_day);
CREATE INDEX events_author ON public.events USING btree (author);
CREATE INDEX events_description_trgm ON public.events USING gin (description gin_trgm_ops);
CREATE INDEX events_excerpt_trgm ON public.events USING gin (excerpt gin_trgm_ops);
CREATE INDEX events_lang_date ON public.events USING btree (lang, date, id);
CREATE INDEX events_lang_slug ON public.events USING btree (lang, slug);
CREATE INDEX events_lang_start ON public.events USING btree (lang, start_local, id);
CREATE INDEX events_lang_status_start ON public.events USING btree (lang, status, start_local, id);
CREATE INDEX events_parent ON public.events USING btree (post_parent);
CREATE UNIQUE INDEX events_pkey ON public.events USING btree (id);
CREATE INDEX events_public_featured ON public.events USING btree (lang, featured, start_local, id, end_local) WHERE ((status = 'publish'::text) AND (hide_from_listings = 0) AND (featured = 1));
CREATE INDEX events_public_multiday ON public.events USING btree (lang, start_local, id) WHERE ((status = 'publish'::text) AND (hide_from_listings = 0) AND (substr(end_local, 1, 10) > substr(start_local, 1, 10)));
CREATE INDEX events_public_start ON public.events USING btree (lang, start_local, id, end_local) WHERE ((status = 'publish'::text) AND (hide_from_listings = 0));
CREATE INDEX events_public_venue ON public.events USING btree (venue_id, lang, start_local, end_local) WHERE ((status = 'publish'::text) AND (hide_from_listings = 0));
CREATE INDEX events_public_window ON public.events USING btree (lang, start_local, end_local) WHERE ((status = 'publish'::text) AND (hide_from_listings = 0));
CREATE INDEX events_series ON public.events USING btree (series_id, recurrence_id) WHERE (series_id IS NOT NULL);
CREATE INDEX events_title_trgm ON public.events USING gin (title gin_trgm_ops);
CREATE INDEX events_trashed_window ON public.events USING btree (lang, start_local) WHERE (status = 'trash'::text);
CREATE INDEX events_trid ON public.events USING btree (trid);
CREATE INDEX events_venue ON public.events USING btree (venue_id, start_local);
CREATE UNIQUE INDEX failure_counts_pkey ON public.failure_counts USING btree (key_hash);
CREATE INDEX failure_counts_reset ON public.failure_counts USING btree (reset_at);
CREATE UNIQUE INDEX images_pkey ON public.images USING btree (id);
CREATE UNIQUE INDEX images_url_key ON public.images USING btree (url);
CREATE UNIQUE INDEX import_map_pk ON public.import_map USING btree (source, kind, source_id);
CREATE UNIQUE INDEX imports_pkey ON public.imports USING btree (id);
CREATE INDEX imports_status ON public.imports USING btree (status, heartbeat);
CREATE UNIQUE INDEX mail_outbox_dedupe ON public.mail_outbox USING btree (dedupe);
CREATE INDEX mail_outbox_due ON public.mail_outbox USING btree (next_attempt_utc, id) WHERE (status = 'pending'::text);
CREATE UNIQUE INDEX mail_outbox_pkey ON public.mail_outbox USING btree (id);
CREATE INDEX mail_outbox_status ON public.mail_outbox USING btree (status, id);
CREATE INDEX organizers_author ON public.organizers USING btree (author);
CREATE INDEX organizers_lang_date ON public.organizers USING btree (lang, date, id);
CREATE INDEX organizers_lang_slug ON public.organizers USING btree (lang, slug);
CREATE INDEX organizers_lang_title_ci ON public.organizers USING btree (lang, lower(title));
CREATE UNIQUE INDEX organizers_pkey ON public.organizers USING btree (id);
CREATE INDEX organizers_trid ON public.organizers USING btree (trid);
CREATE UNIQUE INDEX posts_pkey ON public.posts USING btree (id);
CREATE UNIQUE INDEX search_phrase_words_pk ON public.search_phrase_words USING btree (phrase_id, pattern);
CREATE UNIQUE INDEX search_phrases_phrase_key ON public.search_phrases USING btree (phrase);
CREATE UNIQUE INDEX search_phrases_pkey ON public.search_phrases USING btree (id);
CREATE INDEX search_phrases_used ON public.search_phrases USING btree (used_utc);
CREATE UNIQUE INDEX search_window_counts_pk ON public.search_window_counts USING btree (phrase_id, lang, start_day, end_day);
CREATE INDEX sessions_expires ON public.sessions USING btree (expires);
CREATE INDEX sessions_last_seen ON public.sessions USING btree (last_seen);
CREATE UNIQUE INDEX sessions_pkey ON public.sessions USING btree (id);
CREATE UNIQUE INDEX sessions_token ON public.sessions USING btree (token_hash);
CREATE INDEX sessions_user ON public.sessions USING btree (user_id);
CREATE UNIQUE INDEX settings_pkey ON public.settings USING btree (key);
CREATE UNIQUE INDEX spam_blocks_pkey ON public.spam_blocks USING btree (key);
CREATE INDEX submissions_confirm ON public.submissions USING btree (confirm_hash) WHERE (confirm_hash IS NOT NULL);
CREATE INDEX submissions_email ON public.submissions USING btree (email_key, created_utc);
CREATE UNIQUE INDEX submissions_event ON public.submissions USING btree (event_id);
CREATE INDEX submissions_ip ON public.submissions USING btree (ip_key, created_utc);
CREATE UNIQUE INDEX submissions_pkey ON public.submissions USING btree (id);
CREATE INDEX submissions_state ON public.submissions USING btree (state, id);
CREATE INDEX terms_parent ON public.terms USING btree (parent);
CREATE UNIQUE INDEX terms_pkey ON public.terms USING btree (id);
CREATE INDEX terms_tax_lang_lname ON public.terms USING btree (taxonomy, lang, lower(name));
CREATE INDEX terms_tax_lang_name ON public.terms USING btree (taxonomy, lang, name);
CREATE UNIQUE INDEX terms_tax_lang_slug ON public.terms USING btree (taxonomy, lang, slug);
CREATE INDEX terms_trid_lang ON public.terms USING btree (trid, lang, taxonomy);
CREATE UNIQUE INDEX used_challenges_pkey ON public.used_challenges USING btree (key);
CREATE INDEX used_challenges_until ON public.used_challenges USING btree (until_utc);
CREATE UNIQUE INDEX users_pkey ON public.users USING btree (id);
CREATE UNIQUE INDEX users_username_key ON public.users USING btree (username);
CREATE INDEX venues_author ON public.venues USING btree (author);
CREATE INDEX venues_geo ON public.venues USING btree (geo_lat, geo_lng);
CREATE INDEX venues_lang_date ON public.venues USING btree (lang, date, id);
CREATE INDEX venues_lang_slug ON public.venues USING btree (lang, slug);
CREATE INDEX venues_lang_title_ci ON public.venues USING btree (lang, lower(title));
CREATE UNIQUE INDEX venues_pkey ON public.venues USING btree (id);
CREATE INDEX venues_trid ON public.venues USING btree (trid);
CREATE INDEX webhook_deliveries_due ON public.webhook_deliveries USING btree (next_attempt_utc, id) WHERE (status = 'pending'::text);
CREATE INDEX webhook_deliveries_log ON public.webhook_deliveries USING btree (webhook_id, id);
CREATE UNIQUE INDEX webhook_deliveries_pkey ON public.webhook_deliveries USING btree (id);
CREATE INDEX webhook_deliveries_record ON public.webhook_deliveries USING btree (webhook_id, kind, record_id, "position") WHERE (status = 'pending'::text);
CREATE UNIQUE INDEX webhook_patterns_pk ON public.webhook_patterns USING btree (webhook_id, pattern);
CREATE UNIQUE INDEX webhooks_pkey ON public.webhooks USING btree (id);

-- triggers
CREATE TRIGGER webhook_outbox AFTER INSERT ON public.change_log FOR EACH ROW WHEN (((new.is_public = 1) OR (new.was_public = 1))) EXECUTE FUNCTION webhook_outbox();
CREATE TRIGGER event_organizers_facet_count AFTER INSERT OR DELETE ON public.event_organizers FOR EACH ROW EXECUTE FUNCTION event_organizers_facet_count();
CREATE TRIGGER event_organizers_order BEFORE INSERT ON public.event_organizers FOR EACH ROW EXECUTE FUNCTION event_organizers_order();
CREATE TRIGGER change_log_series_rule AFTER INSERT OR UPDATE ON public.event_recurrence FOR EACH ROW EXECUTE FUNCTION change_log_series();
CREATE TRIGGER event_term_window_count_link AFTER INSERT OR DELETE ON public.event_terms FOR EACH ROW EXECUTE FUNCTION event_term_window_count_link();
CREATE TRIGGER event_terms_facet_count AFTER INSERT OR DELETE ON public.event_terms FOR EACH ROW EXECUTE FUNCTION event_terms_facet_count();
CREATE TRIGGER event_terms_order BEFORE INSERT ON public.event_terms FOR EACH ROW EXECUTE FUNCTION event_terms_order();
CREATE TRIGGER change_log_events AFTER INSERT OR DELETE OR UPDATE OF lang, trid, author, status, password, slug, title, description, excerpt, date, date_utc, modified, modified_utc, image_id, all_day, start_local, end_local, start_utc, end_utc, timezone, timezone_abbr, cost, currency_symbol, currency_code, currency_position, website, show_map, show_map_link, hide_from_listings, sticky, featured, venue_id, post_parent, series_id, recurrence_id ON public.events FOR EACH ROW EXECUTE FUNCTION change_log_events();
CREATE TRIGGER change_log_series_exception AFTER UPDATE OF recurrence_exception ON public.events FOR EACH ROW WHEN ((new.series_id IS NOT NULL)) EXECUTE FUNCTION change_log_series();
CREATE TRIGGER event_facet_count_delete BEFORE DELETE ON public.events FOR EACH ROW EXECUTE FUNCTION event_facet_count();
CREATE TRIGGER event_facet_count_write AFTER INSERT OR UPDATE OF status, hide_from_listings, lang, start_local, end_local, password, venue_id, featured ON public.events FOR EACH ROW EXECUTE FUNCTION event_facet_count();
CREATE TRIGGER event_term_window_count_event_delete BEFORE DELETE ON public.events FOR EACH ROW EXECUTE FUNCTION event_term_window_count_event();
CREATE TRIGGER event_term_window_count_event_update AFTER UPDATE OF status, hide_from_listings, lang, start_local, end_local, password ON public.events FOR EACH ROW EXECUTE FUNCTION event_term_window_count_event();
CREATE TRIGGER event_window_count AFTER INSERT OR DELETE OR UPDATE OF status, hide_from_listings, lang, start_local, end_local ON public.events FOR EACH ROW EXECUTE FUNCTION event_window_count();
CREATE TRIGGER events_link_order AFTER UPDATE OF lang, status, hide_from_listings, start_local, end_local, password ON public.events FOR EACH ROW WHEN (((old.lang <> new.lang) OR (old.status <> new.status) OR (old.hide_from_listings <> new.hide_from_listings) OR (old.start_local <> new.start_local) OR (old.end_local <> new.end_local) OR (old.password <> new.password))) EXECUTE FUNCTION events_link_order();
CREATE TRIGGER search_window_count AFTER INSERT OR DELETE OR UPDATE OF title, description, excerpt, status, hide_from_listings, lang, start_local, end_local, password ON public.events FOR EACH ROW EXECUTE FUNCTION search_window_count();
CREATE TRIGGER change_log_organizers AFTER INSERT OR DELETE OR UPDATE ON public.organizers FOR EACH ROW EXECUTE FUNCTION change_log_organizers();
CREATE TRIGGER change_log_terms AFTER INSERT OR DELETE OR UPDATE ON public.terms FOR EACH ROW EXECUTE FUNCTION change_log_terms();
CREATE TRIGGER change_log_terms_dependents BEFORE DELETE ON public.terms FOR EACH ROW EXECUTE FUNCTION change_log_terms_dependents();
CREATE TRIGGER change_log_venues AFTER INSERT OR DELETE OR UPDATE ON public.venues FOR EACH ROW EXECUTE FUNCTION change_log_venues();

-- functions
CREATE OR REPLACE FUNCTION public.change_log_events()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
        begin
          perform pg_advisory_xact_lock_shared(4201907);
          if tg_op = 'INSERT' then
            insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       values ('event', new.id, new.lang, 'created', (case when new.status = 'publish' then 1 else 0 end), 0, new.author, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS'));
            if new.trid <> new.id then insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select 'event', m.id, m.lang, 'updated', (case when m.status = 'publish' then 1 else 0 end), (case when m.status = 'publish' then 1 else 0 end), m.author, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS')
       from events m where m.trid = new.trid and m.id <> new.id and m.status <> 'trash';  end if;
          elsif tg_op = 'UPDATE' then
            insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       values ('event', new.id, new.lang, case when new.status = 'trash' and old.status <> 'trash' then 'trashed' else 'updated' end, (case when new.status = 'publish' then 1 else 0 end), (case when old.status = 'publish' then 1 else 0 end), new.author, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS'));
            if new.trid <> old.trid then insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select 'event', m.id, m.lang, 'updated', (case when m.status = 'publish' then 1 else 0 end), (case when m.status = 'publish' then 1 else 0 end), m.author, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS')
       from events m where m.trid = old.trid and m.id <> new.id and m.status <> 'trash'; insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select 'event', m.id, m.lang, 'updated', (case when m.status = 'publish' then 1 else 0 end), (case when m.status = 'publish' then 1 else 0 end), m.author, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS')
       from events m where m.trid = new.trid and m.id <> new.id and m.status <> 'trash'; end if;
          else
            insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       values ('event', old.id, old.lang, 'deleted', 0, (case when old.status = 'publish' then 1 else 0 end), old.author, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS'));
          end if;
          return null;
        end $function$

CREATE OR REPLACE FUNCTION public.change_log_organizers()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
        begin
          perform pg_advisory_xact_lock_shared(4201907);
          if tg_op = 'INSERT' then
            insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       values ('organizer', new.id, new.lang, 'created', (case when new.status = 'publish' then 1 else 0 end), 0, new.author, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS'));
            if new.trid <> new.id then insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select 'organizer', m.id, m.lang, 'updated', (case when m.status = 'publish' then 1 else 0 end), (case when m.status = 'publish' then 1 else 0 end), m.author, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS')
       from organizers m where m.trid = new.trid and m.id <> new.id and m.status <> 'trash'; insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select distinct 'event', e.id, e.lang, 'updated', (case when e.status = 'publish' then 1 else 0 end), (case when e.status = 'publish' then 1 else 0 end), e.author, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS') from events e join event_organizers eo on eo.event_id = e.id where eo.organizer_id in (select o.id from organizers o where o.trid = new.trid) and e.status <> 'trash'; end if;
          elsif tg_op = 'UPDATE' then
            insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       values ('organizer', new.id, new.lang, case when new.status = 'trash' and old.status <> 'trash' then 'trashed' else 'updated' end, (case when new.status = 'publish' then 1 else 0 end), (case when old.status = 'publish' then 1 else 0 end), new.author, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS'));
            if new.trid <> old.trid then insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select 'organizer', m.id, m.lang, 'updated', (case when m.status = 'publish' then 1 else 0 end), (case when m.status = 'publish' then 1 else 0 end), m.author, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS')
       from organizers m where m.trid = old.trid and m.id <> new.id and m.status <> 'trash'; insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select 'organizer', m.id, m.lang, 'updated', (case when m.status = 'publish' then 1 else 0 end), (case when m.status = 'publish' then 1 else 0 end), m.author, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS')
       from organizers m where m.trid = new.trid and m.id <> new.id and m.status <> 'trash'; end if;
            insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select distinct 'event', e.id, e.lang, 'updated', (case when e.status = 'publish' then 1 else 0 end), (case when e.status = 'publish' then 1 else 0 end), e.author, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS') from events e join event_organizers eo on eo.event_id = e.id where eo.organizer_id in (select o.id from organizers o where o.trid = new.trid) and e.status <> 'trash';
          else
            insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       values ('organizer', old.id, old.lang, 'deleted', 0, (case when old.status = 'publish' then 1 else 0 end), old.author, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS'));
          end if;
          return null;
        end $function$

CREATE OR REPLACE FUNCTION public.change_log_series()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      begin
        perform pg_advisory_xact_lock_shared(4201907);
        insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select 'event', s.id, s.lang, 'updated', (case when s.status = 'publish' then 1 else 0 end), (case when s.status = 'publish' then 1 else 0 end), s.author, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS') from events s where s.id = new.series_id and s.status <> 'trash';
        return null;
      end $function$

CREATE OR REPLACE FUNCTION public.change_log_terms()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      begin
        perform pg_advisory_xact_lock_shared(4201907);
        if tg_op = 'INSERT' then
          insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc) values (case when new.taxonomy = 'cal_events_cat' then 'category' else 'tag' end, new.id, new.lang, 'created', 1, 1, 0, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS'));
          if new.trid <> new.id then insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select case when m.taxonomy = 'cal_events_cat' then 'category' else 'tag' end, m.id, m.lang, 'updated', 1, 1, 0, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS')
       from terms m where m.trid = new.trid and m.id <> new.id; insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select distinct 'event', e.id, e.lang, 'updated', (case when e.status = 'publish' then 1 else 0 end), (case when e.status = 'publish' then 1 else 0 end), e.author, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS') from events e join event_terms et on et.event_id = e.id where et.term_id in (select t.id from terms t where t.trid = new.trid) and e.status <> 'trash'; end if;
        elsif tg_op = 'UPDATE' then
          insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc) values (case when new.taxonomy = 'cal_events_cat' then 'category' else 'tag' end, new.id, new.lang, 'updated', 1, 1, 0, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS'));
          if new.trid <> old.trid then insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select case when m.taxonomy = 'cal_events_cat' then 'category' else 'tag' end, m.id, m.lang, 'updated', 1, 1, 0, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS')
       from terms m where m.trid = old.trid and m.id <> new.id; insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select case when m.taxonomy = 'cal_events_cat' then 'category' else 'tag' end, m.id, m.lang, 'updated', 1, 1, 0, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS')
       from terms m where m.trid = new.trid and m.id <> new.id; end if;
          if new.name <> old.name or new.slug <> old.slug or new.description <> old.description or new.parent <> old.parent or new.trid <> old.trid then insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select distinct 'event', e.id, e.lang, 'updated', (case when e.status = 'publish' then 1 else 0 end), (case when e.status = 'publish' then 1 else 0 end), e.author, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS') from events e join event_terms et on et.event_id = e.id where et.term_id in (select t.id from terms t where t.trid = new.trid) and e.status <> 'trash'; end if;
        else
          insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc) values (case when old.taxonomy = 'cal_events_cat' then 'category' else 'tag' end, old.id, old.lang, 'deleted', 1, 1, 0, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS'));
        end if;
        return null;
      end $function$

CREATE OR REPLACE FUNCTION public.change_log_terms_dependents()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      begin
        perform pg_advisory_xact_lock_shared(4201907);
        insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select distinct 'event', e.id, e.lang, 'updated', (case when e.status = 'publish' then 1 else 0 end), (case when e.status = 'publish' then 1 else 0 end), e.author, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS') from events e join event_terms et on et.event_id = e.id where et.term_id in (select t.id from terms t where t.trid = old.trid) and e.status <> 'trash';
        return old;
      end $function$

CREATE OR REPLACE FUNCTION public.change_log_venues()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
        begin
          perform pg_advisory_xact_lock_shared(4201907);
          if tg_op = 'INSERT' then
            insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       values ('venue', new.id, new.lang, 'created', (case when new.status = 'publish' then 1 else 0 end), 0, new.author, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS'));
            if new.trid <> new.id then insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select 'venue', m.id, m.lang, 'updated', (case when m.status = 'publish' then 1 else 0 end), (case when m.status = 'publish' then 1 else 0 end), m.author, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS')
       from venues m where m.trid = new.trid and m.id <> new.id and m.status <> 'trash'; insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select distinct 'event', e.id, e.lang, 'updated', (case when e.status = 'publish' then 1 else 0 end), (case when e.status = 'publish' then 1 else 0 end), e.author, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS') from events e where e.venue_id in (select v.id from venues v where v.trid = new.trid) and e.status <> 'trash'; end if;
          elsif tg_op = 'UPDATE' then
            insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       values ('venue', new.id, new.lang, case when new.status = 'trash' and old.status <> 'trash' then 'trashed' else 'updated' end, (case when new.status = 'publish' then 1 else 0 end), (case when old.status = 'publish' then 1 else 0 end), new.author, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS'));
            if new.trid <> old.trid then insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select 'venue', m.id, m.lang, 'updated', (case when m.status = 'publish' then 1 else 0 end), (case when m.status = 'publish' then 1 else 0 end), m.author, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS')
       from venues m where m.trid = old.trid and m.id <> new.id and m.status <> 'trash'; insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select 'venue', m.id, m.lang, 'updated', (case when m.status = 'publish' then 1 else 0 end), (case when m.status = 'publish' then 1 else 0 end), m.author, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS')
       from venues m where m.trid = new.trid and m.id <> new.id and m.status <> 'trash'; end if;
            insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       select distinct 'event', e.id, e.lang, 'updated', (case when e.status = 'publish' then 1 else 0 end), (case when e.status = 'publish' then 1 else 0 end), e.author, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS') from events e where e.venue_id in (select v.id from venues v where v.trid = new.trid) and e.status <> 'trash';
          else
            insert into change_log (kind, record_id, lang, change, is_public, was_public, author, at_utc)
       values ('venue', old.id, old.lang, 'deleted', 0, (case when old.status = 'publish' then 1 else 0 end), old.author, to_char(now() at time zone 'utc', 'YYYY-MM-DD HH24:MI:SS'));
          end if;
          return null;
        end $function$

CREATE OR REPLACE FUNCTION public.event_facet_count()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      begin
        if tg_op in ('UPDATE', 'DELETE') then update event_facet_window_counts set n = n - 1
      where old.status = 'publish' and old.hide_from_listings = 0 and old.password = '' and lang = old.lang and start_day = substr(old.start_local, 1, 10) and end_day = substr(old.end_local, 1, 10)
        and (facet, facet_id) in (select f.facet, f.facet_id from (
  select 'venue' as facet, old.venue_id as facet_id where old.venue_id is not null
  union all select 'featured', 0 where old.featured = 1
  union all select 'featured_venue', old.venue_id where old.featured = 1 and old.venue_id is not null
  union all select 'organizer', eo.organizer_id from event_organizers eo where eo.event_id = old.id
  union all select 'featured_organizer', eo.organizer_id from event_organizers eo where eo.event_id = old.id and old.featured = 1
  union all select 'featured_term', et.term_id from event_terms et where et.event_id = old.id and old.featured = 1) f); end if;
        if tg_op in ('INSERT', 'UPDATE') then insert into event_facet_window_counts (lang, facet, facet_id, start_day, end_day, n)
      select new.lang, f.facet, f.facet_id, substr(new.start_local, 1, 10) as start_day, substr(new.end_local, 1, 10) as end_day, 1 from (
  select 'venue' as facet, new.venue_id as facet_id where new.venue_id is not null
  union all select 'featured', 0 where new.featured = 1
  union all select 'featured_venue', new.venue_id where new.featured = 1 and new.venue_id is not null
  union all select 'organizer', eo.organizer_id from event_organizers eo where eo.event_id = new.id
  union all select 'featured_organizer', eo.organizer_id from event_organizers eo where eo.event_id = new.id and new.featured = 1
  union all select 'featured_term', et.term_id from event_terms et where et.event_id = new.id and new.featured = 1) f where new.status = 'publish' and new.hide_from_listings = 0 and new.password = ''
      on conflict (lang, facet, facet_id, start_day, end_day) do update set n = event_facet_window_counts.n + 1; end if;
        return case when tg_op = 'DELETE' then old else null end;
      end $function$

CREATE OR REPLACE FUNCTION public.event_organizers_facet_count()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
        begin
          if tg_op = 'INSERT' then insert into event_facet_window_counts (lang, facet, facet_id, start_day, end_day, n)
      select r.*, 1 from (select e.lang, f.facet, f.facet_id, substr(e.start_local, 1, 10) as start_day, substr(e.end_local, 1, 10) as end_day
  from events e join (select 'organizer' as facet, new.organizer_id as facet_id, 0 as featured_only
    union all select 'featured_organizer', new.organizer_id, 1) f on f.featured_only = 0 or e.featured = 1
  where e.id = new.event_id and e.status = 'publish' and e.hide_from_listings = 0 and e.password = '') r where true on conflict (lang, facet, facet_id, start_day, end_day) do update set n = event_facet_window_counts.n + 1; else update event_facet_window_counts set n = n - 1
      where (lang, facet, facet_id, start_day, end_day) in (select e.lang, f.facet, f.facet_id, substr(e.start_local, 1, 10) as start_day, substr(e.end_local, 1, 10) as end_day
  from events e join (select 'organizer' as facet, old.organizer_id as facet_id, 0 as featured_only
    union all select 'featured_organizer', old.organizer_id, 1) f on f.featured_only = 0 or e.featured = 1
  where e.id = old.event_id and e.status = 'publish' and e.hide_from_listings = 0 and e.password = ''); end if;
          return null;
        end $function$

CREATE OR REPLACE FUNCTION public.event_organizers_order()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$ begin select e.lang, e.status, e.hide_from_listings, e.start_local, e.end_local, case when e.password <> '' then 1 else 0 end into new.event_lang, new.event_status, new.event_hide_from_listings, new.event_start_local, new.event_end_local, new.event_protected from events e where e.id = new.event_id; return new; end $function$

CREATE OR REPLACE FUNCTION public.event_term_window_count_event()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      begin
        update event_term_window_counts set n = n - 1
      where old.status = 'publish' and old.hide_from_listings = 0 and old.password = '' and lang = old.lang and term_id in (select term_id from event_terms where event_id = old.id)
        and start_day = substr(old.start_local, 1, 10) and end_day = substr(old.end_local, 1, 10);
        if tg_op = 'UPDATE' then insert into event_term_window_counts (lang, term_id, start_day, end_day, n)
      select new.lang, t.term_id, substr(new.start_local, 1, 10), substr(new.end_local, 1, 10), 1 from (select term_id from event_terms where event_id = new.id) t where new.status = 'publish' and new.hide_from_listings = 0 and new.password = ''
      on conflict (lang, term_id, start_day, end_day) do update set n = event_term_window_counts.n + 1; end if;
        return case when tg_op = 'DELETE' then old else null end;
      end $function$

CREATE OR REPLACE FUNCTION public.event_term_window_count_link()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      declare e events%rowtype;
      begin
        if tg_op = 'INSERT' then
          select * into e from events where id = new.event_id;
          if found then insert into event_term_window_counts (lang, term_id, start_day, end_day, n)
      select e.lang, t.term_id, substr(e.start_local, 1, 10), substr(e.end_local, 1, 10), 1 from (select new.term_id as term_id) t where e.status = 'publish' and e.hide_from_listings = 0 and e.password = ''
      on conflict (lang, term_id, start_day, end_day) do update set n = event_term_window_counts.n + 1; end if;
        else
          select * into e from events where id = old.event_id;
          if found then update event_term_window_counts set n = n - 1
      where e.status = 'publish' and e.hide_from_listings = 0 and e.password = '' and lang = e.lang and term_id in (select old.term_id)
        and start_day = substr(e.start_local, 1, 10) and end_day = substr(e.end_local, 1, 10); end if;
        end if;
        return null;
      end $function$

CREATE OR REPLACE FUNCTION public.event_terms_facet_count()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
        begin
          if tg_op = 'INSERT' then insert into event_facet_window_counts (lang, facet, facet_id, start_day, end_day, n)
      select r.*, 1 from (select e.lang, f.facet, f.facet_id, substr(e.start_local, 1, 10) as start_day, substr(e.end_local, 1, 10) as end_day
  from events e join (select 'featured_term' as facet, new.term_id as facet_id, 1 as featured_only) f on f.featured_only = 0 or e.featured = 1
  where e.id = new.event_id and e.status = 'publish' and e.hide_from_listings = 0 and e.password = '') r where true on conflict (lang, facet, facet_id, start_day, end_day) do update set n = event_facet_window_counts.n + 1; else update event_facet_window_counts set n = n - 1
      where (lang, facet, facet_id, start_day, end_day) in (select e.lang, f.facet, f.facet_id, substr(e.start_local, 1, 10) as start_day, substr(e.end_local, 1, 10) as end_day
  from events e join (select 'featured_term' as facet, old.term_id as facet_id, 1 as featured_only) f on f.featured_only = 0 or e.featured = 1
  where e.id = old.event_id and e.status = 'publish' and e.hide_from_listings = 0 and e.password = ''); end if;
          return null;
        end $function$

CREATE OR REPLACE FUNCTION public.event_terms_order()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$ begin select e.lang, e.status, e.hide_from_listings, e.start_local, e.end_local, case when e.password <> '' then 1 else 0 end into new.event_lang, new.event_status, new.event_hide_from_listings, new.event_start_local, new.event_end_local, new.event_protected from events e where e.id = new.event_id; return new; end $function$

CREATE OR REPLACE FUNCTION public.event_window_count()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      begin
        if tg_op in ('UPDATE', 'DELETE') and old.status = 'publish' and old.hide_from_listings = 0 then
          update event_window_counts set n = n - 1
            where lang = old.lang and start_day = left(old.start_local, 10) and end_day = left(old.end_local, 10);
        end if;
        if tg_op in ('INSERT', 'UPDATE') and new.status = 'publish' and new.hide_from_listings = 0 then
          insert into event_window_counts (lang, start_day, end_day, n) values (new.lang, left(new.start_local, 10), left(new.end_local, 10), 1)
            on conflict (lang, start_day, end_day) do update set n = event_window_counts.n + 1;
        end if;
        return null;
      end $function$

CREATE OR REPLACE FUNCTION public.events_link_order()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$ begin update event_terms set event_lang = new.lang, event_status = new.status, event_hide_from_listings = new.hide_from_listings, event_start_local = new.start_local, event_end_local = new.end_local, event_protected = case when new.password <> '' then 1 else 0 end where event_id = new.id; update event_organizers set event_lang = new.lang, event_status = new.status, event_hide_from_listings = new.hide_from_listings, event_start_local = new.start_local, event_end_local = new.end_local, event_protected = case when new.password <> '' then 1 else 0 end where event_id = new.id; return null; end $function$

CREATE OR REPLACE FUNCTION public.search_window_count()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
      begin
        perform pg_advisory_xact_lock_shared(4201907);
        if tg_op in ('UPDATE', 'DELETE') then update search_window_counts set n = n - 1
      where old.status = 'publish' and old.hide_from_listings = 0 and lang = old.lang and start_day = substr(old.start_local, 1, 10) and end_day = substr(old.end_local, 1, 10)
        and phrase_id in (select p.id from search_phrases p where (p.counted_through is null or old.id <= p.counted_through) and not exists (
      select 1 from search_phrase_words w where w.phrase_id = p.id
        and not coalesce(old.title ilike w.pattern escape '\' or (old.password = '' and (old.description ilike w.pattern escape '\' or old.excerpt ilike w.pattern escape '\')), false))); end if;
        if tg_op in ('INSERT', 'UPDATE') then insert into search_window_counts (phrase_id, lang, start_day, end_day, n)
      select m.id, new.lang, substr(new.start_local, 1, 10), substr(new.end_local, 1, 10), 1 from (select p.id from search_phrases p where (p.counted_through is null or new.id <= p.counted_through) and not exists (
      select 1 from search_phrase_words w where w.phrase_id = p.id
        and not coalesce(new.title ilike w.pattern escape '\' or (new.password = '' and (new.description ilike w.pattern escape '\' or new.excerpt ilike w.pattern escape '\')), false))) m where new.status = 'publish' and new.hide_from_listings = 0
      on conflict (phrase_id, lang, start_day, end_day) do update set n = search_window_counts.n + 1; end if;
        return null;
      end $function$

CREATE OR REPLACE FUNCTION public.webhook_outbox()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$ begin insert into webhook_deliveries (webhook_id, position, kind, record_id, lang, event_type, change_at_utc, status, attempts, next_attempt_utc, created_utc)
      select w.id, new.position, new.kind, new.record_id, new.lang, new.kind || '.' || (case when new.is_public = 1 then new.change when new.change = 'deleted' then 'deleted' else 'trashed' end), new.at_utc, 'pending', 0, new.at_utc, new.at_utc
      from webhooks w
      where w.active = 1 and (w.lang_filter = '' or position(',' || new.lang || ',' in w.lang_filter) > 0)
        and exists (select 1 from webhook_patterns p where p.webhook_id = w.id and p.pattern in ('*', new.kind || '.*', new.kind || '.' || (case when new.is_public = 1 then new.change when new.change = 'deleted' then 'deleted' else 'trashed' end))); return null; end $function$
