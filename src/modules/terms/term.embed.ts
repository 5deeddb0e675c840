import type { Db, TermRow } from '../../db/database.js';
import { atTransactionEnd } from '../../db/transaction.js';
import type { RequestContext } from '../../http/context.js';
import { slugify } from '../../lib/slug.js';
import { toEmbeddedTerm, type TermTranslations } from './term.mapper.js';
import type { EmbeddedTerm } from './term.schema.js';
import type { Taxonomy } from './term.taxonomy.js';
import { insertTerm } from './term.service.js';
import { lockNames } from './term.repository.js';
import { addToCounts, findNamed, findTermIds, type EmbeddedTermRow } from './term-event.repository.js';

export {
  EMBEDDED_TERM_COLUMNS,
  embeddedTermsQuery,
  recountTerms,
  type EmbeddedTermRow,
} from './term-event.repository.js';

/**
 * What the events module needs from terms: the terms embedded in events, the `categories`/`tags`
 * inputs of event writes, and the published-event counts.
 */

export interface EventTerms {
  categories: EmbeddedTerm[];
  tags: EmbeddedTerm[];
}

/**
 * The categories and tags of each event, each shown as its translation in the request's language
 * when there is one (SPEC "Languages"), ordered by name, with its group's translations, from the
 * rows of embeddedTermsQuery (read with the events' other embedded records): each shown term
 * comes once per member of its group.
 */
export function embeddedTermsOf(
  rows: EmbeddedTermRow[],
  eventIds: number[],
  ctx: Pick<RequestContext, 'lang' | 'base'>,
): Map<number, EventTerms> {
  const result = new Map<number, EventTerms>(eventIds.map((id) => [id, { categories: [], tags: [] }]));
  const ordered = rows.toSorted((a, b) => a.n - b.n);
  const translations: TermTranslations = new Map();
  for (const row of ordered) {
    const group = translations.get(row.trid) ?? {};
    group[row.member_lang] ??= row.member_id;
    translations.set(row.trid, group);
  }
  const seen = new Set<string>();
  for (const { event_id: eventId, member_id: _id, member_lang: _lang, n: _n, ...term } of ordered) {
    // Each term once, even when two linked terms of one group (or a group with two terms in a language) show as it.
    const key = `${eventId}:${term.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const entry = result.get(eventId)!;
    (term.taxonomy === 'cal_events_cat' ? entry.categories : entry.tags).push(
      toEmbeddedTerm(term as TermRow, translations, ctx),
    );
  }
  return result;
}

/** Terms named by an event write: existing ids, and names to create. */
export interface TermInputs {
  ids: number[];
  names: string[];
}

/** Splits the accepted forms into items; null for a form that is not accepted. */
function termItems(items: unknown): (number | string)[] | null {
  if (items === null || items === undefined || items === '') return [];
  const list = typeof items === 'string' ? items.split(',') : Array.isArray(items) ? items : null;
  if (list === null) return null;
  const out: (number | string)[] = [];
  for (const item of list) {
    if (typeof item === 'number') out.push(item);
    else if (typeof item === 'string') {
      if (item.trim() !== '') out.push(/^\s*\d+\s*$/.test(item) ? Number(item) : item.trim());
    } else if (item && typeof item === 'object' && typeof (item as { id?: unknown }).id === 'number') {
      // A term object as the event answered it (round trip of `categories`): its id.
      out.push((item as { id: number }).id);
    } else return null;
  }
  return out;
}

/**
 * Reads an event's `categories`/`tags` input (original 4.1, Tribe__Terms::translate_terms_to_ids):
 * an array or a comma-separated string; null, '' or [] means none. Numbers are ids (unknown ids,
 * and terms of the other taxonomy, are skipped silently as in the original); other strings are
 * matched by slug, then by name (any case) in the taxonomy and language; unmatched ones are
 * returned in `names` for creation. Duplicates are removed. null when the form is not accepted.
 */
export async function resolveTermInputs(
  db: Db,
  taxonomy: Taxonomy,
  items: unknown,
  lang: string,
): Promise<TermInputs | null> {
  return (await resolveTermInputsOf(db, { [taxonomy]: items }, lang))[taxonomy] ?? null;
}

/**
 * {@link resolveTermInputs} of each taxonomy given, from one read of the ids named and one of the
 * names (an event's categories and tags together: each statement is a round trip on PostgreSQL,
 * and a create already makes a dozen).
 */
export async function resolveTermInputsOf(
  db: Db,
  inputs: Partial<Record<Taxonomy, unknown>>,
  lang: string,
): Promise<Partial<Record<Taxonomy, TermInputs | null>>> {
  const result: Partial<Record<Taxonomy, TermInputs | null>> = {};
  const given: { taxonomy: Taxonomy; numbers: number[]; strings: string[] }[] = [];
  for (const taxonomy of Object.keys(inputs) as Taxonomy[]) {
    const list = termItems(inputs[taxonomy]);
    if (list === null) result[taxonomy] = null;
    else
      given.push({
        taxonomy,
        numbers: list.filter((i): i is number => typeof i === 'number' && Number.isSafeInteger(i) && i > 0),
        strings: list.filter((i): i is string => typeof i === 'string'),
      });
  }
  const taxonomies = given.map((g) => g.taxonomy);
  const ids = [...new Set(given.flatMap((g) => g.numbers))];
  const [known, named] = await Promise.all([
    ids.length === 0 ? [] : findTermIds(db, taxonomies, ids),
    matchNames(
      db,
      taxonomies,
      given.flatMap((g) => g.strings),
      lang,
    ),
  ]);
  for (const { taxonomy, numbers, strings } of given) {
    const found = new Set(known.filter((row) => row.taxonomy === taxonomy).map((row) => row.id));
    const resolved = numbers.filter((n) => found.has(n));
    const names: string[] = [];
    for (const text of strings) {
      const id = named.get(taxonomy)?.get(text);
      if (id !== undefined) resolved.push(id);
      else if (!names.some((n) => n.toLowerCase() === text.toLowerCase())) names.push(text);
    }
    result[taxonomy] = { ids: [...new Set(resolved)], names };
  }
  return result;
}

/**
 * Each text's term in each of the taxonomies: by slug first, then by name (any case); lowest id on
 * ties. One query.
 */
async function matchNames(
  db: Db,
  taxonomies: Taxonomy[],
  texts: string[],
  lang: string,
): Promise<Map<Taxonomy, Map<string, number>>> {
  const found = new Map<Taxonomy, Map<string, number>>(taxonomies.map((t) => [t, new Map()]));
  if (texts.length === 0) return found;
  const slugs = [...new Set(texts.map(slugify).filter((s) => s !== ''))];
  const lowered = [...new Set(texts.map((t) => t.toLowerCase()))];
  const rows = await findNamed(db, { taxonomies, lang, slugs, lowered });
  for (const [taxonomy, matches] of found) {
    const own = rows.filter((r) => r.taxonomy === taxonomy);
    for (const text of texts) {
      const slug = slugify(text);
      const bySlug = slug === '' ? undefined : own.find((r) => r.slug === slug);
      const match = bySlug ?? own.find((r) => r.name.toLowerCase() === text.toLowerCase());
      if (match) matches.set(text, match.id);
    }
  }
  return found;
}

/**
 * Inside the event's write transaction: creates the `names` (a name created meanwhile by another
 * request is reused) and returns the ids of all the terms, existing ones first.
 */
export async function applyTermInputs(
  trx: Db,
  taxonomy: Taxonomy,
  resolved: TermInputs,
  lang: string,
): Promise<number[]> {
  const ids = [...resolved.ids];
  if (resolved.names.length > 0) await lockNames(trx, taxonomy, lang);
  const existing = (await matchNames(trx, [taxonomy], resolved.names, lang)).get(taxonomy)!;
  // Two names of one request with the same slug ("Rock & Roll", "rock roll") are one term, as when
  // the original creates the first and then finds the second by slug.
  const created = new Map<string, number>();
  for (const name of resolved.names) {
    const slug = slugify(name);
    let id = existing.get(name) ?? (slug !== '' ? created.get(slug) : undefined);
    if (id === undefined) {
      id = await insertTerm(trx, { taxonomy }, { name, parent: 0, description: '', slug, trid: null }, lang);
      if (slug !== '') created.set(slug, id);
    }
    ids.push(id);
  }
  return [...new Set(ids)];
}

/** The count changes of one write transaction, by term id, applied at its end (applyCounts). */
const PENDING_COUNTS = Symbol('term counts');

/**
 * Applies a transaction's count changes in ascending term id (addToCounts): a category's count row
 * is a hot row on PostgreSQL (most writes of a busy calendar touch the same few), so it is locked
 * last, held only to the commit, and in the same order by every writer, so that no two writers
 * wait on each other in a cycle. (A series' occurrences used to lock their day counts after its
 * terms, a plain event the other way round; and one statement for several terms locks them in the
 * order it finds their rows, which updates keep moving.)
 */
async function applyCounts(trx: Db, pending: Map<number, number>): Promise<void> {
  const changes = [...pending].filter(([, by]) => by !== 0).sort(([a], [b]) => a - b);
  await addToCounts(trx, changes);
}

/**
 * Moves counts by what one event write changed: a term counts the event when it is linked and the
 * event is published. Exact because it runs in the write's transaction with the before and after
 * of that one event; cheaper than recounting a large category on every write. `events`: how many
 * events made that same change (the occurrences of a series move together). The changes are
 * summed and applied at the transaction's end (applyCounts); at once outside inTransaction.
 */
export async function shiftTermCounts(
  trx: Db,
  before: { termIds: number[]; published: boolean },
  after: { termIds: number[]; published: boolean },
  events = 1,
): Promise<void> {
  if (events === 0) return;
  const counted = (side: { termIds: number[]; published: boolean }) => new Set(side.published ? side.termIds : []);
  const was = counted(before);
  const is = counted(after);
  const changes = new Map<number, number>();
  for (const id of is) if (!was.has(id)) changes.set(id, events);
  for (const id of was) if (!is.has(id)) changes.set(id, -events);
  if (changes.size === 0) return;
  const pending = atTransactionEnd(trx, PENDING_COUNTS, () => ({
    state: new Map<number, number>(),
    flush: applyCounts,
  }));
  if (pending === null) return applyCounts(trx, changes);
  for (const [id, by] of changes) pending.set(id, (pending.get(id) ?? 0) + by);
}
