// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  chooseSession,
  DEFAULT_SESSION_PROFILE,
  profileOfLabel,
  SESSION_SETTINGS,
  sessionLine,
} from '../../lib/voice/session-profile.js';
import { InitMessageSchema } from '../../lib/workers/messages.js';

/** What every archive from before profiles says of its session, word for word. */
const OLD_LABEL =
  'intra-op T, inter-op 1, sequential, graph optimization basic, CPU memory arena off, memory pattern off (as Piper sets them)';

describe('session profiles', () => {
  it("piper-tts is onnxruntime's defaults as Python Piper leaves them; libpiper is Piper's C++ library's, labelled as archives always were", () => {
    assert.equal(DEFAULT_SESSION_PROFILE, 'piper-tts');
    assert.deepEqual(SESSION_SETTINGS['piper-tts'].options, {
      graphOptimizationLevel: 'all',
      enableCpuMemArena: true,
      enableMemPattern: true,
    });
    assert.deepEqual(SESSION_SETTINGS.libpiper.options, {
      graphOptimizationLevel: 'basic',
      enableCpuMemArena: false,
      enableMemPattern: false,
    });
    // Old archives keep comparing with new libpiper runs: the same words.
    assert.equal(SESSION_SETTINGS.libpiper.label, OLD_LABEL);
    assert.equal(profileOfLabel(OLD_LABEL), 'libpiper');
    assert.equal(profileOfLabel(SESSION_SETTINGS['piper-tts'].label), 'piper-tts');
    assert.equal(profileOfLabel(undefined), null);
    assert.match(sessionLine('piper-tts'), /^session: piper-tts, Python Piper's .*arena and memory pattern on$/);
    assert.match(sessionLine(null), /not recorded/);
  });

  it('a run takes the asked profile, a resumed run its own, a run with sherpa-onnx libpiper; anything else is one line naming --session', () => {
    assert.equal(chooseSession({ asked: undefined }), 'piper-tts');
    assert.equal(chooseSession({ asked: 'libpiper' }), 'libpiper');
    assert.equal(chooseSession({ asked: undefined, resumed: 'libpiper' }), 'libpiper');
    assert.equal(chooseSession({ asked: 'libpiper', resumed: 'libpiper' }), 'libpiper');
    assert.equal(chooseSession({ asked: undefined, sherpa: true }), 'libpiper');
    assert.throws(() => chooseSession({ asked: 'onnx' }), /--session must be one of piper-tts, libpiper, got "onnx"/);
    assert.throws(
      () => chooseSession({ asked: 'piper-tts', resumed: 'libpiper' }),
      /--resume: the interrupted run measured with --session libpiper, not piper-tts; resume without --session/,
    );
    assert.throws(
      () => chooseSession({ asked: 'piper-tts', sherpa: true }),
      /--session piper-tts with sherpa-onnx: .*use --session libpiper/,
    );
  });

  it('a worker told nothing runs the default profile; one told libpiper runs it', () => {
    const base = {
      type: 'init',
      rang: 0,
      voice: { name: 'v', onnxPath: '/v.onnx', config: {} },
      threads: 1,
      prepared: { sentences: [], phonemizeSeconds: 0, missingPhonemes: {} },
      warmup: 0,
      passes: 1,
    };
    const parsed = InitMessageSchema.safeParse(base);
    // The config is checked too: only the engine is looked at here.
    const engine = parsed.success ? parsed.data.engine : InitMessageSchema.shape.engine.parse(undefined);
    assert.deepEqual(engine, { kind: 'onnxruntime', scope: 'model', session: 'piper-tts' });
    assert.deepEqual(
      InitMessageSchema.shape.engine.parse({ kind: 'onnxruntime', scope: 'text', session: 'libpiper' }),
      {
        kind: 'onnxruntime',
        scope: 'text',
        session: 'libpiper',
      },
    );
    assert.equal(
      InitMessageSchema.shape.engine.safeParse({ kind: 'onnxruntime', scope: 'model', session: 'python' }).success,
      false,
    );
  });
});
