// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
/** The noise models the simulations use are what the runs they name show, fitted again here. */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { fitNoise, type RoundTable } from '../../../bench/noise-model/fit.js';
import { NOISE_SLOW_AMD_ARCHIVES, NOISE_SLOW_AMD_TODAY } from '../../../bench/noise-model/noise.js';
import type { NoiseModel } from '../../../bench/noise-model/simulate.js';
import type { Archive } from '../../../lib/throughput/schema.js';
import { ROOT } from '../../helpers/paths.js';

const FIXTURE = fileURLToPath(new URL('../../../../test/fixtures/noise/slow-amd-2026-12-02.json', import.meta.url));
const ARCHIVES = path.resolve(ROOT, '..', 'shared', 'archives', 'slow-amd-2026-11-30');

function close(fitted: NoiseModel, model: NoiseModel): void {
  for (const k of Object.keys(model) as Array<keyof NoiseModel>)
    assert.ok(Math.abs(fitted[k] - model[k]) < 0.0006, `${k}: fitted ${fitted[k]}, model ${model[k]}`);
}

describe('the noise models, fitted again', () => {
  it("this VM's default runs of 2026-12-02 (their round figures, in a fixture)", () => {
    const f = JSON.parse(readFileSync(FIXTURE, 'utf8')) as {
      runs: Array<{ voices: Array<{ arms: Array<{ rounds: number[] }> }> }>;
    };
    const tables: RoundTable[] = f.runs.flatMap((r) => r.voices.map((v) => v.arms.map((a) => a.rounds)));
    assert.equal(tables.length, 14);
    close(fitNoise(tables, [], 1), NOISE_SLOW_AMD_TODAY);
  });

  it('the archives of 2026-11-30 in ../shared (3 rounds of 2 passes: the pass part from their pairs)', (t) => {
    if (!existsSync(ARCHIVES)) {
      t.skip(`no ${ARCHIVES} here`);
      return;
    }
    const archives = readdirSync(ARCHIVES)
      .filter((f) => f.startsWith('piper-parallel-'))
      .map((f) => JSON.parse(readFileSync(path.join(ARCHIVES, f), 'utf8')) as Archive);
    const tables: RoundTable[] = [];
    const diffs: number[] = [];
    for (const a of archives)
      for (const v of new Set(a.bras.map((b) => b.voix))) {
        const arms = a.bras.filter((b) => b.voix === v);
        tables.push(arms.map((b) => b.debit_agrege_manches.map((x) => x ?? NaN)));
        for (const b of arms) {
          const byRound = new Map<number, number[]>();
          b.synchro
            .filter((s) => !s.echauffement)
            .forEach((s, i) => {
              const value = b.debit_agrege_par_passe[i];
              if (value) byRound.set(s.manche, [...(byRound.get(s.manche) ?? []), Math.log(value)]);
            });
          for (const p of byRound.values()) if (p.length === 2) diffs.push((p[0] ?? 0) - (p[1] ?? 0));
        }
      }
    close(fitNoise(tables, diffs, 2), NOISE_SLOW_AMD_ARCHIVES);
  });
});
