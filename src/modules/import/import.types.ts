/**
 * What every import source yields: records in this service's own request shape, each named by a
 * stable id in its source, with the source ids of the records it links to. The writer turns
 * those into local ids, in dependency order, and remembers source → local in the import map.
 */

export const KINDS = ['category', 'tag', 'venue', 'organizer', 'event'] as const;
export type Kind = (typeof KINDS)[number];

/** The REST route of each kind (under the namespace), which is also the key of its list in an answer. */
export const KIND_ROUTES: Record<Kind, string> = {
  category: 'categories',
  tag: 'tags',
  venue: 'venues',
  organizer: 'organizers',
  event: 'events',
};

export interface SourceRecord {
  kind: Kind;
  /** Stable in the source: a REST id as a string, an iCalendar UID (with the occurrence for a series). */
  sourceId: string;
  /** Site language code of the record (one of CAL_LANGUAGES). */
  lang: string;
  /**
   * The source's last modification (UTC `YYYY-MM-DD HH:MM:SS`) when it has one; a record whose
   * time did not move since the last run is unchanged. Null: the payload's hash decides.
   */
  modified: string | null;
  /** The body of this service's create/update request for the kind, without linked records. */
  payload: Record<string, unknown>;
  /** Source ids of the records this one links to, resolved to local ids when it is written. */
  links?: {
    venue?: string;
    organizers?: string[];
    categories?: string[];
    tags?: string[];
    /** A category's parent. */
    parent?: string;
  };
  /** Source ids (same kind) of the records this one is a translation of, when the source says. */
  translations?: string[];
  /**
   * An edit of one occurrence of a series imported as such (an iCalendar RECURRENCE-ID override):
   * the payload is written to that occurrence, which becomes an exception, or the occurrence is
   * deleted when the override cancels it. Written after every series.
   */
  occurrence?: OccurrenceOf;
}

/** The source ids of occurrence overrides start with it (`override:<series uid>@<recurrence id>`). */
export const OVERRIDE_PREFIX = 'override:';

export interface OccurrenceOf {
  /** Source id of the series. */
  series: string;
  /** The occurrence's original local start in the series' zone (its `recurrence_id`). */
  recurrenceId: string;
  cancelled: boolean;
}

/** A source record that cannot be imported, with why (reported, never fatal). */
export interface Skipped {
  kind: Kind;
  sourceId: string;
  lang: string;
  reason: string;
  /** The line of the source it starts on (an iCalendar VEVENT's BEGIN line), when known. */
  line?: number;
}

/** Per kind, records done and the total known so far (stored as JSON with an import started through the admin route). */
export type Progress = Partial<Record<Kind, { done: number; total: number }>>;

/** A warning about the whole import (e.g. translations the source does not expose). */
export type Warning = string;
