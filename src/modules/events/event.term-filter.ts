import type { Db } from '../../db/database.js';

type Taxonomy = 'cal_events_cat' | 'post_tag';

/**
 * The term ids an event list filter matches: each item by slug (request language first) or id,
 * then child categories (WordPress includes children), then every translation of those terms.
 * null when an item names no term of the taxonomy (the caller answers 400).
 */
export async function resolveTermFilter(
  db: Db,
  taxonomy: Taxonomy,
  items: (number | string)[],
  lang: string,
): Promise<number[] | null> {
  const keys = [...new Set(items.map((item) => String(item).trim()))];
  const numeric = keys.filter((key) => /^\d+$/.test(key)).map(Number);
  // Every candidate in one query: by slug in any language, or by id.
  const candidates = await db
    .selectFrom('terms')
    .select(['id', 'slug', 'lang'])
    .where('taxonomy', '=', taxonomy)
    .where((eb) => eb.or([eb('slug', 'in', keys), ...(numeric.length > 0 ? [eb('id', 'in', numeric)] : [])]))
    .execute();
  const ids = new Set<number>();
  for (const key of keys) {
    const bySlug = candidates
      .filter((c) => c.slug === key)
      .sort((a, b) => Number(b.lang === lang) - Number(a.lang === lang) || a.id - b.id)[0];
    const match = bySlug ?? candidates.find((c) => String(c.id) === key);
    if (!match) return null;
    ids.add(match.id);
  }
  if (taxonomy === 'cal_events_cat') await addDescendants(db, ids);
  const translated = await db
    .selectFrom('terms')
    .select('id')
    .where('trid', 'in', (eb) =>
      eb
        .selectFrom('terms')
        .select('trid')
        .where('id', 'in', [...ids]),
    )
    .execute();
  for (const row of translated) ids.add(row.id);
  return [...ids];
}

/** Adds children, grandchildren… level by level (category trees are shallow). */
async function addDescendants(db: Db, ids: Set<number>): Promise<void> {
  let frontier = [...ids];
  while (frontier.length > 0) {
    const children = await db.selectFrom('terms').select('id').where('parent', 'in', frontier).execute();
    frontier = children.map((c) => c.id).filter((id) => !ids.has(id));
    for (const id of frontier) ids.add(id);
  }
}
