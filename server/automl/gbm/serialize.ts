// GBM serialisation: typed arrays as base64 strings, so an artifact is plain JSON.

import { fromBase64, toBase64 } from '../base64';
import type { GBMModel } from './model';

export interface SerializedGBM {
  K: number;
  base: number[];
  nTrees: number;
  maxLeaves: number;
  roots: string;
  feat: string;
  thr: string;
  isCatNode: string;
  left: string;
  right: string;
  value: string;
  catBits: string;
  /** Vector leaves: values per leaf (absent: 1). */
  leafDim?: number;
  /** Training rows per node, Float32 (absent in older models). */
  cover?: string;
}

export function serializeGBM(m: GBMModel): SerializedGBM {
  return {
    K: m.K,
    base: Array.from(m.base),
    nTrees: m.nTrees,
    maxLeaves: m.maxLeaves,
    roots: toBase64(m.roots),
    feat: toBase64(m.feat),
    thr: toBase64(m.thr),
    isCatNode: toBase64(m.isCatNode),
    left: toBase64(m.left),
    right: toBase64(m.right),
    value: toBase64(m.value),
    catBits: toBase64(m.catBits),
    ...(m.leafDim && m.leafDim > 1 ? { leafDim: m.leafDim } : {}),
    ...(m.cover ? { cover: toBase64(m.cover) } : {}),
  };
}

export function deserializeGBM(s: SerializedGBM): GBMModel {
  return {
    K: s.K,
    base: Float64Array.from(s.base),
    nTrees: s.nTrees,
    maxLeaves: s.maxLeaves,
    roots: fromBase64(s.roots, (b) => new Int32Array(b)),
    feat: fromBase64(s.feat, (b) => new Int32Array(b)),
    thr: fromBase64(s.thr, (b) => new Int32Array(b)),
    isCatNode: fromBase64(s.isCatNode, (b) => new Uint8Array(b)),
    left: fromBase64(s.left, (b) => new Int32Array(b)),
    right: fromBase64(s.right, (b) => new Int32Array(b)),
    value: fromBase64(s.value, (b) => new Float64Array(b)),
    catBits: fromBase64(s.catBits, (b) => new Uint32Array(b)),
    ...(s.leafDim && s.leafDim > 1 ? { leafDim: s.leafDim } : {}),
    ...(s.cover ? { cover: fromBase64(s.cover, (b) => new Float32Array(b)) } : {}),
  };
}
