import type { SourceRecord } from './import.types.js';
import { type Component, text } from './import.ics-event.js';

type Json = Record<string, unknown>;

const keyOf = (value: string) => value.trim().replace(/\s+/g, ' ').toLowerCase();

/**
 * The records a feed's events link to, each made once however many events name it: a venue per
 * LOCATION, an organizer per ORGANIZER (by email, else name), a category per CATEGORIES name.
 * Their source ids are the normalized text, so the same place written twice is one venue.
 */
export class LinkedRecords {
  /** The source ids made so far: a record is made once, then only named. */
  private readonly categories = new Set<string>();
  private readonly venues = new Set<string>();
  private readonly organizers = new Set<string>();
  /**
   * Made since fresh() last handed them out: the import writes them before the events that name
   * them, a chunk of the feed at a time, and keeps none of them afterwards.
   */
  private made: SourceRecord[] = [];

  constructor(private readonly lang: string) {}

  /** The records made since the last call, in the order first met. */
  fresh(): SourceRecord[] {
    const made = this.made;
    this.made = [];
    return made;
  }

  private add(made: Set<string>, record: SourceRecord): void {
    made.add(record.sourceId);
    this.made.push(record);
  }

  /** The source id of the category `name`. */
  category(name: string): string {
    const sourceId = `category:${keyOf(name)}`;
    if (!this.categories.has(sourceId))
      this.add(this.categories, { kind: 'category', sourceId, lang: this.lang, modified: null, payload: { name } });
    return sourceId;
  }

  /** The source id of the venue of a VEVENT's LOCATION, if it has one. */
  venue(component: Component): string | undefined {
    const location = text(component, 'location');
    if (!location) return undefined;
    const sourceId = `location:${keyOf(location)}`;
    if (!this.venues.has(sourceId)) {
      // "Name\nStreet, City" (Apple), "Name, Street, City" (Google): the name first, then the address.
      const apple = component.getFirstProperty('x-apple-structured-location')?.getParameter('x-title');
      const lines = location
        .split(/\n/)
        .map((l) => l.trim())
        .filter(Boolean);
      const comma = location.indexOf(',');
      let name = lines.length > 1 ? lines[0]! : comma > 0 ? location.slice(0, comma).trim() : location;
      let address = lines.length > 1 ? lines.slice(1).join(', ') : comma > 0 ? location.slice(comma + 1).trim() : '';
      if (typeof apple === 'string' && apple.trim() && apple.trim() !== name) {
        name = apple.trim();
        address = location.replace(/\n/g, ', ');
      }
      const payload: Json = { venue: name, ...(address ? { address } : {}) };
      const geo = component.getFirstPropertyValue('geo');
      if (Array.isArray(geo) && geo.length === 2)
        Object.assign(payload, { geo_lat: Number(geo[0]), geo_lng: Number(geo[1]) });
      this.add(this.venues, { kind: 'venue', sourceId, lang: this.lang, modified: null, payload });
    }
    return sourceId;
  }

  /** The source id of a VEVENT's ORGANIZER, if it has one. */
  organizer(component: Component): string | undefined {
    const prop = component.getFirstProperty('organizer');
    if (!prop) return undefined;
    const email = String(prop.getFirstValue() ?? '')
      .replace(/^mailto:/i, '')
      .trim()
      .toLowerCase();
    const cn = prop.getParameter('cn');
    const name = typeof cn === 'string' && cn.trim() ? cn.trim() : email;
    if (!name) return undefined;
    const sourceId = `organizer:${email || keyOf(name)}`;
    if (!this.organizers.has(sourceId))
      this.add(this.organizers, {
        kind: 'organizer',
        sourceId,
        lang: this.lang,
        modified: null,
        payload: { organizer: name, ...(email.includes('@') ? { email } : {}) },
      });
    return sourceId;
  }
}
