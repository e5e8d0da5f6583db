// GBM trees as one ai.onnx.ml TreeEnsemble node (ONNX-ML opset 5) over raw inputs, not bins:
// a numeric split "bin <= t" is "value <= edge[t]" (bins are defined by the same ascending
// edges), the missing bin becomes the node's missing-value direction, and a categorical bin set
// becomes a set-membership (BRANCH_MEMBER) test on the category code. Doubles throughout, so
// every comparison and leaf value is the engine's own.

import type { GBMModel } from '../gbm/model';
import { leafDimOf } from '../gbm/model';
import type { Attr } from './graph';
import { doubleTensor, uint8Tensor } from './proto';

/** What a tree feature is, seen from the trees: its bin edges (numbers) or its codes (categories). */
export interface TreeInput {
  isCat: boolean;
  /** Numbers: ascending bin edges (bin(v) = first i with v <= edges[i]; NaN: bin edges.length + 1). */
  edges: Float64Array | null;
  /** Bins including the missing bin (categories: codes 0..nCats, then missing). */
  nBins: number;
}

const MODE_LEQ = 0;
const MODE_MEMBER = 6;

interface Branch {
  mode: number;
  split: number;
  missingLeft: boolean;
  members: number[] | null;
}

/** The ONNX test of a numeric node sending bins 0..p (p = -1: none) and, if so, missing left. */
function numericBranch(edges: Float64Array, p: number, missingLeft: boolean): Branch {
  const m = edges.length;
  // p >= m: every value bin goes left, so the edge is +Infinity (inputs never hold infinities:
  // the encoders turn them into missing values, as the engine does).
  const split = p < 0 ? -Infinity : p < m ? edges[p] : Infinity;
  return { mode: MODE_LEQ, split, missingLeft, members: null };
}

function branchOf(m: GBMModel, node: number, input: TreeInput): Branch {
  const t = m.thr[node];
  const nb = input.nBins;
  if (!m.isCatNode[node]) {
    if (input.isCat) return { mode: MODE_LEQ, split: t, missingLeft: false, members: null };
    // bin <= t; the missing bin (nb - 1) goes left only when t reaches it.
    return numericBranch(input.edges!, Math.min(t, nb - 2), t >= nb - 1);
  }
  const inSet = (b: number) => ((m.catBits[t + (b >>> 5)] >>> (b & 31)) & 1) === 1;
  if (input.isCat) {
    const members: number[] = [];
    for (let b = 0; b < nb; b++) if (inSet(b)) members.push(b);
    return { mode: MODE_MEMBER, split: NaN, missingLeft: false, members };
  }
  // Numbers with a learned missing direction: "bin <= p, or missing" (gbm/splitter.ts).
  let p = -1;
  while (p + 1 < nb - 1 && inSet(p + 1)) p++;
  for (let b = p + 1; b < nb - 1; b++) {
    if (inSet(b)) throw new Error(`tree node ${node}: a numeric bin set that is not a prefix`);
  }
  return numericBranch(input.edges!, p, inSet(nb - 1));
}

/**
 * The attributes of a TreeEnsemble computing the model's tree sums (without `base`) as `K`
 * targets from an [N, inputs.length] double matrix. Vector leaves (one value per class) become one
 * copy of each tree per class, since a TreeEnsemble leaf feeds one target. Null without trees.
 */
export function treeEnsembleAttrs(m: GBMModel, inputs: TreeInput[]): Record<string, Attr> | null {
  if (m.nTrees === 0) return null;
  const K = m.K;
  const D = leafDimOf(m);
  const roots: number[] = [];
  const modes: number[] = [];
  const featureIds: number[] = [];
  const splits: number[] = [];
  const missingTrue: number[] = [];
  const trueLeaf: number[] = [];
  const trueId: number[] = [];
  const falseLeaf: number[] = [];
  const falseId: number[] = [];
  const members: number[] = [];
  const leafTarget: number[] = [];
  const leafWeight: number[] = [];

  const addLeaf = (node: number, k: number): number => {
    leafTarget.push(k);
    leafWeight.push(D === 1 ? m.value[node] : m.value[node * D + k]);
    return leafTarget.length - 1;
  };
  /** Emits `node` (an interior node) and its subtree for target k; returns its index. */
  const addNode = (node: number, k: number): number => {
    const f = m.feat[node];
    const input = inputs[f];
    if (!input) throw new Error(`tree node ${node} reads feature ${f}, which the encoders lack`);
    const b = branchOf(m, node, input);
    const i = modes.length;
    modes.push(b.mode);
    featureIds.push(f);
    splits.push(b.split);
    missingTrue.push(b.missingLeft ? 1 : 0);
    if (b.members) members.push(...b.members, NaN);
    trueLeaf.push(0);
    trueId.push(0);
    falseLeaf.push(0);
    falseId.push(0);
    const child = (c: number, leaf: number[], id: number[]) => {
      if (m.feat[c] < 0) {
        leaf[i] = 1;
        id[i] = addLeaf(c, k);
      } else {
        id[i] = addNode(c, k);
      }
    };
    child(m.left[node], trueLeaf, trueId);
    child(m.right[node], falseLeaf, falseId);
    return i;
  };

  const copies = D === 1 ? 1 : D;
  for (let c = 0; c < copies; c++) {
    for (let t = 0; t < m.nTrees; t++) {
      const root = m.roots[t];
      const k = D === 1 ? t % K : c;
      if (m.feat[root] >= 0) {
        roots.push(addNode(root, k));
        continue;
      }
      // A tree that is one leaf: a node whose two branches reach that leaf (the spec's form).
      const leaf = addLeaf(root, k);
      roots.push(modes.length);
      modes.push(MODE_LEQ);
      featureIds.push(0);
      splits.push(0);
      missingTrue.push(0);
      trueLeaf.push(1);
      trueId.push(leaf);
      falseLeaf.push(1);
      falseId.push(leaf);
    }
  }

  return {
    n_targets: { int: K },
    aggregate_function: { int: 1 },
    post_transform: { int: 0 },
    tree_roots: { ints: roots },
    nodes_modes: { tensor: uint8Tensor(modes, [modes.length]) },
    nodes_featureids: { ints: featureIds },
    nodes_splits: { tensor: doubleTensor(splits, [splits.length]) },
    nodes_missing_value_tracks_true: { ints: missingTrue },
    nodes_trueleafs: { ints: trueLeaf },
    nodes_truenodeids: { ints: trueId },
    nodes_falseleafs: { ints: falseLeaf },
    nodes_falsenodeids: { ints: falseId },
    ...(members.length
      ? { membership_values: { tensor: doubleTensor(members, [members.length]) } }
      : {}),
    leaf_targetids: { ints: leafTarget },
    leaf_weights: { tensor: doubleTensor(leafWeight, [leafWeight.length]) },
  };
}
