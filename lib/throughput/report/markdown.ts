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
import { armVoiceLabel } from './table.js';

/** A table cell: pipes and line breaks would break the row. */
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const row = (cells: string[]): string => `| ${cells.map(cell).join(' | ')} |`;

function armRow(arm: ArmRecord): string {
  return row(armCells(arm).cells);
}

/** The run as Markdown, to paste into an issue or a README. */
export function renderMarkdown(a: Archive): string {
  const synthetic = syntheticVoices(a);
  const out: string[] = [`# piper-parallel run of ${a.date_utc}`, ''];
  if (synthetic.length > 0) {
    out.push(
      `> **SYNTHETIC voices** (${synthetic.join(', ')}): random weights in a Piper-medium-shaped graph. ` +
        `Their figures measure compute and contention, not speech.`,
      '',
    );
  }
  if (!a.controle_tenu) out.push('> **A control failed: nothing from this run may be published.**', '');
  for (const f of runFacts(a)) out.push(`- ${f.label}: ${f.text}${f.code === undefined ? '' : `\`${f.code}\``}`);
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
  if (a.verdict.phrases.length === 0)
    out.push('No comparison could be made (no arm with its controls held, or one layout only).');
  for (const p of a.verdict.phrases) out.push(p, '');
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
  for (const s of a.verdict.passage_a_l_echelle) out.push(`- scaling: ${s}`);
  out.push('', '## Failed controls', '');
  const failed = failures(a);
  out.push(
    ...(failed.length > 0
      ? failed.map((f) => `- ${f.arm}: ${f.control === undefined ? '' : `\`${f.control}\` `}${f.text}`)
      : ['None: every control held in every arm.']),
  );
  out.push('', '## Caveats', '', ...caveats(a).map((c) => `- ${c}`), '');
  return out.join('\n');
}
