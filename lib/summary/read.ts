/** Archives of either kind and any schema this tool reads, as summary inputs; a bad file is one line. */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { readJsonFile } from '../archive/read.js';
import { ArchiveSchema, type Archive } from '../throughput/schema.js';
import { capacityView } from '../capacity/archive/view.js';
import { toComparable, type ComparableArm } from '../throughput/compare/read.js';
import { PiperParallelError, toError } from '../core/errors.js';
import { machineFingerprint } from '../measure/machine.js';
import type { SummaryArm, SummaryInput } from './types.js';
import { maxOf } from '../core/extremes.js';

/** Names the tool gives its archives; a folder's other files (reports, bench figures) are not archives. */
const ARCHIVE_NAME = /^(piper-parallel|capacity)-\d{8}-\d{6}(-\d+)?\.json$/;

/** Every archive under the paths: files as given, folders searched (CI artifacts come one folder per job). */
export async function archiveFiles(paths: string[]): Promise<{ files: string[]; problems: string[] }> {
  const files: string[] = [];
  const problems: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for (const e of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, e.name);
      if (e.isDirectory() && !e.name.startsWith('.') && e.name !== 'node_modules') await walk(full);
      else if (e.isFile() && ARCHIVE_NAME.test(e.name)) files.push(full);
    }
  };
  for (const p of paths) {
    const s = await stat(p).catch(() => null);
    if (s === null) problems.push(`${p} cannot be read (no such file or folder); check the path`);
    else if (s.isDirectory()) await walk(p);
    else files.push(p);
  }
  return { files, problems };
}

/** Fields outside what compare reads, in archives of every version (absent ones stay unknown). */
const Extras = z.looseObject({
  date_utc: z.string().optional(),
  etiquette: z.string().nullable().optional(),
  version_outil: z.string().optional(),
  version_onnxruntime: z.string().optional(),
  coeurs: z.number().optional(),
  voix: z.array(z.looseObject({ nom: z.string(), synthetique: z.boolean() })).optional(),
});

/** Highest peak RSS of one stream, from process arms only. */
function streamRss(a: Archive['bras'][number]): number | null {
  if (a.isolation !== 'process') return null;
  const rss = a.enfants.map((e) => e.rss_pic_octets).filter((x): x is number => x !== null);
  return rss.length > 0 ? maxOf(rss) : null;
}

function currentArms(a: Archive): SummaryArm[] {
  return a.bras.map((b) => ({
    voice: b.voix,
    voiceSha256: b.voix_sha256,
    synthetic: b.voix_synthetique,
    engine: `${b.moteur === 'sherpa' ? 'sherpa-onnx' : 'onnxruntime-node'}, ${b.portee ?? 'model'}`,
    k: b.flux_simultanes,
    threads: b.fils_par_flux,
    isolation: b.isolation,
    pinned: b.affinite_demandee,
    held: b.controle_tenu,
    rounds: b.debit_agrege_manches,
    point: b.debit_agrege_centre ?? b.debit_agrege_passe_mediane,
    streamRssBytes: streamRss(b),
  }));
}

/** Archives from before rounds (schema 1, the Python script): one aggregate per arm, no interval. */
function olderArms(arms: ComparableArm[], synthetic: Set<string>): SummaryArm[] {
  return arms.map((b) => ({
    voice: b.voice,
    voiceSha256: b.voiceSha256,
    synthetic: synthetic.has(b.voice) || b.voice.startsWith('synthetic-'),
    engine: b.engine,
    k: b.streams,
    threads: b.threads,
    isolation: b.isolation,
    pinned: b.pinned,
    held: b.held,
    rounds: [],
    point: b.aggregate,
    streamRssBytes: null,
  }));
}

function throughputInput(value: unknown, file: string): SummaryInput {
  const x = Extras.parse(value);
  const base = {
    file,
    label: x.etiquette ?? null,
    dateUtc: x.date_utc ?? null,
    toolVersion: x.version_outil ?? null,
    onnxruntimeVersion: x.version_onnxruntime ?? null,
  };
  const current = ArchiveSchema.safeParse(value);
  if (current.success) {
    const a = current.data;
    return {
      ...base,
      kind: 'throughput',
      fingerprint: machineFingerprint(a.machine_detail),
      cores: a.coeurs,
      textSha256: a.protocole.texte.sha256,
      arms: currentArms(a),
    };
  }
  // Older archives: compare's reader knows them (and names what it cannot read).
  const c = toComparable(value, file);
  const synthetic = new Set((x.voix ?? []).filter((v) => v.synthetique).map((v) => v.nom));
  return {
    ...base,
    kind: 'throughput',
    fingerprint: c.machine ?? 'unknown machine',
    cores: x.coeurs ?? 0,
    textSha256: c.workload.text,
    arms: olderArms(c.arms, synthetic),
  };
}

/** One archive file as a summary input, or a one-line problem naming it. */
export async function readSummaryInput(file: string): Promise<SummaryInput | string> {
  try {
    const value = await readJsonFile(file);
    if (typeof value !== 'object' || value === null)
      throw new PiperParallelError(
        'USAGE',
        `${file} is not an archive (not a JSON object); give a file from measurements/`,
      );
    if ((value as { type?: unknown }).type !== 'capacite') return throughputInput(value, file);
    const view = capacityView(value, file);
    return {
      kind: 'capacity',
      file,
      fingerprint: machineFingerprint(view.machine),
      cores: view.cores,
      label: view.label,
      dateUtc: view.dateUtc,
      toolVersion: view.toolVersion,
      onnxruntimeVersion: view.onnxruntimeVersion,
      view,
    };
  } catch (err) {
    return toError(err).message;
  }
}
