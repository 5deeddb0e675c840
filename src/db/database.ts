import type { Generated, Kysely, Selectable } from 'kysely';

/**
 * The table map. Date-times are TEXT `YYYY-MM-DD HH:MM:SS` on both back ends, so they sort and
 * compare the same way everywhere; booleans are INTEGER 0/1 for the same reason.
 */

/** One id sequence for every post-like record (events, venues, organizers, images), as WordPress has. */
export interface PostTable {
  id: Generated<number>;
  type: 'event' | 'venue' | 'organizer' | 'image';
}

/** Columns every event, venue and organizer has. */
export interface PostColumns {
  id: number;
  lang: string;
  /** Translation group: the id of the group's first record. */
  trid: number;
  author: number;
  status: string;
  password: string;
  slug: string;
  title: string;
  description: string;
  excerpt: string;
  date: string;
  date_utc: string;
  modified: string;
  modified_utc: string;
  image_id: number | null;
}

export interface EventTable extends PostColumns {
  all_day: number;
  start_local: string;
  end_local: string;
  start_utc: string;
  end_utc: string;
  timezone: string;
  timezone_abbr: string;
  /** JSON array of the cost strings as sent. */
  cost: string;
  currency_symbol: string;
  currency_code: string;
  currency_position: string;
  /** null: never set, so the event answers its permalink. */
  website: string | null;
  show_map: number;
  show_map_link: number;
  hide_from_listings: number;
  sticky: number;
  featured: number;
  venue_id: number | null;
  post_parent: number | null;
  /** The status the event had when it was trashed (calendar feeds cancel a published one); null otherwise. */
  trashed_from?: string | null;
  /** Bumped by every update and trash (iCalendar SEQUENCE); 0 on insert. */
  revision?: number;
  /** The series this event is an occurrence of (a series names itself); null when it does not recur. */
  series_id?: number | null;
  /** An occurrence's original local start (iCalendar RECURRENCE-ID). */
  recurrence_id?: string | null;
  /** 1: edited on its own; series-wide changes and re-expansions leave it as it is. */
  recurrence_exception?: number;
}

export interface EventRecurrenceTable {
  series_id: number;
  rrule: string;
  /** JSON arrays of local wall times 'YYYY-MM-DD HH:MM:SS' in the series' zone. */
  rdates: string;
  exdates: string;
  /** Local wall time through which occurrences exist. */
  expanded_until: string;
  /** 1: the rule has nothing beyond expanded_until. */
  complete: number;
}

/** One change of a record, in commit order (016_change_log, written by triggers). */
export interface ChangeLogTable {
  position: Generated<number>;
  kind: 'event' | 'venue' | 'organizer' | 'category' | 'tag';
  record_id: number;
  lang: string;
  change: 'created' | 'updated' | 'trashed' | 'deleted';
  is_public: number;
  was_public: number;
  author: number;
  at_utc: string;
}

export interface ChangeLogStateTable {
  id: number;
  pruned_through: number;
}

export interface WebhookTable {
  id: Generated<number>;
  url: string;
  /** JSON array of the event types as given ('event.created', 'venue.*', '*'). */
  events: string;
  /** JSON array of language codes; [] for all. */
  languages: string;
  lang_filter: string;
  active: number;
  status: 'active' | 'failing';
  secret: string;
  failing_since: string | null;
  created_utc: string;
}

export interface WebhookPatternTable {
  webhook_id: number;
  pattern: string;
}

export interface WebhookDeliveryTable {
  id: Generated<number>;
  webhook_id: number;
  position: number;
  kind: ChangeLogTable['kind'];
  record_id: number;
  lang: string;
  event_type: string;
  change_at_utc: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_utc: string;
  lease_until: string | null;
  last_status: number | null;
  last_error: string | null;
  last_response: string | null;
  last_latency_ms: number | null;
  created_utc: string;
  delivered_utc: string | null;
}

export interface VenueTable extends PostColumns {
  address: string;
  city: string;
  country: string;
  province: string;
  state: string;
  zip: string;
  phone: string;
  website: string;
  stateprovince: string;
  show_map: number;
  show_map_link: number;
  geo_lat: number | null;
  geo_lng: number | null;
}

export interface OrganizerTable extends PostColumns {
  phone: string;
  website: string;
  email: string;
}

/** The linked event's list key, carried in its links and kept by triggers (migration 025). */
export interface LinkedEventKey {
  event_lang: Generated<string>;
  event_status: Generated<string>;
  event_hide_from_listings: Generated<number>;
  event_start_local: Generated<string>;
  event_end_local: Generated<string>;
  /** 1 when the event has a password. */
  event_protected: Generated<number>;
}

export interface EventOrganizerTable extends LinkedEventKey {
  event_id: number;
  organizer_id: number;
  position: number;
}

export interface TermTable {
  id: Generated<number>;
  taxonomy: 'cal_events_cat' | 'post_tag';
  lang: string;
  trid: number;
  name: string;
  slug: string;
  description: string;
  parent: number;
  /** Published events linked to the term; kept current by every event write. */
  count: number;
}

export interface EventTermTable extends LinkedEventKey {
  event_id: number;
  term_id: number;
}

export interface ImageTable {
  id: number;
  url: string;
  extension: string;
  width: number | null;
  height: number | null;
}

export interface UserTable {
  id: Generated<number>;
  username: string;
  email: string;
  role: string;
  registered: string;
  /** The login password's `scrypt$…` hash (migration 022); null: the user cannot sign in. Never selected for an answer. */
  login_hash?: string | null;
  /** Submission mails a moderator asked for: 'none', 'each' or 'digest' (migration 024). */
  submission_mail: Generated<string>;
}

export interface AppPasswordTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** `scrypt$<salt b64>$<hash b64>`; the password itself is never stored. */
  hash: string;
  created: string;
}

/** A signed-in person's session (migration 022, src/modules/users/session.service.ts). */
export interface SessionTable {
  id: Generated<number>;
  /** sha256 of the cookie's token, base64url: the token itself is never stored. */
  token_hash: string;
  user_id: number;
  nonce: string;
  created: string;
  last_seen: string;
  /** The absolute end, UTC `YYYY-MM-DD HH:MM:SS`. */
  expires: string;
  ip: string;
  user_agent: string;
}

export interface SettingTable {
  key: string;
  /** JSON text. */
  value: string;
}

/** `data_version` as the sum of a few counters, each write bumping its connection's (migration 026). */
export interface DataVersionShardTable {
  shard: number;
  n: number;
}

/** Listed published events per language, start day and end day (migration 009, kept by triggers). */
export interface EventWindowCountTable {
  lang: string;
  start_day: string;
  end_day: string;
  n: number;
}

export interface EventTermWindowCountTable {
  lang: string;
  term_id: number;
  start_day: string;
  end_day: string;
  n: number;
}

/** Per-day counts by list facet (migration 018): `facet` says what `facet_id` is. */
export interface EventFacetWindowCountTable {
  lang: string;
  facet: 'venue' | 'organizer' | 'featured' | 'featured_venue' | 'featured_organizer' | 'featured_term';
  facet_id: number;
  start_day: string;
  end_day: string;
  n: number;
}

/** Searches counted per day (migration 019): `phrase` is the JSON of the search's sorted distinct words. */
export interface SearchPhraseTable {
  id: Generated<number>;
  phrase: string;
  used_utc: string;
  /** The highest event id its counts hold; null once they hold every event (029). */
  counted_through: number | null;
}

export interface SearchPhraseWordTable {
  phrase_id: number;
  /** The LIKE pattern of one word, as the list tests it. */
  pattern: string;
  /**
   * SQLite's triggers: the characters a text must hold for lower() to test the word besides LIKE
   * ('' for none); null where lower() alone tests it (032, dialect.ts likeFolding).
   */
  watch: string | null;
}

export interface SearchWindowCountTable {
  phrase_id: number;
  lang: string;
  start_day: string;
  end_day: string;
  n: number;
}

/**
 * Failed attempts of a guessable secret per key within a window (migration 021,
 * src/modules/users/failure.service.ts): `reset_at` ends the window, in epoch milliseconds.
 */
export interface FailureCountTable {
  key_hash: string;
  failures: number;
  /** A bigint: PostgreSQL answers it as a string. */
  reset_at: number | string;
}

export interface ImportMapTable {
  source: string;
  kind: string;
  source_id: string;
  lang: string;
  local_id: number;
  source_modified: string | null;
  /** Hash of the request body last written for the record: an unchanged one is not written again. */
  hash: string;
  imported_at: string;
}

export interface ImportTable {
  id: Generated<number>;
  /** running, done, failed */
  status: string;
  /** JSON of the options, without credentials. */
  options: string;
  /** JSON: per kind, done and total. */
  progress: string;
  report: string | null;
  error: string | null;
  user_id: number;
  started: string;
  /** Refreshed while the import runs: an import whose heartbeat stopped (its instance died) is over. */
  heartbeat: string;
  finished: string | null;
}

/** A submitted event's submitter and checks (migration 024, src/modules/submissions). */
export interface SubmissionTable {
  id: Generated<number>;
  event_id: number;
  lang: string;
  state: string;
  name: string;
  email: string;
  user_id: number | null;
  ip: string;
  ip_key: string;
  email_key: string;
  user_agent: string;
  verified: number;
  confirmed: number;
  confirm_hash: string | null;
  duplicate_of: number | null;
  links: number;
  new_venue: number | null;
  /** JSON array of ids. */
  new_organizers: string;
  /** JSON array of tag names to create on approval. */
  new_tags: string;
  reason: string;
  created_utc: string;
  decided_utc: string | null;
  decided_by: number | null;
}

export interface SpamBlockTable {
  key: string;
  until_utc: string;
  submission_id: number | null;
}

export interface UsedChallengeTable {
  key: string;
  until_utc: string;
}

/** A rendered mail waiting to be sent, or the record of one sent (migration 024, src/modules/mail). */
export interface MailOutboxTable {
  id: Generated<number>;
  to_address: string;
  lang: string;
  kind: string;
  subject: string;
  text_body: string;
  html_body: string;
  /** JSON object of extra headers. */
  headers: string;
  dedupe: string | null;
  status: string;
  attempts: Generated<number>;
  next_attempt_utc: string;
  lease_until: string | null;
  last_error: string | null;
  message_id: string | null;
  created_utc: string;
  sent_utc: string | null;
}

export interface Database {
  posts: PostTable;
  events: EventTable;
  venues: VenueTable;
  organizers: OrganizerTable;
  event_organizers: EventOrganizerTable;
  terms: TermTable;
  event_terms: EventTermTable;
  images: ImageTable;
  users: UserTable;
  app_passwords: AppPasswordTable;
  sessions: SessionTable;
  settings: SettingTable;
  data_version_shards: DataVersionShardTable;
  event_window_counts: EventWindowCountTable;
  event_term_window_counts: EventTermWindowCountTable;
  event_facet_window_counts: EventFacetWindowCountTable;
  search_phrases: SearchPhraseTable;
  search_phrase_words: SearchPhraseWordTable;
  search_window_counts: SearchWindowCountTable;
  failure_counts: FailureCountTable;
  import_map: ImportMapTable;
  imports: ImportTable;
  event_recurrence: EventRecurrenceTable;
  change_log: ChangeLogTable;
  change_log_state: ChangeLogStateTable;
  webhooks: WebhookTable;
  webhook_patterns: WebhookPatternTable;
  webhook_deliveries: WebhookDeliveryTable;
  submissions: SubmissionTable;
  spam_blocks: SpamBlockTable;
  used_challenges: UsedChallengeTable;
  mail_outbox: MailOutboxTable;
}

export type Db = Kysely<Database>;
export type EventRow = Selectable<EventTable>;
export type VenueRow = Selectable<VenueTable>;
export type OrganizerRow = Selectable<OrganizerTable>;
export type TermRow = Selectable<TermTable>;
export type ImageRow = Selectable<ImageTable>;
/** A user as the service passes it around: never with the login password's hash. */
export type UserRow = Omit<Selectable<UserTable>, 'login_hash'>;
