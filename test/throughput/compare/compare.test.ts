// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { SESSION_SETTINGS } from '../../../lib/voice/session-profile.js';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import type { Archive } from '../../../lib/throughput/schema.js';
import { compareArchives, comparisonMarkdown } from '../../../lib/throughput/compare/compare.js';
import { readComparable, toComparable } from '../../../lib/throughput/compare/read.js';
import { buildVerdict } from '../../../lib/throughput/verdict/index.js';
import { realArchive, throughputFellBeyond } from '../../helpers/archive.js';
import { pythonArchive } from '../../helpers/old-archives.js';
import { BIN, tempDir } from '../../helpers/paths.js';

const dir = tempDir('compare');
let base: Archive;

/** Write a copy of the real archive, changed by `edit`. */
function variant(name: string, edit: (a: Archive) => void): string {
  const copy = structuredClone(base);
  edit(copy);
  const file = path.join(dir, `${name}.json`);
  writeFileSync(file, JSON.stringify(copy));
  return file;
}

/**
 * Every arm steady (little spread between rounds, none within) and every control held, so verdicts
 * depend only on the edits: round figures within 0.2% of the arm's centre, each stream's too.
 */
function steady(a: Archive): void {
  const wobble = [1, 1.002, 0.998];
  for (const b of a.bras) {
    b.dispersion_relative = 0.01;
    b.controle_tenu = true;
    const centre = b.debit_agrege_centre ?? b.debit_agrege_passe_mediane ?? 1;
    b.debit_agrege_manches = b.debit_agrege_manches.map((_, i) => centre * (wobble[i % 3] as number));
    for (const [s, e] of b.enfants.entries())
      for (const p of e.passes) p.ratio = (b.debit_par_flux_mediane[s] ?? 1) * (wobble[(p.manche - 1) % 3] as number);
  }
}

/** Every throughput figure of every arm, rounds and passes included, times `factor`. */
function scale(a: Archive, factor: number): void {
  for (const b of a.bras) {
    b.debit_agrege_passe_mediane = (b.debit_agrege_passe_mediane ?? 0) * factor;
    if (b.debit_agrege_centre !== undefined && b.debit_agrege_centre !== null) b.debit_agrege_centre *= factor;
    b.debit_agrege_manches = b.debit_agrege_manches.map((x) => (x === null ? null : x * factor));
    b.debit_par_flux_mediane = b.debit_par_flux_mediane.map((x) => (x ?? 0) * factor);
    for (const e of b.enfants) for (const p of e.passes) if (p.ratio !== null) p.ratio *= factor;
  }
}

before(async () => {
  // The suite's shared small run, its pinned arm left out: one layout per K, so a pair per ratio.
  const real = structuredClone((await realArchive()).archive);
  real.bras = real.bras.filter((b) => !b.affinite_demandee);
  real.verdict = buildVerdict(real.bras, real.coeurs);
  base = real;
});

describe('compare', () => {
  it('SAME, FASTER and SLOWER beyond the tolerance; a regression only for SLOWER', async () => {
    const a = await readComparable(variant('a', steady));
    const same = compareArchives(
      a,
      await readComparable(
        variant('same', (x) => {
          steady(x);
          scale(x, 1.02);
        }),
      ),
    );
    assert.ok(
      same.rows.filter((r) => r.metric !== 'cpu_percent').every((r) => r.verdict === 'SAME'),
      JSON.stringify(same.rows),
    );
    assert.equal(same.regression, false);
    const faster = compareArchives(
      a,
      await readComparable(
        variant('faster', (x) => {
          steady(x);
          scale(x, 1.2);
        }),
      ),
    );
    assert.ok(faster.rows.filter((r) => r.metric === 'aggregate').every((r) => r.verdict === 'FASTER'));
    assert.equal(faster.regression, false);
    const slower = compareArchives(
      a,
      await readComparable(
        variant('slower', (x) => {
          steady(x);
          scale(x, 0.8);
        }),
      ),
    );
    assert.ok(
      slower.rows
        .filter((r) => r.metric === 'aggregate')
        .every((r) => r.verdict === 'SLOWER' && Math.abs((r.changePercent ?? 0) + 20) < 1e-9),
    );
    assert.equal(slower.regression, true);
  });

  it("NOISY when the runs' rounds cannot tell a change beyond the tolerance from none, however far the points moved", async () => {
    const a = await readComparable(variant('a2', steady));
    // B's points are 20% lower, but its rounds range from 0.55 to 1.05 of A's: the interval straddles both bounds.
    const c = compareArchives(
      a,
      await readComparable(
        variant('noisy', (x) => {
          steady(x);
          scale(x, 0.8);
          for (const b of x.bras)
            b.debit_agrege_manches = b.debit_agrege_manches.map((v, i) => (v ?? 0) * [0.7, 1.3, 0.9][i % 3]!);
          for (const b of x.bras)
            for (const e of b.enfants)
              for (const p of e.passes) if (p.ratio !== null) p.ratio *= [0.7, 1.3, 0.9][(p.manche - 1) % 3]!;
        }),
      ),
    );
    assert.ok(
      c.rows.filter((r) => r.metric === 'per_stream').every((r) => r.verdict === 'NOISY'),
      JSON.stringify(c.rows),
    );
    assert.ok(c.rows.filter((r) => r.metric === 'aggregate').every((r) => r.verdict === 'NOISY'));
    assert.equal(c.regression, false);
  });

  it('INCOMPARABLE when the workload differs (text, voice checksum, passes, warm-up, onnxruntime session settings)', async () => {
    const a = await readComparable(variant('a3', steady));
    for (const [name, edit, why] of [
      [
        'text',
        (x: Archive) => {
          x.protocole.texte.sha256 = 'f'.repeat(64);
        },
        /text/,
      ],
      [
        'passes',
        (x: Archive) => {
          x.protocole.passes_par_bras = 9;
        },
        /passes 3 vs 9/,
      ],
      [
        'warmup',
        (x: Archive) => {
          x.protocole.passes_echauffement = 2;
        },
        /warm-up 0 vs 2/,
      ],
      [
        'voice',
        (x: Archive) => {
          for (const b of x.bras) b.voix_sha256 = 'e'.repeat(64);
        },
        /voice checksum differs/,
      ],
      [
        'session',
        (x: Archive) => {
          x.protocole.session_onnxruntime = 'CPU memory arena on';
        },
        /onnxruntime session settings .* vs CPU memory arena on/,
      ],
      [
        'profile',
        (x: Archive) => {
          // A (a default run) measured with piper-tts; B with libpiper.
          x.protocole.session_onnxruntime = SESSION_SETTINGS.libpiper.label;
          x.protocole.profil_session = 'libpiper';
        },
        /onnxruntime session settings profile piper-tts: .* vs intra-op T, .* \(as Piper sets them\)/,
      ],
      [
        'old archive',
        (x: Archive) => {
          delete x.protocole.session_onnxruntime;
        },
        /onnxruntime session settings unknown in B/,
      ],
    ] as const) {
      const c = compareArchives(
        a,
        await readComparable(
          variant(name, (x) => {
            steady(x);
            scale(x, 0.5);
            edit(x);
          }),
        ),
      );
      assert.ok(
        c.rows.every((r) => r.verdict === 'INCOMPARABLE' && why.test(r.why)),
        `${name}: ${JSON.stringify(c.rows[0])}`,
      );
      assert.equal(c.regression, false);
    }
  });

  it('INCOMPARABLE when the same layout ran on another engine or scope, paired rather than called missing', async () => {
    const a = await readComparable(variant('eng-a', steady));
    const b = await readComparable(
      variant('eng-b', (x) => {
        steady(x);
        scale(x, 0.5);
        const first = x.bras[0]!;
        first.moteur = 'sherpa';
        first.portee = 'text';
      }),
    );
    const c = compareArchives(a, b);
    const first = base.bras[0]!;
    const engineRows = c.rows.filter((r) => r.why.includes('engine and scope differ'));
    assert.equal(engineRows.length, 3);
    assert.ok(
      engineRows.every(
        (r) =>
          r.verdict === 'INCOMPARABLE' &&
          r.arm.includes(`K=${first.flux_simultanes}`) &&
          r.arm.endsWith('[A: onnxruntime-node, model; B: sherpa-onnx, text]'),
      ),
    );
    assert.equal(
      engineRows[0]?.why,
      'engine and scope differ (A: onnxruntime-node, model; B: sherpa-onnx, text): different work is timed',
    );
    assert.ok(!c.rows.some((r) => r.verdict === 'ONLY IN A' || r.verdict === 'ONLY IN B'));
    // The other arms halved, same engine: SLOWER, a regression, as before.
    assert.ok(c.rows.some((r) => r.verdict === 'SLOWER'));
    assert.equal(c.regression, true);
  });

  it('an arm whose controls failed in either run is shown, never counted', async () => {
    const a = await readComparable(variant('a4', steady));
    const c = compareArchives(
      a,
      await readComparable(
        variant('failed', (x) => {
          steady(x);
          scale(x, 0.5);
          x.bras[0]!.controle_tenu = false;
        }),
      ),
    );
    const first = c.rows.filter((r) => r.arm === c.rows[0]!.arm);
    assert.ok(first.every((r) => r.verdict === 'CONTROLS FAILED' && /in B; shown, not counted/.test(r.why)));
    // The other arm still counts.
    assert.equal(c.regression, true);
  });

  it('refuses runs from different machines unless forced, and says so when forced', async () => {
    const a = await readComparable(variant('a5', steady));
    const other = await readComparable(
      variant('other', (x) => {
        steady(x);
        x.machine_detail.cpu = 'Some Other CPU';
      }),
    );
    const refused = compareArchives(a, other);
    assert.match(refused.refused ?? '', /different machines .*--force/);
    assert.equal(refused.rows.length, 0);
    const forced = compareArchives(a, other, { force: true });
    assert.equal(forced.refused, null);
    assert.match(forced.forced.join(), /different machines/);
  });

  it('reads Python archives: what they lack is unknown; against ours they are refused as another tool', async () => {
    const p1 = path.join(dir, 'py1.json');
    const p2 = path.join(dir, 'py2.json');
    writeFileSync(p1, JSON.stringify(pythonArchive(5)));
    writeFileSync(p2, JSON.stringify(pythonArchive(4)));
    const py1 = await readComparable(p1);
    assert.deepEqual(py1.workload, { text: null, passes: 6, warmup: null, session: null });
    assert.equal(py1.arms[0]?.voiceSha256, null);
    const pp = compareArchives(py1, await readComparable(p2));
    assert.ok(
      pp.rows.filter((r) => r.metric === 'aggregate').every((r) => r.verdict === 'SLOWER'),
      JSON.stringify(pp.rows),
    );
    const mixed = compareArchives(py1, await readComparable(variant('a6', steady)));
    assert.match(mixed.refused ?? '', /different tools \(A by python, B by piper-parallel\)/);
    // Forced against ours, an arm of the same voice and layout pairs, and every one of its metrics is INCOMPARABLE.
    const py3 = path.join(dir, 'py3.json');
    writeFileSync(py3, JSON.stringify(pythonArchive(5, 'synthetic-siwis-medium')));
    const forced = compareArchives(await readComparable(py3), await readComparable(variant('a7', steady)), {
      force: true,
    });
    const paired = forced.rows.filter((r) => r.arm === 'synthetic-siwis-medium K=2 T=1 free process');
    assert.deepEqual(
      paired.map((r) => [r.metric, r.verdict]),
      [
        ['aggregate', 'INCOMPARABLE'],
        ['per_stream', 'INCOMPARABLE'],
        ['cpu_percent', 'INCOMPARABLE'],
      ],
    );
    assert.match(paired[0]?.why ?? '', /text unknown in A/);
    assert.equal(forced.comparedArms, 0);
  });

  it('sets each layout ratio of A beside B, and prints a decision that flipped first', async () => {
    // The verdict as it is once every control held (steady), whatever this machine's run showed.
    const verdictOf = (x: Archive): void => {
      x.verdict = buildVerdict(x.bras, x.coeurs);
    };
    const pair = (x: Archive, rapport: number, tranche: boolean): void => {
      verdictOf(x);
      const p = x.verdict.comparaisons[0]!.paires[0]!;
      p.rapport = rapport;
      p.rapport_ic95 = tranche ? [rapport * 0.95, rapport * 1.05] : [rapport * 0.7, rapport * 1.3];
      p.tranche = tranche;
    };
    const a = variant('ra', (x) => {
      steady(x);
      pair(x, 1.2, true);
    });
    const flipped = compareArchives(
      await readComparable(a),
      await readComparable(
        variant('rb', (x) => {
          steady(x);
          pair(x, 0.8, true);
        }),
      ),
    );
    assert.equal(flipped.ratios.length, 1);
    assert.equal(flipped.ratios[0]?.contradiction, true);
    const md = comparisonMarkdown(flipped);
    assert.match(
      md.split('\n')[1] ?? '',
      /^CONTRADICTION: synthetic-siwis-medium, K=2: .* over .* is 1\.200 \[1\.140, 1\.260\] resolved in A and 0\.800 \[0\.760, 0\.840\] resolved in B/,
    );
    // Resolved in A, not in B: no contradiction, both shown side by side.
    const unsure = compareArchives(
      await readComparable(a),
      await readComparable(
        variant('rc', (x) => {
          steady(x);
          pair(x, 0.9, false);
        }),
      ),
    );
    assert.equal(unsure.ratios[0]?.contradiction, false);
    assert.doesNotMatch(comparisonMarkdown(unsure), /CONTRADICTION/);
    assert.match(comparisonMarkdown(unsure), /\| 1\.200 \[1\.140, 1\.260\] resolved \| 0\.900 \[0\.630, 1\.170\] \|/);
    // The same pair written the other way round in B is turned to read A over B.
    const turned = compareArchives(
      await readComparable(a),
      await readComparable(
        variant('rd', (x) => {
          steady(x);
          verdictOf(x);
          const p = x.verdict.comparaisons[0]!.paires[0]!;
          [p.a, p.b] = [p.b, p.a];
          p.rapport = 1 / 1.25;
          p.rapport_ic95 = [1 / 1.3, 1 / 1.2];
          p.tranche = true;
        }),
      ),
    );
    assert.ok(Math.abs((turned.ratios[0]?.inB.ratio ?? 0) - 1.25) < 1e-12 && turned.ratios[0]?.contradiction === false);
  });

  it("never sets the script's sum of stream medians against this tool's speech over the span", async () => {
    const ours = await readComparable(variant('a8', steady));
    const theirs = structuredClone(ours);
    for (const arm of theirs.arms) arm.aggregateMeaning = 'sum-of-stream-medians';
    const c = compareArchives(ours, theirs);
    assert.ok(
      c.rows
        .filter((r) => r.metric === 'aggregate')
        .every(
          (r) =>
            r.verdict === 'INCOMPARABLE' &&
            /aggregate means speech-over-span in A and sum-of-stream-medians in B/.test(r.why),
        ),
      JSON.stringify(c.rows),
    );
  });

  it('reads schema 1 archives, recomputing their aggregate as speech over the span from their passes', async () => {
    const v2 = structuredClone(base);
    steady(v2);
    const v1 = structuredClone(v2) as unknown as Record<string, unknown> & { bras: Array<Record<string, unknown>> };
    v1.schema_version = 1;
    // What schema 1 held there: the sum of the streams' ratios per pass.
    for (const b of v1.bras) b.debit_agrege_passe_mediane = 999;
    const old = toComparable(v1, 'old');
    const now = toComparable(v2, 'now');
    assert.deepEqual(
      old.arms.map((x) => x.aggregate),
      now.arms.map((x) => x.aggregate),
    );
    assert.deepEqual(
      old.arms.map((x) => x.aggregateMeaning),
      now.arms.map(() => 'speech-over-span'),
    );
    assert.equal(old.machine, now.machine);
  });

  it('command line: Markdown on stdout, exit 0 / 4 / 2, --json, and one-line errors for broken files', () => {
    const run = (args: string[]) => spawnSync(process.execPath, [BIN, 'compare', ...args], { encoding: 'utf8' });
    const a = variant('ca', steady);
    const same = run([
      a,
      variant('cs', (x) => {
        steady(x);
        scale(x, 1.01);
      }),
    ]);
    assert.equal(same.status, 0, same.stderr);
    assert.match(same.stdout, /\| arm \| metric \| A \| B \| change \| verdict \| why \|/);
    const slow = run([
      a,
      variant('cl', (x) => {
        steady(x);
        scale(x, 0.7);
      }),
      '--tolerance',
      '10',
    ]);
    assert.equal(slow.status, 4);
    assert.match(slow.stdout, /REGRESSION/);
    // The README test judges compare's exit by this recomputation: it must agree here.
    const read = (f: string): Archive => JSON.parse(readFileSync(f, 'utf8')) as Archive;
    assert.equal(throughputFellBeyond(read(a), read(path.join(dir, 'cl.json')), 10), true);
    assert.equal(throughputFellBeyond(read(a), read(path.join(dir, 'cs.json')), 5), false);
    assert.equal(
      throughputFellBeyond(
        read(a),
        read(
          variant('cn', (x) => {
            steady(x);
            scale(x, 0.7);
            for (const b of x.bras)
              b.debit_agrege_manches = b.debit_agrege_manches.map((v, i) => (v ?? 0) * [0.7, 1.3, 0.9][i % 3]!);
            for (const b of x.bras)
              for (const e of b.enfants)
                for (const p of e.passes) if (p.ratio !== null) p.ratio *= [0.7, 1.3, 0.9][(p.manche - 1) % 3]!;
          }),
        ),
        10,
      ),
      false,
    );
    const json = run([a, variant('cj', steady), '--json']);
    assert.equal((JSON.parse(json.stdout) as { regression: boolean }).regression, false);
    const refused = run([
      a,
      variant('cm', (x) => {
        x.machine_detail.coeurs_logiques = 64;
      }),
    ]);
    assert.equal(refused.status, 2);
    const truncated = path.join(dir, 'truncated.json');
    writeFileSync(truncated, JSON.stringify(base).slice(0, 500));
    const t = run([a, truncated]);
    assert.equal(t.status, 2);
    assert.match(t.stderr, /truncated\.json is not valid JSON .*truncated archive/);
    const shape = path.join(dir, 'shape.json');
    writeFileSync(shape, JSON.stringify({ hello: 'world' }));
    assert.match(
      run([a, shape]).stderr,
      /shape\.json is not an archive \(neither piper-parallel's nor mesure_piper_parallele\.py's\); give a file from measurements\/$/m,
    );
    const missing = path.join(dir, 'missing.json');
    const m = structuredClone(base) as Partial<Archive>;
    delete m.bras;
    writeFileSync(missing, JSON.stringify(m));
    assert.match(
      run([a, missing]).stderr,
      /missing\.json is not a piper-parallel archive this version reads \(its list of arms lacks a value this version needs\)/,
    );
    assert.match(run([a]).stderr, /compare takes two archives, got 1/);
    // Nothing comparable (rounds spread too wide to tell a 5% change from none): exit 2, and it says so.
    const spread = [0.7, 1.3, 0.9];
    const noisy = (name: string) =>
      variant(name, (x) => {
        // From each arm's centre, not its measured rounds: a run whose own rounds happened to lean
        // against the spread would otherwise come out steady (seen in CI: SAME, 0.991 to 1.009).
        for (const b of x.bras) {
          b.controle_tenu = true;
          const centre = b.debit_agrege_centre ?? b.debit_agrege_passe_mediane ?? 1;
          b.debit_agrege_manches = b.debit_agrege_manches.map((_, i) => centre * spread[i % 3]!);
          for (const [s, e] of b.enfants.entries())
            for (const p of e.passes) p.ratio = (b.debit_par_flux_mediane[s] ?? 1) * spread[(p.manche - 1) % 3]!;
        }
      });
    const nothing = run([noisy('n1'), noisy('n2')]);
    assert.equal(nothing.status, 2, nothing.stdout);
    assert.match(nothing.stdout, /NOTHING COMPARED: 0 of 2 arm\(s\) compared/);
    assert.match(
      nothing.stderr,
      /^piper-parallel: nothing could be compared .*enough rounds that its intervals are narrower than the tolerance/m,
    );
    assert.match(run([a, a, '--tolerance', 'x']).stderr, /--tolerance must be a percentage above 0/);
  });
});

describe('compareArchives from a script', () => {
  it('takes archive objects as parsed from JSON', () => {
    const slower = structuredClone(base);
    steady(slower);
    scale(slower, 0.5);
    const same = structuredClone(base);
    steady(same);
    const c = compareArchives(same, slower);
    assert.equal(c.a, 'A');
    assert.equal(c.regression, true);
    assert.throws(() => compareArchives({ nope: 1 }, same), /A is not an archive \(neither piper-parallel's/);
    // One of the script's archives, damaged: the schema's words name what is wrong.
    assert.throws(
      () => compareArchives({ outil: 'mesure_piper_parallele.py' }, same),
      /A is an archive of mesure_piper_parallele\.py this version cannot read \(/,
    );
  });
});
