// A small builder of ONNX graphs: nodes with unique value names, constants as initializers, and
// typed attributes, so the exporter reads as the computation it describes.

import {
  AttributeType,
  DataType,
  type AttributeMessage,
  type GraphMessage,
  type NodeMessage,
  type TensorMessage,
  type ValueInfoMessage,
  bytesOf,
  doubleTensor,
  int64Tensor,
  stringTensor,
} from './proto';

/** The domain of ONNX-ML operators (trees, label encoders, string normalisation). */
export const ML_DOMAIN = 'ai.onnx.ml';

/** An attribute value with its ONNX type spelled out (ints and floats look alike in JS). */
export type Attr =
  | { int: number }
  | { float: number }
  | { str: string }
  | { tensor: TensorMessage }
  | { ints: number[] }
  | { strs: string[] };

function attribute(name: string, a: Attr): AttributeMessage {
  if ('int' in a) return { name, type: AttributeType.INT, i: a.int };
  if ('float' in a) return { name, type: AttributeType.FLOAT, f: a.float };
  if ('str' in a) return { name, type: AttributeType.STRING, s: bytesOf(a.str) };
  if ('tensor' in a) return { name, type: AttributeType.TENSOR, t: a.tensor };
  if ('ints' in a) return { name, type: AttributeType.INTS, ints: a.ints };
  return { name, type: AttributeType.STRINGS, strings: a.strs.map(bytesOf) };
}

export class GraphBuilder {
  private readonly nodes: NodeMessage[] = [];
  private readonly initializers: TensorMessage[] = [];
  private readonly used = new Set<string>();
  private readonly doubles = new Map<string, string>();

  /** A value name not used yet, readable from its hint. */
  fresh(hint: string): string {
    const base = hint.replace(/[^A-Za-z0-9_]+/g, '_').slice(0, 60) || 'v';
    let name = base;
    for (let i = 1; this.used.has(name); i++) name = `${base}_${i}`;
    this.used.add(name);
    return name;
  }

  /** Reserves an exact name (graph inputs and outputs keep the model's column names). */
  reserve(name: string): string {
    if (this.used.has(name)) throw new Error(`ONNX value name '${name}' used twice`);
    this.used.add(name);
    return name;
  }

  constant(t: TensorMessage, hint: string): string {
    const name = this.fresh(hint);
    this.initializers.push({ ...t, name });
    return name;
  }

  /** A double constant (dims [] for a scalar); equal small constants are shared. */
  double(values: number | ArrayLike<number>, dims?: number[], hint = 'c'): string {
    const v = typeof values === 'number' ? [values] : Array.from(values);
    const d = dims ?? (typeof values === 'number' ? [] : [v.length]);
    if (v.length > 8) return this.constant(doubleTensor(v, d), hint);
    const key = `${d.join('x')}:${v.map((x) => (Object.is(x, -0) ? '-0' : String(x))).join(',')}`;
    let name = this.doubles.get(key);
    if (!name) {
      name = this.constant(doubleTensor(v, d), hint);
      this.doubles.set(key, name);
    }
    return name;
  }

  int64(values: number | ArrayLike<number>, dims?: number[], hint = 'i'): string {
    const v = typeof values === 'number' ? [values] : Array.from(values);
    return this.constant(
      int64Tensor(v, dims ?? (typeof values === 'number' ? [] : [v.length])),
      hint,
    );
  }

  strings(values: string[], dims?: number[], hint = 's'): string {
    return this.constant(stringTensor(values, dims ?? [values.length]), hint);
  }

  /** Adds a node and returns its output names (`outputs` of them, or the names given). */
  ops(
    opType: string,
    inputs: string[],
    attrs: Record<string, Attr> = {},
    opts: { domain?: string; outputs?: number | string[]; hint?: string } = {},
  ): string[] {
    const hint = opts.hint ?? opType;
    const outputs = Array.isArray(opts.outputs)
      ? opts.outputs
      : Array.from({ length: opts.outputs ?? 1 }, () => this.fresh(hint));
    this.nodes.push({
      name: this.fresh(`${opType}_node`),
      op_type: opType,
      ...(opts.domain ? { domain: opts.domain } : {}),
      input: inputs,
      output: outputs,
      attribute: Object.entries(attrs).map(([k, v]) => attribute(k, v)),
    });
    return outputs;
  }

  /** A node with one output. */
  op(
    opType: string,
    inputs: string[],
    attrs: Record<string, Attr> = {},
    opts: { domain?: string; output?: string; hint?: string } = {},
  ): string {
    return this.ops(opType, inputs, attrs, {
      domain: opts.domain,
      hint: opts.hint,
      ...(opts.output ? { outputs: [opts.output] } : {}),
    })[0];
  }

  // Shorthands for the arithmetic the exporter uses most.
  add(a: string, b: string, hint?: string): string {
    return this.op('Add', [a, b], {}, { hint });
  }
  sub(a: string, b: string, hint?: string): string {
    return this.op('Sub', [a, b], {}, { hint });
  }
  mul(a: string, b: string, hint?: string): string {
    return this.op('Mul', [a, b], {}, { hint });
  }
  div(a: string, b: string, hint?: string): string {
    return this.op('Div', [a, b], {}, { hint });
  }
  where(cond: string, a: string, b: string, hint?: string): string {
    return this.op('Where', [cond, a, b], {}, { hint });
  }
  cast(x: string, to: number, hint?: string): string {
    return this.op('Cast', [x], { to: { int: to } }, { hint });
  }
  toDouble(x: string, hint?: string): string {
    return this.cast(x, DataType.DOUBLE, hint);
  }
  concat(xs: string[], axis: number, hint?: string): string {
    return xs.length === 1 ? xs[0] : this.op('Concat', xs, { axis: { int: axis } }, { hint });
  }

  graph(
    name: string,
    input: ValueInfoMessage[],
    output: ValueInfoMessage[],
    doc?: string,
  ): GraphMessage {
    return {
      name,
      ...(doc ? { doc_string: doc } : {}),
      node: this.nodes,
      initializer: this.initializers,
      input,
      output,
    };
  }
}
