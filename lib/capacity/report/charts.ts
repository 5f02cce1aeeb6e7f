/** The capacity report's charts: first audio against K, gaps against K, and one trial's timeline. */
import type { ChartSpec } from '../../report/chart.js';
import type { CapacityArchive, TrialRecord } from '../archive/schema.js';

const slug = (s: string): string =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
const WIDTH = 520;

function firstAudioChart(voice: string, trials: TrialRecord[], limitMs: number): ChartSpec {
  const points = trials
    .filter((t) => t.premier_son_max_ms !== null)
    .map((t) => ({ k: t.flux, p95: t.premier_son_max_ms, layout: t.disposition, round: `round ${t.manche}` }));
  return {
    id: `first-audio-${slug(voice)}`,
    title: `${voice}: the longest wait for first audio in each trial against K, per layout; the dashed line is the bound`,
    spec: {
      width: WIDTH,
      height: 220,
      layer: [
        {
          data: { values: points },
          mark: { type: 'point', filled: true, size: 60 },
          encoding: {
            x: { field: 'k', type: 'quantitative', title: 'live streams K' },
            y: { field: 'p95', type: 'quantitative', title: 'longest first audio, ms' },
            color: { field: 'layout', type: 'nominal', title: null },
            shape: { field: 'round', type: 'nominal', title: null },
          },
        },
        {
          data: { values: [{ limit: limitMs }] },
          mark: { type: 'rule', strokeDash: [6, 4], color: '#a50f15' },
          encoding: { y: { field: 'limit', type: 'quantitative' } },
        },
      ],
    },
  };
}

function gapsChart(voice: string, trials: TrialRecord[]): ChartSpec {
  const points = trials
    .filter((t) => t.but === 'sans_trou')
    .map((t) => ({
      k: t.flux,
      gaps: t.trous,
      layout: t.disposition,
      kind: t.etat === 'stopped' ? 'stopped at the first gap' : 'whole trial',
    }));
  return {
    id: `gaps-${slug(voice)}`,
    title: `${voice}: gaps heard against K in whole trials, per layout (a trial stops at its first gap)`,
    spec: {
      width: WIDTH,
      height: 200,
      data: { values: points },
      mark: { type: 'point', filled: true, size: 60 },
      encoding: {
        x: { field: 'k', type: 'quantitative', title: 'live streams K' },
        y: { field: 'gaps', type: 'quantitative', title: 'gaps' },
        color: { field: 'layout', type: 'nominal', title: null },
        shape: { field: 'kind', type: 'nominal', title: null },
      },
    },
  };
}

/** One trial: per listener, when each sentence was ready (dot) and when it played (bar). */
function timelineChart(voice: string, t: TrialRecord): ChartSpec {
  const t0 = t.debut_ms;
  const bars = t.flux_detail.flatMap((s, i) =>
    s.phrases.map((p, j) => ({
      listener: `listener ${i}`,
      sentence: j,
      play: (p.joue_ms - t0) / 1000,
      end: (p.fin_ms - t0) / 1000,
      ready: (p.pret_ms - t0) / 1000,
    })),
  );
  const arrivals = t.flux_detail.flatMap((s, i) =>
    s.arrivee_ms === null ? [] : [{ listener: `listener ${i}`, at: (s.arrivee_ms - t0) / 1000 }],
  );
  const y = { field: 'listener', type: 'nominal', title: null, sort: null } as const;
  return {
    id: `timeline-${slug(voice)}`,
    title:
      `${voice}, ${t.disposition}, K=${t.flux}, round ${t.manche}: each listener's arrival (tick), ` +
      `sentences ready (dots) and playing (bars), seconds from the trial's start`,
    spec: {
      width: WIDTH,
      height: Math.max(80, 22 * t.flux),
      layer: [
        {
          data: { values: bars },
          mark: { type: 'bar', height: 12, color: '#9ecae1' },
          encoding: { y, x: { field: 'play', type: 'quantitative', title: 's' }, x2: { field: 'end' } },
        },
        {
          data: { values: bars },
          mark: { type: 'point', filled: true, size: 30, color: '#e6550d' },
          encoding: { y, x: { field: 'ready', type: 'quantitative' } },
        },
        {
          data: { values: arrivals },
          mark: { type: 'tick', color: '#08306b', thickness: 2 },
          encoding: { y, x: { field: 'at', type: 'quantitative' } },
        },
      ],
    },
  };
}

/** The largest K that held for the voice's best layout: the trial a timeline shows (else its first trial). */
function timelineTrial(a: CapacityArchive, voice: string): TrialRecord | undefined {
  const best = a.capacite
    .filter((c) => c.voix === voice)
    .sort((x, y) => y.flux_max_sans_trou - x.flux_max_sans_trou)[0];
  const mine = a.essais.filter((t) => t.voix === voice);
  return (
    mine.find((t) => best && t.disposition === best.disposition && t.flux === best.flux_max_sans_trou && t.tenu) ??
    mine[0]
  );
}

export function capacityCharts(a: CapacityArchive): ChartSpec[] {
  return a.voix.flatMap((v) => {
    const trials = a.essais.filter((t) => t.voix === v.nom);
    const label = v.synthetique && !v.nom.includes('synthetic') ? `${v.nom} (SYNTHETIC)` : v.nom;
    const shown = timelineTrial(a, v.nom);
    return [
      firstAudioChart(label, trials, a.protocole.premier_son_max_ms),
      gapsChart(label, trials),
      ...(shown ? [timelineChart(label, shown)] : []),
    ];
  });
}
