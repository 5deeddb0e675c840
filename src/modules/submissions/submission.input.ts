import { isValidTimezone } from '../../lib/dates.js';
import { isEmailAddress, isHttpUrl } from '../../lib/url.js';
import type { FieldProblem, SubmissionFields } from './submission.schema.js';
import { countLinks, descriptionHtml } from './submission.text.js';

/**
 * The form's own checks, made before anything is read from the database: every field bounded,
 * dates of the form's shapes, addresses well formed, links counted. What passes becomes an event
 * payload of the REST API's shape, which the events' own checks then read as any client's.
 */

export const LIMITS = {
  title: 200,
  description: 10_000,
  text: 200,
  url: 2_000,
  name: 100,
  email: 254,
  tags: 10,
  tag: 60,
  /** Links in a description: a few are an event's (tickets, a map); more is what spam looks like. */
  links: 3,
} as const;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})(?::\d{2})?$/;
const ID = /^[1-9]\d{0,9}$/;

export interface CheckedForm {
  problems: FieldProblem[];
  /** The event as the REST API takes it (status pending). */
  payload: Record<string, unknown>;
  links: number;
  venueId: number | null;
  organizerId: number | null;
  categoryId: number | null;
}

/** `YYYY-MM-DD HH:MM:SS` of a form date, or null when it is not one of the form's shapes. */
function formDate(value: string, allDay: boolean, end: boolean): string | null {
  if (DATE.test(value)) return `${value} ${end ? '23:59:59' : '00:00:00'}`;
  const match = DATE_TIME.exec(value);
  if (!match) return null;
  return allDay ? `${match[1]} ${end ? '23:59:59' : '00:00:00'}` : `${match[1]} ${match[2]}:00`;
}

/** `YYYY-MM-DD HH:MM:SS` an hour later (on the calendar: the event's zone is applied afterwards). */
function plusHour(local: string): string {
  const at = new Date(`${local.replace(' ', 'T')}Z`);
  return new Date(at.getTime() + 3_600_000).toISOString().slice(0, 19).replace('T', ' ');
}

export function checkForm(fields: SubmissionFields, signedIn: boolean): CheckedForm {
  const problems: FieldProblem[] = [];
  const add = (problem: FieldProblem) => problems.push(problem);
  const bounded = (field: keyof SubmissionFields, max: number, required = false): string => {
    const value = String(fields[field]).trim();
    if (required && value === '') add({ field, code: 'required' });
    else if (value.length > max) add({ field, code: 'too_long', max });
    return value;
  };
  const url = (field: keyof SubmissionFields): string => {
    const value = bounded(field, LIMITS.url);
    if (value !== '' && value.length <= LIMITS.url && !isHttpUrl(value)) add({ field, code: 'invalid_url' });
    return value;
  };
  const id = (field: 'venue_id' | 'organizer_id' | 'category_id'): number | null => {
    const value = String(fields[field]).trim();
    if (value === '' || value === 'new') return null;
    if (!ID.test(value)) {
      add({
        field,
        code:
          field === 'venue_id' ? 'unknown_venue' : field === 'organizer_id' ? 'unknown_organizer' : 'unknown_category',
      });
      return null;
    }
    return Number(value);
  };

  const title = bounded('title', LIMITS.title, true);
  const description = bounded('description', LIMITS.description);
  const links = description.length <= LIMITS.description ? countLinks(description) : 0;
  if (links > LIMITS.links) add({ field: 'description', code: 'too_many_links', max: LIMITS.links });

  const allDay = fields.all_day;
  const startText = bounded('start', 40, true);
  const endText = bounded('end', 40);
  const start = startText === '' ? null : formDate(startText, allDay, false);
  if (startText !== '' && start === null) add({ field: 'start', code: 'invalid_date' });
  let end = endText === '' ? null : formDate(endText, allDay, true);
  if (endText !== '' && end === null) add({ field: 'end', code: 'invalid_date' });
  // No end: an all-day event ends with its day, a timed one lasts an hour (what calendars assume).
  if (start !== null && endText === '') end = allDay ? `${start.slice(0, 10)} 23:59:59` : plusHour(start);
  if (start !== null && end !== null && end < start) add({ field: 'end', code: 'end_before_start' });

  const timezone = bounded('timezone', 64);
  if (timezone !== '' && timezone.length <= 64 && !isValidTimezone(timezone))
    add({ field: 'timezone', code: 'invalid_timezone' });

  const venueId = id('venue_id');
  const venueName = bounded('venue_name', LIMITS.text);
  const venue = {
    address: bounded('venue_address', LIMITS.text),
    city: bounded('venue_city', LIMITS.text),
    country: bounded('venue_country', LIMITS.text),
  };
  const organizerId = id('organizer_id');
  const organizerName = bounded('organizer_name', LIMITS.text);
  const organizerEmail = bounded('organizer_email', LIMITS.email);
  if (organizerEmail !== '' && organizerEmail.length <= LIMITS.email && !isEmailAddress(organizerEmail))
    add({ field: 'organizer_email', code: 'invalid_email' });
  const organizerWebsite = url('organizer_website');
  const categoryId = id('category_id');
  const tagsText = bounded('tags', LIMITS.tags * (LIMITS.tag + 2));
  const tags = [
    ...new Set(
      tagsText
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
  if (tags.length > LIMITS.tags) add({ field: 'tags', code: 'too_many_tags', max: LIMITS.tags });
  else if (tags.some((t) => t.length > LIMITS.tag)) add({ field: 'tags', code: 'too_long', max: LIMITS.tag });
  const cost = bounded('cost', 100);
  const website = url('website');
  const image = url('image');

  if (!signedIn) {
    bounded('name', LIMITS.name, true);
    const email = bounded('email', LIMITS.email, true);
    if (email !== '' && email.length <= LIMITS.email && !isEmailAddress(email))
      add({ field: 'email', code: 'invalid_email' });
  }

  const payload: Record<string, unknown> = { title, status: 'pending', all_day: allDay };
  if (description !== '') payload['description'] = descriptionHtml(description);
  if (start !== null) payload['start_date'] = start;
  if (end !== null) payload['end_date'] = end;
  if (timezone !== '') payload['timezone'] = timezone;
  if (venueId !== null) payload['venue'] = venueId;
  else if (venueName !== '') payload['venue'] = { venue: venueName, ...venue };
  if (organizerId !== null) payload['organizer'] = [organizerId];
  else if (organizerName !== '')
    payload['organizer'] = [{ organizer: organizerName, email: organizerEmail, website: organizerWebsite }];
  if (categoryId !== null) payload['categories'] = [categoryId];
  if (tags.length > 0) payload['tags'] = tags;
  if (cost !== '') payload['cost'] = cost;
  if (website !== '') payload['website'] = website;
  if (image !== '') payload['image'] = image;
  return { problems, payload, links, venueId, organizerId, categoryId };
}

/** The event checks' parameter names, as the form's fields. */
export const FIELD_OF_PARAM: Record<string, keyof SubmissionFields> = {
  title: 'title',
  description: 'description',
  start_date: 'start',
  end_date: 'end',
  timezone: 'timezone',
  venue: 'venue_name',
  organizer: 'organizer_name',
  categories: 'category_id',
  tags: 'tags',
  cost: 'cost',
  website: 'website',
  image: 'image',
};
