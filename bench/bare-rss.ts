/**
 * The memory floor a stream is judged against: a bare onnxruntime-node process, no harness and no
 * phonemizer, with the session settings of the profile the streams ran (piper-tts: the arena on;
 * libpiper: off) at 1 thread, running what one stream runs in a round of
 * the default run: the stream's own warm-up (every sentence, the longest first, as a stream warms),
 * then its timed passes over the same phoneme ids. Warming on the first sentence instead peaked
 * 86 MiB lower for siwis (391 against 477 MiB, 2026-12-06): the arena grows with the order it is
 * asked in, and that was the "harness" gap. The ids come from a JSON file written by the parent. Prints one JSON
 * line with its peak RSS.
 */
import { readFileSync } from 'node:fs';
import * as ort from 'onnxruntime-node';
import { SESSION_SETTINGS, type SessionProfile } from '../lib/voice/session-profile.js';
import { quietTelemetry } from '../lib/voice/onnxruntime.js';
import { warmupOrder } from '../lib/throughput/worker/engines.js';

interface BareInput {
  onnxPath: string;
  scales: [number, number, number];
  sentences: number[][];
  passes: number;
  /** The stream's warm-up passes (every sentence, the longest first, each). */
  warmups: number;
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
// The warm-up a stream runs (engines.ts): every sentence, the longest first, once per warm-up pass.
const order = warmupOrder(input.sentences.map((ids) => ids.length)).flatMap((i) => feeds[i] ?? []);
for (let w = 0; w < input.warmups; w += 1) await run(order);
for (let p = 0; p < input.passes; p += 1) await run(feeds);
const hwm = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? Number.NaN) * 1024;
process.stdout.write(`${JSON.stringify({ peakBytes: hwm })}\n`);
