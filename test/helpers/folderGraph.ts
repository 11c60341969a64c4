/** One import: the importing file and the imported file, as paths from the repository's root. */
export interface ImportEdge {
  from: string;
  to: string;
}

/** From the lowest layer up: a folder may import its own layer and those below it, never above. */
export const LAYERS = ['core', 'events', 'infra', 'projections', 'services', 'bin'] as const;

/** Folders kept pure (no I/O): what they may import besides packages. */
export const PURE: Record<string, readonly string[]> = {
  'services/domain': ['core', 'events', 'services/domain'],
  'services/engine': ['core', 'services/engine'],
};

/**
 * The unit of the folder graph: a folder of a layer (`services/pipeline`, `infra/kafka`), with its
 * subfolders; a file directly in a layer's folder (`infra/config.ts`) is a unit of its own.
 */
export const unitOf = (path: string): string => path.split('/').slice(0, 2).join('/');

const within = (path: string, folder: string): boolean => path === folder || path.startsWith(`${folder}/`);

/** Each cycle between units: the units in it, and the imports between them that close it. */
export const folderCycles = (edges: readonly ImportEdge[]): string[] => {
  const graph = new Map<string, Map<string, string>>();
  for (const { from, to } of edges) {
    const [a, b] = [unitOf(from), unitOf(to)];
    if (a === b) continue;
    if (!graph.has(a)) graph.set(a, new Map());
    if (!graph.get(a)!.has(b)) graph.get(a)!.set(b, `${from} -> ${to}`);
  }
  return stronglyConnected(graph)
    .filter((c) => c.length > 1)
    .map((c) => {
      const inside = c.flatMap((a) => [...(graph.get(a) ?? [])].filter(([b]) => c.includes(b)).map(([, e]) => e));
      return `${[...c].sort().join(' <-> ')}: ${inside.sort().join('; ')}`;
    })
    .sort();
};

/** Imports from a lower layer into a higher one, and pure folders importing what they may not. */
export const layerViolations = (edges: readonly ImportEdge[]): string[] => {
  const rank = (path: string) => (LAYERS as readonly string[]).indexOf(path.split('/')[0]!);
  const out: string[] = [];
  for (const { from, to } of edges) {
    if (rank(from) >= 0 && rank(to) > rank(from)) out.push(`${from} -> ${to} (upwards)`);
    for (const [folder, allowed] of Object.entries(PURE))
      if (within(from, folder) && !allowed.some((f) => within(to, f))) out.push(`${from} -> ${to} (${folder} is pure)`);
  }
  return out.sort();
};

/** Tarjan's strongly connected components, recursive: the graph has a few dozen units. */
const stronglyConnected = (graph: Map<string, Map<string, string>>): string[][] => {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    components.push(component);
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return components;
};
