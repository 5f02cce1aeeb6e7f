import { z } from 'zod';
import { ArchiveSchema, type Archive } from '../schema.js';
import { firstIssue, readJsonFile } from '../../archive/read.js';
import { PiperParallelError } from '../../core/errors.js';
import { machineFingerprint } from '../../measure/machine.js';
import { distribution, median, MIN_PASSES_FOR_SPREAD } from '../../measure/stats.js';
import { maxOf, minOf } from '../../core/extremes.js';

/**
 * What an arm's aggregate means. `speech-over-span`: the audio every stream produced over the
 * pass's span (schema 2, and recomputed for schema 1 from its passes' times). `sum-of-stream-medians`:
 * the original script's sum of per-stream medians. Different meanings never compare.
 */
export type AggregateMeaning = 'speech-over-span' | 'sum-of-stream-medians';

/** What the comparator needs of an arm, from either tool's archive. */
export interface ComparableArm {
  key: string;
  voice: string;
  voiceSha256: string | null;
  streams: number;
  threads: number;
  pinned: boolean;
  isolation: 'process' | 'thread';
  /** The layout alone (voice, K, T, affinity, isolation): arms on another engine or scope share it. */
  layout: string;
  /** "onnxruntime-node, model" (also every archive from before engines and the Python script's) or "sherpa-onnx, text". */
  engine: string;
  aggregate: number | null;
  aggregateMeaning: AggregateMeaning;
  perStream: number | null;
  cpuPercent: number | null;
  /** Interquartile range of the per-pass aggregates over their median; null with too few passes to tell. */
  spread: number | null;
  /**
   * The figures per round (aggregate, and the median stream's throughput), the between-round evidence
   * a change is judged on; absent in archives from before rounds (the Python script's, schema 1).
   */
  rounds?: { aggregate: number[]; perStream: number[] };
  held: boolean;
}

/** One layout ratio of a run's verdict: A over B for a voice and K, and whether it was resolved. */
export interface ComparablePair {
  voice: string;
  k: number;
  a: string;
  b: string;
  ratio: number | null;
  interval: [number, number] | null;
  resolved: boolean;
}

export interface ComparableRun {
  file: string;
  tool: 'piper-parallel' | 'python';
  machine: string | null;
  workload: { text: string | null; passes: number | null; warmup: number | null; session: string | null };
  arms: ComparableArm[];
  /** The verdict's layout ratios (schema 2); none in older archives. */
  pairs: ComparablePair[];
}

/** The original Python script's archive: its French keys, nothing this tool added. */
const PythonPass = z.looseObject({ passe: z.number(), ratio: z.number() });
const PythonArchiveSchema = z.looseObject({
  outil: z.string(),
  machine: z.string(),
  coeurs: z.number(),
  protocole: z.looseObject({ source_du_texte: z.string(), passes_par_bras: z.number() }),
  bras: z.array(
    z.looseObject({
      voix: z.string(),
      flux_simultanes: z.number().int(),
      fils_par_flux: z.number().int(),
      affinite_demandee: z.boolean(),
      enfants: z.array(z.looseObject({ passes: z.array(PythonPass) })),
      debit_par_flux_mediane: z.array(z.number()),
      debit_agrege_mediane: z.number(),
      cpu_somme_medianes: z.number(),
      controle_tenu: z.boolean(),
    }),
  ),
  controle_tenu: z.boolean(),
});

/** This tool's schema-1 archives: what compare needs, with every pass's times to recompute the aggregate. */
const V1Pass = z.looseObject({ passe: z.number(), audio_s: z.number(), debut_ms: z.number(), fin_ms: z.number() });
const V1ArchiveSchema = z.looseObject({
  schema_version: z.literal(1),
  machine_detail: z.looseObject({
    architecture: z.string(),
    cpu: z.string(),
    coeurs_logiques: z.number(),
    memoire_octets: z.number(),
    coeurs_autorises: z.array(z.number()),
  }),
  protocole: z.looseObject({
    texte: z.looseObject({ sha256: z.string() }),
    passes_par_bras: z.number(),
    passes_echauffement: z.number(),
    session_onnxruntime: z.string().optional(),
  }),
  bras: z.array(
    z.looseObject({
      voix: z.string(),
      voix_sha256: z.string(),
      isolation: z.enum(['process', 'thread']),
      flux_simultanes: z.number().int(),
      fils_par_flux: z.number().int(),
      affinite_demandee: z.boolean(),
      enfants: z.array(z.looseObject({ passes: z.array(V1Pass) })),
      debit_par_flux_mediane: z.array(z.number().nullable()),
      cpu_somme_medianes: z.number().nullable(),
      controle_tenu: z.boolean(),
    }),
  ),
});

export function armKey(a: Pick<ComparableArm, 'voice' | 'streams' | 'threads' | 'pinned' | 'isolation'>): string {
  return `${a.voice} K=${a.streams} T=${a.threads} ${a.pinned ? 'pinned' : 'free'} ${a.isolation}`;
}

/** The engine and scope of every archive from before engines, and the default since. */
export const DEFAULT_ENGINE = 'onnxruntime-node, model';

/** The arm's identity: its layout, and its engine and scope where they are not the default. */
function identify(
  arm: Pick<ComparableArm, 'voice' | 'streams' | 'threads' | 'pinned' | 'isolation'>,
  moteur?: 'onnxruntime' | 'sherpa',
  portee?: 'model' | 'text',
): Pick<ComparableArm, 'key' | 'layout' | 'engine'> {
  const layout = armKey(arm);
  const engine = `${moteur === 'sherpa' ? 'sherpa-onnx' : 'onnxruntime-node'}, ${portee ?? 'model'}`;
  return { layout, engine, key: engine === DEFAULT_ENGINE ? layout : `${layout} [${engine}]` };
}

/** Per-pass figures of passes every stream has; `of` turns one pass's streams into one figure. */
function perPass<P extends { passe: number }>(
  children: Array<{ passes: P[] }>,
  of: (streams: P[]) => number,
): number[] {
  const ids = [...new Set(children.flatMap((c) => c.passes.map((p) => p.passe)))];
  return ids
    .map((j) => children.map((c) => c.passes.find((p) => p.passe === j)))
    .filter((r): r is P[] => r.every((x) => x !== undefined))
    .map(of);
}

/** IQR over median, null with fewer passes than a decision needs. */
function spreadOf(values: number[]): number | null {
  const m = values.length > 0 ? median(values) : 0;
  const iqr = distribution(values).iqr;
  return values.length >= MIN_PASSES_FOR_SPREAD && m > 0 && iqr !== null ? iqr / m : null;
}

const medianOf = (values: ReadonlyArray<number | null>): number | null =>
  values.length === 0 || values.some((x) => x === null) ? null : median(values as number[]);

/** Read either tool's archive; a broken or foreign file is a one-line error naming it. */
export async function readComparable(file: string): Promise<ComparableRun> {
  return toComparable(await readJsonFile(file), file);
}

/** What both schema versions of this tool's archives hold, as compare needs it. */
interface OurArchive<B> {
  machine_detail: Parameters<typeof machineFingerprint>[0];
  protocole: {
    texte: { sha256: string };
    passes_par_bras: number;
    passes_echauffement: number;
    session_onnxruntime?: string | undefined;
  };
  bras: B[];
}
interface OurArm {
  voix: string;
  voix_sha256: string;
  isolation: 'process' | 'thread';
  moteur?: 'onnxruntime' | 'sherpa' | undefined;
  portee?: 'model' | 'text' | undefined;
  flux_simultanes: number;
  fils_par_flux: number;
  affinite_demandee: boolean;
  debit_par_flux_mediane: Array<number | null>;
  cpu_somme_medianes: number | null;
  controle_tenu: boolean;
}

/** `figures` gives each arm's aggregate (speech over the span) and its spread. */
/** Per round: the arm's round figure, and the median of its streams' pass throughputs in that round. */
function roundFigures(b: Archive['bras'][number]): { aggregate: number[]; perStream: number[] } {
  const perStream = b.debit_agrege_manches.flatMap((_, i) => {
    const ratios = b.enfants.flatMap((e) =>
      e.passes.filter((p) => p.manche === i + 1 && p.ratio !== null).map((p) => p.ratio as number),
    );
    return ratios.length > 0 ? [median(ratios)] : [];
  });
  return {
    aggregate: b.debit_agrege_manches.filter((v): v is number => v !== null && v > 0),
    perStream: perStream.filter((v) => v > 0),
  };
}

function ourRun<B extends OurArm>(
  file: string,
  a: OurArchive<B>,
  figures: (b: B) => { aggregate: number | null; spread: number | null; rounds?: ComparableArm['rounds'] },
  pairs: ComparablePair[] = [],
): ComparableRun {
  return {
    file,
    pairs,
    tool: 'piper-parallel',
    machine: machineFingerprint(a.machine_detail),
    workload: {
      text: a.protocole.texte.sha256,
      passes: a.protocole.passes_par_bras,
      warmup: a.protocole.passes_echauffement,
      session: a.protocole.session_onnxruntime ?? null,
    },
    arms: a.bras.map((b) => {
      const arm = {
        voice: b.voix,
        voiceSha256: b.voix_sha256,
        streams: b.flux_simultanes,
        threads: b.fils_par_flux,
        pinned: b.affinite_demandee,
        isolation: b.isolation,
      };
      return {
        ...arm,
        ...identify(arm, b.moteur, b.portee),
        ...figures(b),
        aggregateMeaning: 'speech-over-span' as const,
        perStream: medianOf(b.debit_par_flux_mediane),
        cpuPercent: b.cpu_somme_medianes,
        held: b.controle_tenu,
      };
    }),
  };
}

function fromV1(value: unknown, file: string): ComparableRun {
  const parsed = V1ArchiveSchema.safeParse(value);
  if (!parsed.success)
    throw new PiperParallelError(
      'USAGE',
      `${file} is a schema 1 piper-parallel archive this version cannot read (${firstIssue(parsed.error)})`,
    );
  return ourRun(file, parsed.data, (b) => {
    // Schema 1 summed the streams' ratios; its passes' times give the speech over the span instead.
    // A pass whose span is zero or unreadable has no speed: it is left out, never infinite.
    const speech = perPass(b.enfants, (s) => {
      const spanSeconds = (maxOf(s.map((p) => p.fin_ms)) - minOf(s.map((p) => p.debut_ms))) / 1000;
      return s.reduce((n, p) => n + p.audio_s, 0) / spanSeconds;
    }).filter((x) => Number.isFinite(x) && x > 0);
    return { aggregate: speech.length > 0 ? median(speech) : null, spread: spreadOf(speech) };
  });
}

function fromPython(value: unknown, file: string): ComparableRun {
  const parsed = PythonArchiveSchema.safeParse(value);
  if (!parsed.success) {
    // The schema's words only where the file is one of the script's archives, damaged: elsewhere they name a key
    // the file never meant to have.
    const looksPython = typeof value === 'object' && value !== null && 'outil' in value;
    throw new PiperParallelError(
      'USAGE',
      looksPython
        ? `${file} is an archive of mesure_piper_parallele.py this version cannot read (${firstIssue(parsed.error)})`
        : `${file} is not an archive (neither piper-parallel's nor mesure_piper_parallele.py's); give a file from measurements/`,
    );
  }
  const a = parsed.data;
  return {
    file,
    tool: 'python',
    pairs: [],
    // The Python script recorded only the architecture and the core count.
    machine: `${a.machine}|${a.coeurs} cores`,
    // Its text has no checksum and it had no warm-up setting: unknown, not invented.
    workload: { text: null, passes: a.protocole.passes_par_bras, warmup: null, session: null },
    arms: a.bras.map((b) => {
      // The script ran every stream as its own child process.
      const arm = {
        voice: b.voix,
        voiceSha256: null,
        streams: b.flux_simultanes,
        threads: b.fils_par_flux,
        pinned: b.affinite_demandee,
        isolation: 'process' as const,
      };
      const sums = perPass(b.enfants, (s) => s.reduce((n, p) => n + p.ratio, 0));
      return {
        ...arm,
        ...identify(arm),
        aggregate: b.debit_agrege_mediane,
        aggregateMeaning: 'sum-of-stream-medians' as const,
        perStream: median(b.debit_par_flux_mediane),
        cpuPercent: b.cpu_somme_medianes,
        spread: spreadOf(sums),
        held: b.controle_tenu,
      };
    }),
  };
}

/** An archive object of either tool (as parsed from JSON), made comparable; `label` names it in messages. */
export function toComparable(value: unknown, label: string): ComparableRun {
  const file = label;
  const version =
    typeof value === 'object' && value !== null && 'schema_version' in value
      ? (value as { schema_version: unknown }).schema_version
      : undefined;
  if (version === 1) return fromV1(value, file);
  if (version === undefined) return fromPython(value, file);
  const parsed = ArchiveSchema.safeParse(value);
  if (!parsed.success)
    throw new PiperParallelError(
      'USAGE',
      `${file} is not a piper-parallel archive this version reads (${firstIssue(parsed.error)})`,
    );
  // Layouts are ranked within one engine and scope: a pair is the same pair only there.
  const pairs = parsed.data.verdict.comparaisons.flatMap((c) =>
    c.paires.map((p) => ({
      voice: c.moteur
        ? `${c.voix} [${c.moteur === 'sherpa' ? 'sherpa-onnx' : 'onnxruntime-node'}, ${c.portee ?? 'model'}]`
        : c.voix,
      k: c.flux,
      a: p.a,
      b: p.b,
      ratio: p.rapport,
      interval: p.rapport_ic95,
      resolved: p.tranche,
    })),
  );
  return ourRun(
    file,
    parsed.data,
    (b) => ({ aggregate: b.debit_agrege_passe_mediane, spread: b.dispersion_relative, rounds: roundFigures(b) }),
    pairs,
  );
}
