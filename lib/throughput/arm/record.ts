import type { ArmRecord, ChildRecordOut, Condition, PassRecord } from '../schema.js';
import {
  affinityControl,
  cpuMaxControl,
  cpuSumControl,
  memoryControl,
  outsideLoadControl,
  overlapControl,
  skewControl,
  type Control,
} from '../../measure/controls.js';
import {
  distribution,
  logMeanInterval,
  median,
  MIN_PASSES_FOR_SPREAD,
  summarize,
  upperControlLimit,
} from '../../measure/stats.js';
import { outsideCoresOver } from '../../measure/system-cpu.js';
import type { ArmRun, ChildRecord, PassSync } from './arm.js';
import type { PassMessage } from '../../workers/messages.js';
import { engineOf, scopeOf } from './conditions.js';
import { maxOf, minOf } from '../../core/extremes.js';

function sumOrNull(values: ReadonlyArray<number | null>): number | null {
  if (values.length === 0 || values.some((v) => v === null)) return null;
  return values.reduce<number>((a, b) => a + (b ?? 0), 0);
}

const positive = (x: number): boolean => Number.isFinite(x) && x > 0;
const finite = (values: ReadonlyArray<number | null>): number[] =>
  values.filter((v): v is number => v !== null && Number.isFinite(v));

function passRecord(m: PassMessage & { round?: number }): PassRecord {
  const measured = positive(m.computeSeconds) && positive(m.audioSeconds);
  return {
    passe: m.pass,
    manche: m.round ?? 1,
    temps_calcul_s: m.computeSeconds,
    audio_s: m.audioSeconds,
    // A pass with no compute or no audio has no ratio: null, and its arm fails saying why.
    ratio: measured ? m.audioSeconds / m.computeSeconds : null,
    rtf: measured ? m.computeSeconds / m.audioSeconds : null,
    // Not clamped: a reading above 100% per thread must stay visible. Unreadable CPU stays unknown.
    cpu_pourcent: m.cpuSeconds !== null && positive(m.computeSeconds) ? (m.cpuSeconds / m.computeSeconds) * 100 : null,
    inference_s: m.inferenceSeconds,
    ...(m.phonemizeSeconds !== undefined ? { phonemisation_s: m.phonemizeSeconds } : {}),
    debut_ms: m.startMs,
    fin_ms: m.endMs,
  };
}

/** What is wrong with a pass's figures, or undefined when they can be used. */
function invalidPass(rang: number, m: PassMessage): string | undefined {
  const bad = [
    positive(m.computeSeconds) ? '' : `${m.computeSeconds} s of compute`,
    positive(m.audioSeconds) ? '' : `${m.audioSeconds} s of audio`,
  ].filter(Boolean);
  return bad.length > 0
    ? `stream ${rang} pass ${m.pass} measured ${bad.join(' and ')}, so it has no throughput; check the voice and the text`
    : undefined;
}

function childRecord(c: ChildRecord): ChildRecordOut {
  const warm = c.passes.filter((p) => p.warmup).map(passRecord);
  const timed = c.passes.filter((p) => !p.warmup).map(passRecord);
  const of = (k: 'ratio' | 'rtf' | 'cpu_pourcent'): number[] => finite(timed.map((p) => p[k]));
  const cpuUnknown = timed.some((p) => p.cpu_pourcent === null);
  return {
    rang: c.rang,
    pid: c.pid ?? null,
    coeur_demande: c.core ?? null,
    affinite_effective: c.loaded?.cores ?? [],
    chargement_s: c.loaded?.loadSeconds ?? null,
    phonemisation_s: c.loaded?.phonemizeSeconds ?? null,
    phrases: c.loaded?.sentences ?? null,
    phonemes_manquants: c.loaded?.missingPhonemes ?? {},
    rss_pic_octets: c.passes.reduce<number | null>(
      (m, p) => (p.peakRssBytes === undefined ? m : Math.max(m ?? 0, p.peakRssBytes)),
      null,
    ),
    echauffement: warm,
    passes: timed,
    resume: {
      ratio: summarize(of('ratio')),
      rtf: summarize(of('rtf')),
      // One unreadable pass makes the stream's CPU unknown: its max could be anything.
      cpu_pourcent: cpuUnknown ? { min: null, max: null, mediane: null } : summarize(of('cpu_pourcent')),
    },
    statistiques: {
      ratio: distribution(of('ratio')),
      rtf: distribution(of('rtf')),
      cpu_pourcent: distribution(of('cpu_pourcent')),
      rtf_limite_controle: upperControlLimit(of('rtf')),
    },
  };
}

export interface ArmIdentity {
  voice: { name: string; synthetic: boolean; sha256: string };
  condition: Condition;
  /** Every core the run may use (the parent's own affinity). */
  allCores: number[];
}

/** Per round (index = round - 1), the median of its values; null for a round with none. */
function byRound(rounds: number, values: ReadonlyArray<{ round: number; value: number }>): Array<number | null> {
  return Array.from({ length: rounds }, (_, i) => {
    const v = values.filter((x) => x.round === i + 1).map((x) => x.value);
    return v.length > 0 ? median(v) : null;
  });
}

/** The centre an interval of logs is built around; null with no value. */
function geometricMean(values: readonly number[]): number | null {
  const logs = values.filter((v) => v > 0).map(Math.log);
  return logs.length === 0 || logs.length < values.length
    ? null
    : Math.exp(logs.reduce((a, b) => a + b, 0) / logs.length);
}

/** The between-round 95% interval (t on the logs of the round figures), set around `point`. */
function around(point: number | null, perRound: ReadonlyArray<number | null>): [number, number] | null {
  const interval = logMeanInterval(perRound.filter((v): v is number => v !== null));
  return point === null || interval === null
    ? null
    : [point * Math.exp(-interval.halfWidth), point * Math.exp(interval.halfWidth)];
}

/** The speech a pass produced: every stream's audio, and its span from first start to last end. */
function passSpan(children: readonly ChildRecord[], s: PassSync): { audio: number; spanSeconds: number } {
  const audio = children.reduce((sum, c) => sum + (c.passes.find((p) => p.pass === s.pass)?.audioSeconds ?? 0), 0);
  const spanSeconds = (maxOf(s.endsMs) - minOf(s.startsMs)) / 1000;
  return { audio, spanSeconds: Number.isFinite(spanSeconds) ? spanSeconds : 0 };
}

function armControls(
  run: ArmRun,
  id: ArmIdentity,
  enfants: ChildRecordOut[],
  complete: boolean,
): { controls: Control[]; affinity: Control | undefined } {
  const { condition } = id;
  const seen = enfants.map((e) => e.affinite_effective);
  const controls: Control[] = [];
  if (complete) {
    controls.push(
      cpuMaxControl(
        enfants.map((e) => e.resume.cpu_pourcent.max),
        condition.fils,
      ),
    );
    // A stream can use at most its threads, and at most the cores it may run on (one when pinned).
    const usable = seen.map((s) => Math.min(condition.fils, s.length > 0 ? s.length : id.allCores.length));
    const sum = cpuSumControl(
      enfants.map((e) => e.resume.cpu_pourcent.mediane),
      usable,
      id.allCores.length,
    );
    if (sum) controls.push(sum);
  }
  // Every round started its own streams: each round's pinning must hold, not only the first's.
  const seenByRound = run.rounds?.map((r) => r.seen) ?? [seen];
  const affinities = seenByRound.every((s) => s.length > 0 && s.every((c) => c.length > 0))
    ? seenByRound.map((s) => affinityControl(s, condition.affinite, id.allCores))
    : [];
  const affinity = affinities.find((c) => !c.held) ?? affinities[0];
  if (affinity) controls.push(affinity);
  if (complete) {
    const timedSync = run.sync.filter((s) => !s.warmup);
    const medianCompute = median(enfants.flatMap((e) => e.passes.map((p) => p.temps_calcul_s)));
    const skew = skewControl(
      timedSync.map((s) => s.skewMs),
      medianCompute,
      condition.flux,
    );
    if (skew) controls.push(skew);
    const overlap = overlapControl(timedSync, condition.flux);
    if (overlap) controls.push(overlap);
    if (run.timedCpu.length > 0) controls.push(outsideLoadControl(outsideCoresOver(run.timedCpu)));
    // Absent from runs made before it was read (a resumed partial file): nothing to check there.
    if (run.swapPages !== undefined) controls.push(memoryControl(run.swapPages, run.children.map(timedMajorFaults)));
  }
  return { controls, affinity };
}

/**
 * A stream's major page faults over its timed passes: each timed pass's count minus the count after
 * the pass before it in the same round; null when a count is missing.
 */
export function timedMajorFaults(c: ChildRecord): number | null {
  let total = 0;
  for (const p of c.passes.filter((x) => !x.warmup)) {
    const before = c.passes.find((x) => x.pass === p.pass - 1 && x.round === p.round);
    // The first pass of a round without warm-up has nothing before it: its faults include loading.
    if (!before) continue;
    if (p.majorFaults === undefined || before.majorFaults === undefined) return null;
    total += Math.max(0, p.majorFaults - before.majorFaults);
  }
  return total;
}

/** What is wrong with the run's passes: one message per pass with no compute or no audio. */
export function invalidPasses(run: ArmRun): string[] {
  return run.children
    .flatMap((c) => c.passes.map((p) => invalidPass(c.rang, p)))
    .filter((m): m is string => m !== undefined);
}

/** A run that did not finish, or finished with a pass that measured nothing: its arm fails. */
export function runFailed(run: ArmRun): boolean {
  return run.state !== 'done' || invalidPasses(run).length > 0;
}

/** Turn a worker run into the archived arm, with its statistics and controls. */
/** Median share of the timed passes spent phonemizing, at scope text only (null where the engine hides it). */
function phonemizeShare(
  enfants: ChildRecordOut[],
  condition: ArmIdentity['condition'],
): Pick<ArmRecord, 'part_phonemisation'> {
  if (scopeOf(condition) !== 'text') return {};
  const passes = enfants.flatMap((e) => e.passes);
  if (passes.some((p) => p.phonemisation_s === null || p.phonemisation_s === undefined))
    return { part_phonemisation: null };
  const shares = passes.flatMap((p) =>
    positive(p.temps_calcul_s) ? [(p.phonemisation_s as number) / p.temps_calcul_s] : [],
  );
  return { part_phonemisation: shares.length > 0 ? median(shares) : null };
}

type Span = { s: ArmRun['sync'][number] } & ReturnType<typeof passSpan>;

type Figures = Pick<
  ArmRecord,
  | 'debit_par_flux_mediane'
  | 'debit_agrege_mediane'
  | 'debit_agrege_par_passe'
  | 'debit_agrege_passe_mediane'
  | 'debit_agrege_centre'
  | 'debit_agrege_ic95'
  | 'debit_agrege_manches'
  | 'debit_par_flux_ic95'
  | 'dispersion_relative'
  | 'bruyant'
>;

/** The arm's speech per second: per timed pass, per round (the interval's unit) and per stream. */
function throughputFigures(enfants: ChildRecordOut[], spans: readonly Span[]): Figures {
  // Aggregate of each timed pass: only passes every stream finished, and that measured something.
  const counted = spans.filter(
    ({ s, audio, spanSeconds }) =>
      !s.warmup && s.endsMs.length === enfants.length && positive(audio) && positive(spanSeconds),
  );
  const perPass = counted.map(({ audio, spanSeconds }) => audio / spanSeconds);
  const perPassMedian = perPass.length > 0 ? median(perPass) : null;
  const iqr = distribution(perPass).iqr;
  // With too few passes a spread means nothing: unknown, and so NOISY.
  const relativeSpread =
    perPassMedian && iqr !== null && perPass.length >= MIN_PASSES_FOR_SPREAD ? iqr / perPassMedian : null;
  const perStream = enfants.map((e) => e.resume.ratio.mediane);
  const rounds = Math.max(1, ...spans.map(({ s }) => s.round ?? 1));
  const perRound = byRound(
    rounds,
    counted.map(({ s, audio, spanSeconds }) => ({ round: s.round ?? 1, value: audio / spanSeconds })),
  );
  const centre = geometricMean(perRound.filter((v): v is number => v !== null));
  const streamIntervals = enfants.map((e, i) =>
    around(
      perStream[i] ?? null,
      byRound(
        rounds,
        e.passes.flatMap((p) => (p.ratio === null ? [] : [{ round: p.manche, value: p.ratio }])),
      ),
    ),
  );
  return {
    debit_par_flux_mediane: perStream,
    debit_agrege_mediane: sumOrNull(perStream),
    debit_agrege_par_passe: perPass,
    debit_agrege_passe_mediane: perPassMedian,
    debit_agrege_centre: centre,
    debit_agrege_ic95: around(centre, perRound),
    debit_agrege_manches: perRound,
    debit_par_flux_ic95: streamIntervals,
    dispersion_relative: relativeSpread,
    bruyant: relativeSpread === null || relativeSpread > 0.1,
  };
}

export function armRecord(run: ArmRun, id: ArmIdentity): ArmRecord {
  const { condition } = id;
  const enfants = run.children.map(childRecord);
  const invalid = invalidPasses(run);
  const etat = run.state === 'done' && runFailed(run) ? 'failed' : run.state;
  const complete = etat === 'done' && enfants.every((e) => e.passes.length > 0);
  const { controls, affinity } = armControls(run, id, enfants, complete);
  const spans: Span[] = run.sync.map((s) => ({ s, ...passSpan(run.children, s) }));
  return {
    voix: id.voice.name,
    voix_synthetique: id.voice.synthetic,
    voix_sha256: id.voice.sha256,
    isolation: condition.isolation,
    moteur: engineOf(condition),
    portee: scopeOf(condition),
    ...phonemizeShare(enfants, condition),
    flux_simultanes: condition.flux,
    fils_par_flux: condition.fils,
    affinite_demandee: condition.affinite,
    affinites_vues: enfants.map((e) => e.affinite_effective),
    controle_affinite_tenu: affinity?.held ?? false,
    etat,
    erreur: [run.message, ...invalid].filter(Boolean).join('; ') || null,
    mural_total_s: run.wallSeconds,
    enfants,
    synchro: spans.map(({ s, audio, spanSeconds }) => ({
      passe: s.pass,
      echauffement: s.warmup,
      depart_prevu_ms: s.atMs,
      departs_ms: s.startsMs,
      fins_ms: s.endsMs,
      skew_ms: s.skewMs,
      retard_ms: s.lateMs,
      manche: s.round ?? 1,
      audio_total_s: audio,
      etendue_s: spanSeconds,
    })),
    ...throughputFigures(enfants, spans),
    manches: (run.rounds ?? [{ round: 1, order: 1, state: run.state, wallSeconds: run.wallSeconds }]).map((r) => ({
      manche: r.round,
      ordre: r.order,
      etat: r.state,
      mural_s: r.wallSeconds,
    })),
    cpu_somme_medianes: sumOrNull(enfants.map((e) => e.resume.cpu_pourcent.mediane)),
    controles: controls,
    // An arm that did not finish, or whose controls were not all taken, does not hold.
    controle_tenu: complete && affinity !== undefined && controls.every((c) => c.held),
  };
}
