// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { capacityComparisonMarkdown, compareCapacity } from '../../../lib/capacity/answer/compare.js';
import type { CapacityArchive } from '../../../lib/capacity/archive/schema.js';
import { capacityView, type CapacityView } from '../../../lib/capacity/archive/view.js';
import { capacitySchemaOne } from '../../helpers/old-archives.js';
import { FIXTURE_MACHINE, sweepOn } from '../sweep-harness.js';

type Answers = Record<string, [number, number, number?, [number, number, number]?]>;

/** A capacity run as compare reads it: per layout (a) with its range's top, and (b). */
function view(answers: Answers, edit: (v: CapacityView) => void = () => undefined): CapacityView {
  const v: CapacityView = {
    schemaVersion: 2,
    session: 'libpiper',
    machine: structuredClone(FIXTURE_MACHINE),
    label: null,
    cores: 2,
    dateUtc: '2026-12-01T00:00:00Z',
    toolVersion: '0.2.0',
    onnxruntimeVersion: '1.30.0',
    workload: [
      ['text', 'aa'],
      ['first-audio bound ms', '500'],
      ['arrivals', 'staggered'],
      ['schedule', 'deadline'],
      ['max-streams', '32'],
      ['rounds', '3'],
      ['evidence', 'by trial (schema 3)'],
      ['seed', 'any'],
    ],
    voices: [{ name: 'v', sha256: 'ff', synthetic: true, speedAlone: 5, workerRssBytes: 1 }],
    answers: Object.entries(answers).map(([layout, [a, b, top, s]]) => ({
      voice: 'v',
      layout,
      noGap: {
        k: a,
        range: { min: a, max: top ?? a },
        sessions: 18,
        gapRateMax: 0.15,
        evidence: '',
        speed: s ? { centre: s[0], low: s[1], high: s[2], trials: 6 } : null,
        headroom: null,
      },
      inBound: { k: b, range: { min: b, max: b }, firstAudioP95Ms: 300 },
      controlsHeld: true,
      phrase: '',
    })),
    controlsHeld: true,
  };
  edit(v);
  return v;
}

describe('compare on capacity archives', () => {
  it("FEWER only when B's range lies wholly below A's; overlapping ranges are the same answer", () => {
    const c = compareCapacity(view({ pool: [10, 4, 11], single: [6, 2] }), view({ pool: [11, 4], single: [4, 2, 5] }));
    assert.deepEqual(
      c.rows.map((r) => [r.layout, r.answer, r.verdict]),
      [
        ['pool', 'no gap', 'SAME'],
        ['pool', 'within the bound', 'SAME'],
        ['single', 'no gap', 'FEWER'],
        ['single', 'within the bound', 'SAME'],
      ],
    );
    assert.equal(c.regression, true);
    assert.match(capacityComparisonMarkdown(c, 'a', 'b'), /\| v \| single \| no gap \| 6 \| 4 to 5 \| FEWER \|/);
    assert.match(capacityComparisonMarkdown(c, 'a', 'b'), /REGRESSION: an answer of B lies wholly below A's range/);
    // 8 against 6 to 7: above all of A's range.
    assert.equal(compareCapacity(view({ single: [6, 2, 7] }), view({ single: [8, 2] })).rows[0]?.verdict, 'MORE');
    assert.equal(compareCapacity(view({ single: [6, 2, 7] }), view({ single: [7, 2] })).regression, false);
    // 5 to 6 against 6 to 7: B's answer is lower, but its range reaches A's: the same answer.
    assert.equal(compareCapacity(view({ single: [6, 2, 7] }), view({ single: [5, 2, 6] })).rows[0]?.verdict, 'SAME');
  });

  it("schema 3: FEWER or MORE only when the live speeds' intervals do not overlap, whatever the answers", () => {
    // Answers 12 against 10, but live speeds x12.3 [11.8, 12.9] against x11.9 [11.2, 12.5]: the same machine twice.
    const same = compareCapacity(
      view({ pool: [12, 4, 14, [12.3, 11.8, 12.9]] }),
      view({ pool: [10, 4, 11, [11.9, 11.2, 12.5]] }),
    );
    assert.deepEqual([same.rows[0]?.verdict, same.regression], ['SAME', false]);
    assert.match(
      same.rows[0]?.why ?? '',
      /live speed B x11\.9 \[11\.2, 12\.5\] against A x12\.3 \[11\.8, 12\.9\]: the intervals overlap/,
    );
    // Equal answers, B's speed wholly below: FEWER, a regression.
    const slower = compareCapacity(
      view({ pool: [12, 4, 14, [12.3, 11.8, 12.9]] }),
      view({ pool: [12, 4, 14, [10.9, 10.2, 11.5]] }),
    );
    assert.deepEqual([slower.rows[0]?.verdict, slower.regression], ['FEWER', true]);
    const faster = compareCapacity(
      view({ pool: [12, 4, 14, [10.9, 10.2, 11.5]] }),
      view({ pool: [12, 4, 14, [12.3, 11.8, 12.9]] }),
    );
    assert.equal(faster.rows[0]?.verdict, 'MORE');
  });

  it('two session profiles are refused unless forced', () => {
    const tts = view({ pool: [10, 4] }, (v) => {
      v.session = 'piper-tts';
    });
    const lib = view({ pool: [10, 4] }, (v) => {
      v.session = 'libpiper';
    });
    const refused = compareCapacity(tts, lib);
    assert.match(refused.refused ?? '', /different session settings \(A: piper-tts; B: libpiper\).*--force/);
    assert.equal(refused.rows.length, 0);
    const forced = compareCapacity(tts, lib, true);
    assert.deepEqual([forced.refused, forced.forced.length, forced.rows[0]?.verdict], [null, 1, 'SAME']);
  });

  it('another workload is INCOMPARABLE, naming each difference; another machine is refused unless forced; failed controls are not counted', () => {
    for (const [name, value] of [
      ['max-streams', '16'],
      ['rounds', '2'],
      ['first-audio bound ms', '800'],
      ['schedule', 'fifo'],
      ['evidence', 'by listener, 18 sessions (schema 2)'],
    ] as const) {
      const c = compareCapacity(
        view({ pool: [10, 4] }),
        view({ pool: [3, 1] }, (v) => {
          v.workload = v.workload.map(([n, x]) => [n, n === name ? value : x]);
        }),
      );
      assert.deepEqual([c.rows[0]?.verdict, c.regression, c.compared], ['INCOMPARABLE', false, 0]);
      assert.match(c.rows[0]?.why ?? '', new RegExp(`^${name} .+ vs ${value.replace(/[()]/g, '\\$&')}$`));
    }
    const other = view({ pool: [1, 1] }, (v) => {
      v.machine.cpu = 'other';
    });
    assert.match(compareCapacity(view({ pool: [9, 3] }), other).refused ?? '', /^different machines/);
    assert.equal(compareCapacity(view({ pool: [9, 3] }), other, true).regression, true);
    const failed = compareCapacity(
      view({ pool: [9, 3] }),
      view({ pool: [1, 1] }, (v) => {
        (v.answers[0] as { controlsHeld: boolean }).controlsHeld = false;
      }),
    );
    assert.deepEqual([failed.rows[0]?.verdict, failed.regression], ['CONTROLS FAILED', false]);
  });

  it('reads a schema 1 archive: its one answer is the one within the bound, the other unknown, and its rounds differ', async () => {
    const { archive } = await sweepOn({
      machine: { cores: 2, speed: 1.25, audioSeconds: [1, 1, 1] },
      layouts: [{ workers: 2, threads: 1, pinned: false, isolation: 'process' }],
    });
    const v1 = capacitySchemaOne(archive, 3);
    const read = capacityView(v1, 'old.json');
    assert.deepEqual([read.schemaVersion, read.answers[0]?.noGap, read.answers[0]?.inBound.k], [1, null, 3]);
    const c = compareCapacity(v1 as unknown as CapacityArchive, archive);
    assert.deepEqual(
      c.rows.map((r) => r.verdict),
      ['INCOMPARABLE', 'INCOMPARABLE'],
    );
    assert.match(
      c.workloadDiffers.join('; '),
      /evidence by listener, one answer \(schema 1\) vs by trial \(schema 3\); .*schema 1 vs 3/,
    );
    assert.throws(
      () => capacityView({ schema_version: 1, type: 'capacite' }, 'broken.json'),
      /broken\.json is not a capacity archive this version reads \(its header lacks a value this version needs\); give a file/,
    );
  });
});
