import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { capacityComparisonMarkdown, compareCapacity } from '../../lib/capacity/compare.js';
import type { CapacityArchive } from '../../lib/capacity/schema.js';

function archive(ks: Record<string, number>, edit: (a: CapacityArchive) => void = () => undefined): CapacityArchive {
  const a = {
    machine_detail: { architecture: 'x64', cpu: 'cpu', coeurs_logiques: 2, memoire_octets: 1, coeurs_autorises: [0, 1] },
    protocole: { texte: { sha256: 'aa' }, arrivees: 'staggered', ordre_file: 'deadline', premier_son_max_ms: 500 },
    voix: [{ nom: 'v', sha256: 'ff' }],
    essais: Object.keys(ks).map((d) => ({ voix: 'v', disposition: d, controle_tenu: true })),
    capacite: Object.entries(ks).map(([d, k]) => ({ voix: 'v', disposition: d, flux_max_sans_trou: k })),
  } as unknown as CapacityArchive;
  edit(a);
  return a;
}

describe('compare on capacity archives', () => {
  it('a K reached in A but not in B is a regression; more or the same is not', () => {
    const c = compareCapacity(archive({ pool: 3, single: 2 }), archive({ pool: 2, single: 4 }));
    assert.deepEqual(c.rows.map((r) => [r.layout, r.verdict]), [['pool', 'FEWER'], ['single', 'MORE']]);
    assert.equal(c.regression, true);
    assert.match(capacityComparisonMarkdown(c, 'a', 'b'), /REGRESSION: a K reached in A was not reached in B/);
    assert.equal(compareCapacity(archive({ pool: 3 }), archive({ pool: 3 })).regression, false);
  });

  it('refuses another machine unless forced; another workload or failed controls are not counted', () => {
    const other = archive({ pool: 1 }, (a) => { a.machine_detail.cpu = 'other'; });
    assert.match(compareCapacity(archive({ pool: 3 }), other).refused ?? '', /^different machines/);
    assert.equal(compareCapacity(archive({ pool: 3 }), other, true).regression, true);
    const text = compareCapacity(archive({ pool: 3 }), archive({ pool: 1 }, (a) => { a.protocole.arrivees = 'together'; }));
    assert.deepEqual([text.rows[0]?.verdict, text.rows[0]?.why, text.regression, text.compared], ['INCOMPARABLE', 'arrivals staggered vs together', false, 0]);
    const failed = compareCapacity(archive({ pool: 3 }), archive({ pool: 1 }, (a) => { a.essais[0]!.controle_tenu = false; }));
    assert.deepEqual([failed.rows[0]?.verdict, failed.regression], ['CONTROLS FAILED', false]);
  });
});
