/** The summary's charts: live streams per machine and voice, and what a live stream-hour costs. */
import type { ChartSpec } from '../../report/chart.js';
import type { SummaryRow } from '../types.js';

/** A row's name on the charts; rows of one machine and voice kept apart carry their row number. */
function namer(rows: SummaryRow[]): (r: SummaryRow) => string {
  const base = (r: SummaryRow): string => `${r.label}, ${r.voice}${r.synthetic ? ' (SYNTHETIC)' : ''}`;
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(base(r), (counts.get(base(r)) ?? 0) + 1);
  return (r) => ((counts.get(base(r)) ?? 0) > 1 ? `${base(r)}, row ${rows.indexOf(r) + 1}` : base(r));
}

/** A bar per row at the figure, and a rule over the range a rerun may give. */
function barsWithRange(
  id: string,
  title: string,
  axis: string,
  points: Array<{ row: string; value: number; lo: number; hi: number }>,
): ChartSpec {
  const y = { field: 'row', type: 'nominal' as const, title: null, sort: null, axis: { labelLimit: 420 } };
  return {
    id,
    title,
    spec: {
      width: 480,
      data: { values: points },
      layer: [
        {
          mark: { type: 'bar', color: '#6baed6' },
          encoding: { y, x: { field: 'value', type: 'quantitative', title: axis } },
        },
        {
          mark: { type: 'rule', color: '#08306b', strokeWidth: 2 },
          encoding: { y, x: { field: 'lo', type: 'quantitative' }, x2: { field: 'hi' } },
        },
      ],
    },
  };
}

export function summaryCharts(rows: SummaryRow[]): ChartSpec[] {
  const name = namer(rows);
  const live = rows.flatMap((r) => {
    const f = r.bestCapacity?.noGap;
    return f ? [{ row: name(r), value: f.k, lo: f.range.min, hi: f.range.max }] : [];
  });
  const cost = rows.flatMap((r) => {
    const c = r.cost?.perStreamHour;
    return c && Number.isFinite(c.range[1]) ? [{ row: name(r), value: c.centre, lo: c.range[0], hi: c.range[1] }] : [];
  });
  const charts: ChartSpec[] = [];
  if (live.length > 0)
    charts.push(
      barsWithRange(
        'live-streams',
        'Live streams with no gap, best layout of each machine and voice; the line spans what a rerun may say',
        'live streams',
        live,
      ),
    );
  if (cost.length > 0)
    charts.push(
      barsWithRange(
        'cost-per-stream',
        'Cost per live stream-hour (the --price per hour over the live streams); the line spans the same range',
        'per live stream-hour',
        cost,
      ),
    );
  return charts;
}
