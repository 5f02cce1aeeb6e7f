/**
 * A capacity archive of either schema, as compare and summary read it: per voice and layout the
 * two answers with the range of K their trials leave open, and the workload that produced them.
 * Version 1 measured one answer, which required the first-audio bound too: it is read as (b), and
 * (a) is unknown.
 */
import { type z } from 'zod';
import { profileOfLabel, type SessionProfile } from '../../voice/session-profile.js';
import { firstIssue } from '../../archive/read.js';
import type { MachineBlock } from '../../archive/common-schema.js';
import { PiperParallelError } from '../../core/errors.js';
import { CapacityArchiveSchema, type CapacityArchive, type CapacityEntry } from './schema.js';
import { CapacityArchiveV1Schema, type CapacityArchiveV1 } from './schema-v1.js';
import { CapacityArchiveV2Schema, type CapacityArchiveV2, type CapacityEntryV2 } from './schema-v2.js';

export interface Range {
  min: number;
  max: number;
}

export interface CapacityAnswerView {
  voice: string;
  layout: string;
  /** (a), with the K its trials leave open; null in a version 1 archive. */
  noGap: {
    k: number;
    /** Schema 3: the prediction of a rerun's answer (its stated coverage); schema 2: the range its trials left open. */
    range: Range;
    sessions: number;
    /** Schema 3: a trial's chance of a gap; schema 2: a listener's (counted by listener). */
    gapRateMax: number | null;
    /** The evidence at the answer in words, counted as the schema counted it. */
    evidence: string;
    /** Schema 3: the live speed S at the answer, with its 95% interval (null before schema 3, or unmeasured). */
    speed: { centre: number; low: number; high: number; trials: number } | null;
    headroom: { centre: number; low: number; high: number } | null;
  } | null;
  /** (b). */
  inBound: { k: number; range: Range; firstAudioP95Ms: number | null };
  /** Every trial of this voice and layout held its controls (or its failed tries were run again and held). */
  controlsHeld: boolean;
  phrase: string;
}

export interface CapacityView {
  schemaVersion: 1 | 2 | 3;
  machine: MachineBlock;
  label: string | null;
  cores: number;
  dateUtc: string;
  toolVersion: string;
  onnxruntimeVersion: string;
  /** Whose session settings the local workers ran (every archive from before profiles ran libpiper's). */
  session: SessionProfile;
  /** What must match for two runs to compare: name and value. */
  workload: Array<[string, string]>;
  voices: Array<{
    name: string;
    sha256: string;
    synthetic: boolean;
    speedAlone: number;
    workerRssBytes: number | null;
  }>;
  answers: CapacityAnswerView[];
  controlsHeld: boolean;
}

function workload(
  p: CapacityArchive['protocole'] | CapacityArchiveV2['protocole'] | CapacityArchiveV1['protocole'],
  evidence: string,
): Array<[string, string]> {
  return [
    ['text', p.texte.sha256.slice(0, 12)],
    ['first-audio bound ms', String(p.premier_son_max_ms)],
    ['arrivals', p.arrivees],
    ['schedule', p.ordre_file],
    ['max-streams', String(p.flux_max)],
    ['rounds', String(p.manches)],
    // Schema 3 counts evidence by trial and runs whole trials to their end: its answers are not schema 2's.
    ['evidence', evidence],
    // The seed shapes the work only through Poisson arrivals; elsewhere it orders the trials.
    ['seed', p.arrivees === 'poisson' ? String(p.graine) : 'any'],
  ];
}

/** The highest K at which any counted trial met the answer's rule, at least the answer. */
const rangeOf = (
  e: Pick<CapacityEntry, 'preuves'> | CapacityEntryV2,
  key: 'essais_tenus' | 'essais_dans_la_borne',
  k: number,
): Range => ({
  min: k,
  max: Math.max(k, ...e.preuves.filter((p) => p[key] > 0).map((p) => p.flux)),
});

/** The server a run measured, as what moves its speed (address, protocol, text sent how and how fast); 'none'. */
function serverOf(a: CapacityArchive | CapacityArchiveV2): string {
  const s = 'serveur' in a ? a.serveur : null;
  if (!s) return 'none';
  return `${s.protocole} ${s.adresse}, ${s.envoi === 'flux' ? `streamed at ${s.debit_texte_cps ?? 'once'}` : 'by sentence'}`;
}

/** What schemas 2 and 3 share: the run, its voices, and an answer's bounded half. */
function common(a: CapacityArchive | CapacityArchiveV2, evidence: string) {
  const session =
    ('profil_session' in a.protocole ? a.protocole.profil_session : undefined) ??
    ('session_onnxruntime' in a.protocole ? profileOfLabel(a.protocole.session_onnxruntime) : null) ??
    'libpiper';
  return {
    machine: a.machine_detail,
    label: a.etiquette,
    cores: a.coeurs,
    dateUtc: a.date_utc,
    toolVersion: a.version_outil,
    onnxruntimeVersion: a.version_onnxruntime,
    session,
    // Runs of another session profile or against another server measure that, not this machine's drift.
    workload: [...workload(a.protocole, evidence), ['session profile', session], ['server', serverOf(a)]] as Array<
      [string, string]
    >,
    voices: a.voix.map((v) => ({
      name: v.nom,
      sha256: v.sha256,
      synthetic: v.synthetique,
      speedAlone: v.debit_seul,
      workerRssBytes: v.rss_travailleur_octets,
    })),
    controlsHeld: a.controle_tenu,
  };
}

const bounded = (e: CapacityEntry | CapacityEntryV2): CapacityAnswerView['inBound'] => ({
  k: e.flux_max_dans_la_borne,
  range: rangeOf(e, 'essais_dans_la_borne', e.flux_max_dans_la_borne),
  firstAudioP95Ms: e.premier_son_p95_ms,
});

function fromV2(a: CapacityArchiveV2): CapacityView {
  return {
    schemaVersion: 2,
    ...common(a, `by listener, ${a.protocole.sessions} sessions (schema 2)`),
    answers: a.capacite.map((e) => ({
      voice: e.voix,
      layout: e.disposition,
      noGap: {
        k: e.flux_max_sans_trou,
        range: e.plage_sans_trou,
        sessions: e.sessions,
        gapRateMax: e.taux_trou_max,
        evidence:
          e.taux_trou_max === null
            ? '-'
            : `${e.sessions} sessions, gap rate below ${percentUp(e.taux_trou_max)}% (counted by listener, schema 2)`,
        speed: null,
        headroom: null,
      },
      inBound: bounded(e),
      controlsHeld: e.controle_tenu,
      phrase: e.phrase,
    })),
  };
}

/** A bound as a whole percentage, rounded up (never understated). */
const percentUp = (share: number): number => Math.ceil(share * 100 - 1e-9);

const triple = (
  centre: number | null,
  ic: [number, number] | null,
): { centre: number; low: number; high: number } | null =>
  centre === null || ic === null ? null : { centre, low: ic[0], high: ic[1] };

function fromV3(a: CapacityArchive): CapacityView {
  return {
    schemaVersion: 3,
    ...common(a, 'by trial (schema 3)'),
    answers: a.capacite.map((e) => ({
      voice: e.voix,
      layout: e.disposition,
      noGap: {
        k: e.flux_max_sans_trou,
        range: e.prevision
          ? { min: e.prevision[0], max: e.prevision[1] }
          : { min: e.flux_max_sans_trou, max: e.flux_max_sans_trou },
        sessions: e.sessions,
        gapRateMax: e.taux_trou_max,
        evidence:
          e.taux_trou_max === null
            ? '-'
            : `${e.essais_tenus} of ${e.essais} trials held, a trial's gap chance below ${percentUp(e.taux_trou_max)}%`,
        speed: (() => {
          const t = triple(e.debit_vivant, e.debit_vivant_ic95);
          // The interval's degrees of freedom: its rounds (older archives: its trials).
          return t && { ...t, trials: e.debit_vivant_manches ?? e.debit_vivant_essais };
        })(),
        headroom: triple(e.marge, e.marge_ic95),
      },
      inBound: bounded(e),
      controlsHeld: e.controle_tenu,
      phrase: e.phrase,
    })),
  };
}

function fromV1(a: CapacityArchiveV1): CapacityView {
  const held = (voice: string, layout: string): boolean =>
    a.essais.filter((t) => t.voix === voice && t.disposition === layout).every((t) => t.controle_tenu);
  return {
    schemaVersion: 1,
    machine: a.machine_detail,
    label: null,
    cores: a.coeurs,
    dateUtc: a.date_utc,
    toolVersion: a.version_outil,
    onnxruntimeVersion: a.version_onnxruntime,
    session: 'libpiper',
    workload: workload(a.protocole, 'by listener, one answer (schema 1)'),
    voices: a.voix.map((v) => ({
      name: v.nom,
      sha256: v.sha256,
      synthetic: v.synthetique,
      speedAlone: v.debit_seul,
      workerRssBytes: v.rss_travailleur_octets,
    })),
    answers: a.capacite.map((e) => ({
      voice: e.voix,
      layout: e.disposition,
      noGap: null,
      inBound: {
        k: e.flux_max_sans_trou,
        range: { min: e.flux_max_sans_trou, max: e.flux_max_sans_trou },
        firstAudioP95Ms: e.premier_son_p95_ms,
      },
      controlsHeld: held(e.voix, e.disposition),
      phrase: e.phrase,
    })),
    controlsHeld: a.controle_tenu,
  };
}

/** A capacity archive of any version this tool reads, or a one-line error naming the file. */
export function capacityView(value: unknown, file: string): CapacityView {
  // Found by the property test: null (or any non-object) has no schema_version to read.
  const version =
    typeof value === 'object' && value !== null ? (value as { schema_version?: unknown }).schema_version : undefined;
  const schema: z.ZodType =
    version === 1 ? CapacityArchiveV1Schema : version === 2 ? CapacityArchiveV2Schema : CapacityArchiveSchema;
  const parsed = schema.safeParse(value);
  if (!parsed.success)
    throw new PiperParallelError(
      'USAGE',
      `${file} is not a capacity archive this version reads (${firstIssue(parsed.error)}); give a file from measurements/`,
    );
  if (version === 1) return fromV1(parsed.data as CapacityArchiveV1);
  return version === 2 ? fromV2(parsed.data as CapacityArchiveV2) : fromV3(parsed.data as CapacityArchive);
}
