import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { ProcessAdapter } from '../../../lib/workers/process-adapter.js';
import { DEFAULT_TIMEOUTS, type ArmRun, type ArmRunParams } from '../../../lib/throughput/arm/arm.js';
import {
  guessedStreamBytes,
  loadTogether,
  measuredStreamBytes,
  runVoiceRound,
  type VoiceRoundStep,
} from '../../../lib/throughput/run/voice-round.js';
import type { StreamWorker, WorkerAdapter } from '../../../lib/workers/worker.js';
import { alive } from '../../helpers/alive.js';

const FAKE = fileURLToPath(new URL('../../../lib/throughput/worker/spin-stream.js', import.meta.url));
const init = {
  voice: {
    name: 'fake',
    onnxPath: '/nonexistent',
    config: {
      audio: { sample_rate: 22050 },
      espeak: { voice: 'fr' },
      inference: { noise_scale: 0, length_scale: 1, noise_w: 0 },
      phoneme_id_map: { _: [0] },
      num_symbols: 1,
      num_speakers: 1,
    },
  },
  threads: 1,
  prepared: {
    sentences: [{ text: 'x', phonemes: ['x'], ids: [1, 0, 2], phonemizeSeconds: 0 }],
    phonemizeSeconds: 0,
    missingPhonemes: {},
  },
  warmup: 1,
  passes: 1,
};
const MiB = 2 ** 20;

/** Two arms of a voice on spin-stream children (1 and 2 streams), every started worker remembered. */
function steps(modes: [string, string]): { steps: VoiceRoundStep[]; workers: StreamWorker[] } {
  const workers: StreamWorker[] = [];
  const adapter = (mode: string): WorkerAdapter => {
    const inner = new ProcessAdapter({ entry: FAKE, args: () => [mode] });
    return {
      isolation: 'process',
      spawn: (o) => {
        const w = inner.spawn(o);
        workers.push(w);
        return w;
      },
    };
  };
  const params = (mode: string, streams: number): ArmRunParams => ({
    adapter: adapter(mode),
    streams,
    cores: Array.from({ length: streams }, () => undefined),
    init,
    timeouts: { ...DEFAULT_TIMEOUTS, barrierMs: 10_000, loadMs: 10_000 },
  });
  const arm = (name: string) => ({ key: name, voice: {} as never, condition: {} as never });
  return {
    workers,
    steps: [
      { arm: arm('a'), position: 1, index: 1, params: params(modes[0], 1) },
      { arm: arm('b'), position: 2, index: 2, params: params(modes[1], 2) },
    ],
  };
}

describe("a voice's arms in one round", () => {
  it('loads them together only when every arm is processes and their streams fit in half of MemAvailable', () => {
    const proc = (flux: number) => ({ isolation: 'process' as const, flux });
    const arms = [
      { condition: proc(1), streamBytes: 500 * MiB },
      { condition: proc(2), streamBytes: 500 * MiB },
    ];
    assert.equal(loadTogether(arms, 3000 * MiB), true);
    assert.equal(loadTogether(arms, 2999 * MiB), false);
    assert.equal(loadTogether(arms, null), false);
    assert.equal(
      loadTogether(
        [arms[0] as (typeof arms)[0], { condition: { isolation: 'thread' as const, flux: 1 }, streamBytes: MiB }],
        10_000 * MiB,
      ),
      false,
    );
    assert.equal(loadTogether(arms.slice(0, 1), 10_000 * MiB), false);
    // Before a round measured it, a stream is guessed above what the synthetic voices reach (430-530 MiB).
    assert.ok(guessedStreamBytes(59 * MiB) > 530 * MiB);
    assert.equal(measuredStreamBytes([]), undefined);
    const run = {
      state: 'done',
      children: [{ rang: 0, pid: 1, core: undefined, passes: [{ peakRssBytes: 7 }, { peakRssBytes: 9 }] }],
      sync: [],
      timedCpu: [],
      wallSeconds: 1,
    } as unknown as ArmRun;
    assert.equal(measuredStreamBytes([{ round: 1, order: 1, run }]), 9);
  });

  it('together: every arm is loaded and warmed up before the first timed pass, the arms run in order, and all are reaped', async () => {
    const { steps: s, workers } = steps(['normal', 'normal']);
    const spawnedBefore: number[] = [];
    const runs: ArmRun[] = [];
    await runVoiceRound(s, true, {
      before: () => void spawnedBefore.push(workers.length),
      after: async (_, run) => void runs.push(run),
    });
    assert.deepEqual(spawnedBefore, [3, 3]);
    assert.deepEqual(
      runs.map((r) => r.state),
      ['done', 'done'],
    );
    const [a, b] = runs as [ArmRun, ArmRun];
    const timed = (r: ArmRun, warmup: boolean) => r.sync.filter((x) => x.warmup === warmup);
    // b's timed pass starts after a's ended; every warm-up (untimed) is done before the first timed pass.
    assert.ok(
      Math.min(...timed(b, false).flatMap((x) => x.startsMs)) >= Math.max(...timed(a, false).flatMap((x) => x.endsMs)),
    );
    assert.ok(
      Math.max(...[a, b].flatMap((r) => timed(r, true).flatMap((x) => x.endsMs))) <=
        Math.min(...timed(a, false).flatMap((x) => x.startsMs)),
    );
    assert.deepEqual(
      runs.map((r) => r.sync.length),
      [2, 2],
    );
    assert.ok(workers.every((w) => !alive(w.pid)));
  });

  it('one at a time: an arm is started only at its turn', async () => {
    const { steps: s, workers } = steps(['normal', 'normal']);
    const spawnedBefore: number[] = [];
    await runVoiceRound(s, false, {
      before: () => void spawnedBefore.push(workers.length),
      after: async () => undefined,
    });
    assert.deepEqual(spawnedBefore, [0, 1]);
  });

  it('an arm that fails does not stop the next; an interruption reaps the arms still open', async () => {
    const failing = steps(['exit-in-pass', 'normal']);
    const states: string[] = [];
    await runVoiceRound(failing.steps, true, {
      before: () => undefined,
      after: async (_, run) => void states.push(run.state),
    });
    assert.deepEqual(states, ['failed', 'done']);
    const stopped = steps(['normal', 'normal']);
    await assert.rejects(
      runVoiceRound(stopped.steps, true, {
        before: (step) => {
          if (step.index === 2) throw new Error('interrupted');
        },
        after: async () => undefined,
      }),
      /interrupted/,
    );
    assert.equal(stopped.workers.length, 3);
    assert.ok(
      stopped.workers.every((w) => !alive(w.pid)),
      'a loaded arm outlived the interruption',
    );
  });
});
