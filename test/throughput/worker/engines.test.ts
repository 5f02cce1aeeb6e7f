// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createPassEngine, longestIndex, warmupOrder } from '../../../lib/throughput/worker/engines.js';
import type { PreparedText } from '../../../lib/voice/text.js';
import type { VoiceInfo } from '../../../lib/voice/load.js';

/** Three sentences whose ids are 5, 9 and 7 long: the second is the longest. */
const prepared: PreparedText = {
  sentences: [5, 9, 7].map((n, i) => ({
    text: `line ${i}`,
    phonemes: [],
    ids: Array.from({ length: n }, () => 1),
    phonemizeSeconds: 0,
  })),
  phonemizeSeconds: 0,
  missingPhonemes: {},
};

/** A synthesizer that records which sentences each run was given, by their ids' length. */
function recordingSynth(runs: number[][]) {
  return {
    feedsFor: (p: PreparedText) => p.sentences.map((s) => ({ feeds: { length: s.ids.length }, phonemizeSeconds: 0 })),
    synthesize: async (feeds: ReadonlyArray<{ feeds: { length: number } }>) => {
      runs.push(feeds.map((f) => f.feeds.length));
      return { audioSeconds: 1, inferenceSeconds: 0.1 };
    },
    release: async () => undefined,
  };
}

/** The sentences (by ids' length) a warm-up pass, then a timed pass, gave the synthesizer. */
async function warmupThenTimed(threads: number): Promise<number[][]> {
  const runs: number[][] = [];
  const engine = await createPassEngine(
    { kind: 'onnxruntime', scope: 'model', session: 'libpiper' },
    {} as VoiceInfo,
    threads,
    prepared,
    async () => recordingSynth(runs) as never,
  );
  await engine.run(true);
  await engine.run(false);
  return runs;
}

describe('a timed pass engine', () => {
  it('warms up on every sentence, the longest first, at one thread or more; then times every sentence in order', async () => {
    // The longest alone left the first timed pass 20-35% slow under piper-tts (method-notes.md).
    for (const threads of [1, 2])
      assert.deepEqual(await warmupThenTimed(threads), [
        [9, 7, 5],
        [5, 9, 7],
      ]);
  });

  it('orders a warm-up by size, the longest first, equals in their order', () => {
    assert.deepEqual(warmupOrder([3, 8, 8, 2]), [1, 2, 0, 3]);
    assert.deepEqual(warmupOrder([]), []);
  });

  it('finds the longest, the first of equals, and nothing in an empty list', () => {
    assert.equal(longestIndex([3, 8, 8, 2]), 1);
    assert.equal(longestIndex([4]), 0);
    assert.equal(longestIndex([]), 0);
  });
});
