/** The throughput report's charts: aggregate per arm, CPU% per pass, barrier skew, rounds over time. */
import { armCentre } from '../verdict/labels.js';
import type { ChartSpec } from '../../report/chart.js';
import type { Archive, ArmRecord } from '../schema.js';
import { armVoiceLabel } from './table.js';
import { minOf } from '../../core/extremes.js';

export function armKey(arm: ArmRecord): string {
  return `K=${arm.flux_simultanes} T=${arm.fils_par_flux} ${arm.affinite_demandee ? 'pinned' : 'free'} ${arm.isolation}`;
}

const slug = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const WIDTH = 520;

/** Aggregate throughput per arm with its interval, and each stream's median beside it. */
function throughputChart(voice: string, arms: ArmRecord[]): ChartSpec {
  const aggregate = arms
    .filter((a) => armCentre(a) !== null)
    .map((a) => ({
      arm: armKey(a),
      aggregate: armCentre(a),
      low: a.debit_agrege_ic95?.[0] ?? null,
      high: a.debit_agrege_ic95?.[1] ?? null,
    }));
  const streams = arms.flatMap((a) =>
    a.debit_par_flux_mediane.flatMap((v, i) =>
      v === null ? [] : [{ arm: armKey(a), stream: `stream ${i}`, throughput: v }],
    ),
  );
  const x = { field: 'arm', type: 'nominal', title: null, sort: null, axis: { labelAngle: -20 } } as const;
  return {
    id: `throughput-${slug(voice)}`,
    title: `${voice}: aggregate throughput per arm (bars, 95% interval) and each stream's median (dots), x real time`,
    spec: {
      width: WIDTH,
      height: 240,
      layer: [
        {
          data: { values: aggregate },
          mark: { type: 'bar', color: '#9ecae1' },
          encoding: { x, y: { field: 'aggregate', type: 'quantitative', title: 'x real time' } },
        },
        {
          data: { values: aggregate.filter((d) => d.low !== null) },
          mark: { type: 'rule', color: '#08306b', strokeWidth: 2 },
          encoding: { x, y: { field: 'low', type: 'quantitative' }, y2: { field: 'high' } },
        },
        {
          data: { values: streams },
          mark: { type: 'point', filled: true, size: 60, color: '#e6550d' },
          encoding: { x, y: { field: 'throughput', type: 'quantitative' } },
        },
      ],
    },
  };
}

/** Each child's CPU% per timed pass, with the cpu_max limit and, for K >= 2, the cpu_sum floor per stream. */
function cpuChart(voice: string, arm: ArmRecord, index: number): ChartSpec {
  // A pass whose CPU could not be read has no dot (its cpu_max control says so).
  const points = arm.enfants.flatMap((c) =>
    c.passes
      .filter((p) => p.cpu_pourcent !== null)
      .map((p) => ({ pass: p.passe, cpu: p.cpu_pourcent, stream: `stream ${c.rang}` })),
  );
  const limits = arm.controles
    .filter((c) => c.name === 'cpu_max' || c.name === 'cpu_sum')
    // cpu_sum bounds the sum; drawn per stream (divided by K) so it sits on the same scale as the dots.
    .map((c) => ({
      limit: c.name === 'cpu_max' ? c.threshold : c.threshold / arm.flux_simultanes,
      control: c.name === 'cpu_max' ? 'cpu_max: each below' : 'cpu_sum / K: median above',
    }));
  return {
    id: `cpu-${slug(voice)}-${index}`,
    title: `${voice}, ${armKey(arm)}: CPU% of each stream per pass, with the control thresholds`,
    spec: {
      width: WIDTH,
      height: 180,
      layer: [
        {
          data: { values: points },
          mark: { type: 'point', filled: true, size: 50 },
          encoding: {
            x: { field: 'pass', type: 'ordinal', title: 'pass', axis: { labelAngle: 0 } },
            y: { field: 'cpu', type: 'quantitative', title: 'CPU %' },
            color: { field: 'stream', type: 'nominal', title: null },
          },
        },
        {
          data: { values: limits },
          mark: { type: 'rule', strokeDash: [6, 4], color: '#a50f15' },
          encoding: { y: { field: 'limit', type: 'quantitative' }, tooltip: { field: 'control' } },
        },
      ],
    },
  };
}

/** Start skew of every timed pass, one colour per arm (K >= 2 only: one stream has no skew). */
function skewChart(voice: string, arms: ArmRecord[]): ChartSpec | undefined {
  const values = arms
    .filter((a) => a.flux_simultanes >= 2)
    .flatMap((a) =>
      a.synchro.filter((s) => !s.echauffement).map((s) => ({ arm: armKey(a), pass: s.passe, skew: s.skew_ms })),
    );
  if (values.length === 0) return undefined;
  return {
    id: `skew-${slug(voice)}`,
    title: `${voice}: start skew of each timed pass (ms), arms with K >= 2`,
    spec: {
      width: WIDTH,
      height: 180,
      data: { values },
      mark: { type: 'point', filled: true, size: 50 },
      encoding: {
        x: { field: 'pass', type: 'ordinal', axis: { labelAngle: 0 } },
        y: { field: 'skew', type: 'quantitative', title: 'skew ms' },
        color: { field: 'arm', type: 'nominal', title: null },
      },
    },
  };
}

/** Aggregate against K for each layout, beside the ideal min(K, cores) x single stream. */
function scalingChart(voice: string, arms: ArmRecord[], cores: number): ChartSpec | undefined {
  if (new Set(arms.map((a) => a.flux_simultanes)).size < 2) return undefined;
  const single = arms.find((a) => a.flux_simultanes === 1 && a.fils_par_flux === 1 && armCentre(a) !== null);
  const layout = (a: ArmRecord): string =>
    `T=${a.fils_par_flux} ${a.affinite_demandee ? 'pinned' : 'free'} ${a.isolation}`;
  const values = arms
    .filter((a) => armCentre(a) !== null)
    .map((a) => ({ k: a.flux_simultanes, aggregate: armCentre(a), layout: layout(a) }));
  const ks = [...new Set(arms.map((a) => a.flux_simultanes))].sort((p, q) => p - q);
  const singleCentre = single ? armCentre(single) : null;
  const ideal = singleCentre ? ks.map((k) => ({ k, ideal: Math.min(k, cores) * singleCentre })) : [];
  return {
    id: `scaling-${slug(voice)}`,
    title: `${voice}: aggregate throughput against K (dots), ideal min(K, cores) x one stream (dashed)`,
    spec: {
      width: WIDTH,
      height: 200,
      layer: [
        {
          data: { values: ideal },
          mark: { type: 'line', strokeDash: [4, 4], color: '#636363' },
          encoding: {
            x: { field: 'k', type: 'quantitative', title: 'K streams', axis: { tickMinStep: 1 } },
            y: { field: 'ideal', type: 'quantitative', title: 'x real time' },
          },
        },
        {
          data: { values },
          mark: { type: 'point', filled: true, size: 70 },
          encoding: {
            x: { field: 'k', type: 'quantitative' },
            y: { field: 'aggregate', type: 'quantitative' },
            color: { field: 'layout', type: 'nominal', title: null },
          },
        },
      ],
    },
  };
}

/**
 * Every timed pass's aggregate against the time it started, coloured by arm: drift over the run can
 * be seen, and the rounds interleaving the arms.
 */
function driftChart(a: Archive): ChartSpec | undefined {
  const passes = a.bras.flatMap((b) =>
    b.synchro
      .filter((s) => !s.echauffement && s.etendue_s > 0 && s.audio_total_s > 0)
      .map((s) => ({
        arm: `${armVoiceLabel(b)} ${armKey(b)}`,
        startMs: minOf(s.departs_ms),
        aggregate: s.audio_total_s / s.etendue_s,
        round: s.manche,
      })),
  );
  if (passes.length === 0) return undefined;
  const t0 = minOf(passes.map((p) => p.startMs));
  const values = passes.map((p) => ({
    arm: p.arm,
    seconds: (p.startMs - t0) / 1000,
    aggregate: p.aggregate,
    round: p.round,
  }));
  return {
    id: 'drift',
    title: 'every timed pass: its aggregate (x real time) against when it started (s), one colour per arm',
    spec: {
      width: WIDTH,
      height: 240,
      data: { values },
      mark: { type: 'point', filled: true, size: 40 },
      encoding: {
        x: { field: 'seconds', type: 'quantitative', title: 'seconds since the first timed pass' },
        y: { field: 'aggregate', type: 'quantitative', title: 'x real time' },
        color: { field: 'arm', type: 'nominal', title: null },
        tooltip: [{ field: 'arm' }, { field: 'round' }, { field: 'aggregate', format: '.2f' }],
      },
    },
  };
}

/** Every chart of the report, in reading order. */
export function archiveCharts(a: Archive): ChartSpec[] {
  const charts: ChartSpec[] = [];
  const drift = driftChart(a);
  if (drift) charts.push(drift);
  for (const voice of [...new Set(a.bras.map((b) => b.voix))]) {
    const arms = a.bras.filter((b) => b.voix === voice);
    const label = arms[0] ? armVoiceLabel(arms[0]) : voice;
    charts.push(throughputChart(label, arms));
    const scaling = scalingChart(label, arms, a.coeurs);
    if (scaling) charts.push(scaling);
    const skew = skewChart(label, arms);
    if (skew) charts.push(skew);
    arms.forEach((arm, i) => charts.push(cpuChart(label, arm, i)));
  }
  return charts;
}

export type { ChartSpec };
