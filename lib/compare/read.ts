import { z } from 'zod';
import { ArchiveSchema } from '../archive/schema.js';
import { firstIssue, readJsonFile } from '../archive/read.js';
import { PiperParallelError } from '../errors.js';
import { machineFingerprint } from '../measure/machine.js';
import { distribution, median } from '../measure/stats.js';

/** What the comparator needs of an arm, from either tool's archive. */
export interface ComparableArm {
  key: string;
  voice: string;
  voiceSha256: string | null;
  streams: number;
  threads: number;
  pinned: boolean;
  isolation: 'process' | 'thread';
  aggregate: number | null;
  perStream: number | null;
  cpuPercent: number | null;
  /** Interquartile range of the per-pass aggregates over their median. */
  spread: number | null;
  held: boolean;
}

export interface ComparableRun {
  file: string;
  tool: 'piper-parallel' | 'python';
  machine: string | null;
  workload: { text: string | null; passes: number | null; warmup: number | null; session: string | null };
  arms: ComparableArm[];
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

export function armKey(a: Pick<ComparableArm, 'voice' | 'streams' | 'threads' | 'pinned' | 'isolation'>): string {
  return `${a.voice} K=${a.streams} T=${a.threads} ${a.pinned ? 'pinned' : 'free'} ${a.isolation}`;
}

function perPassSpread(children: Array<{ passes: Array<{ passe: number; ratio: number }> }>): number | null {
  const passes = [...new Set(children.flatMap((c) => c.passes.map((p) => p.passe)))];
  const sums = passes
    .map((j) => children.map((c) => c.passes.find((p) => p.passe === j)?.ratio))
    .filter((r): r is number[] => r.every((x) => x !== undefined))
    .map((r) => r.reduce((a, b) => a + b, 0));
  const m = sums.length > 0 ? median(sums) : 0;
  const iqr = distribution(sums).iqr;
  return m > 0 && iqr !== null ? iqr / m : null;
}

/** Read either tool's archive; a broken or foreign file is a one-line error naming it. */
export async function readComparable(file: string): Promise<ComparableRun> {
  return toComparable(await readJsonFile(file), file);
}

/** An archive object of either tool (as parsed from JSON), made comparable; `label` names it in messages. */
export function toComparable(value: unknown, label: string): ComparableRun {
  const file = label;
  const isOurs = typeof value === 'object' && value !== null && 'schema_version' in value;
  if (isOurs) {
    const parsed = ArchiveSchema.safeParse(value);
    if (!parsed.success) throw new PiperParallelError('USAGE', `${file} is not a piper-parallel archive this version reads (${firstIssue(parsed.error)})`);
    const a = parsed.data;
    return {
      file,
      tool: 'piper-parallel',
      machine: machineFingerprint(a.machine_detail),
      workload: { text: a.protocole.texte.sha256, passes: a.protocole.passes_par_bras, warmup: a.protocole.passes_echauffement, session: a.protocole.session_onnxruntime ?? null },
      arms: a.bras.map((b) => {
        const arm: ComparableArm = {
          key: '',
          voice: b.voix,
          voiceSha256: b.voix_sha256,
          streams: b.flux_simultanes,
          threads: b.fils_par_flux,
          pinned: b.affinite_demandee,
          isolation: b.isolation,
          aggregate: b.debit_agrege_passe_mediane,
          perStream: b.debit_par_flux_mediane.some((x) => x === null) ? null : median(b.debit_par_flux_mediane as number[]),
          cpuPercent: b.cpu_somme_medianes,
          spread: b.dispersion_relative,
          held: b.controle_tenu,
        };
        return { ...arm, key: armKey(arm) };
      }),
    };
  }
  const parsed = PythonArchiveSchema.safeParse(value);
  if (!parsed.success) throw new PiperParallelError('USAGE', `${file} is neither a piper-parallel archive nor one of mesure_piper_parallele.py (${firstIssue(parsed.error)})`);
  const a = parsed.data;
  return {
    file,
    tool: 'python',
    // The Python script recorded only the architecture and the core count.
    machine: `${a.machine}|${a.coeurs} cores`,
    // Its text has no checksum and it had no warm-up setting: unknown, not invented.
    workload: { text: null, passes: a.protocole.passes_par_bras, warmup: null, session: null },
    arms: a.bras.map((b) => {
      const arm: ComparableArm = {
        key: '',
        voice: b.voix,
        voiceSha256: null,
        streams: b.flux_simultanes,
        threads: b.fils_par_flux,
        pinned: b.affinite_demandee,
        // The script ran every stream as its own child process.
        isolation: 'process',
        aggregate: b.debit_agrege_mediane,
        perStream: median(b.debit_par_flux_mediane),
        cpuPercent: b.cpu_somme_medianes,
        spread: perPassSpread(b.enfants),
        held: b.controle_tenu,
      };
      return { ...arm, key: armKey(arm) };
    }),
  };
}
