// The input encoders of a tabular model as ONNX: one [N, 1] tensor per input column in, the
// tree features (raw numbers, category codes, datetime parts, target-encoded values) and the
// linear model's columns (standardised clipped numbers, missing indicators, level and category
// one-hots) out, computed as data/layout.ts computes them.

import type { CategoricalEncoder, ColumnEncoder } from '../data/encoders';
import type { Layout, TreeFeature } from '../data/layout';
import { fromBase64 } from '../base64';
import { type Attr, GraphBuilder, ML_DOMAIN } from './graph';
import { doubleTensor, int64Tensor } from './proto';
import type { TreeInput } from './trees';

/**
 * How one input column is fed: a [N, 1] tensor named after the column.
 * - number: double; NaN (or an infinity) is a missing value.
 * - category: string, spelled as in training; '' is a missing value.
 * - category_number: double (categories that are numbers, e.g. codes 0/1); NaN is missing.
 * - boolean: string: true/false, yes/no, t/f, y/n, 1/0 in any letter case; '' is missing.
 * - datetime: double, milliseconds since 1970-01-01 00:00 UTC; NaN is missing.
 */
type InputKind = 'number' | 'category' | 'category_number' | 'boolean' | 'datetime';

export interface OnnxInput {
  name: string;
  kind: InputKind;
  type: 'double' | 'string';
}

export function inputOf(e: ColumnEncoder): OnnxInput {
  switch (e.kind) {
    case 'numeric':
      return { name: e.column, kind: 'number', type: 'double' };
    case 'datetime':
      return { name: e.column, kind: 'datetime', type: 'double' };
    case 'categorical':
      if (e.valueKind === 'number')
        return { name: e.column, kind: 'category_number', type: 'double' };
      return {
        name: e.column,
        kind: e.valueKind === 'boolean' ? 'boolean' : 'category',
        type: 'string',
      };
    case 'text':
      throw new Error(`text column '${e.column}' has no ONNX input`);
  }
}

/** A tree feature as ONNX values: [N, 1] double, and for the column's first feature its missingness. */
interface Feature {
  value: string;
  tree: TreeInput;
}

export interface EncodedInputs {
  /** One per layout feature, in layout order. */
  features: Feature[];
  /** Per encoder: [N, 1] bool, true where the column is missing (the first feature's test). */
  missing: string[];
  /** The linear model's columns, in linear-dimension order (each [N, w] double). */
  linear: string[];
}

const Z_CLIP = 8;

/** Spellings that data/column-types.ts parseBoolean reads as true / false (any letter case). */
const TRUE_WORDS = ['true', 't', 'yes', 'y', '1'];
const FALSE_WORDS = ['false', 'f', 'no', 'n', '0'];

/** Every letter-case spelling of a word ('yes', 'Yes', 'yEs', ...). */
function caseVariants(w: string): string[] {
  let out = [''];
  for (const ch of w) {
    const lo = ch.toLowerCase();
    const up = ch.toUpperCase();
    out = out.flatMap((p) => (lo === up ? [p + ch] : [p + lo, p + up]));
  }
  return out;
}

/** x with infinities made missing (the engine reads non-finite numbers as missing). */
function finite(g: GraphBuilder, x: string): string {
  return g.where(g.op('IsInf', [x]), g.double(NaN), x, 'finite');
}

/**
 * Keys (strings, or doubles) -> int64 values, `other` for the rest: LabelEncoder-4, whose
 * tensor attributes take double keys exactly.
 */
function lookup(
  g: GraphBuilder,
  x: string,
  keys: string[] | number[],
  values: number[],
  other: number,
  hint: string,
): string {
  const keyAttr: Record<string, Attr> =
    typeof keys[0] === 'string'
      ? { keys_strings: { strs: keys as string[] } }
      : { keys_tensor: { tensor: doubleTensor(keys as number[], [keys.length]) } };
  return g.op(
    'LabelEncoder',
    [x],
    {
      ...keyAttr,
      values_tensor: { tensor: int64Tensor(values, [values.length]) },
      default_tensor: { tensor: int64Tensor([other], [1]) },
    },
    { domain: ML_DOMAIN, hint },
  );
}

/**
 * The index of a cell's category among `keys` (int64 [N, 1]); `other` for values not among them,
 * `missing` for missing ones: data/column-types.ts categoryKey, as far as the input kind allows.
 */
function keyIndex(
  g: GraphBuilder,
  x: string,
  enc: CategoricalEncoder,
  keys: string[],
  other: number,
  missing: number,
  hint: string,
): string {
  if (enc.valueKind === 'number') {
    // Keys of numbers are String(x); a key that is not a number cannot match a double input.
    const num: number[] = [];
    const val: number[] = [];
    keys.forEach((k, i) => {
      const v = Number(k);
      if (k.trim() !== '' && Number.isFinite(v) && String(v) === k) {
        num.push(v);
        val.push(i);
      }
    });
    // A table without a number key still needs one: NaN matches no input (missing ones are
    // decided below).
    if (num.length === 0) {
      num.push(NaN);
      val.push(other);
    }
    const xf = finite(g, x);
    return g.where(
      g.op('IsNaN', [xf]),
      g.int64(missing, [], 'missing_code'),
      lookup(g, xf, num, val, other, hint),
      hint,
    );
  }
  const k: string[] = [];
  const v: number[] = [];
  const seen = new Set<string>();
  const put = (s: string, code: number) => {
    if (!seen.has(s)) {
      seen.add(s);
      k.push(s);
      v.push(code);
    }
  };
  put('', missing);
  if (enc.valueKind === 'boolean') {
    const t = keys.indexOf('true');
    const f = keys.indexOf('false');
    for (const w of TRUE_WORDS) for (const s of caseVariants(w)) put(s, t >= 0 ? t : other);
    for (const w of FALSE_WORDS) for (const s of caseVariants(w)) put(s, f >= 0 ? f : other);
  }
  keys.forEach((key, i) => put(key, i));
  return lookup(g, x, k, v, other, hint);
}

/** The standardised, clipped value (0 when missing) and the indicators of a numeric feature. */
function numericLinear(g: GraphBuilder, v: string, f: TreeFeature, out: string[]): void {
  const st = f.stats!;
  const z = g.op('Clip', [
    g.div(g.sub(v, g.double(st.mean)), g.double(st.std)),
    g.double(-Z_CLIP),
    g.double(Z_CLIP),
  ]);
  const nan = g.op('IsNaN', [v]);
  out.push(g.where(nan, g.double(0), z, 'z'));
  if (f.linMissDim >= 0) out.push(g.toDouble(nan, 'miss'));
  if (f.levels) {
    const lv = Array.from(f.levels);
    out.push(g.toDouble(g.op('Equal', [v, g.double(lv, [1, lv.length], 'levels')]), 'level'));
  }
}

function numericTree(f: TreeFeature): TreeInput {
  return { isCat: false, edges: f.thresholds, nBins: f.nBins };
}

/** The six datetime parts of data/parse.ts (year, month, day, dayofweek, hour, epoch_days). */
function datetimeParts(g: GraphBuilder, t: string): string[] {
  const c = (x: number) => g.double(x);
  const floorDiv = (a: string, b: number) => g.op('Floor', [g.div(a, c(b))]);
  const days = floorDiv(t, 86_400_000);
  // civilFromDays, step by step (every value is an integer well inside double precision).
  const z = g.add(days, c(719468));
  const era = floorDiv(z, 146097);
  const doe = g.sub(z, g.mul(era, c(146097)));
  const yoe = floorDiv(
    g.sub(g.add(g.sub(doe, floorDiv(doe, 1460)), floorDiv(doe, 36524)), floorDiv(doe, 146096)),
    365,
  );
  const doy = g.sub(doe, g.sub(g.add(g.mul(c(365), yoe), floorDiv(yoe, 4)), floorDiv(yoe, 100)));
  const mp = floorDiv(g.add(g.mul(c(5), doy), c(2)), 153);
  const day = g.add(g.sub(doy, floorDiv(g.add(g.mul(c(153), mp), c(2)), 5)), c(1));
  const month = g.where(g.op('Less', [mp, c(10)]), g.add(mp, c(3)), g.sub(mp, c(9)));
  const year = g.add(
    g.add(yoe, g.mul(era, c(400))),
    g.toDouble(g.op('LessOrEqual', [month, c(2)])),
  );
  const mod7 = (a: string) => g.op('Mod', [a, c(7)], { fmod: { int: 1 } });
  const dow = mod7(g.add(mod7(g.add(days, c(4))), c(7)));
  const hour = g.div(g.sub(t, g.mul(days, c(86_400_000))), c(3_600_000));
  const epochDays = g.div(t, c(86_400_000));
  // A missing time (NaN) makes every part NaN: the arithmetic carries it through.
  return [year, month, day, dow, hour, epochDays];
}

/**
 * Encodes every input column; `inputs[e]` is the graph input of encoder e. Text encoders are
 * refused before this is called (export.ts).
 */
export function encodeInputs(
  g: GraphBuilder,
  encs: ColumnEncoder[],
  layout: Layout,
  inputs: string[],
): EncodedInputs {
  const features: Feature[] = [];
  const missing: string[] = [];
  const linear: string[] = [];
  encs.forEach((enc, e) => {
    const feats = layout.encoderFeatures[e].map((f) => layout.features[f]);
    const x = inputs[e];
    switch (enc.kind) {
      case 'numeric': {
        const v = finite(g, x);
        features.push({ value: v, tree: numericTree(feats[0]) });
        missing.push(g.op('IsNaN', [v]));
        numericLinear(g, v, feats[0], linear);
        break;
      }
      case 'datetime': {
        const parts = datetimeParts(g, finite(g, x));
        parts.forEach((p, j) => {
          features.push({ value: p, tree: numericTree(feats[j]) });
          numericLinear(g, p, feats[j], linear);
        });
        missing.push(g.op('IsNaN', [parts[0]]));
        break;
      }
      case 'categorical': {
        const f = feats[0];
        const other = enc.keys.length;
        const miss = other + 1;
        const code = g.toDouble(keyIndex(g, x, enc, enc.keys, other, miss, 'code'), 'code');
        features.push({ value: code, tree: { isCat: true, edges: null, nBins: f.nBins } });
        missing.push(g.op('Equal', [code, g.double(miss)]));
        if (f.nOneHot > 0) {
          const ids = Array.from({ length: f.nOneHot }, (_, i) => i);
          linear.push(
            g.toDouble(g.op('Equal', [code, g.double(ids, [1, ids.length], 'onehot')]), 'onehot'),
          );
        }
        const te = enc.targetEncoding;
        if (te) {
          // Unknown and missing categories take the prior (the table's last row).
          const n = te.keys.length;
          const idx = keyIndex(g, x, enc, te.keys, n, n, 'te_index');
          const vals = fromBase64(te.values, (b) => new Float64Array(b));
          for (let k = 0; k < te.K; k++) {
            const col = new Float64Array(n + 1);
            for (let j = 0; j < n; j++) col[j] = vals[j * te.K + k];
            col[n] = te.prior[k];
            const v = g.op('Gather', [g.constant(doubleTensor(col, [n + 1]), 'te_values'), idx]);
            const tf = feats[1 + k];
            features.push({ value: v, tree: numericTree(tf) });
            numericLinear(g, v, tf, linear);
          }
        }
        break;
      }
      case 'text':
        throw new Error(`text column '${enc.column}' cannot be encoded in ONNX`);
    }
  });
  return { features, missing, linear };
}
