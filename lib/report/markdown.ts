import type { Archive, ArmRecord } from '../archive/schema.js';
import { ARM_COLUMNS, armCells, num } from './cells.js';
import { armVoiceLabel } from './table.js';

/** A table cell: pipes and line breaks would break the row. */
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const row = (cells: string[]): string => `| ${cells.map(cell).join(' | ')} |`;

/** Below this many timed passes, a p95 by nearest rank is simply the largest value. */
export const P95_MIN_PASSES = 20;

function armRow(arm: ArmRecord): string {
  return row(armCells(arm).cells);
}

/** Every failed control with its figures, and every arm that did not finish. */
function failures(a: Archive): string[] {
  const lines: string[] = [];
  for (const arm of a.bras) {
    const name = `${armVoiceLabel(arm)} K=${arm.flux_simultanes} T=${arm.fils_par_flux} ${arm.affinite_demandee ? 'pinned' : 'free'} ${arm.isolation}`;
    if (arm.etat !== 'done') lines.push(`- ${name}: ${arm.etat}: ${arm.erreur ?? 'no reason given'}`);
    for (const c of arm.controles.filter((k) => !k.held)) {
      lines.push(`- ${name}: \`${c.name}\` measured ${num(c.measured)} ${c.unit} against ${num(c.threshold)} ${c.unit}: ${c.message}`);
    }
  }
  return lines;
}

/** The run as Markdown, to paste into an issue or a README. */
export function renderMarkdown(a: Archive): string {
  const d = a.machine_detail;
  const synthetic = a.voix.filter((v) => v.synthetique);
  const out: string[] = [`# piper-parallel run of ${a.date_utc}`, ''];
  if (synthetic.length > 0) {
    out.push(`> **SYNTHETIC voices** (${synthetic.map((v) => v.nom).join(', ')}): random weights in a Piper-medium-shaped graph. Their figures measure compute and contention, not speech.`, '');
  }
  if (!a.controle_tenu) out.push('> **A control failed: nothing from this run may be published.**', '');
  out.push(
    `- question: ${a.question}`,
    `- machine: ${d.cpu}, ${a.coeurs} cores usable (${d.coeurs_logiques} logical), ${num(d.memoire_octets / 2 ** 30, 1)} GiB, ${d.systeme ?? d.plateforme} ${d.noyau}, load before ${d.charge_avant.map((x) => x.toFixed(2)).join(' ')}`,
    `- software: piper-parallel ${a.version_outil}, onnxruntime ${a.version_onnxruntime}, Node ${a.version_node}`,
    `- text: ${a.protocole.source_du_texte}, ${a.protocole.texte.phrases} lines, ${a.protocole.texte.caracteres} characters, sha256 \`${a.protocole.texte.sha256.slice(0, 16)}\``,
    `- passes: ${a.protocole.passes_par_bras} timed per arm after ${a.protocole.passes_echauffement} warm-up`,
    `- voices: ${a.voix.map((v) => `${v.nom} (${v.synthetique ? 'SYNTHETIC' : 'real Piper voice'}, ${v.frequence_hz} Hz)`).join(', ')}`,
    `- command: \`${a.protocole.commande}\``,
  );
  if (a.interrompu) out.push('- this run was interrupted and resumed');
  if (d.attente && d.attente.attendu_s > 0) out.push(`- waited ${d.attente.attendu_s} s for the machine to settle (${d.attente.calme ? 'it did' : 'it stayed busy'})`);
  out.push('');
  const voices = [...new Set(a.bras.map((b) => b.voix))];
  for (const voice of voices) {
    const arms = a.bras.filter((b) => b.voix === voice);
    const first = arms[0];
    out.push(`## ${first ? armVoiceLabel(first) : voice}`, '');
    out.push(row([...ARM_COLUMNS]), row(ARM_COLUMNS.map(() => '-')));
    for (const arm of arms) out.push(armRow(arm));
    out.push('');
  }
  out.push('## Verdict', '');
  if (a.verdict.phrases.length === 0) out.push('No comparison could be made (no arm with its controls held, or one layout only).');
  for (const p of a.verdict.phrases) out.push(p, '');
  for (const s of a.verdict.passage_a_l_echelle) out.push(`- scaling: ${s}`);
  out.push('', '## Failed controls', '');
  const failed = failures(a);
  out.push(...(failed.length > 0 ? failed : ['None: every control held in every arm.']));
  out.push('', '## Caveats', '');
  if (synthetic.length > 0) out.push('- Synthetic voices cost what a Piper medium voice costs, but they are not speech; never quote their figures as a real voice\'s.');
  if (a.protocole.passes_par_bras < P95_MIN_PASSES) out.push(`- With ${a.protocole.passes_par_bras} passes (fewer than ${P95_MIN_PASSES}), each p95 in the archive is the largest value seen, not a percentile.`);
  if (a.bras.some((b) => b.bruyant)) out.push('- NOISY arms: the spread of their per-pass aggregates is over 10% of the median; run again on a quieter machine.');
  out.push('- Throughput is seconds of audio per second of compute (x real time), the median over passes; intervals are seeded 95% bootstrap intervals of the median.');
  out.push('');
  return out.join('\n');
}
