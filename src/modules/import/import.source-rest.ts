import type { Kind, Skipped, SourceRecord } from './import.types.js';
import { KIND_ROUTES } from './import.types.js';
import { excerpt, redactUrl } from '../../lib/redact.js';
import { basicAuth, getJson, SourceError, type HttpOptions } from './import.source-http.js';

/**
 * A site running the original plugin (namespace `tribe/events/v1`, languages from WPML:
 * `wpml_language`, roots `/fr/wp-json/`) or another instance of this service (`cal/events/v1`,
 * `i18n_language`, roots `/fr/`), read through its public REST API page by page, in every
 * language it has. Records come out in this service's request shape (the two APIs share theirs).
 */

type Flavour = 'original' | 'cal';
type Json = Record<string, unknown>;

const NAMESPACES: Record<Flavour, string> = { original: 'tribe/events/v1', cal: 'cal/events/v1' };
const PER_PAGE = 50;
/** Post types of WordPress's own REST API, where WPML adds each post's translations. */
const WP_TYPES: Partial<Record<Kind, string>> = {
  event: 'tribe_events',
  venue: 'tribe_venue',
  organizer: 'tribe_organizer',
};
/** Statuses a user with credentials reads (trashed records are not moved). */
const STATUSES = 'publish,future,draft,pending,private';

export interface RestSourceOptions {
  url: string;
  user?: string | undefined;
  password?: string | undefined;
  /** Languages to import (default: every one the source has and this site has). */
  languages?: string[] | undefined;
  /** Only events that end on or after this day (YYYY-MM-DD). */
  since?: string | undefined;
  siteLanguages: readonly string[];
  defaultLanguage: string;
  /** Where the source may be and how large its answers (the credentials are added here). */
  http: HttpOptions;
}

export interface Page {
  records: SourceRecord[];
  skipped: Skipped[];
  /** Records of the kind in that language, for the progress bar (known after the first page). */
  total: number;
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const idOf = (value: unknown): string | null => {
  const id = value && typeof value === 'object' ? (value as Json)['id'] : value;
  return typeof id === 'number' || (typeof id === 'string' && /^\d+$/.test(id)) ? String(id) : null;
};
const ids = (list: unknown): string[] =>
  Array.isArray(list) ? list.map(idOf).filter((id): id is string => id !== null) : [];
/** Only non-empty: the API refuses an empty description or excerpt. */
const nonEmpty = (payload: Json, name: string, value: unknown) => {
  if (typeof value === 'string' && value.trim() !== '') payload[name] = value;
};
const imageUrl = (image: unknown): string | undefined =>
  image && typeof image === 'object' ? str((image as Json)['url']) || undefined : undefined;

export class RestSource {
  readonly warnings: string[] = [];
  private readonly http: HttpOptions;
  private wpmlAvailable: boolean | null = null;

  private constructor(
    readonly key: string,
    readonly flavour: Flavour,
    private readonly root: string,
    /** Language → REST root URL. */
    readonly roots: Map<string, string>,
    private readonly options: RestSourceOptions,
    http: HttpOptions,
  ) {
    this.http = http;
  }

  get languages(): string[] {
    return [...this.roots.keys()];
  }

  /** Reads the REST index, tells the two APIs apart and finds the source's languages. */
  static async open(options: RestSourceOptions): Promise<RestSource> {
    let root: URL;
    try {
      root = new URL(options.url);
    } catch {
      throw new SourceError(
        `--from must be the URL of a REST root (e.g. https://example.org/wp-json/), not "${excerpt(options.url, 100)}".`,
      );
    }
    if (!/^https?:$/.test(root.protocol))
      throw new SourceError(`--from must be an http(s) URL, not ${excerpt(root.protocol, 20)}`);
    // Credentials in the URL (https://user:password@…) count as --user and --password; they travel
    // in the header of every request, and the URLs built from the root (shown, stored) hold none.
    const user = options.user ?? (root.username === '' ? undefined : decodeURIComponent(root.username));
    const password =
      options.password ??
      (root.password === '' && root.username === '' ? undefined : decodeURIComponent(root.password));
    root.username = '';
    root.password = '';
    root.search = '';
    if (!root.pathname.endsWith('/')) root.pathname += '/';
    const http: HttpOptions = { ...options.http, authorization: basicAuth(user, password) };
    const index = (await getJson(root.toString(), http)).body as Json;
    const namespaces = Array.isArray(index['namespaces']) ? (index['namespaces'] as unknown[]).map(String) : null;
    if (!namespaces)
      throw new SourceError(
        `${redactUrl(root.toString())} is not a REST index (no "namespaces" in its answer): give the REST root, e.g. https://example.org/wp-json/.`,
      );
    const flavour: Flavour | null = namespaces.includes(NAMESPACES.cal)
      ? 'cal'
      : namespaces.includes(NAMESPACES.original)
        ? 'original'
        : null;
    if (!flavour) {
      // The source's own words, quoted short: a huge index must not become a huge message.
      const listed = namespaces.length > 0 ? excerpt(namespaces.slice(0, 50).join(', ')) : 'no namespaces';
      throw new SourceError(
        `${redactUrl(root.toString())} has no calendar API: its REST index lists ${listed}, neither tribe/events/v1 nor cal/events/v1.`,
      );
    }
    const roots = await RestSource.findLanguages(root, flavour, index, options, http);
    return new RestSource(`rest:${root.toString()}`, flavour, root.toString(), roots, options, http);
  }

  /**
   * This service says its languages in its index. The original does not: its default root is
   * taken as this site's default language and each other site language's root (`/fr/wp-json/`)
   * is probed; one that answers with the calendar's namespace exists.
   */
  private static async findLanguages(
    root: URL,
    flavour: Flavour,
    index: Json,
    options: RestSourceOptions,
    http: HttpOptions,
  ): Promise<Map<string, string>> {
    const wanted = (lang: string) =>
      options.siteLanguages.includes(lang) && (options.languages === undefined || options.languages.includes(lang));
    const rootOf = (lang: string) => {
      const url = new URL(root.toString());
      url.pathname = `/${lang}${url.pathname}`;
      return url.toString();
    };
    const roots = new Map<string, string>();
    if (flavour === 'cal') {
      const sourceDefault = str(index['language']) || options.defaultLanguage;
      const languages = Array.isArray(index['languages'])
        ? (index['languages'] as unknown[]).map(String)
        : [sourceDefault];
      for (const lang of languages)
        if (wanted(lang)) roots.set(lang, lang === sourceDefault ? root.toString() : rootOf(lang));
      return roots;
    }
    if (wanted(options.defaultLanguage)) roots.set(options.defaultLanguage, root.toString());
    for (const lang of options.siteLanguages) {
      if (lang === options.defaultLanguage || !wanted(lang)) continue;
      try {
        const probe = await getJson(rootOf(lang), { ...http, tries: 1 }, [404]);
        const ns = (probe.body as Json)['namespaces'];
        if (probe.status === 200 && Array.isArray(ns) && ns.includes(NAMESPACES.original))
          roots.set(lang, rootOf(lang));
      } catch {
        // No such root: the site does not have that language.
      }
    }
    return roots;
  }

  private url(lang: string, route: string, params: Record<string, string | number>): string {
    const url = new URL(`${this.roots.get(lang)!}${NAMESPACES[this.flavour]}/${route}`);
    for (const [name, value] of Object.entries(params)) url.searchParams.set(name, String(value));
    return url.toString();
  }

  /** The list parameters that read everything of a kind (the events list defaults to upcoming only). */
  private listParams(kind: Kind): Record<string, string | number> {
    const params: Record<string, string | number> = { per_page: PER_PAGE };
    const authed = this.http.authorization !== undefined;
    if (kind === 'category' || kind === 'tag') params['hide_empty'] = 'false';
    if ((kind === 'venue' || kind === 'organizer' || kind === 'event') && authed) params['status'] = STATUSES;
    if (kind === 'event') {
      // This service lists events hidden from listings on demand; the original never does (see hiddenEvents).
      if (this.flavour === 'cal') params['include_hidden'] = 'true';
      params['start_date'] = this.options.since ?? '1900-01-01';
      params['end_date'] = '2999-12-31';
    }
    return params;
  }

  /** Every record of a kind in a language, a page at a time. */
  async *pages(kind: Kind, lang: string): AsyncGenerator<Page> {
    const route = KIND_ROUTES[kind];
    for (let page = 1, totalPages = 1; page <= totalPages; page += 1) {
      const response = await getJson(this.url(lang, route, { ...this.listParams(kind), page }), this.http, [400, 404]);
      const body = response.body as Json;
      // Past the last page (a source that shrank meanwhile) or an empty list: done.
      if (response.status !== 200) return;
      const items = Array.isArray(body[route]) ? (body[route] as Json[]) : [];
      totalPages = Number(body['total_pages'] ?? response.headers.get('x-wp-totalpages') ?? 1) || 1;
      const total = Number(body['total'] ?? items.length) || items.length;
      const translations = await this.wpmlTranslations(kind, lang, items);
      const records: SourceRecord[] = [];
      const skipped: Skipped[] = [];
      for (const item of items) {
        const record = this.toRecord(kind, lang, item, translations);
        if ('reason' in record) skipped.push(record);
        else records.push(record);
      }
      yield { records, skipped, total };
    }
  }

  /**
   * The original's event list never shows events hidden from listings; WordPress's own list of the
   * post type does. Their ids come from there, each event then from the calendar API. Without
   * wp/v2 they cannot be found, and the report says so.
   */
  async *unlisted(lang: string, seen: Set<string>): AsyncGenerator<Page> {
    if (this.flavour !== 'original') return;
    const missing: string[] = [];
    try {
      for (let page = 1, totalPages = 1; page <= totalPages; page += 1) {
        const url = new URL(`${this.roots.get(lang)!}wp/v2/${WP_TYPES.event!}`);
        url.searchParams.set('per_page', '100');
        url.searchParams.set('page', String(page));
        url.searchParams.set('_fields', 'id');
        if (this.http.authorization) url.searchParams.set('status', STATUSES);
        const response = await getJson(url.toString(), this.http, [400, 404]);
        if (response.status !== 200 || !Array.isArray(response.body)) throw new Error('no wp/v2');
        totalPages = Number(response.headers.get('x-wp-totalpages') ?? 1) || 1;
        for (const post of response.body as Json[]) {
          const id = idOf(post['id']);
          if (id !== null && !seen.has(id)) missing.push(id);
        }
      }
    } catch {
      this.warnings.push(
        "Events hidden from listings are not in the original's event list, and its wp/v2 API did not list them: they were not imported.",
      );
      return;
    }
    for (let i = 0; i < missing.length; i += PER_PAGE) {
      const records: SourceRecord[] = [];
      const skipped: Skipped[] = [];
      for (const id of missing.slice(i, i + PER_PAGE)) {
        const response = await getJson(this.url(lang, `events/${id}`, {}), this.http, [400, 401, 403, 404, 410]);
        if (response.status !== 200) continue;
        const record = this.toRecord('event', lang, response.body as Json, new Map());
        if ('reason' in record) skipped.push(record);
        else records.push(record);
      }
      yield { records, skipped, total: missing.length };
    }
  }

  /**
   * On the original, translations are WPML's, which it adds to WordPress's own REST answers of the
   * same posts (`wpml_translations`). Asked once per page; when the site does not expose them,
   * each language is imported unlinked and the report says so.
   */
  private async wpmlTranslations(kind: Kind, lang: string, items: Json[]): Promise<Map<string, string[]>> {
    const found = new Map<string, string[]>();
    const type = WP_TYPES[kind];
    if (
      this.flavour !== 'original' ||
      this.roots.size < 2 ||
      !type ||
      items.length === 0 ||
      this.wpmlAvailable === false
    )
      return found;
    const url = new URL(`${this.roots.get(lang)!}wp/v2/${type}`);
    url.searchParams.set('include', items.map((i) => String(i['id'])).join(','));
    url.searchParams.set('per_page', String(PER_PAGE));
    url.searchParams.set('_fields', 'id,wpml_translations');
    try {
      const response = await getJson(url.toString(), this.http, [400, 404]);
      const list = Array.isArray(response.body) ? (response.body as Json[]) : [];
      const any = list.some((post) => Array.isArray(post['wpml_translations']));
      if (response.status !== 200 || !any) throw new Error('none');
      this.wpmlAvailable = true;
      for (const post of list) {
        const others = Array.isArray(post['wpml_translations']) ? (post['wpml_translations'] as Json[]) : [];
        found.set(
          String(post['id']),
          others.map((t) => idOf(t['id'])).filter((id): id is string => id !== null),
        );
      }
    } catch {
      if (this.wpmlAvailable === null) {
        this.warnings.push(
          'The source does not expose WPML translations in its wp/v2 answers: each language was imported without links between translations.',
        );
      }
      this.wpmlAvailable = false;
    }
    return found;
  }

  private toRecord(kind: Kind, lang: string, item: Json, wpml: Map<string, string[]>): SourceRecord | Skipped {
    const sourceId = idOf(item['id']);
    if (sourceId === null) return { kind, sourceId: '?', lang, reason: 'no id in the source' };
    const translations =
      this.flavour === 'cal' && item['translations'] && typeof item['translations'] === 'object'
        ? Object.values(item['translations'] as Json)
            .map(idOf)
            .filter((id): id is string => id !== null && id !== sourceId)
        : (wpml.get(sourceId) ?? []);
    const modified = str(item['modified_utc']) || null;
    const base = { kind, sourceId, lang, modified, translations };
    const payload: Json = {};
    switch (kind) {
      case 'category':
      case 'tag': {
        payload['name'] = str(item['name']);
        nonEmpty(payload, 'slug', item['slug']);
        nonEmpty(payload, 'description', item['description']);
        const parent = idOf(item['parent']);
        return {
          ...base,
          payload,
          ...(kind === 'category' && parent !== null && parent !== '0' ? { links: { parent } } : {}),
        };
      }
      case 'venue':
      case 'organizer': {
        payload[kind] = str(item[kind]);
        if (payload[kind] === '') return { kind, sourceId, lang, reason: `no ${kind} name` };
        for (const field of ['slug', 'description', 'excerpt', 'status']) nonEmpty(payload, field, item[field]);
        const fields =
          kind === 'venue'
            ? ['address', 'city', 'country', 'province', 'state', 'stateprovince', 'zip', 'phone', 'website']
            : ['phone', 'website', 'email'];
        for (const field of fields) nonEmpty(payload, field, item[field]);
        if (kind === 'venue') {
          for (const flag of ['show_map', 'show_map_link'])
            if (typeof item[flag] === 'boolean') payload[flag] = item[flag];
          if (typeof item['geo_lat'] === 'number' && typeof item['geo_lng'] === 'number')
            Object.assign(payload, { geo_lat: item['geo_lat'], geo_lng: item['geo_lng'] });
        }
        const image = imageUrl(item['image']);
        if (image) payload['image'] = image;
        return { ...base, payload };
      }
      case 'event': {
        payload['title'] = str(item['title']);
        if (payload['title'] === '') return { kind, sourceId, lang, reason: 'no title' };
        for (const field of ['slug', 'description', 'excerpt', 'status', 'start_date', 'end_date', 'timezone'])
          nonEmpty(payload, field, item[field]);
        for (const flag of ['all_day', 'featured', 'sticky', 'hide_from_listings', 'show_map', 'show_map_link'])
          if (typeof item[flag] === 'boolean') payload[flag] = item[flag];
        nonEmpty(payload, 'cost', item['cost']);
        const website = str(item['website']);
        // This service answers an event's own page as its website when none was set.
        if (website !== '' && website !== str(item['url'])) payload['website'] = website;
        const image = imageUrl(item['image']);
        if (image) payload['image'] = image;
        nonEmpty(payload, 'date_utc', item['date_utc']);
        const venue = idOf(item['venue']);
        return {
          ...base,
          payload,
          links: {
            ...(venue !== null ? { venue } : {}),
            organizers: ids(item['organizer']),
            categories: ids(item['categories']),
            tags: ids(item['tags']),
          },
        };
      }
    }
  }
}
