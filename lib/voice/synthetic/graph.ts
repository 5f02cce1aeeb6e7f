import {
  AttributeType,
  DataType,
  type AttributeMessage,
  type NodeMessage,
  type TensorMessage,
  type ValueInfoMessage,
} from './onnx-proto.js';
import type { Prng } from '../../core/prng.js';

export type AttrValue = number | number[] | { float: number } | { floats: number[] };

function attribute(name: string, value: AttrValue): AttributeMessage {
  if (typeof value === 'number') return { name, type: AttributeType.INT, i: value };
  if (Array.isArray(value)) return { name, type: AttributeType.INTS, ints: value };
  if ('float' in value) return { name, type: AttributeType.FLOAT, f: value.float };
  return { name, type: AttributeType.FLOATS, floats: value.floats };
}

function bytesOf(data: Float32Array | BigInt64Array): Uint8Array {
  // ONNX raw_data is little-endian; so is every machine Node runs this on (checked below).
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Builds an ONNX graph: names stay unique, weights come from one seeded stream in build order. */
export class GraphBuilder {
  readonly nodes: NodeMessage[] = [];
  readonly initializers: TensorMessage[] = [];
  readonly inputs: ValueInfoMessage[] = [];
  readonly outputs: ValueInfoMessage[] = [];
  /** Trainable-parameter count (weights and biases), not shape constants. */
  parameterCount = 0;
  private counter = 0;

  constructor(private readonly rng: Prng) {
    if (!LITTLE_ENDIAN) throw new Error('the synthetic voice generator needs a little-endian machine');
  }

  private fresh(prefix: string): string {
    this.counter += 1;
    return `${prefix}_${this.counter}`;
  }

  input(name: string, elemType: number, dims: Array<number | string>): string {
    this.inputs.push(valueInfo(name, elemType, dims));
    return name;
  }

  output(name: string, elemType: number, dims: Array<number | string>): void {
    this.outputs.push(valueInfo(name, elemType, dims));
  }

  /** A trainable tensor, uniform in [-bound, bound). */
  param(prefix: string, dims: number[], bound: number): string {
    const size = dims.reduce((a, b) => a * b, 1);
    const data = this.rng.fillUniform(new Float32Array(size), bound);
    this.parameterCount += size;
    return this.tensor(prefix, dims, data);
  }

  /** A trainable tensor with fixed values (layer-norm gains, for example). */
  paramFilled(prefix: string, dims: number[], value: number): string {
    const size = dims.reduce((a, b) => a * b, 1);
    this.parameterCount += size;
    return this.tensor(prefix, dims, new Float32Array(size).fill(value));
  }

  constFloat(prefix: string, dims: number[], values: ArrayLike<number>): string {
    return this.tensor(prefix, dims, Float32Array.from(values));
  }

  constInt64(prefix: string, dims: number[], values: number[]): string {
    return this.tensor(prefix, dims, BigInt64Array.from(values.map((v) => BigInt(v))));
  }

  private tensor(prefix: string, dims: number[], data: Float32Array | BigInt64Array): string {
    const name = this.fresh(prefix);
    this.initializers.push({
      name,
      dims,
      dataType: data instanceof Float32Array ? DataType.FLOAT : DataType.INT64,
      rawData: bytesOf(data),
    });
    return name;
  }

  /** Add a node; returns its single output name. */
  op(opType: string, inputs: string[], attrs: Record<string, AttrValue> = {}, outputName?: string): string {
    const out = outputName ?? this.fresh(opType.toLowerCase());
    this.nodes.push({
      name: this.fresh(`n_${opType}`),
      opType,
      input: inputs,
      output: [out],
      attribute: Object.entries(attrs).map(([k, v]) => attribute(k, v)),
    });
    return out;
  }
}

function valueInfo(name: string, elemType: number, dims: Array<number | string>): ValueInfoMessage {
  return {
    name,
    type: {
      tensorType: {
        elemType,
        shape: { dim: dims.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d })) },
      },
    },
  };
}
