// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { conditionKey } from '../../../lib/throughput/arm/arm-key.js';
import { conditionLabel, engineScopes, expandConditions } from '../../../lib/throughput/arm/conditions.js';

describe('engines as a dimension of an arm', () => {
  it('leaves the default run as it was: no engine fields, the same keys', () => {
    const c = expandConditions({});
    assert.equal(c.length, 4);
    assert.ok(c.every((x) => x.moteur === undefined && x.portee === undefined));
    assert.equal(conditionKey('v', c[1]!), 'v|K2|T1|free|process');
  });

  it('--engine both puts the two engines of one layout side by side, both timed text to audio', () => {
    const c = expandConditions({ engine: 'both' });
    assert.equal(c.length, 8);
    assert.deepEqual(
      c.slice(0, 2).map((x) => [x.flux, x.moteur, x.portee]),
      [
        [1, 'onnxruntime', 'text'],
        [1, 'sherpa', 'text'],
      ],
    );
    assert.equal(new Set(c.map((x) => conditionKey('v', x))).size, 8);
    assert.equal(conditionLabel(c[1]!), 'K=1 T=1 free [sherpa-onnx, text]');
    assert.deepEqual(
      expandConditions({ streams: [2], engine: 'onnxruntime', scope: 'text' }).map((x) => [x.moteur, x.portee]),
      [['onnxruntime', 'text']],
    );
  });

  it('refuses sherpa-onnx at scope model and in threads, naming the option and the way out', () => {
    assert.throws(
      () => engineScopes('sherpa', 'model', undefined),
      /: --scope model cannot time sherpa-onnx: it phonemizes inside its own call; use --scope text/,
    );
    assert.throws(
      () => engineScopes('both', undefined, 'thread'),
      /--isolation thread with --engine both: sherpa-onnx runs only as separate processes.*use --isolation process, or --engine onnxruntime/,
    );
    assert.throws(() => engineScopes('sherpa', undefined, 'both'), /--isolation both/);
    assert.deepEqual(engineScopes('onnxruntime', undefined, 'thread'), [{ moteur: 'onnxruntime', portee: 'model' }]);
  });
});
