/**
 * What runs inside one capacity worker: load the voice once, warm it on the text (warmup.ts), then
 * synthesize whatever sentence the parent sends, one at a time, and say when its audio was ready.
 * Shared by the process and thread entries.
 */
import { setPriority } from 'node:os';
import { PiperParallelError } from '../../core/errors.js';
import { monotonicMs } from '../../measure/clock.js';
import { readOwnMajorFaults, readOwnPeakRss } from '../../measure/memory.js';
import { InitMessageSchema, type ReceivedParentMessage, type WorkerMessage } from '../../workers/messages.js';
import type { VoiceInfo } from '../../voice/load.js';
import { Synthesizer } from '../../voice/synthesizer.js';
import { warmupOrder } from './warmup.js';

/** The nice value of capacity workers (the parent keeps 0). */
export const WORKER_NICE = 10;

export interface ServeHost {
  send(message: WorkerMessage): void;
  next(): Promise<ReceivedParentMessage>;
  createSession<T>(create: () => Promise<T>): Promise<T>;
  cores(): number[];
}

export async function serveCapacity(host: ServeHost, first: ReceivedParentMessage): Promise<void> {
  const init = InitMessageSchema.parse(first);
  if (init.engine.kind !== 'onnxruntime' || init.engine.scope !== 'model')
    throw new PiperParallelError('USAGE', 'capacity runs onnxruntime-node at scope model only');
  const voice: VoiceInfo = {
    ...init.voice,
    configPath: `${init.voice.onnxPath}.json`,
    sizeBytes: 0,
    sha256: '',
    synthetic: init.voice.config.synthetic !== undefined,
  };
  // Below the parent, which stands for the arriving listeners and must keep their time; set before the
  // session exists so onnxruntime's threads inherit it. Every worker gets the same, so layouts compare.
  try {
    setPriority(WORKER_NICE);
  } catch {
    // Not permitted here: the arrivals control will say whether the parent kept time anyway.
  }
  const t0 = monotonicMs();
  const { session } = init.engine;
  const synth = await host.createSession(() => Synthesizer.create(voice, { threads: init.threads, session }));
  const feeds = synth.feedsFor(init.prepared);
  if (feeds.length === 0)
    throw new PiperParallelError(
      'TEXT',
      "the text phonemizes to nothing; give sentences with words in the voice's language",
    );
  for (const i of warmupOrder(feeds.length, init.warmup)) {
    const feed = feeds[i];
    if (feed) await synth.synthesize([feed]);
  }
  host.send({
    type: 'loaded',
    pid: process.pid,
    cores: host.cores(),
    loadSeconds: (monotonicMs() - t0) / 1000,
    phonemizeSeconds: init.prepared.phonemizeSeconds,
    sentences: feeds.length,
    missingPhonemes: init.prepared.missingPhonemes,
  });
  for (;;) {
    const m = await host.next();
    if (m.type !== 'job') throw new PiperParallelError('WORKER', `a capacity worker expected a job, got "${m.type}"`);
    const feed = feeds[m.sentence];
    if (!feed)
      throw new PiperParallelError(
        'WORKER',
        `job ${m.id} asks for sentence ${m.sentence}; the text has ${feeds.length}`,
      );
    const faultsBefore = readOwnMajorFaults();
    const startMs = monotonicMs();
    const r = await synth.synthesize([feed]);
    const endMs = monotonicMs();
    const rss = readOwnPeakRss();
    const faults = readOwnMajorFaults();
    host.send({
      type: 'done',
      id: m.id,
      sentence: m.sentence,
      startMs,
      endMs,
      audioSeconds: r.audioSeconds,
      ...(rss !== undefined ? { peakRssBytes: rss } : {}),
      ...(faults !== undefined && faultsBefore !== undefined
        ? { majorFaultsBefore: faultsBefore, majorFaults: faults }
        : {}),
    });
  }
}
