import { monotonicMs } from '../../measure/clock.js';
import { readOwnMajorFaults, readOwnPeakRss } from '../../measure/memory.js';
import type { VoiceInfo } from '../../voice/load.js';
import type { ReceivedParentMessage, WorkerMessage } from '../../workers/messages.js';
import { InitMessageSchema } from '../../workers/messages.js';
import { createPassEngine } from './engines.js';

export interface StreamHost {
  send(message: WorkerMessage): void;
  /** Block until every stream may start pass `pass` (after saying ready). */
  barrier(pass: number): Promise<void>;
  /** Called once, around creating the session (thread workers serialize it to find their pool threads). */
  createSession<T>(create: () => Promise<T>): Promise<T>;
  /** CPU seconds of what this stream owns: the whole process, or one thread; null when unreadable. */
  cpuSeconds(): number | null;
  cores(): number[];
  /** Extra facts for the loaded message (thread id, counted threads). */
  identity?(): { tid?: number; cpuThreads?: number };
}

/**
 * What runs inside one stream worker: load the voice and its engine, then for every pass say
 * ready, start at the common instant, synthesize, report. A warm-up pass synthesizes only the
 * first sentence (first line at scope text): what a fresh session needs before its passes run at
 * speed (see the README). Shared by the process and thread entries.
 */
export async function runStream(host: StreamHost, first: ReceivedParentMessage): Promise<void> {
  const init = InitMessageSchema.parse(first);
  const voice: VoiceInfo = {
    ...init.voice,
    configPath: `${init.voice.onnxPath}.json`,
    sizeBytes: 0,
    sha256: '',
    synthetic: init.voice.config.synthetic !== undefined,
  };
  const prepared = init.prepared;
  const loadStart = monotonicMs();
  const engine = await createPassEngine(init.engine, voice, init.threads, prepared, (create) =>
    host.createSession(create),
  );
  const loadSeconds = (monotonicMs() - loadStart) / 1000;
  host.send({
    type: 'loaded',
    pid: process.pid,
    ...host.identity?.(),
    cores: host.cores(),
    loadSeconds,
    phonemizeSeconds: prepared.phonemizeSeconds,
    sentences: prepared.sentences.length,
    missingPhonemes: prepared.missingPhonemes,
  });
  const total = init.warmup + init.passes;
  for (let pass = 0; pass < total; pass += 1) {
    host.send({ type: 'ready', pass });
    await host.barrier(pass);
    const cpu0 = host.cpuSeconds();
    const t0 = monotonicMs();
    const result = await engine.run(pass < init.warmup);
    const t1 = monotonicMs();
    const cpu1 = host.cpuSeconds();
    // Outside the timed window.
    const peakRssBytes = readOwnPeakRss();
    const majorFaults = readOwnMajorFaults();
    host.send({
      type: 'pass',
      pass,
      warmup: pass < init.warmup,
      computeSeconds: (t1 - t0) / 1000,
      inferenceSeconds: result.inferenceSeconds,
      audioSeconds: result.audioSeconds,
      ...(result.phonemizeSeconds !== undefined ? { phonemizeSeconds: result.phonemizeSeconds } : {}),
      cpuSeconds: cpu0 === null || cpu1 === null ? null : cpu1 - cpu0,
      startMs: t0,
      endMs: t1,
      peakRssBytes,
      ...(majorFaults !== undefined ? { majorFaults } : {}),
    });
  }
  await engine.release();
}
