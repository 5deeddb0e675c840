import type { VenueRow } from '../../db/database.js';
import type { LinkedKind, LinkedRow } from '../linked/linked.kind.js';
import { stripTags } from '../../lib/html.js';

const asVenue = (row: LinkedRow): VenueRow => row as VenueRow;

/** The venue's JSON-LD Place, also used for an event's `location`. */
export function venueJsonLd(venue: VenueRow): Record<string, unknown> {
  const ld: Record<string, unknown> = {
    '@type': 'Place',
    name: venue.title,
    description: stripTags(venue.excerpt),
    url: '',
    address: {
      '@type': 'PostalAddress',
      streetAddress: venue.address,
      addressLocality: venue.city,
      addressRegion: venue.stateprovince || venue.state || venue.province,
      postalCode: venue.zip,
      addressCountry: venue.country,
    },
  };
  if (venue.geo_lat !== null && venue.geo_lng !== null)
    ld['geo'] = { '@type': 'GeoCoordinates', latitude: venue.geo_lat, longitude: venue.geo_lng };
  ld['telephone'] = venue.phone;
  ld['sameAs'] = venue.website;
  return ld;
}

export const VENUE: LinkedKind = {
  table: 'venues',
  nameField: 'venue',
  pagePath: 'venue',
  textFields: ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'website', 'stateprovince'],
  urlFields: ['website'],
  dedupeFields: ['address', 'city', 'province', 'state', 'stateprovince', 'zip', 'phone'],
  code: 'venue',
  label: 'Venue',
  bodyFields(row, ctx) {
    const venue = asVenue(row);
    const fields: Record<string, unknown> = {
      address: venue.address,
      city: venue.city,
      country: venue.country,
      province: venue.province,
      state: venue.state,
      zip: venue.zip,
      phone: venue.phone,
      website: venue.website,
      stateprovince: venue.stateprovince,
    };
    if (ctx.settings.geoloc && venue.geo_lat !== null && venue.geo_lng !== null) {
      fields['geo_lat'] = venue.geo_lat;
      fields['geo_lng'] = venue.geo_lng;
    }
    return fields;
  },
  tailFields: (row) => ({ show_map: asVenue(row).show_map === 1, show_map_link: asVenue(row).show_map_link === 1 }),
  jsonLd: (row) => venueJsonLd(asVenue(row)),
};
