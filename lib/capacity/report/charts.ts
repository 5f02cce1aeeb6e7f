/**
 * The capacity report's charts. First, what a deployer reads: per voice the live speed of every
 * whole trial against K (above the x1 diagonal, every listener keeps pace) with each layout's answer
 * and prediction marked; the worst first audio of each trial against K with the bound; listeners
 * served against pre-buffer. After them, the evidence: gaps against K and one trial's timeline.
 */
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
    title: `${voice}: the worst first audio of each trial against K, per layout; the dashed line is the bound`,
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

const X_K = { field: 'k', type: 'quantitative', title: 'live listeners K' } as const;

/** S per whole trial against K; the diagonal S = K is x1 per listener; each layout's answer a rule, its prediction a band. */
function speedChart(voice: string, a: CapacityArchive, trials: TrialRecord[]): ChartSpec {
  const points = trials
    .filter((t) => t.but === 'sans_trou' && t.controle_tenu && t.debit_vivant !== null)
    .map((t) => ({
      k: t.flux,
      s: t.debit_vivant,
      layout: t.disposition,
      gap: t.sans_trou === false ? 'a gap' : 'no gap',
    }));
  const entries = a.capacite.filter((c) => c.voix === trials[0]?.voix && c.flux_max_sans_trou > 0);
  const answers = entries.map((c) => ({ k: c.flux_max_sans_trou, layout: c.disposition }));
  const bands = entries.flatMap((c) =>
    c.prevision ? [{ lo: c.prevision[0], hi: c.prevision[1], layout: c.disposition }] : [],
  );
  const top = Math.max(1, ...points.map((p) => Math.max(p.k, p.s ?? 0)));
  const color = { field: 'layout', type: 'nominal', title: null } as const;
  return {
    id: `live-speed-${slug(voice)}`,
    title:
      `${voice}: live speed S of each whole trial against K (x real time); above the diagonal S = K every listener ` +
      `keeps pace; a rule marks each layout's answer, a band what a rerun may answer`,
    spec: {
      width: WIDTH,
      height: 260,
      layer: [
        {
          data: { values: bands },
          mark: { type: 'rect', opacity: 0.12 },
          encoding: { x: { field: 'lo', type: 'quantitative' }, x2: { field: 'hi' }, color },
        },
        {
          data: {
            values: [
              { k: 0, s: 0 },
              { k: top, s: top },
            ],
          },
          mark: { type: 'line', strokeDash: [6, 4], color: '#555' },
          encoding: { x: { field: 'k', type: 'quantitative' }, y: { field: 's', type: 'quantitative' } },
        },
        {
          data: { values: points },
          mark: { type: 'point', filled: true, size: 60 },
          encoding: {
            x: X_K,
            y: { field: 's', type: 'quantitative', title: 'live speed S, x real time' },
            color,
            shape: { field: 'gap', type: 'nominal', title: null },
          },
        },
        {
          data: { values: answers },
          mark: { type: 'rule', strokeWidth: 2 },
          encoding: { x: { field: 'k', type: 'quantitative' }, color },
        },
      ],
    },
  };
}

/** Listeners served with no gap at each pre-buffer, per layout. */
function buffersChart(voice: string, entries: CapacityArchive['capacite']): ChartSpec {
  const points = entries.flatMap((c) =>
    c.par_tampon.map((b) => ({
      ms: b.tampon_ms,
      k: b.flux_max_sans_trou,
      layout: c.disposition,
      kind: b.au_moins ? 'at least (no K tried failed)' : 'answer',
    })),
  );
  return {
    id: `prebuffer-${slug(voice)}`,
    title: `${voice}: live listeners served with no gap against the player's pre-buffer, replayed from the same trials`,
    spec: {
      width: WIDTH,
      height: 200,
      data: { values: points },
      mark: { type: 'line', point: true },
      encoding: {
        x: { field: 'ms', type: 'quantitative', title: 'pre-buffer, ms' },
        y: { field: 'k', type: 'quantitative', title: 'live listeners, no gap' },
        color: { field: 'layout', type: 'nominal', title: null },
      },
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
      kind: t.controle_tenu ? 'counted' : 'a control failed',
    }));
  return {
    id: `gaps-${slug(voice)}`,
    title: `${voice}: gaps of 20 ms or more heard against K in whole trials (each run to its end), per layout`,
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

const labelOf = (v: CapacityArchive['voix'][number]): string =>
  v.synthetique && !v.nom.includes('synthetic') ? `${v.nom} (SYNTHETIC)` : v.nom;

/** The pictures a deployer reads first, per voice. */
export function answerCharts(a: CapacityArchive): ChartSpec[] {
  return a.voix.flatMap((v) => {
    const trials = a.essais.filter((t) => t.voix === v.nom);
    const label = labelOf(v);
    return [
      speedChart(label, a, trials),
      firstAudioChart(label, trials, a.protocole.premier_son_max_ms),
      buffersChart(
        label,
        a.capacite.filter((c) => c.voix === v.nom),
      ),
    ];
  });
}

/** The evidence's pictures, per voice: gaps against K and one trial's timeline. */
export function evidenceCharts(a: CapacityArchive): ChartSpec[] {
  return a.voix.flatMap((v) => {
    const label = labelOf(v);
    const shown = timelineTrial(a, v.nom);
    return [
      gapsChart(
        label,
        a.essais.filter((t) => t.voix === v.nom),
      ),
      ...(shown ? [timelineChart(label, shown)] : []),
    ];
  });
}
