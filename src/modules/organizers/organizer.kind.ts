import type { OrganizerRow } from '../../db/database.js';
import type { LinkedKind, LinkedRow } from '../linked/linked.kind.js';
import { stripTags } from '../../lib/html.js';
import { isEmailAddress } from '../../lib/url.js';

const asOrganizer = (row: LinkedRow): OrganizerRow => row as OrganizerRow;

/** The organizer's JSON-LD Person, also used inside an event's JSON-LD. */
export function organizerJsonLd(organizer: OrganizerRow): Record<string, unknown> {
  return {
    '@type': 'Person',
    name: organizer.title,
    description: stripTags(organizer.excerpt),
    url: organizer.website,
    telephone: organizer.phone,
    // The e-mail field is free text, as in the original; structured data gets it only when it is an address.
    email: isEmailAddress(organizer.email) ? organizer.email : '',
    sameAs: organizer.website,
  };
}

export const ORGANIZER: LinkedKind = {
  table: 'organizers',
  nameField: 'organizer',
  pagePath: 'organizer',
  textFields: ['phone', 'website', 'email'],
  urlFields: ['website'],
  dedupeFields: ['phone', 'email', 'website'],
  code: 'organizer',
  label: 'Organizer',
  bodyFields: (row) => ({
    phone: asOrganizer(row).phone,
    website: asOrganizer(row).website,
    email: asOrganizer(row).email,
  }),
  tailFields: () => ({}),
  jsonLd: (row) => organizerJsonLd(asOrganizer(row)),
};
