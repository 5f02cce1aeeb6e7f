import type { Archive, ArmRecord } from '../schema.js';
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
import { armVoiceLabel, decisionLines } from './table.js';
import { mdRow, mdText, stripControl } from '../../report/markdown.js';
import { CONTROL_FAILED } from '../../report/words.js';

const row = mdRow;
/** A name shown verbatim in a code span; one a code span cannot hold whole (a backtick, a line break, markup) as escaped text. */
const code = (text: string): string => (/[`<>\r\n]/.test(text) ? mdText(text) : `\`${stripControl(text)}\``);
function armRow(arm: ArmRecord): string {
  return row(armCells(arm).cells);
}

/** The run as Markdown, to paste into an issue or a README. */
export function renderMarkdown(a: Archive): string {
  const synthetic = syntheticVoices(a);
  const out: string[] = [`# piper-parallel run of ${mdText(a.date_utc)}`, ''];
  if (synthetic.length > 0) {
    out.push(
      `> **SYNTHETIC voices** (${mdText(synthetic.join(', '))}): random weights in a Piper-medium-shaped graph. ` +
        `Their figures measure compute and contention, not speech.`,
      '',
    );
  }
  if (!a.controle_tenu) out.push(`> **${CONTROL_FAILED}**`, '');
  for (const f of runFacts(a)) out.push(`- ${f.label}: ${mdText(f.text)}${f.code === undefined ? '' : code(f.code)}`);
  out.push('');
  // The answer first; the tables and the verdict's sentences after it.
  const decision = decisionLines(a);
  if (decision)
    out.push(
      '## Decision',
      '',
      mdText(decision.heading),
      '',
      ...decision.lines.map((l) => (l.startsWith('  ') ? `  - ${mdText(l.trim())}` : `- ${mdText(l)}`)),
      '',
    );
  const voices = [...new Set(a.bras.map((b) => b.voix))];
  for (const voice of voices) {
    const arms = a.bras.filter((b) => b.voix === voice);
    const first = arms[0];
    out.push(`## ${mdText(first ? armVoiceLabel(first) : voice)}`, '');
    out.push(row([...ARM_COLUMNS]), row(ARM_COLUMNS.map(() => '-')));
    for (const arm of arms) out.push(armRow(arm));
    out.push('');
  }
  out.push('## Verdict', '');
  if (a.verdict.phrases.length === 0)
    out.push('No comparison could be made (no arm with its controls held, or one layout only).');
  for (const p of a.verdict.phrases) out.push(mdText(p), '');
  const ratios = ratioCells(a);
  if (ratios.length > 0)
    out.push(
      'Layout ratios, round by round (resolved when the 95% interval leaves out +0%, no difference):',
      '',
      row([...RATIO_COLUMNS]),
      row(RATIO_COLUMNS.map(() => '-')),
      ...ratios.map(row),
      '',
    );
  const engines = engineCells(a);
  if (engines.length > 0)
    out.push(
      'Engines side by side, round by round (resolved when the 95% interval leaves out +0%):',
      '',
      row([...ENGINE_COLUMNS]),
      row(ENGINE_COLUMNS.map(() => '-')),
      ...engines.map(row),
      '',
    );
  for (const s of a.verdict.passage_a_l_echelle) out.push(`- scaling: ${mdText(s)}`);
  out.push('', '## Failed controls', '');
  const failed = failures(a);
  out.push(
    ...(failed.length > 0
      ? failed.map(
          (f) => `- ${mdText(f.arm)}: ${f.control === undefined ? '' : `${code(f.control)} `}${mdText(f.text)}`,
        )
      : ['None: every control held in every arm.']),
  );
  out.push('', '## Caveats', '', ...caveats(a).map((c) => `- ${mdText(c)}`), '');
  return stripControl(out.join('\n'));
}
