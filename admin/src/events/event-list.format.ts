import type { RaRecord } from 'react-admin';
import { can } from '../api/permissions';
import type { Role, SessionUser } from '../api/session';

/** What the events list and the calendar read of an event object (the API's, `context=edit`). */
export interface EventRecord extends RaRecord {
  id: number;
  title: string;
  status: string;
  author: string;
  modified: string;
  all_day: boolean | null;
  /** Wall times in the event's own zone, "YYYY-MM-DD HH:MM:SS". */
  start_date: string;
  end_date: string;
  timezone: string;
  timezone_abbr: string;
  venue: { id: number; venue: string } | [];
  categories: { id: number; name: string }[];
}

/** The statuses of the list's tabs, in order; `null` is "all" (the API's default for editors of posts). */
export const TAB_STATUSES = [null, 'publish', 'future', 'draft', 'pending', 'trash'] as const;
export type TabStatus = (typeof TAB_STATUSES)[number];

/** What the calendar shows: everything but the trash. */
export const CALENDAR_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];

/**
 * A relative bound far in the past: with it the API drops its default window (yesterday to two
 * years ahead), so the admin lists past events too. The index on (lang, start_local) still serves it.
 */
export const EVERY_EVENT = { starts_after: '1900-01-01' };

/** Each status's colour (calendar entries, the list's chips): contrast 4.5:1 or more against white text. */
export const STATUS_COLOURS: Record<string, string> = {
  publish: '#1b5e20',
  future: '#0d47a1',
  draft: '#616161',
  pending: '#8a4b00',
  private: '#6a1b9a',
  trash: '#b71c1c',
};

/** A wall time "YYYY-MM-DD HH:MM:SS" as a Date whose UTC fields are those numbers. */
export function wallToDate(wall: string): Date {
  const [date = '', time = '00:00:00'] = wall.split(' ');
  const [y, mo, d] = date.split('-').map(Number);
  const [h, mi, s] = time.split(':').map(Number);
  return new Date(Date.UTC(y ?? 1970, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0, s ?? 0));
}

/** The reverse of wallToDate. */
export function dateToWall(date: Date): string {
  return date.toISOString().slice(0, 19).replace('T', ' ');
}

/**
 * An event's start and end in the reader's language, at the event's own wall times (its zone is
 * named beside them, never converted to the browser's): "1 Jan 2031, 10:00 – 11:00".
 */
export function formatEventRange(record: Pick<EventRecord, 'start_date' | 'end_date' | 'all_day'>, locale: string) {
  const options: Intl.DateTimeFormatOptions = record.all_day
    ? { dateStyle: 'medium', timeZone: 'UTC' }
    : { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' };
  const format = new Intl.DateTimeFormat(locale, options);
  const start = wallToDate(record.start_date);
  const end = wallToDate(record.end_date);
  return end > start ? format.formatRange(start, end) : format.format(start);
}

/** The zone as the list names it: the IANA name, with its abbreviation when that says something else. */
export function zoneName(record: Pick<EventRecord, 'timezone' | 'timezone_abbr'>): string {
  const abbr = record.timezone_abbr;
  return abbr && abbr !== record.timezone ? `${record.timezone} (${abbr})` : record.timezone;
}

/**
 * Whether the signed-in user may change this event, by the contract's role table: editors any,
 * authors their own, contributors their own while it is not published. The API decides anyway.
 */
export function mayEdit(user: SessionUser | null, role: Role | undefined, record: EventRecord): boolean {
  if (can(role, 'edit_others_posts')) return true;
  if (!user || String(user.id) !== String(record.author) || !can(role, 'edit_posts')) return false;
  return can(role, 'publish_posts') || !['publish', 'future', 'private'].includes(record.status);
}
