import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ArmRun } from '../../lib/run/arm.js';
import { armRecord } from '../../lib/run/record.js';

/** A finished 2-stream arm whose streams produce `ratios[j]` audio seconds per compute second in pass j. */
function run(ratios: number[]): ArmRun {
  const passes = (rang: number) =>
    ratios.map((r, j) => ({ type: 'pass' as const, pass: j + 1, warmup: false, computeSeconds: 1, inferenceSeconds: 0.99, audioSeconds: r, cpuSeconds: 0.99, startMs: 1000 * j + rang * 0.1, endMs: 1000 * j + 1000 }));
  const loaded = { type: 'loaded' as const, pid: 1, cores: [0, 1], loadSeconds: 1, phonemizeSeconds: 0.1, sentences: 1, missingPhonemes: {} };
  return {
    state: 'done',
    children: [0, 1].map((rang) => ({ rang, pid: 1, core: undefined, loaded, passes: [{ ...passes(rang)[0]!, pass: 0, warmup: true, audioSeconds: 99 }, ...passes(rang)] })),
    sync: ratios.map((_, j) => ({ pass: j + 1, warmup: false, atMs: 1000 * j, startsMs: [1000 * j, 1000 * j + 0.1], endsMs: [0, 0], skewMs: 0.1, lateMs: 0.1 })),
    wallSeconds: 10,
  };
}

const id = { voice: { name: 'v', synthetic: true, sha256: 'x' }, condition: { flux: 2, fils: 1, affinite: false, isolation: 'process' as const }, allCores: [0, 1] };

describe('arm record statistics', () => {
  it('aggregates each pass over streams, leaves the warm-up out, and gives a seeded interval', () => {
    const a = armRecord(run([10, 10.2, 9.9, 10.1, 10]), id);
    assert.deepEqual(a.debit_agrege_par_passe, [20, 20.4, 19.8, 20.2, 20]);
    assert.equal(a.debit_agrege_passe_mediane, 20);
    assert.ok(a.debit_agrege_ic95 && a.debit_agrege_ic95[0] <= 20 && a.debit_agrege_ic95[1] >= 20);
    assert.deepEqual(a.debit_agrege_ic95, armRecord(run([10, 10.2, 9.9, 10.1, 10]), id).debit_agrege_ic95);
    assert.equal(a.enfants[0]?.statistiques.ratio.n, 5);
    assert.equal(a.enfants[0]?.resume.ratio.max, 10.2);
    assert.equal(a.bruyant, false);
    assert.equal(a.controle_tenu, true);
  });

  it('flags an arm NOISY when the interquartile range of its pass aggregates passes 10% of their median', () => {
    const a = armRecord(run([10, 12, 8, 11, 9]), id);
    // Aggregates 20,24,16,22,18: IQR 22 - 18 = 4 over median 20 = 20%.
    assert.equal(a.dispersion_relative, 0.2);
    assert.equal(a.bruyant, true);
  });
});
