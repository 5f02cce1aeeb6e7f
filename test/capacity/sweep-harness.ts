import path from 'node:path';
import type { MachineBlock } from '../../lib/throughput/schema.js';
import { PartialLog } from '../../lib/archive/partial.js';
import type { ArrivalPattern } from '../../lib/capacity/trial/arrivals.js';
import type { Calibration } from '../../lib/capacity/setup/calibrate.js';
import type { Layout } from '../../lib/capacity/trial/layouts.js';
import type { CapacityProgress } from '../../lib/capacity/setup/options.js';
import type { CapacityPlan } from '../../lib/capacity/setup/plan.js';
import { capacityArchive } from '../../lib/capacity/run/publish.js';
import type { CapacityArchive } from '../../lib/capacity/archive/schema.js';
import { planSweeps, runSweeps, type Sweep } from '../../lib/capacity/run/sweep.js';
import { VirtualTimers, type Timers } from '../../lib/capacity/trial/timers.js';
import type { VoiceConfig } from '../../lib/voice/format/config.js';
import type { PreparedText } from '../../lib/voice/text.js';
import { tempDir } from '../helpers/paths.js';
import { FakeMachine, type MachineSpec } from './fake-machine.js';
import { FakeServer, type FakeServerSpec } from './fake-server.js';
import { SERVER_VOICE, serverText, serverVoice, type ServerHandle } from '../../lib/capacity/setup/server.js';
import { ServerAdapter } from '../../lib/capacity/worker/server-adapter.js';
import type { History } from '../../lib/capacity/setup/history.js';
import type { CpuSampler } from '../../lib/measure/system-cpu.js';

/** A machine block for archives made by the tests (not a reading of any machine). */
export const FIXTURE_MACHINE: MachineBlock = {
  architecture: 'x64',
  plateforme: 'linux',
  noyau: 'fixture',
  systeme: null,
  cpu: 'fixture cpu',
  coeurs_logiques: 2,
  coeurs_physiques: null,
  coeurs_autorises: [0, 1],
  gouverneur: null,
  frequences_mhz: null,
  virtualisation: null,
  temperature_c: null,
  memoire_octets: 8 * 2 ** 30,
  charge_avant: [0, 0, 0],
  charge_apres: null,
  hote: 'fixture',
  version_node: 'v20',
  version_onnxruntime: '1.30.0',
  attente: null,
};

export interface SweepCase {
  machine: MachineSpec;
  layouts: Layout[];
  arrivals?: ArrivalPattern;
  firstAudioMs?: number;
  maxStreams?: number;
  /** No --max-streams: each voice's ceiling from its calibration, under maxStreams (default: --max-streams given). */
  calibratedCeiling?: boolean;
  rounds?: number;
  prebuffersMs?: number[];
  maxMinutes?: number;
  /** The first sentence alone per thread count, ms (default: as the machine computes it). */
  firstSentenceMs?: Record<string, number>;
  /** Wrap the trials' timers (a clock that makes arrivals late, say). */
  timers?: (inner: VirtualTimers) => Timers;
  onProgress?: (e: CapacityProgress, machine: FakeMachine) => void;
  /** Earlier runs of this workload, as readHistory would find them. */
  history?: History;
  /** The machine's CPU readings (default: a quiet machine, no outside load, no steal). */
  sampler?: (timers: VirtualTimers) => CpuSampler;
  /** A server swept too (its sentences as long as the machine's), or alone (`alone`: no local voice). */
  server?: FakeServerSpec & { alone?: boolean };
}

export interface SweepOutcome {
  archive: CapacityArchive;
  sweeps: Sweep[];
  machine: FakeMachine;
  server: FakeServer | undefined;
}

/** The sweep of a capacity run, on a fake machine and virtual time; every K it answers can be worked out by hand. */
export async function sweepOn(c: SweepCase): Promise<SweepOutcome> {
  const timers = new VirtualTimers(0);
  const machine = new FakeMachine(timers, c.machine);
  const cores = Array.from({ length: c.machine.cores }, (_, i) => i);
  const audio = [...c.machine.audioSeconds];
  const compute = audio.map((a) => a / c.machine.speed);
  const prepared: PreparedText = {
    sentences: audio.map((_, i) => ({ text: `s${i}`, phonemes: [], ids: [1, 2], phonemizeSeconds: 0 })),
    phonemizeSeconds: 0,
    missingPhonemes: {},
  };
  const voice = {
    name: 'fake-voice',
    onnxPath: '/nonexistent/fake.onnx',
    configPath: '/nonexistent/fake.onnx.json',
    config: { audio: { sample_rate: 22050 } } as unknown as VoiceConfig,
    sizeBytes: 1,
    sha256: 'f'.repeat(64),
    synthetic: false,
  };
  const outDir = path.join(tempDir('capacity-sweep'), 'm');
  const plan: CapacityPlan = {
    arrivals: c.arrivals ?? 'together',
    schedule: 'deadline',
    session: 'libpiper',
    firstAudioMs: c.firstAudioMs ?? 500,
    maxStreams: c.maxStreams ?? 32,
    maxStreamsAsked: c.calibratedCeiling !== true,
    rounds: c.rounds ?? 3,
    prebuffersMs: c.prebuffersMs ?? [0, 250, 500],
    maxMinutes: c.maxMinutes ?? 60,
    seed: 1,
    seedDrawn: false,
    label: null,
    settleSeconds: 0,
    layouts: c.layouts,
    outDir,
    text: { source: 'fixture', lines: audio.map((_, i) => `s${i}`), sha256: 'a'.repeat(64), characters: 10 },
    voices: [voice],
    prepared: new Map([[voice.name, prepared]]),
    cores,
    machine: FIXTURE_MACHINE,
    memAvailableBytes: 8 * 2 ** 30,
    base: 'capacity-fixture',
    date: new Date('2026-12-01T00:00:00Z'),
    command: 'fixture',
    notes: [],
    server: null,
  };
  const calibration: Calibration = {
    audioSeconds: audio,
    computeSeconds: compute,
    speed: c.machine.speed,
    firstSentenceMs: c.firstSentenceMs ?? { 1: (compute[0] as number) * 1000 },
    loadSeconds: 0.1,
    workerRssBytes: 100 * 2 ** 20,
    memoryWorkers: 70,
  };
  const calibrations = new Map([[voice.name, calibration]]);
  const server = c.server ? new FakeServer(timers, c.server) : undefined;
  if (server && c.server) addServer(plan, calibrations, server, c.server);
  const sweeps = planSweeps(plan, calibrations);
  const partial = await PartialLog.create(outDir, plan.base, { kind: 'fixture' });
  const adapter = machine.adapter();
  // The partial file and its lock go with each case: a run in this process holds neither after it.
  const trials = await runSweeps(plan, sweeps, calibrations, {
    adapters: {
      process: adapter,
      thread: machine.adapter('thread'),
      ...(server && plan.server
        ? { server: new ServerAdapter({ link: server.link(), now: () => timers.now(), address: 'fake://server' }) }
        : {}),
    },
    ownCpuMs: () => 0,
    timers: c.timers ? c.timers(timers) : timers,
    sampler: c.sampler
      ? c.sampler(timers)
      : { snapshot: () => ({ systemBusyTicks: 0, ownTicks: 0, atMs: timers.now() }) },
    swapPages: () => 0,
    partial,
    held: new Map(),
    onProgress: (e) => {
      if (e.kind === 'trial-start') machine.nextTrial();
      c.onProgress?.(e, machine);
    },
  }).finally(() => partial.remove());
  const serverRecord = plan.server
    ? {
        adresse: 'fake://server',
        protocole: 'wyoming' as const,
        point: null,
        flux_texte: false,
        dit: 'fake',
        voix: [],
        format_audio: { rate: 16000, width: 2, channels: 1 },
        repond_apres: true,
      }
    : null;
  return {
    archive: capacityArchive(plan, {
      calibrations,
      sweeps,
      trials,
      resumed: false,
      server: serverRecord,
      ...(c.history ? { history: c.history } : {}),
    }),
    sweeps,
    machine,
    server,
  };
}

/** The server as the run plans it: a voice `server`, calibrated by hand (one sentence alone takes audio / speed). */
function addServer(
  plan: CapacityPlan,
  calibrations: Map<string, Calibration>,
  server: FakeServer,
  spec: FakeServerSpec & { alone?: boolean },
): void {
  const handle: ServerHandle = {
    description: {
      address: 'fake://server',
      protocol: 'wyoming',
      endpoint: null,
      request: null,
      streaming: false,
      said: 'fake',
      voices: [],
      voice: null,
    },
    link: () => server.link(),
  };
  plan.server = { handle, timeoutMs: 30_000, stream: null };
  if (spec.alone) plan.voices = [];
  plan.voices.push(serverVoice());
  plan.prepared.set(SERVER_VOICE, serverText(plan.text.lines));
  const n = plan.text.lines.length;
  const computeS = spec.audioSeconds / spec.speed;
  calibrations.set(SERVER_VOICE, {
    audioSeconds: Array.from({ length: n }, () => spec.audioSeconds),
    computeSeconds: Array.from({ length: n }, () => computeS),
    speed: spec.speed,
    firstSentenceMs: { 1: 1000 * computeS },
    loadSeconds: 0,
    workerRssBytes: null,
    memoryWorkers: null,
  });
}

/** A clock for the trials whose events fire `lateMs` after they are due while `late()` says so. */
export function lateTimers(inner: VirtualTimers, lateMs: number, late: () => boolean): Timers {
  return { now: () => inner.now(), at: (ms, fn) => inner.at(late() ? ms + lateMs : ms, fn) };
}
