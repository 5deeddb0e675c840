import type { PostColumns } from '../../db/database.js';
import type { RequestContext } from '../../http/context.js';
import { autop } from '../../lib/html.js';
import type { ImageObject } from '../images/image.service.js';

/** Everything a mapper needs besides the row, loaded once per page. */
export interface Related {
  images: Map<number, ImageObject>;
  translations: Map<number, Record<string, number>>;
}

export function globalId(ctx: RequestContext, id: number): { global_id: string; global_id_lineage: string[] } {
  const value = `${ctx.globalHost}?id=${id}`;
  return { global_id: value, global_id_lineage: [value] };
}

/** The original renders content through wpautop; we store what was sent and render on the way out. */
export function renderHtml(text: string): string {
  return text === '' ? '' : autop(text);
}

/** The head every post-like object starts with, in the original's key order. */
export function postHead(row: PostColumns, ctx: RequestContext, path: string) {
  return {
    id: row.id,
    author: String(row.author),
    status: row.status,
    date: row.date,
    date_utc: row.date_utc,
    modified: row.modified,
    modified_utc: row.modified_utc,
    url: ctx.pageUrl(row.lang, `${path}/${row.slug}`),
  };
}

export function languageFields(row: { lang: string; trid: number; id: number }, related: Related) {
  return { i18n_language: row.lang, translations: related.translations.get(row.trid) ?? { [row.lang]: row.id } };
}

/*
 * Response objects are built as literals that start with a property, or with Object.assign. V8
 * (Node 20) builds a literal that starts with a spread, such as {...a, b: 1}, property by property
 * through its runtime: about a microsecond each, tens per object, thousands per list page.
 */

/** The original drops every falsy key of venue and organizer objects (PHP array_filter). */
export function dropFalsy<T extends Record<string, unknown>>(object: T): Partial<T> {
  const kept: Record<string, unknown> = {};
  for (const key in object) {
    const v = object[key];
    if (v !== '' && v !== false && v !== null && v !== undefined && v !== '0' && v !== 0) kept[key] = v;
  }
  return kept as Partial<T>;
}

/** Keys blanked in password-protected content (the original's PASSWORD_PROTECTED_FIELDS). */
const BLANK: Record<string, unknown> = {
  description: '',
  excerpt: '',
  cost: '',
  website: '',
  email: '',
  phone: '',
  stateprovince: '',
  zip: '',
  province: '',
  country: '',
  city: '',
  address: '',
  image: false,
  all_day: null,
  show_map: null,
  show_map_link: null,
  hide_from_listings: null,
  sticky: null,
  featured: null,
  categories: [],
  tags: [],
  venue: [],
  organizer: [],
  custom_fields: [],
  cost_details: { currency_symbol: '', currency_position: '', currency_code: '', values: [] },
  geo_lat: 0,
  geo_lng: 0,
};

/** Blanks protected fields wherever they occur, as the original does (its quirks included). */
export function blankProtected<T extends Record<string, unknown>>(object: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) {
    if (key in BLANK) out[key] = structuredClone(BLANK[key]);
    else if (
      value &&
      typeof value === 'object' &&
      !Array.isArray(value) &&
      key !== 'translations' &&
      key !== 'start_date_details'
    )
      out[key] = blankProtected(value as Record<string, unknown>);
    else out[key] = value;
  }
  return out as T;
}
