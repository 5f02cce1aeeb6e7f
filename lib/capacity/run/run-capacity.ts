/**
 * A capacity run, in named steps: plan, calibrate, sweep (search then re-test, in rounds), publish.
 * Throws PiperParallelError on bad input (before anything is measured) and on interruption (the
 * partial file keeps every finished trial). Never calls process.exit.
 */
import { PartialLog } from '../../archive/partial.js';
import { machineEnd } from '../../measure/machine.js';
import { chooseSession } from '../../voice/session-profile.js';
import { capacityAdapters } from '../worker/adapters.js';
import { redacted } from '../../archive/redact.js';

const redactIf = <T extends Parameters<typeof redacted>[0]>(redact: boolean | undefined, a: T): T =>
  redact ? redacted(a) : a;
import { settle } from '../../measure/settle.js';
import { procCpuSampler } from '../../measure/system-cpu.js';
import path from 'node:path';
import { calibrate, type Calibration } from '../setup/calibrate.js';
import type { CapacityOptions, CapacityResult } from '../setup/options.js';
import { planCapacity } from '../setup/plan.js';
import { capacityArchive, publishCapacity } from './publish.js';
import {
  calibrationKey,
  identityChanges,
  readCapacityPartial,
  type CapacityHeader,
  type CapacityPartial,
  type RunIdentity,
} from '../archive/resume.js';
import { PiperParallelError } from '../../core/errors.js';
import { machineFingerprint } from '../../measure/machine.js';
import { planSweeps, runSweeps, type SweepContext } from './sweep.js';
import { isReal, realTimers, type Timers } from '../trial/timers.js';
import { raiseParentPriority } from '../setup/priority.js';
import type { CapacityPlan } from '../setup/plan.js';
import type { CpuSampler } from '../../measure/system-cpu.js';
import { estimateRun } from './estimate.js';
import { layoutsFor } from '../setup/plan.js';
import { SERVER_VOICE, stillAnswering } from '../setup/server.js';
import { readHistory } from '../setup/history.js';
import { ServerAdapter } from '../worker/server-adapter.js';
import type { ServerRecord } from '../archive/schema.js';
import type { WorkerAdapter } from '../../workers/worker.js';

export type { CapacityOptions, CapacityProgress, CapacityResult } from '../setup/options.js';

function serverAdapter(s: NonNullable<CapacityPlan['server']>, timers: Timers): ServerAdapter {
  const now = (): number => timers.now();
  const h = s.handle;
  return new ServerAdapter({
    link: h.link(now),
    now,
    address: h.description.address,
    ...(s.stream ? { stream: s.stream } : {}),
  });
}

/** The server block of the archive: what it said, the audio format it kept, whether it still answers after the run. */
async function serverAfter(
  s: NonNullable<CapacityPlan['server']>,
  plan: CapacityPlan,
  adapter: WorkerAdapter | undefined,
  signal: AbortSignal | undefined,
): Promise<ServerRecord> {
  const d = s.handle.description;
  // The first line alone (a streamed text is one job of every line, joined by newlines).
  const sample = plan.prepared.get(SERVER_VOICE)?.sentences[0]?.text.split('\n')[0] ?? '';
  return {
    adresse: d.address,
    protocole: d.protocol,
    point: d.endpoint,
    requete: d.request,
    flux_texte: d.streaming,
    envoi: s.stream ? 'flux' : 'phrase',
    debit_texte_cps: s.stream?.textRateCps ?? null,
    dit: d.said,
    voix: d.voices,
    voix_demandee: d.voice,
    format_audio: adapter instanceof ServerAdapter ? adapter.format : null,
    repond_apres: await stillAnswering(s.handle, sample, s.timeoutMs, signal),
  };
}

/** The options a resumed run had, from its partial file's header. */
function resumedOptions(o: CapacityOptions, h: CapacityHeader, file: string): CapacityOptions {
  return {
    ...o,
    voices: h.voices.length > 0 || !h.server ? h.voices : undefined,
    server: h.server ?? undefined,
    textRateCps: h.textRateCps ?? undefined,
    serverVoice: h.serverVoice ?? undefined,
    serverTimeoutMs: h.serverTimeoutMs ?? undefined,
    lines: h.text.lines,
    textFile: undefined,
    arrivals: h.arrivals,
    schedule: h.schedule,
    firstAudioMs: h.firstAudioMs,
    // A ceiling from the calibration is the calibration's again; one asked for is kept.
    maxStreams: h.maxStreamsAsked === false ? undefined : h.maxStreams,
    rounds: h.rounds,
    prebuffersMs: h.prebuffersMs,
    maxMinutes: h.maxMinutes,
    seed: h.seed,
    label: h.label ?? undefined,
    session: chooseSession({ asked: o.session, resumed: h.session ?? 'libpiper' }),
    redact: o.redact === true || h.redact === true,
    layouts: h.layouts,
    command: h.command,
    outDir: o.outDir ?? path.dirname(path.dirname(file)),
    now: () => new Date(h.date_utc),
  };
}

/** The partial file's first line: the plan's choices, what a resume must find unchanged, --redact. */
function headerOf(plan: CapacityPlan, redact: boolean): CapacityHeader {
  return {
    kind: 'capacity',
    base: plan.base,
    date_utc: plan.date.toISOString(),
    voices: plan.voices.filter((v) => v.name !== SERVER_VOICE).map((v) => v.name),
    server: plan.server?.handle.description.address ?? null,
    textRateCps: plan.server?.stream?.textRateCps ?? null,
    serverVoice: plan.server?.handle.description.voice ?? null,
    serverTimeoutMs: plan.server?.timeoutMs ?? null,
    text: { source: plan.text.source, lines: plan.text.lines },
    arrivals: plan.arrivals,
    schedule: plan.schedule,
    firstAudioMs: plan.firstAudioMs,
    maxStreams: plan.maxStreams,
    maxStreamsAsked: plan.maxStreamsAsked,
    rounds: plan.rounds,
    prebuffersMs: plan.prebuffersMs,
    maxMinutes: plan.maxMinutes,
    seed: plan.seed,
    label: plan.label,
    layouts: plan.layouts,
    command: plan.command,
    session: plan.session,
    identity: identityOf(plan),
    redact,
  };
}

/** What a resume of this run must find unchanged. */
function identityOf(plan: CapacityPlan): RunIdentity {
  const d = plan.server?.handle.description;
  return {
    voices: Object.fromEntries(plan.voices.filter((v) => v.name !== SERVER_VOICE).map((v) => [v.name, v.sha256])),
    machine: machineFingerprint(plan.machine),
    server: d ? { protocol: d.protocol, request: d.request, streaming: d.streaming } : null,
  };
}

function refuseChangedIdentity(resumed: CapacityPartial, now: RunIdentity): void {
  const then = resumed.header.identity;
  const changes = then ? identityChanges(then, now) : [];
  if (changes.length > 0)
    throw new PiperParallelError(
      'USAGE',
      `--resume ${resumed.file}: ${changes.join('; ')} since the interrupted run; start a new run`,
    );
}

export async function runCapacity(options: CapacityOptions = {}): Promise<CapacityResult> {
  // The budget and the durations said count from here: preparing the voices and settling are part of the wait.
  const entryMs = performance.now();
  // A resume is checked, then locked, then read again under the lock: another resume of the same file cannot have
  // appended between the read this run acts on and the lock it writes under.
  const checked = options.resume ? await readCapacityPartial(path.resolve(options.resume)) : undefined;
  const log = checked ? await PartialLog.reopen(checked.file, []) : undefined;
  let resumed: CapacityPartial | undefined;
  let plan: CapacityPlan;
  // The options this run goes on with: a resume's are the interrupted run's.
  let run = options;
  try {
    resumed = log ? await readCapacityPartial(log.file) : undefined;
    if (resumed) run = resumedOptions(options, resumed.header, resumed.file);
    plan = await planCapacity(run);
    if (resumed) refuseChangedIdentity(resumed, identityOf(plan));
  } catch (err) {
    log?.unlock();
    throw err;
  }
  if (resumed) plan.base = resumed.header.base;
  options.onProgress?.({
    kind: 'voices',
    voices: plan.voices.map((v) => ({ name: v.name, synthetic: v.synthetic })),
    session: plan.session,
  });
  for (const text of plan.notes) options.onProgress?.({ kind: 'note', text });
  if (log && resumed)
    log.hold([...resumed.trials.keys()].map((k) => `${k}#${Number(/\|R(\d+)\|\d+$/.exec(k)?.[1] ?? 0)}`));
  const partial = log ?? (await PartialLog.create(plan.outDir, plan.base, headerOf(plan, run.redact === true)));
  // A run that ends in an error or an interruption keeps its partial file for --resume, and lets its lock go:
  // a script that catches the error may resume in the same process.
  return settleAndMeasure(run, plan, { partial, resumed, entryMs }).catch((err: unknown) => {
    partial.unlock();
    throw err;
  });
}

async function settleAndMeasure(
  options: CapacityOptions,
  plan: CapacityPlan,
  env: Pick<MeasureEnv, 'partial' | 'resumed' | 'entryMs'>,
): Promise<CapacityResult> {
  const sampler = options.cpuSampler ?? procCpuSampler(plan.cores);
  if (plan.settleSeconds > 0)
    plan.machine.attente = await settle(plan.settleSeconds, plan.cores.length, { sampler, signal: options.signal });
  const priority = (options.priority ?? raiseParentPriority)();
  if (priority.note) options.onProgress?.({ kind: 'note', text: priority.note });
  const timers = options.timers ?? realTimers(priority.kind === 'realtime' ? 1 : 5);
  const adapters = {
    ...capacityAdapters(options.adapters),
    ...(plan.server ? { server: serverAdapter(plan.server, timers) } : {}),
  };
  try {
    return await measure(options, plan, { ...env, sampler, adapters, timers, priority: priority.why });
  } finally {
    priority.restore();
  }
}

/** What the steps after the plan run with: the partial file, the CPU sampler, the workers, the clock. */
interface MeasureEnv {
  partial: PartialLog;
  sampler: CpuSampler;
  adapters: SweepContext['adapters'];
  timers: Timers;
  /** How the parent keeps the listeners' time, in words. */
  priority: string;
  resumed: CapacityPartial | undefined;
  /** When runCapacity was called (performance.now()). */
  entryMs: number;
}

/** Steps 2 to 4: calibrate, sweep in rounds, publish. */
async function measure(
  options: CapacityOptions,
  plan: CapacityPlan,
  { partial, sampler, adapters, timers, priority, resumed, entryMs }: MeasureEnv,
): Promise<CapacityResult> {
  // On the real clock, the run started when it was called; virtual time starts with the trials.
  const started = timers.now() - (isReal(timers) ? performance.now() - entryMs : 0);
  const calibrations = new Map<string, Calibration>();
  for (const v of plan.voices) {
    const kept = resumed?.calibrations.get(v.name);
    const isServer = v.name === SERVER_VOICE;
    const c =
      kept ??
      (await calibrate(
        v,
        plan.prepared.get(v.name) as NonNullable<ReturnType<typeof plan.prepared.get>>,
        { threadCounts: layoutsFor(plan, v.name).map((l) => l.threads), memAvailableBytes: plan.memAvailableBytes },
        {
          adapter: (isServer ? adapters.server : undefined) ?? adapters.process,
          timers,
          signal: options.signal,
          session: plan.session,
        },
      ));
    if (!kept) await partial.append({ key: calibrationKey(v.name), round: 0, order: 0, run: c });
    calibrations.set(v.name, c);
    options.onProgress?.({
      kind: 'calibrated',
      voice: v.name,
      speed: c.speed,
      sentenceAudioSeconds: c.audioSeconds,
      firstSentenceMs: c.firstSentenceMs,
      workerRssBytes: c.workerRssBytes,
      memoryWorkers: c.memoryWorkers,
    });
  }
  const sweeps = planSweeps(plan, calibrations);
  const estimate = estimateRun(plan, sweeps, calibrations);
  // Said before the first trial: the estimate, never past the budget the sweep keeps to.
  const plannedSeconds = Math.round(Math.min((timers.now() - started) / 1000 + estimate.seconds, plan.maxMinutes * 60));
  options.onProgress?.({
    kind: 'plan',
    trials: estimate.trials,
    seconds: plannedSeconds,
    seed: plan.seed,
    seedDrawn: plan.seedDrawn,
    prebuffersMs: plan.prebuffersMs,
    maxMinutes: plan.maxMinutes,
  });
  const trials = await runSweeps(plan, sweeps, calibrations, {
    startedMs: started,
    adapters,
    timers,
    sampler,
    swapPages: options.swapPages,
    partial,
    held: resumed?.trials ?? new Map(),
    signal: options.signal,
    onProgress: options.onProgress,
  });
  const timing = { plannedSeconds, seconds: Math.round((timers.now() - started) / 1000), priority };
  const server = plan.server ? await serverAfter(plan.server, plan, adapters.server, options.signal) : null;
  // Ctrl-C in the after-run check: interrupted as anywhere else (exit 130), every trial kept for --resume.
  if (options.signal?.aborted)
    throw new PiperParallelError(
      'ABORTED',
      `interrupted after the last trial; finished trials kept in ${partial.file}; resume with: piper-parallel capacity --resume ${partial.file}`,
    );
  // Earlier runs of this workload in the out-dir: the drift between runs, measured rather than assumed.
  const history = await readHistory(plan);
  // A board that heated up or was re-clocked under the run: said, as the trials of its end ran slower.
  Object.assign(plan.machine, await machineEnd(plan.machine));
  return publishCapacity(
    redactIf(
      options.redact,
      capacityArchive(plan, { calibrations, sweeps, trials, resumed: resumed !== undefined, server, history }, timing),
    ),
    plan,
    partial,
    options.adapters?.files,
    options.onProgress,
  );
}
