// The growable node arrays trees are written into while boosting (one set shared by all trees).

import type { GBMModel } from './model';

/**
 * Where a grown tree goes: appended to `store`, its leaf values added to raw[row * K + k] (every
 * k for vector leaves, when `store.D` = K).
 */
export interface TreeOutput {
  store: NodeStore;
  raw: Float64Array;
  K: number;
  k: number;
}

export class NodeStore {
  n = 0;
  /** Values per leaf (value[node * D + j]). */
  D = 1;
  feat = new Int32Array(1024);
  thr = new Int32Array(1024);
  isCat = new Uint8Array(1024);
  left = new Int32Array(1024);
  right = new Int32Array(1024);
  value = new Float64Array(1024);
  /** Training rows that reached each node (NaN: unknown, from an older model). */
  cover = new Float32Array(1024);
  bits = new Uint32Array(256);
  nBits = 0;
  roots: number[] = [];

  constructor(D = 1) {
    this.D = D;
    if (D > 1) this.value = new Float64Array(1024 * D);
  }

  static from(m: GBMModel): NodeStore {
    const s = new NodeStore(m.leafDim ?? 1);
    const n = m.feat.length;
    s.ensure(n);
    s.feat.set(m.feat);
    s.thr.set(m.thr);
    s.isCat.set(m.isCatNode);
    s.left.set(m.left);
    s.right.set(m.right);
    s.value.set(m.value);
    if (m.cover) s.cover.set(m.cover);
    else s.cover.fill(NaN, 0, n);
    s.n = n;
    s.ensureBits(m.catBits.length);
    s.bits.set(m.catBits);
    s.nBits = m.catBits.length;
    s.roots = Array.from(m.roots);
    return s;
  }

  ensure(extra: number): void {
    const need = this.n + extra;
    if (need <= this.feat.length) return;
    let cap = this.feat.length;
    while (cap < need) cap *= 2;
    const grow = <T extends Int32Array | Uint8Array | Float64Array | Float32Array>(
      a: T,
      make: (n: number) => T,
    ): T => {
      const b = make(cap);
      b.set(a);
      return b;
    };
    this.feat = grow(this.feat, (c) => new Int32Array(c));
    this.thr = grow(this.thr, (c) => new Int32Array(c));
    this.isCat = grow(this.isCat, (c) => new Uint8Array(c));
    this.left = grow(this.left, (c) => new Int32Array(c));
    this.right = grow(this.right, (c) => new Int32Array(c));
    const v = new Float64Array(cap * this.D);
    v.set(this.value);
    this.value = v;
    this.cover = grow(this.cover, (c) => new Float32Array(c));
  }

  ensureBits(extra: number): void {
    const need = this.nBits + extra;
    if (need <= this.bits.length) return;
    let cap = this.bits.length;
    while (cap < need) cap *= 2;
    const b = new Uint32Array(cap);
    b.set(this.bits);
    this.bits = b;
  }

  /** A new leaf (value 0) reached by `cover` training rows. */
  addLeaf(cover = NaN): number {
    this.ensure(1);
    const id = this.n++;
    this.cover[id] = cover;
    this.feat[id] = -1;
    this.left[id] = -1;
    this.right[id] = -1;
    for (let j = 0; j < this.D; j++) this.value[id * this.D + j] = 0;
    return id;
  }

  /** Drops every tree after the first `nTrees` (early stopping keeps the best iteration). */
  truncate(nTrees: number): void {
    if (nTrees >= this.roots.length) return;
    const cut = this.roots[nTrees];
    this.roots.length = nTrees;
    this.n = cut;
    let maxBit = 0;
    for (let i = 0; i < cut; i++) if (this.isCat[i]) maxBit = Math.max(maxBit, this.thr[i] + 8);
    this.nBits = maxBit;
  }

  toModel(K: number, base: Float64Array, maxLeaves: number): GBMModel {
    return {
      K,
      base: Float64Array.from(base),
      nTrees: this.roots.length,
      roots: Int32Array.from(this.roots),
      feat: this.feat.slice(0, this.n),
      thr: this.thr.slice(0, this.n),
      isCatNode: this.isCat.slice(0, this.n),
      left: this.left.slice(0, this.n),
      right: this.right.slice(0, this.n),
      value: this.value.slice(0, this.n * this.D),
      cover: this.cover.slice(0, this.n),
      catBits: this.bits.slice(0, this.nBits),
      maxLeaves,
      ...(this.D > 1 ? { leafDim: this.D } : {}),
    };
  }
}
