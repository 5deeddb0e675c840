import type { OrganizerRow, VenueRow } from '../../db/database.js';
import type { RequestContext } from '../../http/context.js';

/**
 * Venues and organizers are the original's "linked posts": the same life cycle, routes and rules,
 * with their own fields. A kind describes those differences; linked.service.ts does the rest.
 */
export interface LinkedKind {
  table: 'venues' | 'organizers';
  /** `venue` / `organizer`: the name field of the API, stored as the title. */
  nameField: 'venue' | 'organizer';
  /** Path segment of the public page (`venue` → `<site>/venue/<slug>/`). */
  pagePath: string;
  /** Free-text fields stored as sent (besides the name, description and excerpt), in response order. */
  textFields: readonly string[];
  /** Fields that must be http(s) URLs or empty. */
  urlFields: readonly string[];
  /** Fields a create compares to find an existing duplicate (besides name, description, excerpt). */
  dedupeFields: readonly string[];
  /** Error code stem: `venue` → `rest-venue-not-found`, `venue-is-in-trash`… */
  code: 'venue' | 'organizer';
  label: 'Venue' | 'Organizer';
  /** Fields after the common head and texts, in the original's order (falsy ones are dropped). */
  bodyFields(row: LinkedRow, ctx: RequestContext): Record<string, unknown>;
  /** Fields appended after json_ld, always present. */
  tailFields(row: LinkedRow): Record<string, unknown>;
  jsonLd(row: LinkedRow, ctx: RequestContext): Record<string, unknown>;
}

export type LinkedRow = VenueRow | OrganizerRow;
