// Small persistent (immutable, structurally shared) collections for the session reducer.
// A 10,000-tool-call session must not copy O(n) per update: a vector append copies a 32-slot
// tail; a map update copies a 32-way root, one 32-way node and a small leaf.

const BITS = 5;
const WIDTH = 1 << BITS;
const MASK = WIDTH - 1;

/**
 * Persistent vector: append and set by index. Items live in full 32-slot chunks, grouped in
 * blocks of 32 chunks, plus a `tail` of up to 32 items. Streaming touches the end, so the
 * common case (append, or replace the last item) copies only the tail.
 */
export class PVec<T> {
  private constructor(
    private readonly blocks: readonly (readonly (readonly T[])[])[],
    /** Number of items in `blocks` (always a multiple of WIDTH). */
    private readonly headLength: number,
    private readonly tail: readonly T[],
  ) {}

  static empty<T>(): PVec<T> {
    return new PVec<T>([], 0, []);
  }

  static from<T>(items: readonly T[]): PVec<T> {
    let v = PVec.empty<T>();
    for (const x of items) v = v.push(x);
    return v;
  }

  get length(): number {
    return this.headLength + this.tail.length;
  }

  get(i: number): T | undefined {
    if (i < 0 || i >= this.length) return undefined;
    if (i >= this.headLength) return this.tail[i - this.headLength];
    return this.blocks[i >>> (2 * BITS)][(i >>> BITS) & MASK][i & MASK];
  }

  last(): T | undefined {
    return this.get(this.length - 1);
  }

  push(item: T): PVec<T> {
    if (this.tail.length < WIDTH) return new PVec(this.blocks, this.headLength, [...this.tail, item]);
    // The tail is full: it becomes a chunk of the head.
    const bi = this.headLength >>> (2 * BITS);
    const blocks = this.blocks.slice();
    blocks[bi] = bi < this.blocks.length ? [...this.blocks[bi], this.tail] : [this.tail];
    return new PVec(blocks, this.headLength + WIDTH, [item]);
  }

  set(i: number, item: T): PVec<T> {
    if (i === this.length) return this.push(item);
    if (i < 0 || i > this.length) throw new RangeError(`PVec.set index ${i} out of range 0..${this.length}`);
    if (i >= this.headLength) {
      const tail = this.tail.slice();
      tail[i - this.headLength] = item;
      return new PVec(this.blocks, this.headLength, tail);
    }
    const bi = i >>> (2 * BITS);
    const ci = (i >>> BITS) & MASK;
    const chunk = this.blocks[bi][ci].slice();
    chunk[i & MASK] = item;
    const block = this.blocks[bi].slice();
    block[ci] = chunk;
    const blocks = this.blocks.slice();
    blocks[bi] = block;
    return new PVec(blocks, this.headLength, this.tail);
  }

  toArray(): T[] {
    const out: T[] = [];
    this.forEach((x) => {
      out.push(x);
    });
    return out;
  }

  forEach(fn: (item: T, index: number) => void): void {
    let i = 0;
    for (const b of this.blocks) for (const c of b) for (const x of c) fn(x, i++);
    for (const x of this.tail) fn(x, i++);
  }
}

type Leaf<V> = readonly (readonly [string, V])[];
type Node<V> = readonly (Leaf<V> | undefined)[];

/** Persistent string-keyed map: a two-level 32-way trie over a string hash, small leaves. */
export class PMap<V> {
  private constructor(
    private readonly root: readonly (Node<V> | undefined)[],
    readonly size: number,
  ) {}

  static empty<V>(): PMap<V> {
    return new PMap<V>([], 0);
  }

  get(key: string): V | undefined {
    const h = hash(key);
    const leaf = this.root[h & MASK]?.[(h >>> BITS) & MASK];
    if (!leaf) return undefined;
    for (const [k, v] of leaf) if (k === key) return v;
    return undefined;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  set(key: string, value: V): PMap<V> {
    const h = hash(key);
    const a = h & MASK;
    const b = (h >>> BITS) & MASK;
    const node = this.root[a];
    const leaf = node?.[b];
    let added = 1;
    let newLeaf: (readonly [string, V])[];
    if (!leaf) newLeaf = [[key, value]];
    else {
      newLeaf = leaf.slice();
      const at = newLeaf.findIndex(([k]) => k === key);
      if (at >= 0) {
        newLeaf[at] = [key, value];
        added = 0;
      } else newLeaf.push([key, value]);
    }
    const newNode = node ? node.slice() : new Array<Leaf<V> | undefined>(WIDTH);
    newNode[b] = newLeaf;
    const root = this.root.slice();
    root[a] = newNode;
    return new PMap(root, this.size + added);
  }

  forEach(fn: (value: V, key: string) => void): void {
    for (const node of this.root) {
      if (!node) continue;
      for (const leaf of node) if (leaf) for (const [k, v] of leaf) fn(v, k);
    }
  }
}

/** FNV-1a, 32-bit: cheap and well spread for tool-call ids. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
