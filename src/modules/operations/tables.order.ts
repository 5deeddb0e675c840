import type { TableInfo } from './tables.repository.js';

/** Parents first (Kahn's algorithm, ties by name so both databases give the same order). */
export function inDependencyOrder(tables: TableInfo[]): TableInfo[] {
  const pending = new Map(tables.map((t) => [t.name, t]));
  const ordered: TableInfo[] = [];
  while (pending.size > 0) {
    const ready = [...pending.values()]
      .filter((t) => t.parents.every((p) => !pending.has(p)))
      .sort((a, b) => a.name.localeCompare(b.name));
    if (ready.length === 0) throw new Error(`Foreign keys form a cycle among ${[...pending.keys()].join(', ')}.`);
    for (const t of ready) {
      ordered.push(t);
      pending.delete(t.name);
    }
  }
  return ordered;
}
