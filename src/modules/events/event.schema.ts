import { Type, type Static } from 'typebox';
import {
  CommonQuery,
  DateText,
  I18nLanguage,
  IdOrSlugList,
  IdList,
  Nullable,
  Page,
  PerPage,
  SearchText,
  TEXT_LIMITS,
  Truthy,
} from '../../http/schemas.js';

/**
 * Event request and response schemas: validation, types and the OpenAPI document come from here.
 * Fields whose accepted forms are richer than one JSON type (dates, linked records, cost) are
 * checked by event.input.ts, which names the bad parameter the way the original does.
 */

const Linked = (description: string) => Type.Unknown({ description });

const LocalDates = (description: string) => Type.Array(DateText(), { description });

/** What a client sends to make an event a series (or null to stop it recurring). */
const RecurrenceInput = Type.Union(
  [
    Type.Null(),
    Type.String({ maxLength: TEXT_LIMITS.rrule, description: 'The RRULE alone' }),
    Type.Object({
      rrule: Type.String({
        maxLength: TEXT_LIMITS.rrule,
        description:
          'RFC 5545 rule, e.g. FREQ=WEEKLY;BYDAY=TU;INTERVAL=2;UNTIL=20271231T235959Z (an "RRULE:" prefix is accepted); read in the event\'s time zone',
      }),
      rdates: Type.Optional(
        LocalDates('Extra occurrence starts (local "YYYY-MM-DD HH:MM:SS", or a date for the series\' time of day)'),
      ),
      exdates: Type.Optional(LocalDates('Excluded occurrence starts, same forms')),
      since: Type.Optional(
        Type.String({
          maxLength: 32,
          description:
            'Write-only: a day, YYYY-MM-DD, before which no occurrence is made; the rule stays whole (its first date and the feeds unchanged) and CAL_RECURRENCE_MAX counts only the occurrences made',
        }),
      ),
    }),
  ],
  {
    description:
      'Makes the event a recurring series: its occurrences are events whose post_parent and series_id name it. null stops the series.',
  },
);

const ScopeParam = Type.Optional(
  Type.Unsafe<'this' | 'following' | 'all'>({
    type: 'string',
    enum: ['this', 'following', 'all'],
    description:
      'On an occurrence of a series: this one only (default; it becomes an exception), this and the following ones (the series is split), or all',
  }),
);

const EventFields = {
  author: Type.Optional(Type.Integer({ minimum: 1, description: 'The event author ID' })),
  date: Type.Optional(Type.Union([DateText(), Type.Integer()], { description: 'The event publication date' })),
  date_utc: Type.Optional(
    Type.Union([DateText(), Type.Integer()], { description: 'The event publication date (UTC time zone)' }),
  ),
  title: Type.Optional(Type.String({ minLength: 1, description: 'The event title' })),
  description: Type.Optional(Type.String({ minLength: 1, description: 'The event description' })),
  slug: Type.Optional(Type.String({ minLength: 1, maxLength: TEXT_LIMITS.slug, description: 'The event slug' })),
  excerpt: Type.Optional(Type.String({ minLength: 1, description: 'The event excerpt' })),
  status: Type.Optional(Type.String({ maxLength: TEXT_LIMITS.status, description: 'The event post status' })),
  timezone: Type.Optional(
    Type.String({
      maxLength: TEXT_LIMITS.timezone,
      description: 'The event time zone (IANA name or UTC offset such as UTC+2)',
    }),
  ),
  all_day: Type.Optional(Truthy('Whether the event lasts the whole day or not')),
  start_date: Type.Optional(
    Type.Union([DateText({ minLength: 1 }), Type.Integer()], { description: 'The event start date and time' }),
  ),
  end_date: Type.Optional(
    Type.Union([DateText({ minLength: 1 }), Type.Integer()], { description: 'The event end date and time' }),
  ),
  // A type list, not a union: with coerceTypes a union turns `false` into "false" in its string branch.
  image: Type.Optional(
    Type.Unsafe<string | number | boolean | null>({
      type: ['integer', 'string', 'boolean', 'null'],
      description: 'The event featured image ID or URL; null, false, 0 or "" removes it',
    }),
  ),
  cost: Type.Optional(Type.Unknown({ description: 'The event cost' })),
  website: Type.Optional(Nullable(Type.String({ maxLength: TEXT_LIMITS.url, description: 'The event website URL' }))),
  show_map: Type.Optional(Truthy('Whether the event shows a map or not')),
  show_map_link: Type.Optional(Truthy('Whether the event shows a map link or not')),
  hide_from_listings: Type.Optional(Truthy('Whether events should be hidden in the calendar view or not')),
  sticky: Type.Optional(Truthy('Whether the event should be sticky in the calendar view or not')),
  featured: Type.Optional(Truthy('Whether the event should be featured on the site or not')),
  categories: Type.Optional(Linked('The event category IDs, slugs or names')),
  tags: Type.Optional(Linked('The event tag IDs, slugs or names')),
  venue: Type.Optional(Linked('The event venue ID or venue data')),
  organizer: Type.Optional(Linked('The event organizer IDs or organizer data')),
  translation_of: Type.Optional(
    Nullable(Type.Integer({ minimum: 1, description: 'ID of the event this one translates' })),
  ),
  i18n_language: Type.Optional(I18nLanguage),
  recurrence: Type.Optional(RecurrenceInput),
};

export const EventCreateSchema = Type.Object(
  {
    ...EventFields,
    title: Type.String({ minLength: 1, description: 'The event title' }),
    start_date: Type.Union([DateText({ minLength: 1 }), Type.Integer()], {
      description: 'The event start date and time',
    }),
    end_date: Type.Union([DateText({ minLength: 1 }), Type.Integer()], { description: 'The event end date and time' }),
    password: Type.Optional(Type.String({ maxLength: TEXT_LIMITS.password, description: 'The event password' })),
  },
  { additionalProperties: true },
);

export const EventUpdateSchema = Type.Object(
  {
    ...EventFields,
    password: Type.Optional(Type.String({ maxLength: TEXT_LIMITS.password, description: 'The event password' })),
    scope: ScopeParam,
  },
  { additionalProperties: true },
);

/** By slug, `password` cannot be set (the specification leaves it out). */
export const EventSlugUpdateSchema = Type.Object({ ...EventFields, scope: ScopeParam }, { additionalProperties: true });

/** The representation of the event reads (src/modules/feeds): also chosen by `Accept`. */
const FormatParam = (description: string) =>
  Type.Optional(
    Type.Unsafe<'json' | 'ical' | 'jsonld'>({ type: 'string', enum: ['json', 'ical', 'jsonld'], description }),
  );

export const EventReadQuery = Type.Object({
  password: Type.Optional(Type.String({ maxLength: TEXT_LIMITS.password, description: 'The event password' })),
  context: Type.Optional(Type.String({ description: 'view or edit' })),
  format: FormatParam(
    'json (default), ical (text/calendar: the event as an iCalendar VEVENT) or jsonld (application/ld+json: its schema.org Event); Accept: text/calendar or application/ld+json chooses the same',
  ),
  ...CommonQuery,
});

/** DELETE takes a scope on an occurrence of a series (deleting the series deletes it whole). */
export const EventDeleteQuery = Type.Object({ ...EventReadQuery.properties, scope: ScopeParam });

export const EventListQuery = Type.Object({
  page: Type.Optional(Page),
  per_page: Type.Optional(PerPage),
  start_date: Type.Optional(DateText({ minLength: 1, description: 'Events starting at this date or later' })),
  end_date: Type.Optional(DateText({ minLength: 1, description: 'Events ending at this date or earlier' })),
  starts_before: Type.Optional(DateText({ minLength: 1, description: 'Events starting before this date' })),
  starts_after: Type.Optional(DateText({ minLength: 1, description: 'Events starting after this date' })),
  ends_before: Type.Optional(DateText({ minLength: 1, description: 'Events ending before this date' })),
  ends_after: Type.Optional(DateText({ minLength: 1, description: 'Events ending after this date' })),
  strict_dates: Type.Optional(Truthy('Apply the dates at the exact times given instead of whole days')),
  search: Type.Optional(
    SearchText(
      `Events whose title, description or excerpt contain every word (at most ${TEXT_LIMITS.searchWords} words)`,
    ),
  ),
  categories: Type.Optional(IdOrSlugList('Events in one of these categories (ids or slugs)')),
  tags: Type.Optional(IdOrSlugList('Events with one of these tags (ids or slugs)')),
  venue: Type.Optional(IdList('Events at one of these venues')),
  organizer: Type.Optional(IdList('Events by one of these organizers')),
  featured: Type.Optional(Truthy('Featured events only (true) or non-featured only (false)')),
  status: Type.Optional(
    Type.Union([Type.String({ minLength: 1 }), Type.Array(Type.String())], {
      description: 'Post status(es) of the events',
    }),
  ),
  author: Type.Optional(IdList('Events by one of these authors (user ids): an extension of this service')),
  orderby: Type.Optional(
    Type.Unsafe<'start_date' | 'date'>({
      type: 'string',
      enum: ['start_date', 'date'],
      description:
        'Sort by the start (default) or the publication date, the id breaking ties: an extension of this service',
    }),
  ),
  order: Type.Optional(
    Type.Unsafe<'asc' | 'desc'>({ type: 'string', enum: ['asc', 'desc'], description: 'asc (default) or desc' }),
  ),
  geoloc: Type.Optional(Truthy('Events whose venue has coordinates (geolocation extension)')),
  geoloc_lat: Type.Optional(Type.Number({ description: 'Venue latitude (geolocation extension)' })),
  geoloc_lng: Type.Optional(Type.Number({ description: 'Venue longitude (geolocation extension)' })),
  include: Type.Optional(IdList('Only these event ids; date filters are ignored')),
  post_parent: Type.Optional(Type.Integer({ minimum: 1, description: 'Events having this parent event' })),
  hide_subsequent_recurrences: Type.Optional(
    Truthy('Of each recurring series, only its first occurrence in the window'),
  ),
  include_hidden: Type.Optional(
    Truthy(
      'Also list events hidden from listings (hide_from_listings): an extension of this service, for copies and imports',
    ),
  ),
  ticketed: Type.Optional(Truthy('Events with (true) or without (false) tickets')),
  password: Type.Optional(
    Type.String({ maxLength: TEXT_LIMITS.password, description: 'Password for protected events' }),
  ),
  context: Type.Optional(Type.String({ description: 'view or edit' })),
  format: FormatParam(
    'json (default); ical (text/calendar: an iCalendar subscription feed, not paginated, from 30 days ago to one year ahead unless dates are given, at most CAL_FEED_MAX_EVENTS events, X-Cal-Total the number matching); jsonld (application/ld+json: this page as a schema.org ItemList of Event). Accept: text/calendar or application/ld+json chooses the same',
  ),
  ...CommonQuery,
});

const DateDetails = Type.Object({
  year: Type.String(),
  month: Type.String(),
  day: Type.String(),
  hour: Type.String(),
  minutes: Type.String(),
  seconds: Type.String(),
});

const Flag = Nullable(Type.Boolean());

/** The event object, key order as the original's. Password-blanked events null their flags. */
export const EventSchema = Type.Object(
  {
    id: Type.Integer(),
    global_id: Type.String(),
    global_id_lineage: Type.Array(Type.String()),
    author: Type.String({ description: 'Author id as a numeric string' }),
    status: Type.String(),
    date: Type.String(),
    date_utc: Type.String(),
    modified: Type.String(),
    modified_utc: Type.String(),
    url: Type.String(),
    rest_url: Type.String(),
    title: Type.String(),
    description: Type.String(),
    excerpt: Type.String(),
    slug: Type.String(),
    image: Type.Unknown({ description: 'false, or {url, id, extension, width?, height?}' }),
    all_day: Flag,
    start_date: Type.String(),
    start_date_details: DateDetails,
    end_date: Type.String(),
    end_date_details: DateDetails,
    utc_start_date: Type.String(),
    utc_start_date_details: DateDetails,
    utc_end_date: Type.String(),
    utc_end_date_details: DateDetails,
    timezone: Type.String(),
    timezone_abbr: Type.String(),
    cost: Type.String(),
    cost_details: Type.Object({
      currency_symbol: Type.String(),
      currency_code: Type.String(),
      currency_position: Type.String(),
      values: Type.Array(Type.String()),
    }),
    website: Type.String(),
    show_map: Flag,
    show_map_link: Flag,
    hide_from_listings: Flag,
    sticky: Flag,
    featured: Flag,
    categories: Type.Array(Type.Ref('EventTerm')),
    tags: Type.Array(Type.Ref('EventTerm')),
    venue: Type.Union([Type.Ref('Venue'), Type.Array(Type.Never(), { maxItems: 0 })], {
      description: '[] without a venue, else the venue object',
    }),
    organizer: Type.Array(Type.Ref('Organizer')),
    custom_fields: Type.Unknown(),
    // Always present, but the serializer writes required keys before optional ones: marking these
    // optional keeps them after json_ld, in the order clients see from the original.
    json_ld: Type.Optional(Type.Unknown({ description: 'schema.org Event (single reads only)' })),
    i18n_language: Type.Optional(Type.String({ description: 'Language of the event' })),
    translations: Type.Optional(
      Type.Record(Type.String(), Type.Integer(), { description: 'Event id of each translation, by language' }),
    ),
    // Extensions of this service, on recurring events only (issue 18).
    recurrence: Type.Optional(
      Type.Object(
        {
          rrule: Type.String({
            maxLength: TEXT_LIMITS.rrule,
            description: 'RFC 5545 rule, read in the event time zone from its start',
          }),
          rdates: LocalDates('Extra occurrence starts, local wall times'),
          exdates: LocalDates('Excluded occurrence starts, local wall times'),
          summary: Type.String({ description: 'The rule in words, in the language of the request' }),
          exceptions: Type.Optional(
            Type.Array(Type.Object({ id: Type.Integer(), recurrence_id: Type.String() }), {
              description: 'Occurrences edited on their own (shown to those who may edit the series)',
            }),
          ),
        },
        { description: 'On the series (the event that is its first occurrence)' },
      ),
    ),
    series_id: Type.Optional(
      Type.Integer({ description: 'The series this event is an occurrence of (a series names itself)' }),
    ),
    recurrence_id: Type.Optional(
      Type.String({ description: 'The original local start of this occurrence (iCalendar RECURRENCE-ID)' }),
    ),
  },
  { $id: 'Event' },
);

export const EventListSchema = Type.Object({
  events: Type.Array(Type.Ref('Event')),
  rest_url: Type.String(),
  next_rest_url: Type.Optional(Type.String()),
  previous_rest_url: Type.Optional(Type.String()),
  // Always present; optional only so the serializer keeps them after the two links (see EventSchema).
  total: Type.Optional(Type.Integer()),
  total_pages: Type.Optional(Type.Integer()),
});

export type EventListParams = Static<typeof EventListQuery>;
export type EventReadParams = Static<typeof EventReadQuery>;
