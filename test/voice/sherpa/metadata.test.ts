// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeModel, encodeModel } from '../../../lib/voice/synthetic/onnx-proto.js';
import { readModelMetadata, withModelMetadata } from '../../../lib/voice/sherpa/metadata.js';

/** A tiny but real ModelProto with a graph and one metadata entry already in it. */
function tinyModel(): Uint8Array {
  return encodeModel({
    irVersion: 8,
    producerName: 'test',
    producerVersion: '1',
    docString: '',
    graph: {
      name: 'g',
      node: [{ input: ['x'], output: ['y'], opType: 'Identity', name: 'id', attribute: [] }],
      input: [],
      output: [],
      initializer: [],
    },
    opsetImport: [{ domain: '', version: 17 }],
    metadataProps: [{ key: 'language', value: 'fr' }],
  });
}

describe('ONNX metadata', () => {
  it('reads the entries a model already has', () => {
    assert.deepEqual([...readModelMetadata(tinyModel())], [['language', 'fr']]);
  });

  it('appends entries a protobuf decoder then sees, keeps the graph, and leaves an existing key as it was', () => {
    const out = withModelMetadata(tinyModel(), { sample_rate: '22050', language: 'en', comment: 'piper é' });
    assert.deepEqual(Object.fromEntries(readModelMetadata(out)), {
      language: 'fr',
      sample_rate: '22050',
      comment: 'piper é',
    });
    const decoded = decodeModel(out);
    assert.equal(decoded.graph.node[0]?.opType, 'Identity');
    assert.deepEqual(
      decoded.metadataProps.map((m) => `${m.key}=${m.value}`),
      ['language=fr', 'sample_rate=22050', 'comment=piper é'],
    );
  });

  it('refuses bytes that are not a protobuf message with VOICE_LOAD', () => {
    assert.throws(
      () => readModelMetadata(Uint8Array.from([0x0f, 0xff, 0xff])),
      (e: Error & { code?: string }) => e.code === 'VOICE_LOAD',
    );
    // A length that runs past the end.
    assert.throws(() => readModelMetadata(Uint8Array.from([0x72, 0x7f, 0x01])), /runs past the end/);
  });
});
