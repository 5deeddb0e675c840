import type { Db } from '../../db/database.js';

type Taxonomy = 'cal_events_cat' | 'post_tag';

/**
 * The term ids an event list filter matches: each item by slug (request language first) or id,
 * then child categories (WordPress includes children), then every translation of those terms.
 * null when an item names no term of the taxonomy (the caller answers 400).
 */
export async function resolveTermFilter(db: Db, taxonomy: Taxonomy, items: (number | string)[], lang: string): Promise<number[] | null> {
  const ids = new Set<number>();
  for (const item of items) {
    const key = String(item).trim();
    const bySlug = await db
      .selectFrom('terms')
      .select('id')
      .where('taxonomy', '=', taxonomy)
      .where('slug', '=', key)
      .orderBy((eb) => eb.case().when('lang', '=', lang).then(0).else(1).end())
      .limit(1)
      .executeTakeFirst();
    const byId = bySlug ?? (/^\d+$/.test(key) ? await db.selectFrom('terms').select('id').where('taxonomy', '=', taxonomy).where('id', '=', Number(key)).executeTakeFirst() : undefined);
    if (!byId) return null;
    ids.add(byId.id);
  }
  if (taxonomy === 'cal_events_cat') await addDescendants(db, ids);
  const translated = await db
    .selectFrom('terms')
    .select('id')
    .where('trid', 'in', (eb) => eb.selectFrom('terms').select('trid').where('id', 'in', [...ids]))
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
