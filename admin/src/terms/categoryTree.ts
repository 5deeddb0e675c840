/** A category with its place in the tree: how deep it sits and the names of its ancestors. */
export interface TreeTerm {
  id: number;
  name: string;
  parent?: number;
  [key: string]: unknown;
}

export type Placed<T extends TreeTerm> = T & { depth: number; path: string };

/**
 * The categories in tree order: each parent followed by its children, siblings by name. A category
 * whose parent is not among `terms` (another language's, or deleted meanwhile) sits at the top;
 * a parent loop, which the API refuses but old data might hold, cannot make this recurse forever.
 */
export function treeOrder<T extends TreeTerm>(terms: readonly T[], locale?: string): Placed<T>[] {
  const byId = new Map(terms.map((term) => [term.id, term]));
  const children = new Map<number, T[]>();
  for (const term of terms) {
    const parent = term.parent && byId.has(term.parent) && term.parent !== term.id ? term.parent : 0;
    const list = children.get(parent) ?? [];
    list.push(term);
    children.set(parent, list);
  }
  const collator = new Intl.Collator(locale, { sensitivity: 'base', numeric: true });
  const placed: Placed<T>[] = [];
  const seen = new Set<number>();
  const visit = (parent: number, depth: number, path: string) => {
    const list = [...(children.get(parent) ?? [])].sort((a, b) => collator.compare(a.name, b.name) || a.id - b.id);
    for (const term of list) {
      if (seen.has(term.id)) continue;
      seen.add(term.id);
      const own = path ? `${path} › ${term.name}` : term.name;
      placed.push({ ...term, depth, path: own });
      visit(term.id, depth + 1, own);
    }
  };
  visit(0, 0, '');
  // Members of a parent loop are reachable from no root: list them at the top rather than lose them.
  for (const term of terms) if (!seen.has(term.id)) placed.push({ ...term, depth: 0, path: term.name });
  return placed;
}

/** The ids of `id` and everything under it: a category cannot move under itself. */
export function subtreeIds(terms: readonly TreeTerm[], id: number): Set<number> {
  const ids = new Set([id]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const term of terms)
      if (term.parent !== undefined && ids.has(term.parent) && !ids.has(term.id)) {
        ids.add(term.id);
        grew = true;
      }
  }
  return ids;
}
