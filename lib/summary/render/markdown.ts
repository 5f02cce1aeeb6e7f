/** The summary as Markdown: the table, then each row's notes, then what could not be read. */
import { COLUMNS, LAYOUT_COLUMNS, layoutRows, machineLines, METHOD, rowCells, rowNotes } from './cells.js';
import type { Summary } from '../types.js';
import { mdCell as cell, mdText, stripControl } from '../../report/markdown.js';

export function summaryMarkdown(s: Summary): string {
  const out = [
    `# Machines side by side`,
    '',
    `${s.files} archive${s.files === 1 ? '' : 's'} read, ${s.rows.length} row${s.rows.length === 1 ? '' : 's'}.`,
  ];
  if (s.rows.some((r) => r.synthetic))
    out.push(
      '',
      'SYNTHETIC voices: random weights in a Piper-medium-shaped graph; their figures measure compute and contention, not speech.',
    );
  out.push('', `| ${COLUMNS.join(' | ')} |`, `|${COLUMNS.map(() => '---').join('|')}|`);
  for (const row of s.rows) out.push(`| ${rowCells(row).map(cell).join(' | ')} |`);
  const layouts = layoutRows(s.rows);
  if (layouts.length > 0)
    out.push(
      '',
      '## Live streams per layout',
      '',
      `| ${LAYOUT_COLUMNS.join(' | ')} |`,
      `|${LAYOUT_COLUMNS.map(() => '---').join('|')}|`,
      ...layouts.map((l) => `| ${l.map(cell).join(' | ')} |`),
    );
  out.push('', METHOD, '', '## Machines', '', ...machineLines(s.rows).map((l) => `- ${mdText(l)}`));
  const notes = s.rows.map((r) => ({ r, n: rowNotes(r) })).filter((x) => x.n.length > 0);
  if (notes.length > 0)
    out.push(
      '',
      '## Notes',
      '',
      ...notes.flatMap(({ r, n }) => n.map((line) => `- ${mdText(`${r.label}, ${r.voice}: ${line}`)}`)),
    );
  if (s.problems.length > 0) out.push('', '## Not read', '', ...s.problems.map((p) => `- ${mdText(p)}`));
  return stripControl(`${out.join('\n')}\n`);
}
