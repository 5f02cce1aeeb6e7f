/**
 * Two capacity runs side by side, layout by layout: a K reached in A but not in B is a regression.
 * Runs of other machines are refused unless forced; a different workload makes every row INCOMPARABLE.
 */
import { machineFingerprint } from '../measure/machine.js';
import type { CapacityArchive } from './schema.js';

export interface CapacityRow {
  voice: string;
  layout: string;
  a: number | null;
  b: number | null;
  verdict: 'SAME' | 'MORE' | 'FEWER' | 'INCOMPARABLE' | 'CONTROLS FAILED' | 'ONLY IN A' | 'ONLY IN B';
  why: string;
}

export interface CapacityComparison {
  refused: string | null;
  forced: string[];
  workloadDiffers: string[];
  rows: CapacityRow[];
  regression: boolean;
  compared: number;
}

function workload(a: CapacityArchive, b: CapacityArchive): string[] {
  const out: string[] = [];
  const pa = a.protocole;
  const pb = b.protocole;
  if (pa.texte.sha256 !== pb.texte.sha256) out.push('text differs');
  for (const [name, x, y] of [['arrivals', pa.arrivees, pb.arrivees], ['queue', pa.ordre_file, pb.ordre_file], ['first-audio bound ms', pa.premier_son_max_ms, pb.premier_son_max_ms]] as const) if (x !== y) out.push(`${name} ${x} vs ${y}`);
  return out;
}

/** Whether every trial of that voice and layout held its controls. */
const held = (a: CapacityArchive, voice: string, layout: string): boolean => a.essais.filter((t) => t.voix === voice && t.disposition === layout).every((t) => t.controle_tenu);

export function compareCapacity(a: CapacityArchive, b: CapacityArchive, force = false): CapacityComparison {
  const result: CapacityComparison = { refused: null, forced: [], workloadDiffers: workload(a, b), rows: [], regression: false, compared: 0 };
  const ma = machineFingerprint(a.machine_detail);
  const mb = machineFingerprint(b.machine_detail);
  if (ma !== mb) {
    const why = `different machines (A: ${ma}; B: ${mb})`;
    if (!force) {
      result.refused = `${why}; capacities from different machines do not compare (--force to compare anyway)`;
      return result;
    }
    result.forced.push(why);
  }
  const keys = [...new Set([...a.capacite, ...b.capacite].map((c) => `${c.voix}\u0000${c.disposition}`))];
  for (const key of keys) {
    const [voice = '', layout = ''] = key.split('\u0000');
    const x = a.capacite.find((c) => c.voix === voice && c.disposition === layout);
    const y = b.capacite.find((c) => c.voix === voice && c.disposition === layout);
    const row = (verdict: CapacityRow['verdict'], why: string): CapacityRow => ({ voice, layout, a: x?.flux_max_sans_trou ?? null, b: y?.flux_max_sans_trou ?? null, verdict, why });
    if (!x || !y) {
      result.rows.push(row(x ? 'ONLY IN A' : 'ONLY IN B', 'no such layout in the other run'));
      continue;
    }
    const va = a.voix.find((v) => v.nom === voice)?.sha256;
    const vb = b.voix.find((v) => v.nom === voice)?.sha256;
    const differs = [...result.workloadDiffers, ...(va !== vb ? ['voice checksum differs'] : [])];
    if (!held(a, voice, layout) || !held(b, voice, layout)) result.rows.push(row('CONTROLS FAILED', 'a control failed in a trial of this layout; shown, not counted'));
    else if (differs.length > 0) result.rows.push(row('INCOMPARABLE', differs.join('; ')));
    else if (y.flux_max_sans_trou < x.flux_max_sans_trou) {
      result.regression = true;
      result.rows.push(row('FEWER', `K=${x.flux_max_sans_trou} held in A, only ${y.flux_max_sans_trou} in B`));
    } else result.rows.push(row(y.flux_max_sans_trou > x.flux_max_sans_trou ? 'MORE' : 'SAME', y.flux_max_sans_trou > x.flux_max_sans_trou ? `B served ${y.flux_max_sans_trou - x.flux_max_sans_trou} more` : 'the same K held'));
  }
  result.compared = result.rows.filter((r) => ['SAME', 'MORE', 'FEWER'].includes(r.verdict)).length;
  return result;
}

export function capacityComparisonMarkdown(c: CapacityComparison, fileA: string, fileB: string): string {
  const lines = ['# piper-parallel compare (capacity)', '', `A: ${fileA}`, `B: ${fileB}`];
  if (c.refused) return [...lines, '', `REFUSED: ${c.refused}`].join('\n');
  if (c.forced.length > 0) lines.push(`FORCED despite: ${c.forced.join('; ')}`);
  if (c.workloadDiffers.length > 0) lines.push(`workload differs: ${c.workloadDiffers.join('; ')}`);
  lines.push('', '| voice | layout | A: live streams | B: live streams | verdict | why |', '| --- | --- | --- | --- | --- | --- |');
  for (const r of c.rows) lines.push(`| ${r.voice} | ${r.layout} | ${r.a ?? '-'} | ${r.b ?? '-'} | ${r.verdict} | ${r.why} |`);
  lines.push('', c.compared === 0 ? 'NOTHING COMPARED: no layout could be compared; no conclusion' : c.regression ? 'REGRESSION: a K reached in A was not reached in B' : `no regression (${c.compared} layout(s) compared)`);
  return lines.join('\n');
}
