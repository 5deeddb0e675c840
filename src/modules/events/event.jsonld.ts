import { toIsoWithOffset, zoneOrUtc } from '../../lib/dates.js';
import { stripTags } from '../../lib/html.js';

/** Currency codes for the symbols the cost parser recognises; the original defaults to USD. */
const CURRENCY: Record<string, string> = { $: 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY', CHF: 'CHF' };

/**
 * The schema.org Event of a single read (original section 10.6), built from the event object and
 * the JSON-LD of its embedded venue and organizers.
 */
export function eventJsonLd(
  event: Record<string, unknown>,
  venue: Record<string, unknown> | undefined,
  organizers: Record<string, unknown>[],
): Record<string, unknown> {
  const zone = zoneOrUtc(String(event['timezone']));
  const ld: Record<string, unknown> = {
    '@context': 'http://schema.org',
    '@type': 'Event',
    name: event['title'],
    description: stripTags(String(event['excerpt'])),
    url: event['url'],
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    eventStatus: 'https://schema.org/EventScheduled',
    startDate: toIsoWithOffset(String(event['start_date']), zone),
    endDate: toIsoWithOffset(String(event['end_date']), zone),
  };
  if (venue?.['json_ld']) ld['location'] = venue['json_ld'];
  const people = organizers.map((o) => o['json_ld']).filter(Boolean);
  if (people.length > 0) ld['organizer'] = people.length === 1 ? people[0] : people;
  const details = event['cost_details'] as { values: string[]; currency_symbol: string; currency_code: string };
  if (details.values.length > 0) {
    ld['offers'] = {
      '@type': 'Offer',
      price: details.values[0],
      priceCurrency: details.currency_code || CURRENCY[details.currency_symbol] || 'USD',
      url: event['url'],
      category: 'primary',
      availability: 'inStock',
      validFrom: `${String(event['date_utc']).slice(0, 10)}T00:00:00+00:00`,
    };
  }
  ld['performer'] = 'Organization';
  return ld;
}
