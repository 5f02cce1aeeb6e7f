/** What every HTML page of the tool shares: escaping, tables, charts as figures, and one self-contained page. */
import type { ChartSpec } from './chart.js';
import { renderSvg } from './svg.js';

export const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export const htmlTable = (columns: readonly string[], rows: string[][]): string =>
  `<table><thead><tr>${columns.map((c) => `<th>${esc(c)}</th>`).join('')}</tr></thead>` +
  `<tbody>${rows.map((r) => `<tr>${r.map((c) => `<td>${esc(c)}</td>`).join('')}</tr>`).join('')}</tbody></table>`;

/** A chart as an inline SVG figure; `data-chart` names it for the browser test. */
export const chartFigure = async (chart: ChartSpec): Promise<string> =>
  `<figure data-chart="${esc(chart.id)}">${await renderSvg(chart.spec)}<figcaption>${esc(chart.title)}</figcaption></figure>`;

const STYLE = `body{font:15px/1.45 system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;color:#111}
table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #ccc;padding:.25rem .5rem;text-align:left}
.ok{color:#0a6b2c}.failed{color:#a50f15;font-weight:600}.banner{padding:.6rem 1rem;border-left:4px solid #e6550d;background:#fff4ec}
figure{margin:1.5rem 0}figcaption{font-size:.9rem;color:#333}li.detail{margin-left:1.5rem;list-style:circle}`;

/**
 * One self-contained page: no script, no stylesheet or font to fetch (the policy forbids any
 * request); charts come inlined as SVG.
 */
export function htmlPage(title: string, body: string[]): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body>
${body.join('\n')}
</body></html>
`;
}
