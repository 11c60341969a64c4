/**
 * A small persistent (immutable) string-keyed map with structural sharing.
 *
 * Why: the account stream grows by one charge per audit for ever, and `evolve` must not mutate the
 * state it is given. Copying a plain object of every charge on every event made folding 10,000
 * charges take ~14 s (quadratic). Here `set` copies only one path of three 32-slot arrays and a
 * leaf of a few entries, so a fold stays roughly linear up to hundreds of thousands of entries.
 *
 * Layout: a fixed three-level trie on a 32-bit FNV-1a hash of the key; leaves are short lists of
 * [key, value]. Iteration order is by hash, not insertion (toRecord sorts).
 */
type Entry<V> = readonly [key: string, value: V];
/** A node is an array of BITS-indexed children; at the last level, children are small entry lists. */
type Node = readonly unknown[];

export interface PersistentMap<V> {
  readonly size: number;
  readonly root: Node;
  /** Phantom, for the value type. */
  readonly _value?: V;
}

const BITS = 5;
const WIDTH = 1 << BITS;
/** 3 levels of 32 slots: 32,768 leaves; a leaf stays a few entries long up to ~100k keys. */
const LEVELS = 3;

const hash = (key: string): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
};

const slot = (h: number, level: number): number => (h >>> (level * BITS)) & (WIDTH - 1);

const EMPTY: PersistentMap<never> = { size: 0, root: [] };

export const emptyMap = <V>(): PersistentMap<V> => EMPTY;

const leafOf = <V>(map: PersistentMap<V>, h: number): readonly Entry<V>[] | undefined => {
  let node: Node | undefined = map.root;
  for (let level = 0; level < LEVELS && node; level++) node = node[slot(h, level)] as Node | undefined;
  return node as readonly Entry<V>[] | undefined;
};

export const getIn = <V>(map: PersistentMap<V>, key: string): V | undefined =>
  leafOf(map, hash(key))?.find((e) => e[0] === key)?.[1];

export const hasIn = <V>(map: PersistentMap<V>, key: string): boolean =>
  leafOf(map, hash(key))?.some((e) => e[0] === key) ?? false;

export const setIn = <V>(map: PersistentMap<V>, key: string, value: V): PersistentMap<V> => {
  const h = hash(key);
  let added = 1;
  const put = (node: Node | undefined, level: number): Node => {
    if (level === LEVELS) {
      const leaf = (node ?? []) as readonly Entry<V>[];
      const at = leaf.findIndex((e) => e[0] === key);
      if (at < 0) return [...leaf, [key, value]];
      added = 0;
      return leaf.map((e, i) => (i === at ? ([key, value] as const) : e));
    }
    const copy = node ? [...node] : [];
    copy[slot(h, level)] = put(node?.[slot(h, level)] as Node | undefined, level + 1);
    return copy;
  };
  const root = put(map.root, 0);
  return { size: map.size + added, root };
};

export function* entriesOf<V>(map: PersistentMap<V>): Generator<[string, V]> {
  function* walk(node: Node | undefined, level: number): Generator<[string, V]> {
    if (!node) return;
    if (level === LEVELS) {
      for (const [k, v] of node as readonly Entry<V>[]) yield [k, v];
      return;
    }
    for (const child of node) yield* walk(child as Node | undefined, level + 1);
  }
  yield* walk(map.root, 0);
}

/** A plain object, keys sorted, for tests, JSON and callers that want one. */
export const toRecord = <V>(map: PersistentMap<V>): Record<string, V> =>
  Object.fromEntries([...entriesOf(map)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
