import protobuf from 'protobufjs';

/**
 * The part of ONNX's protobuf schema (onnx.proto, IR version 8) that a plain inference graph
 * needs. Field numbers are ONNX's; protobufjs does the wire encoding.
 */
const root = protobuf.Root.fromJSON({
  nested: {
    onnx: {
      nested: {
        ModelProto: {
          fields: {
            irVersion: { type: 'int64', id: 1 },
            producerName: { type: 'string', id: 2 },
            producerVersion: { type: 'string', id: 3 },
            docString: { type: 'string', id: 6 },
            graph: { type: 'GraphProto', id: 7 },
            opsetImport: { rule: 'repeated', type: 'OperatorSetIdProto', id: 8 },
            metadataProps: { rule: 'repeated', type: 'StringStringEntryProto', id: 14 },
          },
        },
        StringStringEntryProto: { fields: { key: { type: 'string', id: 1 }, value: { type: 'string', id: 2 } } },
        OperatorSetIdProto: { fields: { domain: { type: 'string', id: 1 }, version: { type: 'int64', id: 2 } } },
        GraphProto: {
          fields: {
            node: { rule: 'repeated', type: 'NodeProto', id: 1 },
            name: { type: 'string', id: 2 },
            initializer: { rule: 'repeated', type: 'TensorProto', id: 5 },
            input: { rule: 'repeated', type: 'ValueInfoProto', id: 11 },
            output: { rule: 'repeated', type: 'ValueInfoProto', id: 12 },
          },
        },
        NodeProto: {
          fields: {
            input: { rule: 'repeated', type: 'string', id: 1 },
            output: { rule: 'repeated', type: 'string', id: 2 },
            name: { type: 'string', id: 3 },
            opType: { type: 'string', id: 4 },
            attribute: { rule: 'repeated', type: 'AttributeProto', id: 5 },
          },
        },
        AttributeProto: {
          fields: {
            name: { type: 'string', id: 1 },
            f: { type: 'float', id: 2 },
            i: { type: 'int64', id: 3 },
            floats: { rule: 'repeated', type: 'float', id: 7 },
            ints: { rule: 'repeated', type: 'int64', id: 8 },
            type: { type: 'int32', id: 20 },
          },
        },
        TensorProto: {
          fields: {
            dims: { rule: 'repeated', type: 'int64', id: 1 },
            dataType: { type: 'int32', id: 2 },
            name: { type: 'string', id: 8 },
            rawData: { type: 'bytes', id: 9 },
          },
        },
        ValueInfoProto: { fields: { name: { type: 'string', id: 1 }, type: { type: 'TypeProto', id: 2 } } },
        TypeProto: { fields: { tensorType: { type: 'TypeProtoTensor', id: 1 } } },
        TypeProtoTensor: { fields: { elemType: { type: 'int32', id: 1 }, shape: { type: 'TensorShapeProto', id: 2 } } },
        TensorShapeProto: { fields: { dim: { rule: 'repeated', type: 'Dimension', id: 1 } } },
        Dimension: { fields: { dimValue: { type: 'int64', id: 1 }, dimParam: { type: 'string', id: 2 } } },
      },
    },
  },
});

export const ModelProto = root.lookupType('onnx.ModelProto');

/** ONNX TensorProto.DataType values we use. */
export const DataType = { FLOAT: 1, INT64: 7 } as const;
/** ONNX AttributeProto.AttributeType values we use. */
export const AttributeType = { FLOAT: 1, INT: 2, FLOATS: 6, INTS: 7 } as const;

export interface TensorMessage {
  name: string;
  dims: number[];
  dataType: number;
  rawData: Uint8Array;
}
export interface AttributeMessage {
  name: string;
  type: number;
  f?: number;
  i?: number;
  floats?: number[];
  ints?: number[];
}
export interface NodeMessage {
  name: string;
  opType: string;
  input: string[];
  output: string[];
  attribute: AttributeMessage[];
}
export interface ValueInfoMessage {
  name: string;
  type: { tensorType: { elemType: number; shape: { dim: Array<{ dimValue?: number; dimParam?: string }> } } };
}
export interface ModelMessage {
  irVersion: number;
  producerName: string;
  producerVersion: string;
  docString: string;
  opsetImport: Array<{ domain: string; version: number }>;
  metadataProps: Array<{ key: string; value: string }>;
  graph: {
    name: string;
    node: NodeMessage[];
    initializer: TensorMessage[];
    input: ValueInfoMessage[];
    output: ValueInfoMessage[];
  };
}

export function encodeModel(model: ModelMessage): Uint8Array {
  return ModelProto.encode(ModelProto.fromObject(model)).finish();
}

export function decodeModel(bytes: Uint8Array): ModelMessage {
  return ModelProto.toObject(ModelProto.decode(bytes), { longs: Number, defaults: true }) as unknown as ModelMessage;
}
