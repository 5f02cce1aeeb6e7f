/** A capacity run as Markdown or as one self-contained HTML page (charts inlined as SVG). */
import { renderSvg } from '../../report/svg.js';
import type { CapacityArchive, TrialRecord } from '../schema.js';
import { capacityCharts } from './charts.js';

const ms = (x: number | null): string => (x === null ? '-' : `${Math.round(x)}`);
const TRIAL_COLUMNS = ['voice', 'layout', 'K', 'workers', 'round', 'state', 'held', 'first audio p95 ms', 'gaps (streams)', 'arrival late ms', 'x real time (aggregate, per stream)', 'controls'];

function trialCells(t: TrialRecord): string[] {
  const failed = t.controles.filter((c) => !c.held).map((c) => `${c.name}: ${c.message}`);
  return [t.voix, t.disposition, String(t.flux), String(t.travailleurs), String(t.manche), t.etat, t.tenu ? 'yes' : 'no', ms(t.premier_son_p95_ms), `${t.trous} (${t.flux_avec_trous})`, t.retard_arrivee_max_ms.toFixed(1), `${t.debit_agrege?.toFixed(1) ?? '-'}, ${t.debit_par_flux?.toFixed(2) ?? '-'}`, failed.length === 0 ? 'OK' : `FAILED ${failed.join('; ')}`];
}

function facts(a: CapacityArchive): string[] {
  const p = a.protocole;
  const synthetic = a.voix.filter((v) => v.synthetique).map((v) => v.nom);
  return [
    `question: ${a.question}`,
    `machine: ${a.machine_detail.cpu}, ${a.coeurs} cores usable, ${(a.machine_detail.memoire_octets / 2 ** 30).toFixed(1)} GiB (MemAvailable at the start ${a.memoire_disponible_octets === null ? 'unknown' : `${(a.memoire_disponible_octets / 2 ** 30).toFixed(1)} GiB`})`,
    `text: ${p.source_du_texte}, ${p.texte.phrases} lines; arrivals ${p.arrivees}; queue ${p.ordre_file}; a K fails on any gap or first audio p95 over ${p.premier_son_max_ms} ms; up to ${p.flux_max} streams; ${p.manches} round(s), seed ${p.graine}`,
    `voices: ${a.voix.map((v) => `${v.nom} (${v.synthetique ? 'SYNTHETIC' : 'real'}: alone x${v.debit_seul.toFixed(1)} real time, sentences ${v.phrases_audio_s.map((s) => s.toFixed(1)).join(', ')} s, worker peak ${v.rss_travailleur_octets === null ? '?' : Math.round(v.rss_travailleur_octets / 2 ** 20)} MiB)`).join('; ')}`,
    ...(synthetic.length > 0 ? [`SYNTHETIC voices (${synthetic.join(', ')}): random weights in a Piper-medium-shaped graph; their figures measure compute, not speech`] : []),
    `command: ${p.commande}`,
  ];
}

const CAVEAT = 'A listener\'s first sentence plays when it is ready; each next one when the previous has ended or when it is ready, whichever is later; a gap is the wait between (1 ms or more). Round 1 searches (a step stops at its first gap, so its gap count is a floor); later rounds run the edge K and the next K whole, with fresh workers. A K holds only if every trial of it held.';

export function capacityMarkdown(a: CapacityArchive): string {
  const row = (cells: string[]): string => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
  const out = [`# piper-parallel capacity run of ${a.date_utc}`, ''];
  if (!a.controle_tenu) out.push('> **A control failed: nothing from this run may be published.**', '');
  out.push(...facts(a).map((f) => `- ${f}`), '', '## Verdict', '', ...a.phrases.flatMap((p) => [p, '']));
  out.push('| voice | layout | live streams without a gap | first audio p95 ms | gaps at the next K | bound |', '| - | - | - | - | - | - |');
  for (const c of a.capacite) out.push(row([c.voix, c.disposition, String(c.flux_max_sans_trou), ms(c.premier_son_p95_ms), c.trous_au_dela === null ? '-' : String(c.trous_au_dela), c.borne]));
  out.push('', '## Trials', '', row(TRIAL_COLUMNS), row(TRIAL_COLUMNS.map(() => '-')), ...a.essais.map((t) => row(trialCells(t))), '', '## Caveats', '', `- ${CAVEAT}`, '');
  return out.join('\n');
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const table = (columns: string[], rows: string[][]): string => `<table><thead><tr>${columns.map((c) => `<th>${esc(c)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`;

export async function capacityHtml(a: CapacityArchive): Promise<string> {
  const body = [`<h1>piper-parallel capacity run of ${esc(a.date_utc)}</h1>`];
  if (!a.controle_tenu) body.push('<p class="banner failed">A control failed: nothing from this run may be published.</p>');
  body.push('<ul>', ...facts(a).map((f) => `<li>${esc(f)}</li>`), '</ul>', '<h2>Verdict</h2>', ...a.phrases.map((p) => `<p>${esc(p)}</p>`));
  body.push(table(['voice', 'layout', 'live streams without a gap', 'first audio p95 ms', 'gaps at the next K', 'bound'], a.capacite.map((c) => [c.voix, c.disposition, String(c.flux_max_sans_trou), ms(c.premier_son_p95_ms), c.trous_au_dela === null ? '-' : String(c.trous_au_dela), c.borne])));
  body.push('<h2>Charts</h2>');
  for (const chart of capacityCharts(a)) body.push(`<figure data-chart="${esc(chart.id)}">${await renderSvg(chart.spec)}<figcaption>${esc(chart.title)}</figcaption></figure>`);
  body.push('<h2>Trials</h2>', table(TRIAL_COLUMNS, a.essais.map(trialCells)), `<h2>Caveats</h2><p>${esc(CAVEAT)}</p>`);
  const synthetic = a.voix.some((v) => v.synthetique);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>piper-parallel capacity ${esc(a.date_utc)}${synthetic ? ' (synthetic voices)' : ''}</title>
<style>body{font:15px/1.45 system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left}.failed{color:#a50f15;font-weight:600}.banner{padding:.6rem 1rem;border-left:4px solid #e6550d;background:#fff4ec}</style></head>
<body>
${body.join('\n')}
</body></html>
`;
}
