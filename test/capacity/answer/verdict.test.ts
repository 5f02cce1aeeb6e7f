// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CapacityEntry, TrialRecord } from '../../../lib/capacity/archive/schema.js';
import { tally } from '../../../lib/capacity/answer/tally.js';
import { betweenRunsWords, MIN_ROUNDS, roundsShort, voiceVerdict } from '../../../lib/capacity/answer/verdict.js';

/** A trial record with the listeners' first audio (null: still waiting), whole or not, and gaps. */
function trial(
  k: number,
  listeners: Array<{ first: number | null; complete?: boolean; gaps?: number; arrived?: boolean }>,
  more: Partial<TrialRecord> = {},
): TrialRecord {
  const gaps = listeners.reduce((n, l) => n + (l.gaps ?? 0), 0);
  return {
    voix: 'v',
    disposition: 'l',
    flux: k,
    travailleurs: k,
    manche: 1,
    but: 'sans_trou',
    reprise: 0,
    etat: gaps > 0 ? 'stopped' : 'done',
    erreur: null,
    debut_ms: 0,
    fin_ms: 3000,
    sans_trou: gaps === 0,
    dans_la_borne: false,
    au_rythme: gaps === 0 ? true : null,
    tenu: gaps === 0,
    premier_son_p95_ms: null,
    premier_son_max_ms: null,
    trous: gaps,
    flux_avec_trous: listeners.filter((l) => (l.gaps ?? 0) > 0).length,
    retard_arrivee_max_ms: 0,
    debit_agrege: null,
    debit_par_flux: 1.1,
    debit_vivant: null,
    fenetre_vivante_ms: 0,
    trous_courts: 0,
    rss_pic_octets: [],
    flux_detail: listeners.map((l, i) => ({
      arrivee_prevue_ms: i * 100,
      arrivee_ms: l.arrived === false ? null : i * 100,
      premier_son_ms: l.first,
      complet: l.complete ?? l.first !== null,
      trous: l.gaps ?? 0,
      trous_courts: 0,
      trous_s: 0,
      pire_trou_s: 0,
      phrases: [],
    })),
    controles: [],
    controle_tenu: true,
    ...more,
  };
}

describe('what the trials at one K show', () => {
  it('gaps and first audio counted by trial, sessions described; failed controls and unfinished sessions left out', () => {
    const trials = [
      trial(3, [{ first: 200 }, { first: 450 }, { first: 300 }]),
      // A gap for listener 1 stopped this one: listener 2 had waited 3000 - 200 = 2800 ms with no audio (over 500: counted),
      // listener 0 heard all but had not finished (not a session heard).
      trial(3, [{ first: 100, complete: false }, { first: 250, gaps: 1 }, { first: null }]),
      // Its arrivals were late: not counted at all.
      trial(3, [{ first: 900 }, { first: 900 }, { first: 900 }], { controle_tenu: false }),
      trial(4, [{ first: 1 }, { first: 1 }, { first: 1 }, { first: 1 }]),
    ];
    const e = tally(trials, 3, 500);
    assert.deepEqual(
      [e.essais, e.essais_tenus, e.essais_controles_echoues, e.essais_entiers, e.essais_avec_trou],
      [2, 1, 1, 2, 1],
    );
    // By trial: 1 with a gap in 2, the rate below which P(X <= 1) = 1 - p^2 stays >= 5%: sqrt(0.95) = 0.9747.
    // (Counted by listener it would read 1 in 4 sessions, 0.7514: narrower than the two trials allow.)
    assert.ok(Math.abs((e.taux_trou_max ?? 0) - 0.9747) < 1e-3, String(e.taux_trou_max));
    assert.deepEqual([e.sessions, e.sessions_avec_trou], [4, 1]);
    // First audio, described: 200, 450, 300, 100, 250, and 2800 (still waiting, over the bound): 6 values, 1 over.
    assert.deepEqual([e.premier_son_sessions, e.premier_son_au_dela, e.premier_son_p95_ms], [6, 1, 2800]);
    // By trial: the worst of each, 450 and 2800: one trial over the bound in two.
    assert.deepEqual([e.premier_son_essais, e.premier_son_essais_au_dela, e.premier_son_borne_ms], [2, 1, 2800]);
    assert.ok(Math.abs((e.part_au_dela_max ?? 0) - 0.9747) < 1e-3);
    // 0.05^(1/2) = 0.2236: the worst of two trials bounds only the 22nd percentile of a trial's worst.
    assert.ok(Math.abs((e.premier_son_borne_centile ?? 0) - 0.2236) < 1e-3);
    // A listener who had waited less than the bound when its trial ended is unknown, not counted.
    assert.equal(tally([trial(2, [{ first: 100 }, { first: null }], { fin_ms: 400 })], 2, 500).premier_son_sessions, 1);
  });
});

describe('what a rerun range assumes between runs, said', () => {
  it('the assumed 5% as a share either way, or the spread earlier runs here measured', () => {
    const e = (more: Partial<CapacityEntry>) => ({ derive_entre_runs: 0.05, ...more }) as CapacityEntry;
    // 1.96 x sqrt(2) x 0.05 = 0.139 in log: a rerun within 15% either way.
    assert.match(
      betweenRunsWords([e({})]),
      /^Reruns: a rerun's speed assumed within 15% of this run's either way \(not measured here/,
    );
    // Two earlier runs measured 12% (sd of log): 1.96 x sqrt(2) x 0.12 = 0.333, 39%.
    const measured = e({ derive_entre_runs: 0.12, derive_entre_runs_mesuree: 0.12, derive_entre_runs_runs: 2 });
    assert.equal(
      betweenRunsWords([measured, e({})]),
      "Reruns: a rerun's speed within 39% of this run's either way, at the upper bound (80%) of what 2 earlier runs here and this one measured.",
    );
    // Measured, but below the assumed 5%: the assumption stands and is said as one.
    assert.match(
      betweenRunsWords([e({ derive_entre_runs_mesuree: 0.02, derive_entre_runs_runs: 2 })]),
      /assumed within 15%/,
    );
  });
});

describe('what publishes an answer: rounds, the independent unit', () => {
  const held = (k: number, round: number, more: Partial<TrialRecord> = {}) =>
    trial(k, [{ first: 100 }], { manche: round, ...more });
  it('counts rounds with a whole trial held at the K or above, each round once, controls held only', () => {
    assert.equal(MIN_ROUNDS, 3);
    // Three trials in one round's turn share its workers: one round, two short.
    assert.equal(roundsShort([held(4, 1), held(4, 1), held(5, 1)], 4), 2);
    // A heavier load served in rounds 1 and 2 shows 4 too: round 3 at 4 completes it.
    assert.equal(roundsShort([held(5, 1), held(6, 2), held(4, 3)], 4), 0);
    // A lighter load shows nothing of 4; a trial whose control failed, or with a gap, counts for nothing.
    const weak = [held(3, 1), held(4, 2, { controle_tenu: false }), held(4, 3, { tenu: false, sans_trou: false })];
    assert.equal(roundsShort([...weak, held(4, 4)], 4), 2);
    assert.equal(roundsShort([], 0), 0);
  });

  it('S at the edge must rest on as many rounds: held in 3, S read on 2, one short', () => {
    const three = [held(4, 1), held(4, 2), held(4, 3)];
    assert.equal(roundsShort(three, 4, 3), 0);
    assert.equal(roundsShort(three, 4, 2), 1);
    assert.equal(roundsShort(three, 4, null), 0, 'no S (a server that measured none): the trials alone');
  });
});

describe('a trial with no gap heard but behind real time', () => {
  it('is counted apart: not held, but not a gap either', () => {
    const behind = { au_rythme: false, tenu: false, debit_par_flux: 0.91 };
    const e = tally(
      [
        trial(4, [{ first: 300 }, { first: 350 }, { first: 400 }, { first: 450 }], behind),
        trial(4, [{ first: 300 }, { first: 350 }, { first: 400 }, { first: 450 }]),
      ],
      4,
      500,
    );
    assert.deepEqual([e.essais, e.essais_tenus, e.essais_en_retard, e.sessions, e.sessions_avec_trou], [2, 1, 1, 8, 0]);
    assert.deepEqual(e.debit_par_flux, [0.91, 1.1]);
  });
});

describe('the voice verdict', () => {
  const entry = (disposition: string, a: number, b: number, max = a): CapacityEntry =>
    ({
      voix: 'v',
      disposition,
      flux_max_sans_trou: a,
      flux_max_dans_la_borne: b,
      prevision: max > a ? [a, max] : null,
      borne: 'cpu',
      preuves: [],
    }) as unknown as CapacityEntry;

  const speeds = (layout: string, logs: number[]) => ({
    layout,
    byRound: new Map(logs.map((v, i) => [i + 1, Math.log(v)])),
  });

  it("names a best layout only when its live speed is ahead of every other's, then every layout's answers", () => {
    const pool = 'pool of 2 processes x 1 thread, free';
    const threads = '1 process x 2 threads, free';
    const entries = [entry(pool, 9, 4, 10), entry(threads, 7, 6)];
    // Round by round the pool's S is 20% ahead, give or take 1%: resolved even at the family's level.
    const apart = voiceVerdict('v', entries, {
      limitMs: 500,
      memory: 'Memory: fine.',
      speeds: [speeds(pool, [12, 12.1, 11.9, 12]), speeds(threads, [10, 10, 10, 10])],
    });
    assert.match(
      apart,
      /^v on this machine: at most 10 live listeners with no gap on a rerun \(pool of 2 processes x 1 thread, free\); /,
    );
    assert.match(apart, /; best pool of 2 processes x 1 thread, free by live speed: .* \+20% \[/);
    assert.match(
      apart,
      /pool of 2 processes x 1 thread, free 9 \[rerun 9-10\] \/ 4; 1 process x 2 threads, free 7 \/ 6\. Reruns: a rerun's speed assumed within 15% of this run's either way \(.*\)\. Memory: fine\.$/,
    );
    // The same answers with speeds that cross from round to round: no best is named, whatever the point answers say.
    const crossed = voiceVerdict('v', entries, {
      limitMs: 500,
      memory: 'M.',
      speeds: [speeds(pool, [12, 9, 13]), speeds(threads, [10, 11, 10])],
    });
    assert.match(
      crossed,
      /best not told apart by live speed: pool of 2 processes x 1 thread, free .* over 1 process x 2 threads, free/,
    );
    assert.doesNotMatch(crossed, /; best pool/);
    assert.match(
      voiceVerdict('v', [entry('x', 0, 0)], { limitMs: 500, memory: 'M.', speeds: [] }),
      /^v on this machine: no layout served one live listener without a gap; no layout kept every first audio within 500 ms; no live speed measured\./,
    );
  });
});
