/** A machine and voice's throughput runs as summary figures: speed alone, the best layout per K, RSS. */
import { DEFAULT_ENGINE } from '../throughput/compare/read.js';
import { layoutLabel } from '../throughput/verdict/labels.js';
import { combineRuns, pairedRounds, type RunFigures } from './combine.js';
import type { Against, BestAtK, Combined, SummaryArm, ThroughputInput } from './types.js';
import { maxOf } from '../core/extremes.js';

/** A voice as rows name it: its engine where it is not the default one. */
export const voiceKey = (a: Pick<SummaryArm, 'voice' | 'engine'>): string =>
  a.engine === DEFAULT_ENGINE ? a.voice : `${a.voice} [${a.engine}]`;

const figuresOf = (a: SummaryArm): RunFigures => ({
  rounds: a.rounds.filter((x): x is number => x !== null),
  point: a.point,
});

export interface ThroughputFigures {
  singleStream: Combined | null;
  bestPerK: BestAtK[];
  streamRssBytes: number | null;
  notes: string[];
}

/** A layout as the run's verdict names it at K (one worker serving the K in turn says so). */
const labelAt = (a: SummaryArm, k: number): string =>
  layoutLabel(
    { flux_simultanes: a.k, fils_par_flux: a.threads, isolation: a.isolation, affinite_demandee: a.pinned },
    k,
  );

/**
 * The layouts serving K streams, as the verdict ranks them: K workers at once, or one worker taking
 * the K in turn; per layout, its held arm in each run that has one.
 */
function layoutsAt(runs: ThroughputInput[], voice: string, k: number): Map<string, SummaryArm[]> {
  const out = new Map<string, SummaryArm[]>();
  for (const r of runs)
    for (const a of r.arms)
      if (voiceKey(a) === voice && a.held && (a.k === k || a.k === 1))
        out.set(labelAt(a, k), [...(out.get(labelAt(a, k)) ?? []), a]);
  return out;
}

/** Within each run the two arms ran in the same rounds: a over b is paired there. */
function against(a: SummaryArm[], b: SummaryArm[], layout: string, runs: ThroughputInput[]): Against {
  const pairs: RunFigures[] = runs.flatMap((r) => {
    const x = a.find((arm) => r.arms.includes(arm));
    const y = b.find((arm) => r.arms.includes(arm));
    return x && y
      ? [{ rounds: pairedRounds(x.rounds, y.rounds), point: x.point !== null && y.point ? x.point / y.point : null }]
      : [];
  });
  return { layout, ratio: combineRuns(pairs) };
}

const above = (x: Against): boolean => (x.ratio?.interval ? x.ratio.interval[0] > 1 : false);

/** The layouts serving K ranked; the best, those it cannot be told from, and the first it leads. */
function bestAt(k: number, layouts: Map<string, SummaryArm[]>, runs: ThroughputInput[]): BestAtK | null {
  const ranked = [...layouts.entries()]
    .map(([layout, arms]) => ({ layout, arms, combined: combineRuns(arms.map(figuresOf)) }))
    .filter((x): x is typeof x & { combined: Combined } => x.combined !== null)
    .sort((a, b) => b.combined.centre - a.combined.centre);
  const [first, ...rest] = ranked;
  if (!first || rest.length === 0) return null;
  const others = rest.map((r) => against(first.arms, r.arms, r.layout, runs));
  const at = others.findIndex(above);
  return {
    k,
    best: first.layout,
    tiedWith: at < 0 ? others : others.slice(0, at).filter((o) => !above(o)),
    over: at < 0 ? null : (others[at] as Against),
    resolved: at >= 0,
    aggregate: first.combined,
  };
}

export function throughputFigures(runs: ThroughputInput[], voice: string): ThroughputFigures {
  const arms = runs.flatMap((r) => r.arms.filter((a) => voiceKey(a) === voice));
  const ones = [...layoutsAt(runs, voice, 1).values()];
  const alone =
    ones.find((a) => a[0]?.threads === 1 && !a[0].pinned && a[0].isolation === 'process') ??
    ones.find((a) => a[0]?.threads === 1);
  const ks = [...new Set(arms.map((a) => a.k))].sort((a, b) => a - b);
  const bestPerK = ks.map((k) => bestAt(k, layoutsAt(runs, voice, k), runs)).filter((b): b is BestAtK => b !== null);
  const rss = arms.map((a) => a.streamRssBytes).filter((x): x is number => x !== null);
  const failed = arms.filter((a) => !a.held).length;
  const notes =
    failed > 0
      ? [
          `${failed} arm${failed > 1 ? 's' : ''} left out of the throughput figures: ${failed > 1 ? 'their' : 'its'} controls failed`,
        ]
      : [];
  return {
    singleStream: alone ? combineRuns(alone.map(figuresOf)) : null,
    bestPerK,
    streamRssBytes: rss.length > 0 ? maxOf(rss) : null,
    notes,
  };
}
