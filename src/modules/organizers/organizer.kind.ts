import type { OrganizerRow } from '../../db/database.js';
import type { LinkedKind, LinkedRow } from '../linked/linked-kind.js';
import { stripTags } from '../../lib/html.js';

const asOrganizer = (row: LinkedRow): OrganizerRow => row as OrganizerRow;

/** The organizer's JSON-LD Person, also used inside an event's JSON-LD. */
export function organizerJsonLd(organizer: OrganizerRow): Record<string, unknown> {
  return {
    '@type': 'Person',
    name: organizer.title,
    description: stripTags(organizer.excerpt),
    url: organizer.website,
    telephone: organizer.phone,
    email: organizer.email,
    sameAs: organizer.website,
  };
}

export const ORGANIZER: LinkedKind = {
  table: 'organizers',
  nameField: 'organizer',
  pagePath: 'organizer',
  textFields: ['phone', 'website', 'email'],
  urlFields: ['website'],
  emailFields: ['email'],
  dedupeFields: ['phone', 'email', 'website'],
  code: 'organizer',
  label: 'Organizer',
  bodyFields: (row) => ({ phone: asOrganizer(row).phone, website: asOrganizer(row).website, email: asOrganizer(row).email }),
  tailFields: () => ({}),
  jsonLd: (row) => organizerJsonLd(asOrganizer(row)),
};
