import type { EventSummary } from './page.event.js';
import type { PagePaths } from './page.links.js';

/**
 * The map's markers from a page of events: one per venue, in the order the list first names it,
 * each holding that venue's events of the page (the popup lists them, as the list beside does).
 * The script reads them from a data-* attribute; escaping is the template's.
 */

export interface MarkerVenue {
  id: number;
  slug: string;
  title: string;
  geo_lat: number;
  geo_lng: number;
}

export interface Marker {
  lat: number;
  lng: number;
  name: string;
  href: string;
  address: string;
  events: { title: string; href: string; when: string }[];
}

/** `events[i]` takes place at the venue `venueIds[i]`; a venue not in `venues` has no place on the map. */
export function mapMarkers(
  events: EventSummary[],
  venueIds: (number | null)[],
  venues: MarkerVenue[],
  paths: PagePaths,
): Marker[] {
  const byId = new Map(venues.map((v) => [v.id, v]));
  const markers = new Map<number, Marker>();
  events.forEach((event, i) => {
    const venue = byId.get(venueIds[i] ?? -1);
    if (!venue) return;
    let marker = markers.get(venue.id);
    if (!marker) {
      marker = {
        lat: venue.geo_lat,
        lng: venue.geo_lng,
        name: venue.title,
        href: paths.venue(venue.slug),
        address: event.venue?.address ?? '',
        events: [],
      };
      markers.set(venue.id, marker);
    }
    marker.events.push({ title: event.title, href: event.href, when: event.dates.text });
  });
  return [...markers.values()];
}
