// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CapacityEntry, TrialRecord } from '../../../lib/capacity/archive/schema.js';
import { tally } from '../../../lib/capacity/answer/tally.js';
import { rerunRange, voiceVerdict } from '../../../lib/capacity/answer/verdict.js';

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
    rss_pic_octets: [],
    flux_detail: listeners.map((l, i) => ({
      arrivee_prevue_ms: i * 100,
      arrivee_ms: l.arrived === false ? null : i * 100,
      premier_son_ms: l.first,
      complet: l.complete ?? l.first !== null,
      trous: l.gaps ?? 0,
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
  it('sessions, gaps and first audio counted by hand; failed controls and unfinished sessions left out', () => {
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
      [e.essais, e.essais_tenus, e.essais_controles_echoues, e.sessions, e.sessions_avec_trou],
      [2, 1, 1, 4, 1],
    );
    // 1 gap in 4 sessions: the rate below which P(X <= 1) stays >= 5% for n = 4 is 0.7514.
    assert.ok(Math.abs((e.taux_trou_max ?? 0) - 0.7514) < 1e-3, String(e.taux_trou_max));
    // First audio: 200, 450, 300, 100, 250, and 2800 (still waiting, over the bound): 6 values, 1 over.
    assert.deepEqual(
      [e.premier_son_sessions, e.premier_son_au_dela, e.premier_son_p95_ms, e.premier_son_borne_ms],
      [6, 1, 2800, 2800],
    );
    // 0.05^(1/6) = 0.6070: the worst of six bounds the 60th percentile.
    assert.ok(Math.abs((e.premier_son_borne_centile ?? 0) - 0.607) < 1e-3);
    // A listener who had waited less than the bound when its trial ended is unknown, not counted.
    assert.equal(tally([trial(2, [{ first: 100 }, { first: null }], { fin_ms: 400 })], 2, 500).premier_son_sessions, 1);
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

describe('the range a rerun may say', () => {
  it('down: what the slowest whole trial at the edge made, slower again by the spread seen; up: the fastest, or the largest K held', () => {
    const four = [{ first: 100 }, { first: 100 }, { first: 100 }, { first: 100 }];
    const at = (k: number, speed: number, more: Partial<TrialRecord> = {}): TrialRecord =>
      trial(k, four, { flux: k, debit_agrege: speed, ...more });
    const stopped = { etat: 'stopped', trous: 1, sans_trou: false, tenu: false } as const;
    const behind = { au_rythme: false, tenu: false } as const;
    const trials = [
      at(10, 12),
      at(10, 10.5),
      at(11, 9.4, behind),
      at(11, 6, stopped),
      at(12, 8),
      at(11, 5, { controle_tenu: false }),
    ];
    const proofs = [10, 11, 12].map((k) => tally(trials, k, 500));
    // Whole trials at 10 and 11 run to their end, controls held: x12, x10.5 and x9.4: down to 9.4 x 9.4 / 12 = 7.36, up
    // to 12. Not counted: one stopped at its gap (its sentences in flight read low), one not at the edge, one whose
    // control failed.
    assert.deepEqual(rerunRange(trials, 10, proofs, 32), { min: 7, max: 12 });
    // The cap bounds it above.
    assert.deepEqual(rerunRange(trials, 10, proofs, 10), { min: 7, max: 10 });
    // A light load the slowest trial carries with room to spare: the answer is the bottom.
    const light = [at(2, 8), at(2, 12)];
    assert.deepEqual(rerunRange(light, 2, [tally(light, 2, 500)], 2), { min: 2, max: 2 });
    // Nothing held: nothing to go on.
    assert.deepEqual(rerunRange([], 0, [], 32), { min: 0, max: 0 });
  });
});

describe('the voice verdict', () => {
  const entry = (disposition: string, a: number, b: number, max = a): CapacityEntry =>
    ({
      voix: 'v',
      disposition,
      flux_max_sans_trou: a,
      flux_max_dans_la_borne: b,
      plage_sans_trou: { min: a, max },
    }) as CapacityEntry;

  it("names the best layout for each answer, then every layout's two answers", () => {
    const line = voiceVerdict(
      'v',
      [entry('pool of 2 processes x 1 thread, free', 9, 4, 10), entry('1 process x 2 threads, free', 7, 6)],
      500,
      'Memory: fine.',
    );
    assert.equal(
      line,
      'v on this machine: 9 live streams with no gap, with pool of 2 processes x 1 thread, free (a rerun may say 9 to 10); 6 with first audio within 500 ms too, with 1 process x 2 threads, free. Each layout (no gap / within the bound): pool of 2 processes x 1 thread, free 9 / 4; 1 process x 2 threads, free 7 / 6. Memory: fine.',
    );
    assert.equal(
      voiceVerdict('v', [entry('x', 0, 0)], 500, 'M.'),
      'v on this machine: no layout served one live stream without a gap; no layout kept every first audio within 500 ms. Each layout (no gap / within the bound): x 0 / 0. M.',
    );
  });
});
