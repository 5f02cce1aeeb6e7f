/**
 * node dist/bench/warmup.js [REPS] [VOICE] [THREADS...]: what a fresh stream's first timed passes
 * still pay after its warm-up, under the session profile the runs use (piper-tts: arena and memory
 * pattern on), per thread count (default 1 and 2) and warm-up: none (the control: a bench that shows
 * no cost without a warm-up cannot tell one warm-up from another); the longest sentence (a one-thread
 * stream's until 2026-12-07); every sentence once (a threaded stream's until then); every sentence
 * twice (the default now), each warm-up pass the longest first as the streams run it. Each cell in
 * a fresh process per rep (a session's state is per process), the cells' order turned every rep: a
 * child loads the voice, warms up, times five passes of the built-in text. Printed per cell: the
 * first and second timed passes' compute seconds over the settled pass (the median of the fourth
 * and fifth), median and range over the reps; 1.00 is a warm-up that leaves nothing.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from '../lib/measure/stats.js';
import { warmupOrder } from '../lib/throughput/worker/engines.js';
import { DEFAULT_SENTENCES } from '../lib/voice/default-text.js';
import { locateVoice, voicePlaces } from '../lib/voice/places.js';
import { quietTelemetry } from '../lib/voice/onnxruntime.js';
import { DEFAULT_SESSION_PROFILE } from '../lib/voice/session-profile.js';
import { Synthesizer } from '../lib/voice/synthesizer.js';
import { prepareText } from '../lib/voice/text.js';

const WARMUPS = { none: 0, longest: -1, 'every sentence once': 1, 'every sentence twice': 2 } as const;
type Warmup = keyof typeof WARMUPS;
const TIMED_PASSES = 5;

async function child(voiceName: string, threads: number, warmup: Warmup): Promise<void> {
  quietTelemetry();
  const voice = await locateVoice(voiceName, voicePlaces(undefined));
  const prepared = await prepareText(DEFAULT_SENTENCES, voice.config);
  const synth = await Synthesizer.create(voice, { threads, session: DEFAULT_SESSION_PROFILE });
  const feeds = synth.feedsFor(prepared);
  const order = warmupOrder(prepared.sentences.map((x) => x.ids.length)).flatMap((i) => feeds[i] ?? []);
  const times = WARMUPS[warmup];
  if (times < 0) await synth.synthesize(order.slice(0, 1));
  for (let w = 0; w < times; w += 1) await synth.synthesize(order);
  const seconds: number[] = [];
  for (let p = 0; p < TIMED_PASSES; p += 1) seconds.push((await synth.synthesize(feeds)).inferenceSeconds);
  await synth.release();
  process.stdout.write(`${JSON.stringify({ seconds })}\n`);
}

function parent(reps: number, voiceName: string, threadCounts: readonly number[]): void {
  const self = fileURLToPath(import.meta.url);
  const cells = new Map<string, Array<[number, number]>>();
  const names = Object.keys(WARMUPS) as Warmup[];
  const configs = threadCounts.flatMap((threads) => names.map((warmup) => ({ threads, warmup })));
  for (let rep = 0; rep < reps; rep += 1) {
    // Turned by one every rep, so no configuration always follows the same one.
    const order = configs.map((_, i) => configs[(i + rep) % configs.length] as (typeof configs)[number]);
    for (const { threads, warmup } of order) {
      const r = spawnSync(process.execPath, [self, '--child', voiceName, String(threads), warmup], {
        encoding: 'utf8',
        timeout: 300_000,
      });
      const line = r.stdout.trim().split('\n').at(-1) ?? '';
      if (r.status !== 0 || !line.startsWith('{')) throw new Error(`child failed: ${r.stderr.trim().slice(-300)}`);
      const { seconds } = JSON.parse(line) as { seconds: number[] };
      const settled = median(seconds.slice(3));
      const key = `T=${threads} warm-up ${warmup}`;
      cells.set(key, [...(cells.get(key) ?? []), [(seconds[0] ?? 0) / settled, (seconds[1] ?? 0) / settled]]);
    }
  }
  const show = (xs: number[]): string =>
    `${median(xs).toFixed(2)} (${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)})`;
  console.log(
    `${voiceName}, ${DEFAULT_SESSION_PROFILE}, ${reps} fresh processes per cell: timed pass over the settled one, compute seconds`,
  );
  for (const [key, r] of cells)
    console.log(`  ${key.padEnd(32)} first ${show(r.map((x) => x[0]))}, second ${show(r.map((x) => x[1]))}`);
}

const args = process.argv.slice(2);
if (args[0] === '--child') await child(args[1] ?? '', Number(args[2]), (args[3] ?? 'none') as Warmup);
else {
  const threadCounts = args.slice(2).map(Number);
  parent(Number(args[0] ?? 6), args[1] ?? 'synthetic-siwis-medium', threadCounts.length > 0 ? threadCounts : [1, 2]);
}
