import type { Archive, ArmRecord } from '../archive/schema.js';
import { archiveCharts } from './charts.js';
import { renderSvg } from './svg.js';
import { ARM_COLUMNS, armCells, caveats, ENGINE_COLUMNS, engineCells, failures, RATIO_COLUMNS, ratioCells, runFacts, syntheticVoices } from './content.js';
import { armVoiceLabel } from './table.js';

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function armRow(arm: ArmRecord): string {
  const { cells, held } = armCells(arm);
  return `<tr>${cells.map((c, i) => `<td${i === cells.length - 1 ? ` class="${held ? 'ok' : 'failed'}"` : ''}>${esc(c)}</td>`).join('')}</tr>`;
}

function table(columns: readonly string[], rows: string[][]): string {
  return `<table><thead><tr>${columns.map((c) => `<th>${esc(c)}</th>`).join('')}</tr></thead><tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`;
}

const STYLE = `body{font:15px/1.45 system-ui,sans-serif;max-width:70rem;margin:2rem auto;padding:0 1rem;color:#111}
table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left}
.ok{color:#0a6b2c}.failed{color:#a50f15;font-weight:600}.banner{padding:.6rem 1rem;border-left:4px solid #e6550d;background:#fff4ec}
figure{margin:1.5rem 0}figcaption{font-size:.9rem;color:#333}`;

/**
 * The run as one self-contained HTML page: no script, no stylesheet or font to fetch; every chart
 * is an SVG rendered here by Vega, inlined.
 */
export async function renderHtml(a: Archive): Promise<string> {
  const synthetic = syntheticVoices(a);
  const body: string[] = [`<h1>piper-parallel run of ${esc(a.date_utc)}</h1>`];
  if (synthetic.length > 0) body.push(`<p class="banner"><strong>SYNTHETIC voices</strong> (${esc(synthetic.join(', '))}): random weights in a Piper-medium-shaped graph. Their figures measure compute and contention, not speech.</p>`);
  if (!a.controle_tenu) body.push('<p class="banner failed">A control failed: nothing from this run may be published.</p>');
  body.push('<ul>', ...runFacts(a).map((f) => `<li>${esc(`${f.label}: ${f.text}`)}${f.code === undefined ? '' : `<code>${esc(f.code)}</code>`}</li>`), '</ul>');
  for (const voice of [...new Set(a.bras.map((b) => b.voix))]) {
    const arms = a.bras.filter((b) => b.voix === voice);
    body.push(`<h2>${esc(arms[0] ? armVoiceLabel(arms[0]) : voice)}</h2>`);
    body.push(`<table><thead><tr>${ARM_COLUMNS.map((c) => `<th>${esc(c)}</th>`).join('')}</tr></thead><tbody>`);
    body.push(...arms.map(armRow), '</tbody></table>');
  }
  body.push('<h2>Verdict</h2>', ...a.verdict.phrases.map((p) => `<p>${esc(p)}</p>`));
  const ratios = ratioCells(a);
  if (ratios.length > 0) body.push(table(RATIO_COLUMNS, ratios));
  const engines = engineCells(a);
  if (engines.length > 0) body.push('<h3>Engines side by side</h3>', table(ENGINE_COLUMNS, engines));
  if (a.verdict.passage_a_l_echelle.length > 0) body.push('<ul>', ...a.verdict.passage_a_l_echelle.map((s) => `<li>scaling: ${esc(s)}</li>`), '</ul>');
  const failed = failures(a);
  body.push('<h2>Failed controls</h2>', failed.length === 0 ? '<p>None: every control held in every arm.</p>' : `<ul>${failed.map((f) => `<li>${esc(`${f.arm}: `)}${f.control === undefined ? '' : `<code>${esc(f.control)}</code> `}${esc(f.text)}</li>`).join('')}</ul>`);
  body.push('<h2>Caveats</h2><ul>', ...caveats(a).map((c) => `<li>${esc(c)}</li>`), '</ul>');
  body.push('<h2>Charts</h2>');
  for (const chart of archiveCharts(a)) {
    const svg = await renderSvg(chart.spec);
    body.push(`<figure data-chart="${esc(chart.id)}">${svg}<figcaption>${esc(chart.title)}</figcaption></figure>`);
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>piper-parallel ${esc(a.date_utc)}${synthetic.length > 0 ? ' (synthetic voices)' : ''}</title><style>${STYLE}</style></head>
<body>
${body.join('\n')}
</body></html>
`;
}
