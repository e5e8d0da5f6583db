// The ONNX wire format: ONNX's own schema (onnx.proto, vendored from github.com/onnx/onnx,
// Apache-2.0) read by protobufjs, so no byte of the protobuf encoding is written by hand here.

import fs from 'node:fs';
import { createRequire } from 'node:module';
import type protobuf from 'protobufjs';

/** TensorProto.DataType values used by the exporter. */
export const DataType = {
  FLOAT: 1,
  UINT8: 2,
  INT64: 7,
  STRING: 8,
  BOOL: 9,
  DOUBLE: 11,
} as const;
export type DataTypeCode = (typeof DataType)[keyof typeof DataType];

/** AttributeProto.AttributeType values. */
export const AttributeType = {
  FLOAT: 1,
  INT: 2,
  STRING: 3,
  TENSOR: 4,
  FLOATS: 6,
  INTS: 7,
  STRINGS: 8,
} as const;

export interface TensorMessage {
  name?: string;
  dims: number[];
  data_type: DataTypeCode;
  raw_data?: Uint8Array;
  string_data?: Uint8Array[];
}

export interface AttributeMessage {
  name: string;
  type: number;
  i?: number;
  f?: number;
  s?: Uint8Array;
  t?: TensorMessage;
  ints?: number[];
  floats?: number[];
  strings?: Uint8Array[];
}

export interface NodeMessage {
  name: string;
  op_type: string;
  domain?: string;
  input: string[];
  output: string[];
  attribute: AttributeMessage[];
}

/** A dimension: a fixed size or a symbolic name (the batch, 'N'). */
export type Dim = number | string;

export interface ValueInfoMessage {
  name: string;
  doc_string?: string;
  type: {
    tensor_type: {
      elem_type: DataTypeCode;
      shape: { dim: ({ dim_value: number } | { dim_param: string })[] };
    };
  };
}

export interface GraphMessage {
  name: string;
  doc_string?: string;
  node: NodeMessage[];
  initializer: TensorMessage[];
  input: ValueInfoMessage[];
  output: ValueInfoMessage[];
}

export interface ModelMessage {
  ir_version: number;
  opset_import: { domain: string; version: number }[];
  producer_name: string;
  producer_version: string;
  model_version?: number;
  doc_string?: string;
  graph: GraphMessage;
  metadata_props: { key: string; value: string }[];
}

let modelType: protobuf.Type | null = null;

/**
 * onnx.ModelProto, parsed from the vendored schema on first use. protobufjs itself is loaded then
 * too: importing it costs ~45 ms of CPU, which every instance start paid for an export few ask for.
 */
function modelProto(): protobuf.Type {
  if (!modelType) {
    const lib = createRequire(import.meta.url)('protobufjs') as typeof protobuf;
    const text = fs.readFileSync(new URL('./onnx.proto', import.meta.url), 'utf8');
    modelType = lib.parse(text, { keepCase: true }).root.lookupType('onnx.ModelProto');
  }
  return modelType;
}

/** The protobuf bytes of a model. */
export function encodeModel(m: ModelMessage): Uint8Array {
  const type = modelProto();
  const problem = type.verify(m);
  if (problem) throw new Error(`ONNX model does not match onnx.proto: ${problem}`);
  return type.encode(type.fromObject(m)).finish();
}

/**
 * A model read back from its bytes, as plain JSON (64-bit integers as numbers, bytes as base64):
 * for tests and for tools that check an exported file.
 */
export function decodeModel(bytes: Uint8Array): Record<string, unknown> {
  const type = modelProto();
  return type.toObject(type.decode(bytes), { longs: Number, bytes: String, defaults: false });
}

export function valueInfo(
  name: string,
  elem: DataTypeCode,
  dims: Dim[],
  doc?: string,
): ValueInfoMessage {
  return {
    name,
    ...(doc ? { doc_string: doc } : {}),
    type: {
      tensor_type: {
        elem_type: elem,
        shape: {
          dim: dims.map((d) => (typeof d === 'number' ? { dim_value: d } : { dim_param: d })),
        },
      },
    },
  };
}

const utf8 = new TextEncoder();

export function bytesOf(s: string): Uint8Array {
  return utf8.encode(s);
}

/** A tensor of doubles (little-endian raw data, as onnx.proto asks). */
export function doubleTensor(
  values: ArrayLike<number>,
  dims: number[],
  name?: string,
): TensorMessage {
  const buf = new Float64Array(values.length);
  buf.set(values);
  return rawTensor(DataType.DOUBLE, new Uint8Array(buf.buffer), dims, name);
}

export function int64Tensor(
  values: ArrayLike<number>,
  dims: number[],
  name?: string,
): TensorMessage {
  const buf = new BigInt64Array(values.length);
  for (let i = 0; i < values.length; i++) buf[i] = BigInt(values[i]);
  return rawTensor(DataType.INT64, new Uint8Array(buf.buffer), dims, name);
}

export function uint8Tensor(
  values: ArrayLike<number>,
  dims: number[],
  name?: string,
): TensorMessage {
  return rawTensor(DataType.UINT8, Uint8Array.from(values), dims, name);
}

export function stringTensor(values: string[], dims: number[], name?: string): TensorMessage {
  return {
    ...(name ? { name } : {}),
    dims,
    data_type: DataType.STRING,
    string_data: values.map(bytesOf),
  };
}

function rawTensor(
  type: DataTypeCode,
  raw: Uint8Array,
  dims: number[],
  name?: string,
): TensorMessage {
  // onnx.proto stores raw data little-endian; typed arrays use the machine's order.
  if (new Uint8Array(new Uint16Array([1]).buffer)[0] !== 1) {
    throw new Error('ONNX export needs a little-endian machine');
  }
  return { ...(name ? { name } : {}), dims, data_type: type, raw_data: raw };
}
