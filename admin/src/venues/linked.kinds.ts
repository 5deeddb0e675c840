/**
 * What differs between the venue and organizer screens, as the server's `LinkedKind` describes
 * what differs between their routes: one set of screens (LinkedList, LinkedForm) reads these.
 */
export interface LinkedTextField {
  source: string;
  /** The input's type, for the phone keyboard and the browser's own checks. */
  type?: 'url' | 'email' | 'tel';
}

export interface LinkedKindUi {
  resource: 'venues' | 'organizers';
  /** The API's name field, stored as the record's title. */
  nameField: 'venue' | 'organizer';
  /** The events list's filter that finds this record's events. */
  eventFilter: 'venue' | 'organizer';
  /** Free-text fields, in the order the editor shows them. */
  textFields: readonly LinkedTextField[];
  /** The fields a list row shows under the name (joined by ", "). */
  summaryFields: readonly string[];
  /** Yes/no fields (venues' map flags). */
  flags: readonly string[];
  /** Latitude and longitude (venues, while the geolocation extension is on). */
  coordinates: boolean;
  /** A new record's values where the API has its own default (a form would otherwise send false). */
  defaults: Readonly<Record<string, unknown>>;
}

export const VENUE_UI: LinkedKindUi = {
  resource: 'venues',
  nameField: 'venue',
  eventFilter: 'venue',
  textFields: [
    { source: 'address' },
    { source: 'city' },
    { source: 'stateprovince' },
    { source: 'state' },
    { source: 'province' },
    { source: 'zip' },
    { source: 'country' },
    { source: 'phone', type: 'tel' },
    { source: 'website', type: 'url' },
  ],
  summaryFields: ['address', 'city', 'country'],
  flags: ['show_map', 'show_map_link'],
  coordinates: true,
  defaults: { show_map: true, show_map_link: true },
};

export const ORGANIZER_UI: LinkedKindUi = {
  resource: 'organizers',
  nameField: 'organizer',
  eventFilter: 'organizer',
  textFields: [
    { source: 'phone', type: 'tel' },
    { source: 'email', type: 'email' },
    { source: 'website', type: 'url' },
  ],
  summaryFields: ['email', 'phone', 'website'],
  flags: [],
  coordinates: false,
  defaults: {},
};

/** Post statuses the API takes for venues and organizers; `publish` and `future` need publish_posts. */
export const LINKED_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'] as const;
export const UNPUBLISHED_STATUSES = ['draft', 'pending'] as const;
