/**
 * Two capacity runs side by side, layout by layout and answer by answer. The workloads must match
 * (text, voice file, first-audio bound, arrivals, schedule, --max-streams, rounds, how evidence is
 * counted, and the seed where it shapes Poisson arrivals), else every row is INCOMPARABLE, naming
 * what differs. Schema 3's answer without a gap is FEWER or MORE only when the two live speeds'
 * 95% intervals do not overlap: answers a step apart with overlapping speeds are the same machine
 * measured twice. Older archives, with no live speed, compare their ranges of K the same way.
 */
import { mdRow, mdText, stripControl } from '../../report/markdown.js';
import { machineFingerprint } from '../../measure/machine.js';
import type { CapacityArchive } from '../archive/schema.js';
import type { CapacityArchiveV1 } from '../archive/schema-v1.js';
import { capacityView, type CapacityView, type Range } from '../archive/view.js';

export interface CapacityRow {
  voice: string;
  layout: string;
  answer: 'no gap' | 'within the bound';
  a: Range | null;
  b: Range | null;
  verdict: 'SAME' | 'MORE' | 'FEWER' | 'INCOMPARABLE' | 'CONTROLS FAILED' | 'ONLY IN A' | 'ONLY IN B';
  why: string;
}

export interface CapacityComparison {
  refused: string | null;
  forced: string[];
  workloadDiffers: string[];
  rows: CapacityRow[];
  regression: boolean;
  compared: number;
}

function workloadDiffers(a: CapacityView, b: CapacityView): string[] {
  const out = a.workload.flatMap(([name, x]) => {
    const y = b.workload.find(([n]) => n === name)?.[1];
    return x === y ? [] : [`${name} ${x} vs ${y ?? '-'}`];
  });
  if (a.schemaVersion !== b.schemaVersion)
    out.push(`schema ${a.schemaVersion} vs ${b.schemaVersion} ("one process per stream" shared one queue in schema 1)`);
  return out;
}

const show = (r: Range | null): string => (r === null ? '-' : r.min === r.max ? String(r.min) : `${r.min} to ${r.max}`);

type Speed = NonNullable<NonNullable<CapacityView['answers'][number]['noGap']>['speed']>;
const x1 = (s: Speed): string => `x${s.centre.toFixed(1)} [${s.low.toFixed(1)}, ${s.high.toFixed(1)}]`;

/** By the live speeds' intervals: apart only when they do not overlap. */
function judgeSpeed(x: Speed, y: Speed): { verdict: CapacityRow['verdict']; why: string } {
  const both = `live speed B ${x1(y)} against A ${x1(x)}`;
  if (y.high < x.low) return { verdict: 'FEWER', why: `${both}: wholly below` };
  if (y.low > x.high) return { verdict: 'MORE', why: `${both}: wholly above` };
  return { verdict: 'SAME', why: `${both}: the intervals overlap` };
}

function judge(x: Range, y: Range): { verdict: CapacityRow['verdict']; why: string } {
  if (y.max < x.min) return { verdict: 'FEWER', why: `B's range lies wholly below A's: ${show(y)} against ${show(x)}` };
  if (y.min > x.max) return { verdict: 'MORE', why: `B's range lies wholly above A's: ${show(y)} against ${show(x)}` };
  return {
    verdict: 'SAME',
    why: x.min === y.min ? 'the same K held' : 'the ranges overlap: the same answer within what each run left open',
  };
}

function rowsFor(a: CapacityView, b: CapacityView, voice: string, layout: string, differs: string[]): CapacityRow[] {
  const x = a.answers.find((e) => e.voice === voice && e.layout === layout);
  const y = b.answers.find((e) => e.voice === voice && e.layout === layout);
  const answers = [
    ['no gap', x?.noGap?.range ?? null, y?.noGap?.range ?? null, x?.noGap?.speed ?? null, y?.noGap?.speed ?? null],
    ['within the bound', x?.inBound.range ?? null, y?.inBound.range ?? null, null, null],
  ] as const;
  const voiceDiffers =
    a.voices.find((v) => v.name === voice)?.sha256 !== b.voices.find((v) => v.name === voice)?.sha256
      ? ['voice checksum differs']
      : [];
  return answers.map(([answer, ra, rb, sa, sb]): CapacityRow => {
    const row = (verdict: CapacityRow['verdict'], why: string): CapacityRow => ({
      voice,
      layout,
      answer,
      a: ra,
      b: rb,
      verdict,
      why,
    });
    if (!x || !y) return row(x ? 'ONLY IN A' : 'ONLY IN B', 'no such layout in the other run');
    if (!x.controlsHeld || !y.controlsHeld)
      return row('CONTROLS FAILED', 'a K of this layout was given up on for failed controls; shown, not counted');
    const why = [...differs, ...voiceDiffers];
    if (why.length > 0) return row('INCOMPARABLE', why.join('; '));
    if (!ra || !rb)
      return row(
        'INCOMPARABLE',
        `${ra ? 'B' : 'A'} is a schema 1 archive: it measured only the answer within the bound`,
      );
    const j = sa && sb ? judgeSpeed(sa, sb) : judge(ra, rb);
    return row(j.verdict, j.why);
  });
}

type Readable = CapacityView | CapacityArchive | CapacityArchiveV1;
const asView = (x: Readable, name: string): CapacityView => ('answers' in x ? x : capacityView(x, name));

/** Two capacity archives (either schema, or their views). */
export function compareCapacity(archiveA: Readable, archiveB: Readable, force = false): CapacityComparison {
  const a = asView(archiveA, 'archive A');
  const b = asView(archiveB, 'archive B');
  const result: CapacityComparison = {
    refused: null,
    forced: [],
    workloadDiffers: workloadDiffers(a, b),
    rows: [],
    regression: false,
    compared: 0,
  };
  const ma = machineFingerprint(a.machine);
  const mb = machineFingerprint(b.machine);
  if (ma !== mb) {
    const why = `different machines (A: ${ma}; B: ${mb})`;
    if (!force) {
      result.refused = `${why}; capacities from different machines do not compare (--force to compare anyway)`;
      return result;
    }
    result.forced.push(why);
  }
  if (a.session !== b.session) {
    const why = `different session settings (A: ${a.session}; B: ${b.session})`;
    if (!force) {
      result.refused = `${why}; one profile's capacities are not the other's (--force to compare anyway)`;
      return result;
    }
    result.forced.push(why);
  }
  const keys = [...new Set([...a.answers, ...b.answers].map((c) => `${c.voice}\u0000${c.layout}`))];
  for (const key of keys) {
    const [voice = '', layout = ''] = key.split('\u0000');
    result.rows.push(...rowsFor(a, b, voice, layout, result.workloadDiffers));
  }
  result.regression = result.rows.some((r) => r.verdict === 'FEWER');
  result.compared = result.rows.filter((r) => ['SAME', 'MORE', 'FEWER'].includes(r.verdict)).length;
  return result;
}

export function capacityComparisonMarkdown(c: CapacityComparison, fileA: string, fileB: string): string {
  const lines = ['# piper-parallel compare (capacity)', '', `A: ${mdText(fileA)}`, `B: ${mdText(fileB)}`];
  if (c.refused) return stripControl([...lines, '', `REFUSED: ${mdText(c.refused)}`].join('\n'));
  if (c.forced.length > 0) lines.push(mdText(`FORCED despite: ${c.forced.join('; ')}`));
  if (c.workloadDiffers.length > 0) lines.push(mdText(`workload differs: ${c.workloadDiffers.join('; ')}`));
  lines.push(
    '',
    '| voice | layout | answer | A: live listeners (rerun) | B: live listeners (rerun) | verdict | why |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  );
  for (const r of c.rows) lines.push(mdRow([r.voice, r.layout, r.answer, show(r.a), show(r.b), r.verdict, r.why]));
  lines.push(
    '',
    c.compared === 0
      ? 'NOTHING COMPARED: no answer could be compared; no conclusion'
      : c.regression
        ? "REGRESSION: an answer of B lies wholly below A's range"
        : `no regression (${c.compared} answer(s) compared)`,
  );
  return stripControl(lines.join('\n'));
}
