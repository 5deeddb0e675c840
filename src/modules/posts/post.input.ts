import type { Db, PostColumns } from '../../db/database.js';
import { conflict, forbidden } from '../../http/errors.js';
import type { RequestContext } from '../../http/context.js';
import type { Problems } from '../../http/problems.js';
import { nowUtc } from '../../lib/clock.js';
import { localToUtc, parseDateInput, utcToLocal, zoneOrUtc, type Zone } from '../../lib/dates.js';
import { sanitizeRichText } from '../../lib/html.js';
import { slugCandidate, slugify, slugStem } from '../../lib/slug.js';
import { applyImageInput, parseImageInput, type ImageInput } from '../images/image.service.js';
import { can, canEdit, canRead, POST_STATUSES, scaleBackStatus, type Actor } from '../../auth/roles.js';
import * as users from '../users/user.service.js';
import { asId } from '../../http/params.js';
import { allocatePostId } from '../../db/post-ids.js';
import {
  findGroupMember,
  findLiveInLanguage,
  groupSize,
  firstFreeSuffix,
  isSlugTaken,
  newIdAndSlugTaken,
  languageTaken,
  renameGroupAfterHeir,
  type PostTableName,
} from './post.repository.js';

/**
 * What events, venues and organizers have in common: author, status, publication dates, slug,
 * texts, image and translation group. Checked before the write transaction, turned into columns
 * inside it.
 */

const KIND: Record<PostTableName, 'event' | 'venue' | 'organizer'> = {
  events: 'event',
  venues: 'venue',
  organizers: 'organizer',
};

export interface CommonInput {
  author?: unknown;
  date?: unknown;
  date_utc?: unknown;
  status?: unknown;
  slug?: unknown;
  description?: unknown;
  excerpt?: unknown;
  image?: unknown;
  translation_of?: unknown;
}

export interface CommonChanges {
  author?: number;
  status?: string;
  date?: string;
  date_utc?: string;
  slug?: string;
  description?: string;
  excerpt?: string;
  image?: ImageInput;
  /** The translation group to join. */
  trid?: number;
  /** `translation_of: null` on an update: leave the current group. */
  leaveGroup?: boolean;
}

export interface Existing {
  id: number;
  lang: string;
  trid: number;
  author: number;
  status: string;
  slug: string;
}

/**
 * Text fields, whoever writes them: one sanitizer for every role. SPEC item 9 kept editors' HTML as
 * sent (WordPress's `unfiltered_html`); a script in an editor's event then ran in an administrator's
 * browser, one step of a takeover (issue 25), so editors keep rich formatting but never script.
 */
export function cleanHtml(html: string): string {
  return sanitizeRichText(html);
}

/** Checks the common fields, adding each problem to `problems`. `zone` reads the local `date`. */
export async function checkCommonFields(
  db: Db,
  table: PostTableName,
  input: CommonInput,
  ctx: RequestContext,
  existing: Existing | null,
  zone: Zone,
  problems: Problems,
): Promise<CommonChanges> {
  const changes: CommonChanges = {};
  const actor = ctx.actor;

  if (input.author !== undefined) {
    const author = asId(input.author);
    if (author === null || !(await users.findUser(db, author)))
      problems.add('author', 'author is not the id of an existing user.');
    else changes.author = author;
  }

  if (input.status !== undefined) {
    if (typeof input.status !== 'string' || !(POST_STATUSES as readonly string[]).includes(input.status)) {
      problems.add('status', `status is not one of ${POST_STATUSES.join(', ')}.`);
    } else {
      changes.status = scaleBackStatus(actor, input.status);
    }
  } else if (!existing) {
    changes.status = scaleBackStatus(actor, undefined);
  }

  const utcZone = zoneOrUtc('UTC');
  if (input.date !== undefined) {
    const local = parseDateInput(input.date, zone);
    if (local === null) problems.add('date', 'date is not a valid date.');
    else {
      changes.date = local;
      changes.date_utc = localToUtc(local, zone);
    }
  }
  if (input.date_utc !== undefined) {
    const utc = parseDateInput(input.date_utc, utcZone);
    if (utc === null) problems.add('date_utc', 'date_utc is not a valid date.');
    else {
      changes.date_utc = utc;
      if (input.date === undefined) changes.date = utcToLocal(utc, zone);
    }
  }

  if (input.slug !== undefined) {
    const slug = typeof input.slug === 'string' ? slugify(input.slug) : '';
    if (slug === '') problems.add('slug', 'slug must be a non-empty string.');
    else changes.slug = slug;
  }
  for (const field of ['description', 'excerpt'] as const) {
    const value = input[field];
    if (value === undefined) continue;
    if (typeof value !== 'string') problems.add(field, `${field} is not of type string.`);
    else changes[field] = cleanHtml(value);
  }

  if (input.image !== undefined) {
    try {
      changes.image = await parseImageInput(db, input.image);
    } catch {
      problems.add('image', 'image must be an image id or an http(s) URL.');
    }
  }

  if (input.translation_of === null) {
    changes.leaveGroup = existing !== null;
  } else if (input.translation_of !== undefined) {
    changes.trid = await checkTranslationOf(db, table, input.translation_of, ctx, existing, problems);
  }
  return changes;
}

/**
 * `translation_of`: same kind, another language, and a group without this language yet. Joining
 * a group is editing it: the caller must read the source as a single GET would (a record it may
 * not read is answered as one that does not exist, so the ids of others' drafts are not
 * confirmed) and be allowed to edit it (403), or it would take a language of others' records,
 * and a series' rule with it. A conflict names the record in the way only to a caller who may read it.
 */
async function checkTranslationOf(
  db: Db,
  table: PostTableName,
  value: unknown,
  ctx: RequestContext,
  existing: Existing | null,
  problems: Problems,
): Promise<number | undefined> {
  const id = asId(value);
  if (id === null) {
    problems.add('translation_of', 'translation_of is not an id.');
    return undefined;
  }
  const source = await findGroupMember(db, table, id);
  if (!source || !canRead(ctx.actor, source)) {
    problems.add('translation_of', `translation_of is not the id of a ${KIND[table]}.`);
    return undefined;
  }
  const recordLang = existing?.lang ?? ctx.lang;
  if (source.lang === recordLang) {
    problems.add('translation_of', 'translation_of is a record in the same language.');
    return undefined;
  }
  if (!canEdit(ctx.actor, source))
    throw forbidden('rest_cannot_edit', `Sorry, you are not allowed to add a translation to this ${KIND[table]}.`);
  if (existing && (await groupSize(db, table, existing.trid)) > 1) {
    throw conflict('translation-exists', 'This record already belongs to a translation group.');
  }
  const taken = await findLiveInLanguage(db, table, source.trid, recordLang);
  if (taken && taken.id !== existing?.id) {
    throw conflict(
      'translation-exists',
      `The translation group already has a record in ${recordLang}.`,
      canRead(ctx.actor, taken) ? { existing: taken.id } : {},
    );
  }
  return source.trid;
}

/**
 * Editors may give another author; others only themselves (SPEC item 13). A permission check: it
 * runs in the write, after validation and the route's access check.
 */
export function assertMayAssignAuthor(actor: Actor | null, author: number | undefined): void {
  if (author === undefined || (actor !== null && (author === actor.id || can(actor, 'edit_others_posts')))) return;
  throw forbidden('rest_cannot_assign_author', 'Sorry, you are not allowed to create records as this user.');
}

/**
 * A free slug of `base` among the language's records not in the trash (SPEC item 22): `base`, else
 * the first free `base-N`. Copies take their suffixes in turn (-2, -3, …), so the suffixes in use
 * run without gaps: the look-up doubles N until one is free, then halves back to the first free one
 * after a taken one, 2·log2(n) look-ups by exact value (the (lang, slug) index) for the n-th copy
 * instead of n (a feed with 5,000 "Standup" events), all in one statement (firstFreeSuffix) after
 * the look-up of `base` itself. Where a copy was trashed below the highest one, the answer may be
 * a later free suffix than that gap: still unique.
 */
export async function uniqueSlug(
  db: Db,
  table: PostTableName,
  lang: string,
  base: string,
  excludeId: number | null,
  looked?: { taken: boolean },
): Promise<string> {
  // Most slugs are free at the first look, which a plain look-up answers fastest (on SQLite the
  // search's statement takes some 0.3 ms where a look-up takes 0.05); `looked` when it was made.
  const args = { lang, excludeId: excludeId ?? 0 };
  if (!(looked?.taken ?? (await isSlugTaken(db, table, { ...args, slug: base })))) return base;
  // A suffix has at most 10 digits (firstFreeSuffix counts to 2^30).
  const stems = Array.from({ length: 10 }, (_, i) => slugStem(base, i + 1));
  return slugCandidate(base, await firstFreeSuffix(db, table, { ...args, base, stems }));
}

/** Columns for a new record from its checked common fields; allocates the shared post id. */
export async function newPostColumns(
  trx: Db,
  table: PostTableName,
  changes: CommonChanges,
  ctx: RequestContext,
  title: string,
): Promise<PostColumns> {
  // The id and the first look-up of the slug in one statement, unless the slug is made of the id
  // (a title with nothing to make one of).
  const base = changes.slug ?? (slugify(title) || null);
  let id: number;
  let slug: string;
  if (base === null) {
    id = await allocatePostId(trx, KIND[table]);
    slug = await uniqueSlug(trx, table, ctx.lang, String(id), null);
  } else {
    const drawn = await newIdAndSlugTaken(trx, table, { type: KIND[table], lang: ctx.lang, slug: base });
    id = drawn.id;
    slug = await uniqueSlug(trx, table, ctx.lang, base, null, drawn);
  }
  const now = nowUtc();
  const zone = zoneOrUtc(ctx.settings.timezone);
  const status = changes.status ?? 'publish';
  return {
    id,
    lang: ctx.lang,
    trid: changes.trid ?? id,
    author: changes.author ?? ctx.actor?.id ?? 0,
    status,
    password: '',
    slug,
    title,
    description: changes.description ?? '',
    excerpt: changes.excerpt ?? '',
    date: changes.date ?? utcToLocal(now, zone),
    date_utc: changes.date_utc ?? now,
    modified: utcToLocal(now, zone),
    modified_utc: now,
    image_id: changes.image ? await applyImageInput(trx, changes.image) : null,
  };
}

/** The common columns an update changes; untouched fields are left out (SPEC item 1). */
export async function updatedPostColumns(
  trx: Db,
  table: PostTableName,
  changes: CommonChanges,
  ctx: RequestContext,
  existing: Existing,
  title: string | undefined,
): Promise<Partial<PostColumns>> {
  const now = nowUtc();
  const zone = zoneOrUtc(ctx.settings.timezone);
  const columns: Partial<PostColumns> = { modified: utcToLocal(now, zone), modified_utc: now };
  if (changes.author !== undefined) columns.author = changes.author;
  if (changes.status !== undefined) columns.status = changes.status;
  if (changes.date !== undefined) columns.date = changes.date;
  if (changes.date_utc !== undefined) columns.date_utc = changes.date_utc;
  if (changes.description !== undefined) columns.description = changes.description;
  if (changes.excerpt !== undefined) columns.excerpt = changes.excerpt;
  if (title !== undefined) columns.title = title;
  if (changes.image !== undefined) columns.image_id = await applyImageInput(trx, changes.image);
  if (changes.trid !== undefined) columns.trid = changes.trid;
  if (changes.leaveGroup) await leaveGroup(trx, table, existing, columns);
  const leavingTrash = existing.status === 'trash' && changes.status !== undefined && changes.status !== 'trash';
  // A record back from the trash whose language was taken in its group meanwhile (a new
  // translation replaced it) leaves the group: a group holds one live record per language.
  if (
    leavingTrash &&
    changes.trid === undefined &&
    !changes.leaveGroup &&
    (await languageTaken(trx, table, existing))
  ) {
    await leaveGroup(trx, table, existing, columns);
  }
  if (changes.slug !== undefined || leavingTrash) {
    columns.slug = await uniqueSlug(trx, table, existing.lang, changes.slug ?? existing.slug, existing.id);
  }
  return columns;
}

/** Takes a record out of its translation group; the group keeps its other members linked. */
async function leaveGroup(
  trx: Db,
  table: PostTableName,
  existing: Existing,
  columns: Partial<PostColumns>,
): Promise<void> {
  if (existing.trid !== existing.id) {
    columns.trid = existing.id;
    return;
  }
  // The group is named after this record: hand the name to the oldest remaining member.
  await renameGroupAfterHeir(trx, table, existing.id);
}
