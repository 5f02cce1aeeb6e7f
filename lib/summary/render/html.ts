/** The summary as one self-contained page: the table, the charts (SVG, inlined), the notes. */
import { chartFigure, esc, htmlPage, htmlTable } from '../../report/page.js';
import { COLUMNS, LAYOUT_COLUMNS, layoutRows, machineLines, METHOD, rowCells, rowNotes } from './cells.js';
import { summaryCharts } from './charts.js';
import type { Summary } from '../types.js';

export async function summaryHtml(s: Summary): Promise<string> {
  const body = [
    '<h1>Machines side by side</h1>',
    `<p>${s.files} archive${s.files === 1 ? '' : 's'} read, ${s.rows.length} row${s.rows.length === 1 ? '' : 's'}.</p>`,
  ];
  if (s.rows.some((r) => r.synthetic))
    body.push(
      '<p class="banner"><strong>SYNTHETIC voices</strong>: random weights in a Piper-medium-shaped ' +
        'graph; their figures measure compute and contention, not speech.</p>',
    );
  const layouts = layoutRows(s.rows);
  body.push(htmlTable(COLUMNS, s.rows.map(rowCells)));
  if (layouts.length > 0) body.push('<h2>Live streams per layout</h2>', htmlTable(LAYOUT_COLUMNS, layouts));
  body.push(
    `<p>${esc(METHOD)}</p>`,
    '<h2>Machines</h2><ul>',
    ...machineLines(s.rows).map((l) => `<li>${esc(l)}</li>`),
    '</ul>',
  );
  for (const chart of summaryCharts(s.rows)) body.push(await chartFigure(chart));
  const notes = s.rows.flatMap((r) => rowNotes(r).map((n) => `${r.label}, ${r.voice}: ${n}`));
  if (notes.length > 0) body.push('<h2>Notes</h2><ul>', ...notes.map((n) => `<li>${esc(n)}</li>`), '</ul>');
  if (s.problems.length > 0)
    body.push('<h2>Not read</h2><ul>', ...s.problems.map((p) => `<li class="failed">${esc(p)}</li>`), '</ul>');
  return htmlPage(`piper-parallel summary${s.rows.some((r) => r.synthetic) ? ' (synthetic voices)' : ''}`, body);
}
