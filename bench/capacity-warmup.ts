/**
 * node dist/bench/capacity-warmup.js [REPS]: what a fresh capacity worker's first listener pays after
 * its warm-up, under the default session profile and the capacity run's built-in reply. For each
 * synthetic voice, rep and warm-up (the first sentence once, as capacity workers did before; the
 * reply twice, warmup.ts), a child process loads the voice at 1 thread, warms up, then synthesizes
 * the reply three times as three listeners of one worker would (sentence 0, 1, 0, 1, 0, 1), and
 * prints each sentence's compute seconds. Reported per cell: the first listener's compute over the
 * third's, median and range over the reps (1.00: the warm-up leaves nothing for the first listener).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { warmupOrder } from '../lib/capacity/worker/warmup.js';
import { median } from '../lib/measure/stats.js';
import { CAPACITY_SENTENCES } from '../lib/voice/default-text.js';
import { quietTelemetry } from '../lib/voice/onnxruntime.js';
import { locateVoice, voicePlaces } from '../lib/voice/places.js';
import { Synthesizer } from '../lib/voice/synthesizer.js';
import { prepareText } from '../lib/voice/text.js';

const VOICES = ['synthetic-siwis-medium', 'synthetic-tom-medium'] as const;
const WARMUPS = { 'first sentence once': 0, 'the reply twice': 2 } as const;
type Warmup = keyof typeof WARMUPS;

async function child(voiceName: string, warmup: Warmup): Promise<void> {
  quietTelemetry();
  const voice = await locateVoice(voiceName, voicePlaces(undefined));
  const prepared = await prepareText(CAPACITY_SENTENCES, voice.config);
  const synth = await Synthesizer.create(voice, { threads: 1 });
  const feeds = synth.feedsFor(prepared);
  const order = WARMUPS[warmup] === 0 ? [0] : warmupOrder(feeds.length, WARMUPS[warmup]);
  for (const i of order) {
    const feed = feeds[i];
    if (feed) await synth.synthesize([feed]);
  }
  const listeners: number[] = [];
  for (let l = 0; l < 3; l += 1) {
    let seconds = 0;
    for (const feed of feeds) seconds += (await synth.synthesize([feed])).inferenceSeconds;
    listeners.push(seconds);
  }
  await synth.release();
  process.stdout.write(`${JSON.stringify(listeners)}\n`);
}

function parent(reps: number): void {
  const self = fileURLToPath(import.meta.url);
  console.log(`${reps} fresh processes per cell, 1 thread, default session: first listener's compute / third's`);
  for (const voiceName of VOICES) {
    for (const warmup of Object.keys(WARMUPS) as Warmup[]) {
      const ratios: number[] = [];
      for (let rep = 0; rep < reps; rep += 1) {
        const r = spawnSync(process.execPath, [self, '--child', voiceName, warmup], {
          encoding: 'utf8',
          timeout: 300_000,
        });
        const line = r.stdout.trim().split('\n').at(-1) ?? '';
        if (r.status !== 0 || !line.startsWith('[')) throw new Error(`child failed: ${r.stderr.trim().slice(-300)}`);
        const [first, , third] = JSON.parse(line) as number[];
        if (first === undefined || third === undefined) throw new Error(`child printed ${line}`);
        ratios.push(first / third);
      }
      console.log(
        `  ${voiceName}, warmed on ${warmup.padEnd(20)} median ${median(ratios).toFixed(2)}, ` +
          `range ${Math.min(...ratios).toFixed(2)}-${Math.max(...ratios).toFixed(2)}`,
      );
    }
  }
}

if (process.argv[2] === '--child') await child(process.argv[3] ?? '', (process.argv[4] ?? '') as Warmup);
else parent(Number(process.argv[2] ?? 5));
