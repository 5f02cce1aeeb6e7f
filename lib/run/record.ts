import type { ArmRecord, ChildRecordOut, Condition, PassRecord } from '../archive/schema.js';
import { affinityControl, cpuMaxControl, cpuSumControl, outsideLoadControl, skewControl, type Control } from '../measure/controls.js';
import { bootstrapMedianCi, distribution, median, summarize, upperControlLimit } from '../measure/stats.js';
import type { ArmRun, ChildRecord } from './arm.js';
import type { PassMessage } from './messages.js';

function sumOrNull(values: ReadonlyArray<number | null>): number | null {
  if (values.length === 0 || values.some((v) => v === null)) return null;
  return values.reduce<number>((a, b) => a + (b ?? 0), 0);
}

function passRecord(m: PassMessage): PassRecord {
  const ratio = m.computeSeconds > 0 ? m.audioSeconds / m.computeSeconds : Number.NaN;
  return {
    passe: m.pass,
    temps_calcul_s: m.computeSeconds,
    audio_s: m.audioSeconds,
    ratio,
    rtf: m.audioSeconds > 0 ? m.computeSeconds / m.audioSeconds : Number.NaN,
    // Not clamped: a reading above 100% per thread must stay visible.
    cpu_pourcent: m.computeSeconds > 0 ? (m.cpuSeconds / m.computeSeconds) * 100 : Number.NaN,
    inference_s: m.inferenceSeconds,
    debut_ms: m.startMs,
    fin_ms: m.endMs,
  };
}

function childRecord(c: ChildRecord): ChildRecordOut {
  const warm = c.passes.filter((p) => p.warmup).map(passRecord);
  const timed = c.passes.filter((p) => !p.warmup).map(passRecord);
  return {
    rang: c.rang,
    pid: c.pid ?? null,
    coeur_demande: c.core ?? null,
    affinite_effective: c.loaded?.cores ?? [],
    chargement_s: c.loaded?.loadSeconds ?? null,
    phonemisation_s: c.loaded?.phonemizeSeconds ?? null,
    phrases: c.loaded?.sentences ?? null,
    phonemes_manquants: c.loaded?.missingPhonemes ?? {},
    rss_pic_octets: c.passes.reduce<number | null>((m, p) => (p.peakRssBytes === undefined ? m : Math.max(m ?? 0, p.peakRssBytes)), null),
    echauffement: warm,
    passes: timed,
    resume: {
      ratio: summarize(timed.map((p) => p.ratio)),
      rtf: summarize(timed.map((p) => p.rtf)),
      cpu_pourcent: summarize(timed.map((p) => p.cpu_pourcent)),
    },
    statistiques: {
      ratio: distribution(timed.map((p) => p.ratio)),
      rtf: distribution(timed.map((p) => p.rtf)),
      cpu_pourcent: distribution(timed.map((p) => p.cpu_pourcent)),
      rtf_limite_controle: upperControlLimit(timed.map((p) => p.rtf)),
    },
  };
}

export interface ArmIdentity {
  voice: { name: string; synthetic: boolean; sha256: string };
  condition: Condition;
  /** Every core the run may use (the parent's own affinity). */
  allCores: number[];
  /** CPU other programs used during the arm, in cores; undefined where it could not be read. */
  outsideCores?: number;
}

/** Turn a worker run into the archived arm, with its statistics and controls. */
export function armRecord(run: ArmRun, id: ArmIdentity): ArmRecord {
  const { condition } = id;
  const enfants = run.children.map(childRecord);
  const perStream = enfants.map((e) => e.resume.ratio.mediane);
  const seen = enfants.map((e) => e.affinite_effective);
  const controls: Control[] = [];
  const complete = run.state === 'done' && enfants.every((e) => e.passes.length > 0);
  if (complete) {
    controls.push(cpuMaxControl(enfants.map((e) => e.resume.cpu_pourcent.max ?? Number.NaN), condition.fils));
    const sum = cpuSumControl(enfants.map((e) => e.resume.cpu_pourcent.mediane ?? Number.NaN), condition.fils, id.allCores.length);
    if (sum) controls.push(sum);
  }
  const affinity = seen.every((s) => s.length > 0) ? affinityControl(seen, condition.affinite, id.allCores) : undefined;
  if (affinity) controls.push(affinity);
  if (complete) {
    const timedSync = run.sync.filter((s) => !s.warmup);
    const medianCompute = median(enfants.flatMap((e) => e.passes.map((p) => p.temps_calcul_s)));
    const skew = skewControl(timedSync.map((s) => s.skewMs), medianCompute, condition.flux);
    if (skew) controls.push(skew);
    if (id.outsideCores !== undefined) controls.push(outsideLoadControl(id.outsideCores));
  }
  // Aggregate of each timed pass: only passes every stream finished.
  const passIds = [...new Set(enfants.flatMap((e) => e.passes.map((p) => p.passe)))].sort((a, b) => a - b);
  const perPass = passIds
    .map((j) => enfants.map((e) => e.passes.find((p) => p.passe === j)?.ratio))
    .filter((r): r is number[] => r.every((x) => x !== undefined))
    .map((r) => r.reduce((a, b) => a + b, 0));
  const perPassMedian = perPass.length > 0 ? median(perPass) : null;
  const iqr = distribution(perPass).iqr;
  const relativeSpread = perPassMedian && iqr !== null ? iqr / perPassMedian : null;
  return {
    voix: id.voice.name,
    voix_synthetique: id.voice.synthetic,
    voix_sha256: id.voice.sha256,
    isolation: condition.isolation,
    flux_simultanes: condition.flux,
    fils_par_flux: condition.fils,
    affinite_demandee: condition.affinite,
    affinites_vues: seen,
    controle_affinite_tenu: affinity?.held ?? false,
    etat: run.state,
    erreur: run.message ?? null,
    mural_total_s: run.wallSeconds,
    enfants,
    synchro: run.sync.map((s) => ({
      passe: s.pass,
      echauffement: s.warmup,
      depart_prevu_ms: s.atMs,
      departs_ms: s.startsMs,
      fins_ms: s.endsMs,
      skew_ms: s.skewMs,
      retard_ms: s.lateMs,
    })),
    debit_par_flux_mediane: perStream,
    debit_agrege_mediane: sumOrNull(perStream),
    debit_agrege_par_passe: perPass,
    debit_agrege_passe_mediane: perPassMedian,
    debit_agrege_ic95: bootstrapMedianCi(perPass),
    dispersion_relative: relativeSpread,
    bruyant: relativeSpread !== null && relativeSpread > 0.1,
    cpu_somme_medianes: sumOrNull(enfants.map((e) => e.resume.cpu_pourcent.mediane)),
    controles: controls,
    // An arm that did not finish, or whose controls were not all taken, does not hold.
    controle_tenu: complete && affinity !== undefined && controls.every((c) => c.held),
  };
}
