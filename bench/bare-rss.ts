/**
 * The memory floor a stream is judged against: a bare onnxruntime-node process, no harness and no
 * phonemizer, with the session settings of the profile the streams ran (piper-tts: the arena on;
 * libpiper: off) at 1 thread, running what one stream runs in a round of
 * the default run: the stream's own warm-up (its longest sentence, as a one-thread stream warms),
 * then its timed passes over the same phoneme ids. Warming on the first sentence instead peaked
 * 86 MiB lower for siwis (391 against 477 MiB): the arena grows with the order it is asked in, and
 * that was the "harness" gap. The ids come from a JSON file written by the parent. Prints one JSON
 * line with its peak RSS.
 */
import { readFileSync } from 'node:fs';
import * as ort from 'onnxruntime-node';
import { SESSION_SETTINGS, type SessionProfile } from '../lib/voice/session-profile.js';
import { quietTelemetry } from '../lib/voice/onnxruntime.js';
import { longestIndex } from '../lib/throughput/worker/engines.js';

interface BareInput {
  onnxPath: string;
  scales: [number, number, number];
  sentences: number[][];
  passes: number;
  session: SessionProfile;
}

// As in the streams: no telemetry client inside the processes measured.
quietTelemetry();

const input = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as BareInput;
const session = await ort.InferenceSession.create(input.onnxPath, {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  ...SESSION_SETTINGS[input.session].options,
});
const scales = new ort.Tensor('float32', Float32Array.from(input.scales), [3]);
const feeds = input.sentences.map((ids) => ({
  input: new ort.Tensor(
    'int64',
    BigInt64Array.from(ids, (v) => BigInt(v)),
    [1, ids.length],
  ),
  input_lengths: new ort.Tensor('int64', BigInt64Array.from([BigInt(ids.length)]), [1]),
  scales,
}));
const run = async (list: typeof feeds): Promise<void> => {
  for (const f of list) await session.run(f);
};
// The warm-up a one-thread stream runs (engines.ts): its longest sentence.
const longest = longestIndex(input.sentences.map((ids) => ids.length));
await run(feeds.slice(longest, longest + 1));
for (let p = 0; p < input.passes; p += 1) await run(feeds);
const hwm = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? Number.NaN) * 1024;
process.stdout.write(`${JSON.stringify({ peakBytes: hwm })}\n`);
