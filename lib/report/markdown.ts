/**
 * The one Markdown escaper for every report, summary and comparison. Archive strings (voice names,
 * labels, error and control messages) come from files anyone may share: in Markdown they must not
 * open raw HTML, a link or a table cell of their own, and on a terminal they must not carry control
 * sequences (an OSC sequence can write the clipboard or retitle the window).
 */

/** C0 controls but tab and newline, DEL, and C1 controls (ESC and CSI among them). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Control characters removed: what any text printed on a terminal goes through. */
export const stripControl = (text: string): string => text.replace(CONTROL, '');

/** The colours the tool itself paints with (green, red, yellow, reset). */
// eslint-disable-next-line no-control-regex -- the escape that opens a colour code is the point
const OWN_COLOURS = /(\u001b\[(?:0|31|32|33)m)/;

/**
 * For a colour terminal: every control character removed but the four colour codes the tool paints with (a line is
 * stripped before it is painted, so those are the tool's own; elsewhere they change a colour and nothing more).
 */
export const stripControlKeepColour = (text: string): string =>
  text
    .split(OWN_COLOURS)
    .map((part, i) => (i % 2 === 1 ? part : stripControl(part)))
    .join('');

/** A string on one line of Markdown prose: no raw HTML, no inline link or image, no code span, one line. */
export function mdText(text: string): string {
  return stripControl(text)
    .replace(/\r?\n|\t/g, ' ')
    .replace(/\\/g, '\\\\')
    .replace(/`/g, '\\`')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\]\(/g, ']\\(');
}

/** A table cell: prose, and a pipe would end the cell. */
export const mdCell = (text: string): string => mdText(text).replace(/\|/g, '\\|');

/** A table row of cells. */
export const mdRow = (cells: readonly string[]): string => `| ${cells.map(mdCell).join(' | ')} |`;
