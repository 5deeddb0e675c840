import type { Db, VenueRow } from '../../db/database.js';
import type { RequestContext } from '../../http/context.js';
import { parseTruthy } from '../../http/params.js';
import type { Problems } from '../../http/problems.js';
import { zoneOrUtc } from '../../lib/dates.js';
import { loadImages } from '../images/image.service.js';
import {
  checkCommonFields,
  newPostColumns,
  updatedPostColumns,
  loadTranslations,
  visibleTo,
  type CommonChanges,
  type Existing,
} from '../posts/post.service.js';
import { POST_STATUSES, type Actor } from '../../auth/roles.js';
import { dropFalsy, globalId, languageFields, postHead, renderHtml, type Related } from '../posts/post.mapper.js';
import type { LinkedKind, LinkedRow } from './linked.kind.js';
import * as linked from './linked.repository.js';
import { isHttpUrl } from '../../lib/url.js';

export interface LinkedChanges {
  common: CommonChanges;
  name?: string;
  fields: Record<string, string>;
  flags: Record<string, number>;
  geo: { geo_lat?: number | null; geo_lng?: number | null };
  /** Fields filled in rather than sent (stateprovince): stored, but not compared for duplicates. */
  derived?: string[];
}

const MAX_TEXT = 10_000;
/** Every status but trash: a trashed record is never reused as a duplicate. */
export const LIVE_STATUSES = POST_STATUSES.filter((s) => s !== 'trash');

/**
 * Checks a venue or organizer payload (from its own route or inline in an event). Problems are
 * named `<prefix><field>` so an inline venue's bad website reads `venue.website`.
 */
export async function checkLinkedInput(
  db: Db,
  kind: LinkedKind,
  input: Record<string, unknown>,
  ctx: RequestContext,
  existing: Existing | null,
  problems: Problems,
  prefix = '',
): Promise<LinkedChanges> {
  const zone = zoneOrUtc(ctx.settings.timezone);
  const common = await checkCommonFields(db, kind.table, input, ctx, existing, zone, problems);
  const changes: LinkedChanges = { common, fields: {}, flags: {}, geo: {} };

  const name = input[kind.nameField];
  if (name !== undefined) {
    if (typeof name !== 'string' || name.trim() === '' || name.length > MAX_TEXT)
      problems.add(`${prefix}${kind.nameField}`, `${kind.nameField} must be a non-empty string.`);
    else changes.name = name.trim();
  }

  for (const field of kind.textFields) {
    const value = input[field];
    if (value === undefined) continue;
    if (value !== null && typeof value !== 'string' && typeof value !== 'number') {
      problems.add(`${prefix}${field}`, `${field} is not of type string.`);
      continue;
    }
    const text = value === null ? '' : String(value).trim();
    if (text.length > MAX_TEXT) problems.add(`${prefix}${field}`, `${field} is too long.`);
    else if (kind.urlFields.includes(field) && text !== '' && !isHttpUrl(text))
      problems.add(`${prefix}${field}`, `${field} is not a valid URL.`);
    else changes.fields[field] = text;
  }

  if (kind.table === 'venues') {
    for (const flag of ['show_map', 'show_map_link']) {
      if (input[flag] === undefined) continue;
      const parsed = input[flag] === null ? false : parseTruthy(input[flag]);
      if (parsed === null) problems.add(`${prefix}${flag}`, `${flag} is not a boolean.`);
      else changes.flags[flag] = parsed ? 1 : 0;
    }
    if (deriveStateProvince(changes.fields, (existing as Partial<VenueRow> | null)?.country))
      changes.derived = ['stateprovince'];
    // Coordinates belong to the premium geolocation extension; while it is off they are ignored (SPEC item 14).
    if (ctx.settings.geoloc) checkCoordinates(input, changes, problems, prefix);
  }
  return changes;
}

/**
 * `stateprovince` follows `state` for US (or unknown) countries, else `province`, unless sent. On an
 * update the country not sent is the stored one (`existingCountry`).
 */
function deriveStateProvince(fields: Record<string, string>, existingCountry: string | undefined): boolean {
  if (fields['stateprovince'] !== undefined || (fields['state'] === undefined && fields['province'] === undefined))
    return false;
  const country = (fields['country'] ?? existingCountry ?? '').toLowerCase();
  const us = country === '' || country === 'us' || country === 'usa' || country === 'united states';
  fields['stateprovince'] = (us && fields['state'] ? fields['state'] : fields['province'] || fields['state']) ?? '';
  return true;
}

function checkCoordinates(
  input: Record<string, unknown>,
  changes: LinkedChanges,
  problems: Problems,
  prefix: string,
): void {
  for (const [field, limit] of [
    ['geo_lat', 90],
    ['geo_lng', 180],
  ] as const) {
    const value = input[field];
    if (value === undefined) continue;
    if (value === null || value === '') {
      changes.geo[field] = null;
      continue;
    }
    const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
    if (!Number.isFinite(n) || Math.abs(n) > limit)
      problems.add(`${prefix}${field}`, `${field} must be a number between -${limit} and ${limit}.`);
    else changes.geo[field] = n;
  }
}

/**
 * Creates the record, or returns the existing one when every non-empty field sent matches it
 * case-insensitively (the original's duplicate avoidance; status is not compared).
 */
export async function insertLinked(
  trx: Db,
  kind: LinkedKind,
  changes: LinkedChanges,
  ctx: RequestContext,
): Promise<{ id: number; created: boolean }> {
  const duplicate = await findDuplicate(trx, kind, changes, ctx);
  if (duplicate !== undefined) return { id: duplicate, created: false };
  const name = changes.name ?? '';
  const columns = await newPostColumns(trx, kind.table, changes.common, ctx, name);
  const values: Record<string, unknown> = Object.assign({}, columns, changes.fields, changes.flags, changes.geo);
  await linked.insert(trx, kind, values);
  return { id: columns.id, created: true };
}

/**
 * Only records the caller may read count: answering with someone else's draft would disclose it
 * (SPEC item 6).
 */
async function findDuplicate(
  db: Db,
  kind: LinkedKind,
  changes: LinkedChanges,
  ctx: RequestContext,
): Promise<number | undefined> {
  const compared: [string, string][] = [];
  if (changes.name) compared.push(['title', changes.name]);
  for (const field of ['description', 'excerpt'] as const)
    if (changes.common[field]) compared.push([field, changes.common[field]!]);
  for (const field of kind.dedupeFields) {
    if (changes.fields[field] && !changes.derived?.includes(field)) compared.push([field, changes.fields[field]!]);
  }
  if (compared.length === 0) return undefined;
  return linked.findDuplicate(db, kind, ctx.lang, visibleTo(ctx.actor, LIVE_STATUSES, kind.table), compared);
}

export async function updateLinked(
  trx: Db,
  kind: LinkedKind,
  existing: LinkedRow,
  changes: LinkedChanges,
  ctx: RequestContext,
): Promise<void> {
  const columns = await updatedPostColumns(trx, kind.table, changes.common, ctx, existing, changes.name);
  await linked.update(trx, kind, existing.id, Object.assign({}, columns, changes.fields, changes.flags, changes.geo));
}

/** A record by its slug in one language (the public pages' venue and organizer addresses). */
export function findLinkedBySlug(db: Db, kind: LinkedKind, slug: string, lang: string): Promise<LinkedRow | undefined> {
  return linked.findBySlug(db, kind, slug, lang);
}

export function findLinked(db: Db, kind: LinkedKind, id: number): Promise<LinkedRow | undefined> {
  return linked.findById(db, kind, id);
}

/**
 * Rows by id, with their images and translations (those `reader` may read): a fixed number of
 * queries for any number of records.
 */
export async function loadRelated(db: Db, kind: LinkedKind, rows: LinkedRow[], reader: Actor | null): Promise<Related> {
  const [images, translations] = await Promise.all([
    loadImages(
      db,
      rows.map((r) => r.image_id),
    ),
    loadTranslations(
      db,
      kind.table,
      rows.map((r) => r.trid),
      reader,
    ),
  ]);
  return { images, translations };
}

/** The venue or organizer object, in the original's key order; `single` adds json_ld. */
export function toLinkedObject(
  kind: LinkedKind,
  row: LinkedRow,
  related: Related,
  ctx: RequestContext,
  single: boolean,
): Record<string, unknown> {
  const head = dropFalsy(
    Object.assign(
      postHead(row, ctx, kind.pagePath),
      {
        author: row.author === 0 ? '' : String(row.author),
        [kind.nameField]: row.title,
        description: renderHtml(row.description),
        excerpt: renderHtml(row.excerpt),
        slug: row.slug,
        image: row.image_id !== null ? (related.images.get(row.image_id) ?? false) : false,
      },
      kind.bodyFields(row, ctx),
      single ? { json_ld: kind.jsonLd(row, ctx) } : {},
    ),
  );
  return Object.assign(head, kind.tailFields(row), globalId(ctx, row.id), languageFields(row, related));
}
