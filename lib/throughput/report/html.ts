import type { Archive, ArmRecord } from '../schema.js';
import { archiveCharts } from './charts.js';
import {
  ARM_COLUMNS,
  armCells,
  caveats,
  ENGINE_COLUMNS,
  engineCells,
  failures,
  RATIO_COLUMNS,
  ratioCells,
  runFacts,
  syntheticVoices,
} from './content.js';
import { chartFigure, esc, htmlPage, htmlTable as table } from '../../report/page.js';
import { armVoiceLabel, decisionLines } from './table.js';
import { CONTROL_FAILED } from '../../report/words.js';

const failedItem = (f: { arm: string; control?: string; text: string }): string =>
  `<li>${esc(`${f.arm}: `)}${f.control === undefined ? '' : `<code>${esc(f.control)}</code> `}${esc(f.text)}</li>`;

function armRow(arm: ArmRecord): string {
  const { cells, held } = armCells(arm);
  return `<tr>${cells.map((c, i) => `<td${i === cells.length - 1 ? ` class="${held ? 'ok' : 'failed'}"` : ''}>${esc(c)}</td>`).join('')}</tr>`;
}

/**
 * The run as one self-contained HTML page: no script, no stylesheet or font to fetch; every chart
 * is an SVG rendered here by Vega, inlined.
 */
/** A one-line answer in bold; its details, indented in the block, as items under it. */
const decisionItem = (l: string): string =>
  l.startsWith('  ') ? `<li class="detail">${esc(l.trim())}</li>` : `<li><strong>${esc(l)}</strong></li>`;

export async function renderHtml(a: Archive): Promise<string> {
  const synthetic = syntheticVoices(a);
  const body: string[] = [`<h1>piper-parallel run of ${esc(a.date_utc)}</h1>`];
  if (synthetic.length > 0)
    body.push(
      `<p class="banner"><strong>SYNTHETIC voices</strong> (${esc(synthetic.join(', '))}): random ` +
        `weights in a Piper-medium-shaped graph. Their figures measure compute and contention, not speech.</p>`,
    );
  if (!a.controle_tenu) body.push(`<p class="banner failed">${CONTROL_FAILED}</p>`);
  body.push(
    '<ul>',
    ...runFacts(a).map(
      (f) => `<li>${esc(`${f.label}: ${f.text}`)}${f.code === undefined ? '' : `<code>${esc(f.code)}</code>`}</li>`,
    ),
    '</ul>',
  );
  // The answer first; the tables and the verdict's sentences after it.
  const decision = decisionLines(a);
  if (decision)
    body.push(
      '<h2>Decision</h2>',
      `<p>${esc(decision.heading)}</p>`,
      `<ul>${decision.lines.map(decisionItem).join('')}</ul>`,
    );
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
  if (a.verdict.passage_a_l_echelle.length > 0)
    body.push('<ul>', ...a.verdict.passage_a_l_echelle.map((s) => `<li>scaling: ${esc(s)}</li>`), '</ul>');
  const failed = failures(a);
  body.push(
    '<h2>Failed controls</h2>',
    failed.length === 0
      ? '<p>None: every control held in every arm.</p>'
      : `<ul>${failed.map(failedItem).join('')}</ul>`,
  );
  body.push('<h2>Caveats</h2><ul>', ...caveats(a).map((c) => `<li>${esc(c)}</li>`), '</ul>');
  body.push('<h2>Charts</h2>');
  for (const chart of archiveCharts(a)) body.push(await chartFigure(chart));
  return htmlPage(`piper-parallel ${a.date_utc}${synthetic.length > 0 ? ' (synthetic voices)' : ''}`, body);
}
