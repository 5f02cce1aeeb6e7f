import type { ArmRecord, ChildRecordOut, Condition, PassRecord } from '../archive/schema.js';
import { affinityControl, cpuMaxControl, cpuSumControl, skewControl, type Control } from '../measure/controls.js';
import { median, summarize } from '../measure/stats.js';
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
    echauffement: warm,
    passes: timed,
    resume: {
      ratio: summarize(timed.map((p) => p.ratio)),
      rtf: summarize(timed.map((p) => p.rtf)),
      cpu_pourcent: summarize(timed.map((p) => p.cpu_pourcent)),
    },
  };
}

export interface ArmIdentity {
  voice: { name: string; synthetic: boolean; sha256: string };
  condition: Condition;
  /** Every core the run may use (the parent's own affinity). */
  allCores: number[];
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
  }
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
    cpu_somme_medianes: sumOrNull(enfants.map((e) => e.resume.cpu_pourcent.mediane)),
    controles: controls,
    // An arm that did not finish, or whose controls were not all taken, does not hold.
    controle_tenu: complete && affinity !== undefined && controls.every((c) => c.held),
  };
}
