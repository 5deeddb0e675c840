import { randomUUID } from 'node:crypto';
import type { Db, TermRow } from '../../db/database.js';
import { bumpDataVersion } from '../../db/data-version.js';
import type { RequestContext } from '../../http/context.js';
import { ApiError, conflict, invalidParam, notFound } from '../../http/errors.js';
import { clampPerPage, totalPages } from '../../http/pagination.js';
import { asId, parseTruthy } from '../../http/params.js';
import { Problems } from '../../http/problems.js';
import { slugify } from '../../lib/slug.js';
import { cleanHtml, loadTranslations } from '../posts/post.service.js';
import { unlocked } from '../posts/post.password.js';
import { canRead } from '../../auth/roles.js';
import type { TermTranslations } from './term.mapper.js';
import * as terms from './term.repository.js';
import type { TermInput, TermListQuery, TermOrderby } from './term.schema.js';
import type { TaxonomyDef } from './term.taxonomy.js';
import { inTransaction } from '../../db/transaction.js';

/** The error catalog of the term routes (original section 7, SPEC item 15). */
export const termErrors = {
  notFound: (): ApiError => notFound('rest_term_invalid', 'Term does not exist.'),
  // WordPress words the two cases differently: siblings for hierarchical taxonomies, the whole taxonomy otherwise.
  exists: (def: TaxonomyDef, termId: number): ApiError =>
    new ApiError(
      400,
      'term_exists',
      def.hierarchical
        ? 'A term with the name provided already exists with this parent.'
        : 'A term with the name provided already exists in this taxonomy.',
      {
        term_id: termId,
      },
    ),
  notHierarchical: (): ApiError =>
    new ApiError(400, 'rest_taxonomy_not_hierarchical', 'Can not set resource parent, taxonomy is not hierarchical.'),
};

/** The taxonomy's term with this id, undefined when there is none. */
export function findTerm(db: Db, def: TaxonomyDef, id: number): Promise<TermRow | undefined> {
  return terms.findInTaxonomy(db, def.taxonomy, id);
}

export async function getTerm(db: Db, def: TaxonomyDef, id: number): Promise<TermRow> {
  const row = await terms.findInTaxonomy(db, def.taxonomy, id);
  if (!row) throw termErrors.notFound();
  return row;
}

export function translationsOf(db: Db, rows: TermRow[]): Promise<TermTranslations> {
  // Terms have no status: every reader may read every one.
  return loadTranslations(
    db,
    'terms',
    rows.map((r) => r.trid),
    null,
  );
}

/**
 * The checks the original makes as argument validation, i.e. before the permission check: the
 * term in the path exists, and `parent` names a category. Routes run this ahead of the access hook.
 */
export async function precheck(db: Db, def: TaxonomyDef, id: number | null, parent: unknown): Promise<void> {
  if (id !== null) await getTerm(db, def, id);
  const parentId = asId(parent);
  if (
    def.hierarchical &&
    parentId !== null &&
    parentId > 0 &&
    !(await terms.findInTaxonomy(db, def.taxonomy, parentId))
  ) {
    throw invalidParam('parent', `parent is not the id of a ${def.label}.`);
  }
}

/** A parent is a category (any language); on update it must not be the term or one of its descendants. */
async function checkParent(
  db: Db,
  def: TaxonomyDef,
  parent: number,
  self: number | null,
  problems: Problems,
): Promise<void> {
  if (parent === 0) return;
  if (!(await terms.findInTaxonomy(db, def.taxonomy, parent))) {
    problems.add('parent', `parent is not the id of a ${def.label}.`);
    return;
  }
  // Walk up from the new parent: meeting the term itself would make a loop.
  const seen = new Set<number>();
  for (
    let at: number | null = parent;
    self !== null && at !== null && at !== 0 && !seen.has(at);
    at = await terms.parentOf(db, at)
  ) {
    if (at === self) {
      problems.add('parent', `parent cannot be the ${def.label} itself or one of its descendants.`);
      return;
    }
    seen.add(at);
  }
}

interface CheckedFields {
  name?: string;
  description?: string;
  slug?: string;
  parent?: number;
  /** The group to join; null leaves the current one; undefined changes nothing. */
  trid?: number | null;
}

/** Field checks shared by create and update; `existing` is null on create. */
async function checkFields(
  db: Db,
  def: TaxonomyDef,
  input: TermInput,
  ctx: RequestContext,
  existing: TermRow | null,
): Promise<CheckedFields> {
  // WordPress refuses a parent on a flat taxonomy before looking at anything else.
  if (!def.hierarchical && input.parent !== undefined && input.parent !== null) throw termErrors.notHierarchical();
  const problems = new Problems();
  const checked: CheckedFields = {};
  if (input.name !== undefined) {
    const name = input.name.trim();
    if (name === '') problems.add('name', 'name must be a non-empty string.');
    else checked.name = name;
  }
  if (input.slug !== undefined) {
    const slug = slugify(input.slug);
    if (slug === '') problems.add('slug', 'slug must contain a letter or a digit.');
    else checked.slug = slug;
  }
  if (input.description !== undefined) checked.description = cleanHtml(input.description);
  if (def.hierarchical && typeof input.parent === 'number') {
    await checkParent(db, def, input.parent, existing?.id ?? null, problems);
    checked.parent = input.parent;
  }
  if (input.translation_of !== undefined)
    checked.trid = await checkTranslationOf(
      db,
      def,
      input.translation_of,
      existing?.lang ?? ctx.lang,
      existing,
      problems,
    );
  problems.throwIfAny();
  return checked;
}

/**
 * `translation_of` (SPEC "Languages"): a term of the same taxonomy in another language whose group
 * has no term in this language yet. A term already in a group cannot join another (409).
 */
async function checkTranslationOf(
  db: Db,
  def: TaxonomyDef,
  value: number | null,
  lang: string,
  existing: TermRow | null,
  problems: Problems,
): Promise<number | null | undefined> {
  if (value === null) return existing ? null : undefined;
  const source = await terms.findInTaxonomy(db, def.taxonomy, value);
  if (!source) {
    problems.add('translation_of', `translation_of is not the id of a ${def.label}.`);
    return undefined;
  }
  if (source.lang === lang) {
    problems.add('translation_of', 'translation_of is a term in the same language.');
    return undefined;
  }
  if (existing && (await terms.groupMembers(db, existing.trid, existing.id)).length > 0) {
    throw conflict('translation-exists', 'This record already belongs to a translation group.');
  }
  const taken = (await terms.groupMembers(db, source.trid, existing?.id ?? 0)).find((m) => m.lang === lang);
  if (taken)
    throw conflict('translation-exists', `The translation group already has a record in ${lang}.`, {
      existing: taken.id,
    });
  return source.trid;
}

/**
 * WordPress's term_exists rule: no two terms with the same name (any case) under one parent,
 * unless the new one is given an explicit slug that no term has yet.
 */
async function checkDuplicateName(
  db: Db,
  def: TaxonomyDef,
  lang: string,
  name: string,
  parent: number,
  explicitSlug: string | undefined,
): Promise<void> {
  const sibling = await terms.findSibling(db, def.taxonomy, lang, parent, name, null);
  if (sibling === undefined) return;
  if (
    explicitSlug !== undefined &&
    (await terms.uniqueSlug(db, def.taxonomy, lang, explicitSlug, null)) === explicitSlug
  )
    return;
  throw termErrors.exists(def, sibling);
}

/** POST /categories, /tags: checks, then one transaction. Returns the new term. */
export async function createTerm(
  db: Db,
  def: TaxonomyDef,
  input: TermInput & { name: string },
  ctx: RequestContext,
): Promise<TermRow> {
  const checked = await checkFields(db, def, input, ctx, null);
  const name = checked.name!;
  const parent = checked.parent ?? 0;
  const id = await inTransaction(db, async (trx) => {
    // In the transaction, after concurrent creators of the same name: they are seen.
    await terms.lockNames(trx, def.taxonomy, ctx.lang);
    await checkDuplicateName(trx, def, ctx.lang, name, parent, checked.slug);
    const newId = await insertTerm(
      trx,
      def,
      {
        name,
        parent,
        description: checked.description ?? '',
        slug: checked.slug ?? slugify(name),
        trid: checked.trid ?? null,
      },
      ctx.lang,
    );
    await bumpDataVersion(trx);
    return newId;
  });
  return getTerm(db, def, id);
}

/**
 * Inserts a term with a unique slug. A name without letters or digits gives no slug; WordPress
 * then uses the term id, which is only known after the insert.
 */
export async function insertTerm(
  trx: Db,
  def: Pick<TaxonomyDef, 'taxonomy'>,
  fields: { name: string; parent: number; description: string; slug: string; trid: number | null },
  lang: string,
): Promise<number> {
  const slug =
    fields.slug === '' ? `~${randomUUID()}` : await terms.uniqueSlug(trx, def.taxonomy, lang, fields.slug, null);
  const id = await terms.insert(trx, {
    taxonomy: def.taxonomy,
    lang,
    name: fields.name,
    slug,
    description: fields.description,
    parent: fields.parent,
    trid: fields.trid,
  });
  if (fields.slug === '')
    await terms.update(trx, id, { slug: await terms.uniqueSlug(trx, def.taxonomy, lang, String(id), id) });
  return id;
}

/** POST|PUT|PATCH /categories/:id: only the fields sent change (SPEC item 1). */
export async function updateTerm(
  db: Db,
  def: TaxonomyDef,
  id: number,
  input: TermInput,
  ctx: RequestContext,
): Promise<TermRow> {
  const existing = await getTerm(db, def, id);
  const checked = await checkFields(db, def, input, ctx, existing);
  await inTransaction(db, async (trx) => {
    const changes: Parameters<typeof terms.update>[2] = {};
    if (checked.name !== undefined) changes.name = checked.name;
    if (checked.description !== undefined) changes.description = checked.description;
    if (checked.parent !== undefined) changes.parent = checked.parent;
    // An explicitly sent slug that is taken is suffixed, as on create.
    if (checked.slug !== undefined)
      changes.slug = await terms.uniqueSlug(trx, def.taxonomy, existing.lang, checked.slug, existing.id);
    if (checked.trid === null) await leaveGroup(trx, existing);
    else if (checked.trid !== undefined) changes.trid = checked.trid;
    await terms.update(trx, existing.id, changes);
    await bumpDataVersion(trx);
  });
  return getTerm(db, def, id);
}

/**
 * Takes a term out of its translation group. The group is keyed by its first member's id, so when
 * that member leaves (or is deleted) the others are re-keyed to the next one; a deleted key could
 * otherwise come back as the id of a new term (SQLite reuses the highest rowid).
 */
async function leaveGroup(trx: Db, term: TermRow): Promise<void> {
  const others = await terms.groupMembers(trx, term.trid, term.id);
  if (others.length === 0) return;
  if (term.trid === term.id)
    await terms.setGroup(
      trx,
      others.map((o) => o.id),
      others[0]!.id,
    );
  else await terms.setGroup(trx, [term.id], term.id);
}

/** DELETE: for good (original section 5). Returns the term as it was, with its translations. */
export async function deleteTerm(
  db: Db,
  def: TaxonomyDef,
  id: number,
): Promise<{ row: TermRow; translations: TermTranslations }> {
  const row = await getTerm(db, def, id);
  const translations = await translationsOf(db, [row]);
  await inTransaction(db, async (trx) => {
    if (row.trid === row.id) await leaveGroup(trx, row);
    await terms.remove(trx, row);
    await bumpDataVersion(trx);
  });
  return { row, translations };
}

export interface TermPage {
  rows: TermRow[];
  total: number;
  totalPages: number;
  page: number;
}

/** Checks the list parameters (every problem at once), then reads one page and the total. */
export async function listTerms(
  db: Db,
  def: TaxonomyDef,
  query: TermListQuery,
  ctx: RequestContext,
): Promise<TermPage> {
  const lang = ctx.lang;
  const problems = new Problems();
  const direction = (query.order ?? 'asc').toLowerCase();
  if (direction !== 'asc' && direction !== 'desc') problems.add('order', 'order is not one of asc, desc.');
  const hideEmpty = query.hide_empty === undefined ? true : parseTruthy(query.hide_empty);
  if (hideEmpty === null) problems.add('hide_empty', 'hide_empty is not of type boolean.');
  for (const name of ['include', 'exclude'] as const) {
    const ids = query[name];
    if (ids && ids.length > 0 && (await terms.countExisting(db, def.taxonomy, ids)) !== new Set(ids).size)
      problems.add(name, `${name} must list ids of existing ${def.route}.`);
  }
  if (
    def.hierarchical &&
    query.parent !== undefined &&
    query.parent !== 0 &&
    !(await terms.findInTaxonomy(db, def.taxonomy, query.parent))
  ) {
    problems.add('parent', `parent is not the id of a ${def.label}.`);
  }
  // An event the reader may not read is answered as one that does not exist (its id is not
  // confirmed); a password-protected one it has not opened has no terms to show (they are blanked).
  let termsHidden = false;
  for (const name of ['post', 'event'] as const) {
    const id = query[name];
    const event = id === undefined ? undefined : await terms.eventAccess(db, id);
    if (id !== undefined && (!event || !canRead(ctx.actor, event)))
      problems.add(name, `${name} is not the id of an event.`);
    else if (event && (name === 'event' || query.event === undefined))
      termsHidden = !unlocked(event, ctx, { context: query.context });
  }
  problems.throwIfAny();
  const perPage = clampPerPage(query.per_page);
  const page = query.page ?? 1;
  if (termsHidden) return { rows: [], total: 0, totalPages: 0, page };

  // WordPress: `include` overrides `exclude`; `event` is an alias of `post` and wins.
  const include = query.include && query.include.length > 0 ? query.include : undefined;
  const filter: terms.TermFilter = {
    taxonomy: def.taxonomy,
    lang,
    hideEmpty: hideEmpty!,
    hierarchical: def.hierarchical,
    search: query.search,
    include,
    exclude: include ? undefined : query.exclude,
    parent: def.hierarchical ? query.parent : undefined,
    eventId: query.event ?? query.post,
    slug: query.slug,
  };
  const total = await terms.count(db, filter);
  const rows =
    (page - 1) * perPage < total
      ? await terms.page(
          db,
          filter,
          { orderby: (query.orderby ?? 'name') as TermOrderby, direction: direction as 'asc' | 'desc' },
          perPage,
          (page - 1) * perPage,
        )
      : [];
  return { rows, total, totalPages: totalPages(total, perPage), page };
}
