/**
 * The summary's machine table as CSV (RFC 4180: every field quoted, quotes doubled, CRLF between
 * records), for a spreadsheet or a script: the same columns and cells as the Markdown table.
 */
import { COLUMNS, rowCells } from './cells.js';
import type { Summary } from '../types.js';
import { stripControl } from '../../report/markdown.js';

/** A spreadsheet runs a cell that starts with = or @ as a formula: a label or a path never should. */
const field = (text: string): string => {
  const plain = stripControl(text);
  const safe = /^[=@]/.test(plain) ? `'${plain}` : plain;
  return `"${safe.replaceAll('"', '""')}"`;
};

export function summaryCsv(s: Summary): string {
  const records = [COLUMNS, ...s.rows.map(rowCells)].map((cells) => cells.map(field).join(','));
  return `${records.join('\r\n')}\r\n`;
}
