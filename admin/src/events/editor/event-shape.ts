import type { RaRecord } from 'react-admin';

/**
 * The event as the editor's form holds it, between the API's read shape (venue, organizer and
 * term objects) and its write shape (ids). Dates stay the API's local wall times ("Y-m-d H:i:s"
 * in the event's own zone): the inputs format and parse them, nothing converts them through the
 * browser's zone.
 */
export interface RecurrenceValue {
  rrule: string;
  rdates?: string[];
  exdates?: string[];
}

export interface EventFormValues extends RaRecord {
  title: string;
  description: string;
  excerpt: string;
  start_date: string;
  end_date: string;
  timezone: string;
  all_day: boolean;
  venue: number | null;
  organizer: number[];
  categories: number[];
  tags: number[];
  cost: string;
  website: string;
  image: string;
  featured: boolean;
  sticky: boolean;
  hide_from_listings: boolean;
  show_map: boolean;
  show_map_link: boolean;
  password: string;
  status: string;
  date: string;
  recurrence: RecurrenceValue | null;
  translation_of?: number | null;
  i18n_language?: string;
}

/** What the form shows of an event besides its fields (read only). */
export interface EventReadExtras {
  url?: string;
  series_id?: number;
  recurrence_id?: string;
  translations?: Record<string, number>;
  recurrence_summary?: string;
}

export type EditorRecord = EventFormValues & EventReadExtras;

export type Scope = 'this' | 'following' | 'all';

type Json = Record<string, unknown>;

const ids = (value: unknown): number[] =>
  Array.isArray(value)
    ? value.map((item) => (typeof item === 'object' && item !== null ? (item as Json)['id'] : item)).map(Number)
    : [];

const flag = (value: unknown): boolean => value === true;

/** The API's event (a single read) as the form holds it. */
export function toForm(event: RaRecord): EditorRecord {
  const e = event as Json;
  const venue = e['venue'];
  const image = e['image'];
  const recurrence = e['recurrence'] as (RecurrenceValue & { summary?: string }) | undefined;
  return {
    id: event.id,
    title: String(e['title'] ?? ''),
    description: String(e['description'] ?? ''),
    excerpt: String(e['excerpt'] ?? ''),
    start_date: String(e['start_date'] ?? ''),
    end_date: String(e['end_date'] ?? ''),
    timezone: String(e['timezone'] ?? ''),
    all_day: flag(e['all_day']),
    venue: venue && typeof venue === 'object' && !Array.isArray(venue) ? Number((venue as Json)['id']) : null,
    organizer: ids(e['organizer']),
    categories: ids(e['categories']),
    tags: ids(e['tags']),
    cost: String(e['cost'] ?? ''),
    // Without a website the API answers the event's own page: that is not one the user gave.
    website: e['website'] === e['url'] ? '' : String(e['website'] ?? ''),
    image: image && typeof image === 'object' ? String((image as Json)['url'] ?? '') : '',
    featured: flag(e['featured']),
    sticky: flag(e['sticky']),
    hide_from_listings: flag(e['hide_from_listings']),
    show_map: flag(e['show_map']),
    show_map_link: flag(e['show_map_link']),
    password: '',
    status: String(e['status'] ?? 'draft'),
    date: String(e['date'] ?? ''),
    recurrence: recurrence
      ? { rrule: recurrence.rrule, rdates: recurrence.rdates ?? [], exdates: recurrence.exdates ?? [] }
      : null,
    i18n_language: typeof e['i18n_language'] === 'string' ? e['i18n_language'] : undefined,
    url: typeof e['url'] === 'string' ? e['url'] : undefined,
    series_id: typeof e['series_id'] === 'number' ? e['series_id'] : undefined,
    recurrence_id: typeof e['recurrence_id'] === 'string' ? e['recurrence_id'] : undefined,
    translations: (e['translations'] as Record<string, number> | undefined) ?? undefined,
    recurrence_summary: recurrence?.summary,
  };
}

/** An occurrence of a series that is not the series itself: saving it asks which part to change. */
export function isOccurrence(record: Partial<EditorRecord> | undefined): boolean {
  return record?.series_id !== undefined && record.id !== undefined && record.series_id !== record.id;
}

const WRITABLE = [
  'title',
  'description',
  'excerpt',
  'start_date',
  'end_date',
  'timezone',
  'all_day',
  'venue',
  'organizer',
  'categories',
  'tags',
  'cost',
  'website',
  'image',
  'featured',
  'sticky',
  'hide_from_listings',
  'show_map',
  'show_map_link',
  'status',
  'recurrence',
  'translation_of',
  'i18n_language',
] as const;

/** The API rejects empty rich text ("minLength: 1"), and the rich-text input leaves an empty paragraph. */
function emptyHtml(value: unknown): boolean {
  return typeof value !== 'string' || value.replace(/<p>\s*<\/p>|<br\s*\/?>|\s|&nbsp;/g, '') === '';
}

/** "Y-m-d H:i:s" → the ISO form of the same wall time, which the API reads identically. */
const isoWall = (value: string) => value.replace(' ', 'T');

/**
 * The form's values as the API takes them. With `previous` (an update), dates are sent together
 * when either changed: a series moves its occurrences by the shift between both, so sending one
 * alone would not move "all events". The ISO form keeps the unchanged one from being dropped by
 * the data provider, which sends only what differs from the version read.
 */
export function toWrite(values: Partial<EventFormValues>, previous?: Partial<EventFormValues>, scope?: Scope): Json {
  const body: Json = {};
  for (const key of WRITABLE) {
    const value = values[key];
    if (value === undefined) continue;
    body[key] = value;
  }
  for (const key of ['description', 'excerpt'] as const) if (emptyHtml(body[key])) delete body[key];
  if (typeof values.password === 'string' && values.password !== '') body['password'] = values.password;
  if (values.status === 'future' && values.date) body['date'] = values.date;
  if (body['translation_of'] === undefined || body['translation_of'] === null) delete body['translation_of'];
  if (previous) {
    delete body['i18n_language'];
    const moved = values.start_date !== previous.start_date || values.end_date !== previous.end_date;
    if (moved && values.start_date && values.end_date) {
      body['start_date'] = isoWall(values.start_date);
      body['end_date'] = isoWall(values.end_date);
    }
  } else {
    if (body['recurrence'] === null) delete body['recurrence'];
    for (const key of ['image', 'website', 'cost'] as const) if (body[key] === '') delete body[key];
  }
  // One occurrence changed alone cannot carry the series' rule.
  if (scope === 'this') delete body['recurrence'];
  if (scope) body['scope'] = scope;
  return body;
}

/** Wall-clock parts of an instant in a zone. */
function wallParts(at: Date, zone: string): number[] {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return [get('year'), get('month'), get('day'), get('hour'), get('minute')];
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A wall time as the API writes it, from a Date read as floating (its UTC fields are the wall time). */
export function wallText(date: Date): string {
  return (
    `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`
  );
}

/** "Y-m-d H:i:s" as a floating Date (UTC fields = wall time), or null. */
export function floating(wall: string | undefined): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?/.exec(wall ?? '');
  if (!m) return null;
  return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +(m[6] ?? 0)));
}

/** Adds minutes to a wall time, as a calendar would (no zone involved). */
export function addMinutes(wall: string, minutes: number): string {
  const date = floating(wall);
  return date ? wallText(new Date(date.getTime() + minutes * 60_000)) : wall;
}

/** The wall time now in `zone`, as a floating Date (UTC fields = wall time). */
export function nowFloating(zone: string, now = new Date()): Date {
  let parts: number[];
  try {
    parts = wallParts(now, zone || 'UTC');
  } catch {
    parts = wallParts(now, 'UTC');
  }
  const [y, mo, d, h, mi] = parts as [number, number, number, number, number];
  return new Date(Date.UTC(y, mo - 1, d, h, mi, 0));
}

/** The next full hour in `zone`, as a wall time: a new event's start. */
export function nextFullHour(zone: string, now = new Date()): string {
  let parts: number[];
  try {
    parts = wallParts(now, zone);
  } catch {
    parts = wallParts(now, 'UTC');
  }
  const [y, mo, d, h] = parts as [number, number, number, number];
  return wallText(new Date(Date.UTC(y, mo - 1, d, h + 1, 0, 0)));
}

/** The values a new event opens with. */
export function newEventValues(zone: string, status: string): Partial<EventFormValues> {
  const start = nextFullHour(zone);
  return {
    start_date: start,
    end_date: addMinutes(start, 60),
    timezone: zone,
    all_day: false,
    venue: null,
    organizer: [],
    categories: [],
    tags: [],
    status,
    recurrence: null,
    show_map: true,
    show_map_link: true,
  };
}
