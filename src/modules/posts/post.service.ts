import type { Db, PostColumns } from '../../db/database.js';
import { canRead, type Actor } from '../../auth/roles.js';
import { findPostGroups, findTermGroups, groupMemberIds, type PostTableName } from './post.repository.js';

/**
 * The posts module: what events, venues and organizers have in common, for the modules of those
 * records. Checking and turning the common fields into columns is post.input.ts, who sees which
 * statuses post.visibility.ts (as SQL: visibleTo in post.repository.ts), password-protected posts
 * post.password.ts; this file loads translation groups and is where other modules import from.
 * Posts import images (a post's image input), never the other way round.
 */

export {
  assertMayAssignAuthor,
  checkCommonFields,
  cleanHtml,
  newPostColumns,
  updatedPostColumns,
  type CommonChanges,
  type CommonInput,
  type Existing,
} from './post.input.js';
export { visibleTo, type PostTableName } from './post.repository.js';
export { checkStatusFilter, statusEcho } from './post.visibility.js';

/** Linked records as a response shows them, with their groups' translations. */
export interface ShownMembers<R extends PostColumns> {
  /** Each id asked for → the record to show: its translation in the request's language when there is one. */
  shown: Map<number, R>;
  /** `{lang: id}` of each group: the members the reader may read and those shown, without trashed ones. */
  translations: Map<number, Record<string, number>>;
}

/**
 * Of whole translation groups read already (`groups`: every member of the groups of `ids`, by id),
 * picks per id the member in `lang` that is not in the trash and that `reader` may read, else the
 * record itself. The lowest id wins wherever a group holds two candidates. Groups name no record
 * the reader may not read (a draft translation is neither shown nor named to the public), unless
 * it is shown itself (a linked record is).
 */
export function shownMembersOf<R extends PostColumns>(
  groups: R[],
  ids: number[],
  lang: string,
  reader: Actor | null,
): ShownMembers<R> {
  const wanted = [...new Set(ids)];
  const result: ShownMembers<R> = { shown: new Map(), translations: new Map() };
  const members = groups.filter((member) => member.status !== 'trash');
  const inLanguage = new Map<number, R>();
  for (const member of members) {
    if (member.lang === lang && !inLanguage.has(member.trid) && canRead(reader, member))
      inLanguage.set(member.trid, member);
  }
  const byId = new Map(members.map((member) => [member.id, member]));
  for (const id of wanted) {
    const row = byId.get(id);
    if (row) result.shown.set(id, inLanguage.get(row.trid) ?? row);
  }
  const shownIds = new Set([...result.shown.values()].map((row) => row.id));
  for (const member of members) {
    if (!canRead(reader, member) && !shownIds.has(member.id)) continue;
    const group = result.translations.get(member.trid) ?? {};
    group[member.lang] ??= member.id;
    result.translations.set(member.trid, group);
  }
  return result;
}

/** All ids of the given records' translation groups, for filters that match every translation. */
export async function withTranslations(db: Db, table: PostTableName, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  return [...new Set([...ids, ...(await groupMemberIds(db, table, ids))])];
}

/**
 * `{lang: id}` of each translation group, one query for a page, naming only the records `reader`
 * may read (a draft translation is not named to the public; every term is public).
 */
export async function loadTranslations(
  db: Db,
  table: PostTableName | 'terms',
  trids: number[],
  reader: Actor | null,
): Promise<Map<number, Record<string, number>>> {
  const wanted = [...new Set(trids)];
  if (wanted.length === 0) return new Map();
  return translationGroupsOf(
    table === 'terms'
      ? await findTermGroups(db, wanted)
      : (await findPostGroups(db, table, wanted)).filter((row) => canRead(reader, row)),
  );
}

/** `{lang: id}` of each translation group, of members read already (those named, by id). */
export function translationGroupsOf(
  members: { id: number; trid: number; lang: string }[],
): Map<number, Record<string, number>> {
  const groups = new Map<number, Record<string, number>>();
  for (const row of members) {
    const group = groups.get(row.trid) ?? {};
    group[row.lang] ??= row.id;
    groups.set(row.trid, group);
  }
  return groups;
}
