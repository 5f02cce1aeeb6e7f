/**
 * node dist/bench/warmup.js [REPS] [VOICE] [THREADS...]: what a fresh stream's first timed pass still
 * pays after its warm-up, per thread count and warm-up, each session in a process of its own (the
 * allocator's state is per process, so a second session in one process would hide the cost). For
 * every rep, thread count (default 1 and 2) and warm-up (none; the text's first sentence; its
 * longest; the longest three times, as long as a whole pass of the built-in text; every sentence
 * once), in an order that turns every rep: a child loads the voice, warms up, times two passes of
 * the built-in text, and prints their compute seconds and the minor page faults each took (fresh
 * memory the allocator had to map: a count the machine's other tenants do not move, unlike
 * seconds). Prints per cell the median first/second of both. "none" is the control: a bench that
 * shows no cost without any warm-up cannot tell one warm-up from another; "longest x3" against
 * "every sentence" tells a cost per sentence from a cost of too short a warm-up.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from '../lib/measure/stats.js';
import { longestIndex } from '../lib/throughput/worker/engines.js';
import { DEFAULT_SENTENCES } from '../lib/voice/default-text.js';
import { locateVoice, voicePlaces } from '../lib/voice/places.js';
import { quietTelemetry } from '../lib/voice/onnxruntime.js';
import { Synthesizer } from '../lib/voice/synthesizer.js';
import { prepareText } from '../lib/voice/text.js';

const WARMUPS = ['none', 'first', 'longest', 'longest x3', 'every sentence'] as const;
type Warmup = (typeof WARMUPS)[number];

async function child(voiceName: string, threads: number, warmup: Warmup): Promise<void> {
  quietTelemetry();
  const voice = await locateVoice(voiceName, voicePlaces(undefined));
  const prepared = await prepareText(DEFAULT_SENTENCES, voice.config);
  const synth = await Synthesizer.create(voice, { threads });
  const feeds = synth.feedsFor(prepared);
  const longest = feeds[longestIndex(prepared.sentences.map((s) => s.ids.length))];
  const first = feeds[0];
  if (warmup === 'first' && first) await synth.synthesize([first]);
  if (warmup === 'longest' && longest) await synth.synthesize([longest]);
  if (warmup === 'longest x3' && longest) for (let i = 0; i < 3; i += 1) await synth.synthesize([longest]);
  if (warmup === 'every sentence') await synth.synthesize(feeds);
  const f0 = process.resourceUsage().minorPageFault;
  const a = await synth.synthesize(feeds);
  const f1 = process.resourceUsage().minorPageFault;
  const b = await synth.synthesize(feeds);
  const f2 = process.resourceUsage().minorPageFault;
  await synth.release();
  const out = { first: a.inferenceSeconds, second: b.inferenceSeconds, firstFaults: f1 - f0, secondFaults: f2 - f1 };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

function parent(reps: number, voiceName: string, threadCounts: readonly number[]): void {
  const self = fileURLToPath(import.meta.url);
  const cells = new Map<string, number[]>();
  const faults = new Map<string, Array<[number, number]>>();
  const configs = threadCounts.flatMap((threads) => WARMUPS.map((warmup) => ({ threads, warmup })));
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
      const r0 = JSON.parse(line) as { first: number; second: number; firstFaults: number; secondFaults: number };
      const key = `T=${threads} warm-up ${warmup}`;
      cells.set(key, [...(cells.get(key) ?? []), r0.first / r0.second]);
      faults.set(key, [...(faults.get(key) ?? []), [r0.firstFaults, r0.secondFaults]]);
    }
  }
  console.log(`${voiceName}, ${reps} fresh processes per cell: first timed pass / second, compute seconds`);
  for (const [key, ratios] of cells) {
    const f = faults.get(key) ?? [];
    console.log(
      `  ${key.padEnd(24)} median ${median(ratios).toFixed(3)}, ${ratios.filter((x) => x > 1).length} of ${ratios.length} slower, ` +
        `range ${Math.min(...ratios).toFixed(3)}-${Math.max(...ratios).toFixed(3)}; minor page faults, median, ` +
        `first ${median(f.map((x) => x[0]))}, second ${median(f.map((x) => x[1]))}`,
    );
  }
}

const args = process.argv.slice(2);
if (args[0] === '--child') await child(args[1] ?? '', Number(args[2]), (args[3] ?? 'none') as Warmup);
else {
  const threadCounts = args.slice(2).map(Number);
  parent(Number(args[0] ?? 6), args[1] ?? 'synthetic-siwis-medium', threadCounts.length > 0 ? threadCounts : [1, 2]);
}
