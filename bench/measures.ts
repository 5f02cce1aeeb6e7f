/** Each bench figure, measured on its own. */
import type { SessionProfile } from '../lib/voice/session-profile.js';
import { execFile } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { rmSync, readFileSync, mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import * as ort from 'onnxruntime-node';
import { median } from '../lib/measure/stats.js';
import { ProcessAdapter } from '../lib/workers/process-adapter.js';
import { DEFAULT_TIMEOUTS, runArmWorkers } from '../lib/throughput/arm/arm.js';
import { DEFAULT_WARMUP_PASSES } from '../lib/throughput/run/plan.js';
import { DEFAULT_SENTENCES } from '../lib/voice/default-text.js';
import { SabBarrier } from '../lib/workers/sab-barrier.js';
import { resolveVoice, type VoiceInfo } from '../lib/voice/load.js';
import { Synthesizer } from '../lib/voice/synthesizer.js';
import { prepareText } from '../lib/voice/text.js';
import { mediumMacs } from '../lib/voice/synthetic/medium.js';
import { quietTelemetry } from '../lib/voice/onnxruntime.js';

const SPIN = fileURLToPath(new URL('../lib/throughput/worker/spin-stream.js', import.meta.url));
const THREAD = new URL('./barrier-thread.js', import.meta.url);

// As in the streams: no telemetry client inside the processes measured.
quietTelemetry();

export interface Skew {
  releases: number;
  medianMs: number;
  maxMs: number;
}

/** The parent-coordinated barrier of the process isolation, with the real coordinator and two real processes. */
export async function processSkew(releases: number): Promise<Skew> {
  const run = await runArmWorkers({
    adapter: new ProcessAdapter({ entry: SPIN, args: () => ['normal', '5'] }),
    streams: 2,
    cores: [undefined, undefined],
    init: {
      voice: {
        name: 'spin',
        onnxPath: '-',
        config: {
          audio: { sample_rate: 1 },
          espeak: { voice: 'x' },
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
      warmup: 0,
      passes: releases,
    },
    timeouts: DEFAULT_TIMEOUTS,
  });
  if (run.state !== 'done') throw new Error(`process skew run ${run.state}: ${run.message}`);
  const skews = run.sync.map((s) => s.skewMs);
  return { releases: skews.length, medianMs: median(skews), maxMs: Math.max(...skews) };
}

/** The SharedArrayBuffer barrier of the thread isolation, with two real worker threads. */
export async function threadSkew(releases: number): Promise<Skew> {
  const barrier = SabBarrier.create(2);
  const results = await Promise.all(
    [0, 1].map(
      () =>
        new Promise<Float64Array>((resolve, reject) => {
          const w = new Worker(THREAD, { workerData: { buffer: barrier.buffer, rounds: releases } });
          w.once('message', resolve);
          w.once('error', reject);
        }),
    ),
  );
  const skews = Array.from({ length: releases }, (_, r) => Math.abs((results[0]?.[r] ?? 0) - (results[1]?.[r] ?? 0)));
  return { releases, medianMs: median(skews), maxMs: Math.max(...skews) };
}

/** session.run wall time over onnxruntime's own profiled model_run time, one thread. */
export async function runOverhead(
  voice: VoiceInfo,
  runs: number,
): Promise<{ wallSeconds: number; profiledSeconds: number; ratio: number }> {
  const prepared = await prepareText(DEFAULT_SENTENCES, voice.config);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pp-profile-'));
  const session = await ort.InferenceSession.create(voice.onnxPath, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    enableProfiling: true,
    profileFilePrefix: path.join(dir, 'profile'),
  });
  const scales = new ort.Tensor('float32', Float32Array.from([0.667, 1, 0.8]), [3]);
  const feeds = prepared.sentences.map((s) => ({
    input: new ort.Tensor(
      'int64',
      BigInt64Array.from(s.ids, (v) => BigInt(v)),
      [1, s.ids.length],
    ),
    input_lengths: new ort.Tensor('int64', BigInt64Array.from([BigInt(s.ids.length)]), [1]),
    scales,
  }));
  let wallMs = 0;
  for (let r = 0; r < runs; r += 1) {
    for (const f of feeds) {
      const t0 = performance.now();
      await session.run(f);
      wallMs += performance.now() - t0;
    }
  }
  session.endProfiling();
  await session.release();
  const file = readdirSync(dir).find((f) => f.endsWith('.json'));
  const events = JSON.parse(readFileSync(path.join(dir, file ?? ''), 'utf8')) as Array<{ name?: string; dur?: number }>;
  const profiledUs = events.filter((e) => e.name === 'model_run').reduce((a, e) => a + (e.dur ?? 0), 0);
  rmSync(dir, { recursive: true, force: true });
  return { wallSeconds: wallMs / 1000, profiledSeconds: profiledUs / 1e6, ratio: wallMs / 1000 / (profiledUs / 1e6) };
}

export interface Fidelity {
  voice: string;
  parameters: number;
  sampleRateHz: number;
  gmacPerAudioSecond: number;
  xRealTime1: number;
  xRealTime2: number;
}

/** Parameters, multiply-accumulates per second of audio, and x-real-time at 1 and 2 threads (median of 3). */
export async function fidelity(name: string, voicesDir: string): Promise<Fidelity> {
  const voice = await resolveVoice(name, voicesDir);
  const prepared = await prepareText(DEFAULT_SENTENCES, voice.config);
  const speed: number[] = [];
  let macs = 0;
  let audio = 0;
  for (const threads of [1, 2]) {
    const s = await Synthesizer.create(voice, { threads });
    const feeds = s.feedsFor(prepared);
    await s.synthesize(feeds);
    const xs: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const r = await s.synthesize(feeds);
      xs.push(r.audioSeconds / r.inferenceSeconds);
      if (threads === 1 && i === 0) {
        audio = r.audioSeconds;
        macs = prepared.sentences.reduce((a, sent, j) => {
          const m = mediumMacs(sent.ids.length);
          return a + m.perId * sent.ids.length + m.perFrame * ((r.sentences[j]?.samples ?? 0) / 256);
        }, 0);
      }
    }
    speed.push(median(xs));
    await s.release();
  }
  return {
    voice: name,
    parameters: voice.config.synthetic?.parameter_count ?? 0,
    sampleRateHz: voice.config.audio.sample_rate,
    gmacPerAudioSecond: macs / audio / 1e9,
    xRealTime1: speed[0] ?? 0,
    xRealTime2: speed[1] ?? 0,
  };
}

export interface RssStages {
  voice: string;
  modelMiB: number;
  runtimeMiB: number;
  phonemizerPeakMiB: number;
  afterPhonemizerMiB: number;
  sessionPeakMiB: number;
  sessionMiB: number;
  sentences: Array<{ audioSeconds: number; peakMiB: number }>;
}

const STAGES = fileURLToPath(new URL('./rss-stages.js', import.meta.url));

/** A stream's memory stage by stage, measured in a fresh process (see rss-stages.ts). */
export async function rssStages(voice: string, voicesDir: string): Promise<RssStages> {
  const { stdout } = await promisify(execFile)(process.execPath, [STAGES, voice, voicesDir], { timeout: 300_000 });
  return JSON.parse(stdout) as RssStages;
}

const BARE = fileURLToPath(new URL('./bare-rss.js', import.meta.url));

/**
 * Peak RSS of a bare onnxruntime-node process running one stream's round of passes on the same ids
 * (see bare-rss.ts): the floor a stream's own peak is set beside.
 */
export async function bareRss(
  voiceName: string,
  voicesDir: string,
  { passes, session, warmups = DEFAULT_WARMUP_PASSES }: { passes: number; session: SessionProfile; warmups?: number },
): Promise<number> {
  const voice = await resolveVoice(voiceName, voicesDir);
  const prepared = await prepareText(DEFAULT_SENTENCES, voice.config);
  const inf = voice.config.inference;
  const file = path.join(os.tmpdir(), `pp-bare-${process.pid}-${voiceName}.json`);
  await writeFile(
    file,
    JSON.stringify({
      onnxPath: voice.onnxPath,
      scales: [inf.noise_scale, inf.length_scale, inf.noise_w],
      sentences: prepared.sentences.map((s) => s.ids),
      passes,
      warmups,
      session,
    }),
  );
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [BARE, file], { timeout: 300_000 });
    return (JSON.parse(stdout) as { peakBytes: number }).peakBytes;
  } finally {
    await rm(file, { force: true });
  }
}

export interface NodeFigures {
  node: string;
  startupMs: number;
  skew: Skew;
  bareBytes: number;
}

const NODE_FIGURES = fileURLToPath(new URL('./node-figures.js', import.meta.url));

/** node-figures.ts run by the given Node binary. */
export async function nodeFigures(nodePath: string, voicesDir: string): Promise<NodeFigures> {
  const { stdout } = await promisify(execFile)(nodePath, [NODE_FIGURES, voicesDir], { timeout: 300_000 });
  return JSON.parse(stdout) as NodeFigures;
}

/** Node 24 LTS from the registry (npx's cache once fetched), as .ci/run brings it; null when it cannot be had. */
export async function node24Path(): Promise<string | null> {
  try {
    const { stdout } = await promisify(execFile)(
      'npx',
      ['-y', '-p', 'node@24', '--', 'node', '-p', 'process.execPath'],
      { timeout: 180_000 },
    );
    return stdout.trim() || null;
  } catch {
    return null;
  }
}
