/** A summary row's cells and notes in words, shared by the Markdown and the HTML page. */
import { signedPercent } from '../../throughput/verdict/labels.js';
import type { CapacityFigure, Combined, SummaryRow } from '../types.js';

export const COLUMNS = [
  'machine',
  'cores',
  'voice',
  'runs (throughput + capacity)',
  'dates',
  'alone, x real time (95%)',
  'best layout per K: lead over the next (95%)',
  'live streams, no gap (best layout)',
  'within the first-audio bound',
  'peak RSS per stream',
  'per live stream-hour',
  'per hour of speech',
] as const;

const x = (v: number): string => v.toFixed(v < 10 ? 2 : 1);
/** Three significant figures, enough for a price and honest about its precision. */
const money = (v: number): string => (Number.isFinite(v) ? Number(v.toPrecision(3)).toString() : 'no stream');

/** The machine's figure with its interval, then what one more run may show (from two runs on). */
export function speed(c: Combined | null): string {
  if (c === null) return '-';
  const own = `x${x(c.centre)}${c.interval ? ` [${x(c.interval[0])}, ${x(c.interval[1])}]` : ' (no interval)'}`;
  return c.rerun ? `${own}; a rerun x${x(c.rerun[0])} to x${x(c.rerun[1])}` : own;
}

const ratioText = (r: Combined | null): string =>
  r === null
    ? 'no figure'
    : `${signedPercent(r.centre)}${r.interval ? ` [${signedPercent(r.interval[0])}, ${signedPercent(r.interval[1])}]` : ' (no interval)'}`;

function lead(row: SummaryRow): string {
  if (row.bestPerK.length === 0) return '-';
  return row.bestPerK
    .map((b) => {
      const tied =
        b.tiedWith.length === 0
          ? ''
          : ` (not told from ${b.tiedWith.map((t) => `${t.layout}: ${ratioText(t.ratio)}`).join('; ')})`;
      return b.over
        ? `K=${b.k}: ${b.best}${tied}, ${ratioText(b.over.ratio)} over ${b.over.layout}`
        : `K=${b.k}: not resolved, ${b.best} leads${tied}`;
    })
    .join('; ');
}

const range = (f: CapacityFigure): string => (f.range.max > f.range.min ? ` (${f.range.min}-${f.range.max})` : '');

function live(row: SummaryRow): string {
  const b = row.bestCapacity;
  if (!b) return '-';
  if (!b.noGap) return `unknown (schema 1), ${b.layout}`;
  const rate = b.noGap.evidence === null || b.noGap.evidence === '-' ? '' : `, ${b.noGap.evidence}`;
  // Layouts with as many live streams are named: the best is not better than they are.
  const tied = row.capacity.filter((l) => l !== b && l.noGap?.k === b.noGap?.k).map((l) => l.layout);
  return `${b.noGap.k}${range(b.noGap)}, ${b.layout}${rate}${tied.length > 0 ? `; as many with ${tied.join('; ')}` : ''}`;
}

function bounded(row: SummaryRow): string {
  const b = row.bestCapacity;
  if (!b) return '-';
  const p95 = b.inBound.firstAudioP95Ms === null ? '' : `, first audio p95 ${Math.round(b.inBound.firstAudioP95Ms)} ms`;
  return `${b.inBound.k}${range(b.inBound)}${p95}`;
}

function costs(row: SummaryRow): [string, string] {
  const c = row.cost;
  if (!c) return ['no --price', 'no --price'];
  const s = c.perStreamHour;
  const h = c.perSpeechHour;
  return [
    s
      ? `${money(s.centre)}${s.range[0] !== s.range[1] ? ` (${money(s.range[0])}-${money(s.range[1])})` : ''} at ${money(c.pricePerHour)}/h`
      : 'no capacity run',
    h
      ? `${money(h.centre)}${h.interval ? ` [${money(h.interval[0])}, ${money(h.interval[1])}]` : ''}`
      : 'no throughput run',
  ];
}

export function rowCells(row: SummaryRow): string[] {
  const runs = `${row.throughputRuns.length} + ${row.capacityRuns.length}`;
  const dates = row.dates ? (row.dates[0] === row.dates[1] ? row.dates[0] : `${row.dates[0]} to ${row.dates[1]}`) : '-';
  const voice = row.synthetic ? `${row.voice} (SYNTHETIC)` : row.voice;
  const rss = row.streamRssBytes === null ? '-' : `${Math.round(row.streamRssBytes / 2 ** 20)} MiB`;
  return [
    row.label,
    String(row.cores),
    voice,
    runs,
    dates,
    speed(row.singleStream),
    lead(row),
    live(row),
    bounded(row),
    rss,
    ...costs(row),
  ];
}

function combinedNote(what: string, c: Combined | null, show: (v: number) => string): string[] {
  if (!c || c.perRun.length < 2) return [];
  const runs = c.perRun.map(show).join(', ');
  const between =
    c.betweenPct === null ? '' : `; between runs ${c.betweenPct.toFixed(1)}% (one sd) beyond the spread inside them`;
  const rerun = c.rerun ? `; a rerun ${show(c.rerun[0])} to ${show(c.rerun[1])} (95% prediction)` : '';
  const apart = c.disagree ? ', two of whose own intervals do not overlap' : '';
  return [`${what}: ${c.perRun.length} runs (${runs}${apart}), each one draw${between}${rerun}`];
}

/** The row's caveats and how its figures were combined, in sentences. */
export function rowNotes(row: SummaryRow): string[] {
  const notes = [...row.notes];
  notes.push(...combinedNote('alone', row.singleStream, (v) => `x${x(v)}`));
  for (const b of row.bestPerK)
    if (b.over) notes.push(...combinedNote(`K=${b.k}, ${b.best} over ${b.over.layout}`, b.over.ratio, signedPercent));
  for (const l of row.capacity) {
    if (l.noGap && new Set(l.noGap.perRun).size > 1)
      notes.push(`capacity ${l.layout}: runs answered ${l.noGap.perRun.join(', ')} live streams: the least shown`);
    if (l.runsLeftOut > 0)
      notes.push(`capacity ${l.layout}: ${l.runsLeftOut} run${l.runsLeftOut > 1 ? 's' : ''} left out: controls failed`);
    const s = l.liveSpeed;
    if (s && s.perRun.length > 1)
      notes.push(
        `capacity ${l.layout}: live speed x${s.perRun.map((v) => v.toFixed(1)).join(', x')} over ${s.perRun.length} runs` +
          `${s.betweenPct === null ? '' : `, between runs ${s.betweenPct.toFixed(1)}% (one sd) beyond the spread inside them`}` +
          `${s.rerun ? `; a rerun x${s.rerun[0].toFixed(1)} to x${s.rerun[1].toFixed(1)} (95% prediction)` : ''}` +
          `${l.planningK === null ? `; a planning K needs ${3} runs or more` : `; plan on ${l.planningK} live listeners`}`,
      );
  }
  return notes;
}

export { METHOD } from './text.js';

/** Each machine once: its label and the fingerprint it stands for. */
export function machineLines(rows: SummaryRow[]): string[] {
  const seen = new Map(rows.map((r) => [r.machine, r]));
  return [...seen.values()].map(
    (r) =>
      `${r.label}: ${r.machine}${r.labelFrom === 'fingerprint' ? ' (named from its fingerprint; --label NAME on its runs names it)' : ''}`,
  );
}

export const LAYOUT_COLUMNS = [
  'machine',
  'voice',
  'layout',
  'live streams, no gap (rerun range)',
  'plan on (3+ runs: a rerun keeps x1 each, 95%)',
  'evidence at that K',
  'within the first-audio bound',
  'first audio p95',
  'runs',
] as const;

/** Every capacity layout of every row: both answers and their evidence. */
export function layoutRows(rows: SummaryRow[]): string[][] {
  return rows.flatMap((r) =>
    r.capacity.map((l) => {
      const a = l.noGap;
      const evidence = a === null ? 'schema 1: not measured' : (a.evidence ?? '-');
      const runs = `${l.inBound.perRun.length}${l.runsLeftOut > 0 ? ` (${l.runsLeftOut} left out: controls failed)` : ''}`;
      return [
        r.label,
        r.synthetic ? `${r.voice} (SYNTHETIC)` : r.voice,
        l.layout,
        a === null ? 'unknown' : `${a.k}${range(a)}`,
        l.planningK === null ? '-' : String(l.planningK),
        evidence,
        `${l.inBound.k}${range(l.inBound)}`,
        l.inBound.firstAudioP95Ms === null ? '-' : `${Math.round(l.inBound.firstAudioP95Ms)} ms`,
        runs,
      ];
    }),
  );
}
