// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Archive } from '../../../lib/throughput/schema.js';
import { renderMarkdown } from '../../../lib/throughput/report/markdown.js';
import { buildVerdict } from '../../../lib/throughput/verdict/index.js';
import { realArchive, withFailedControl } from '../../helpers/archive.js';

let real: Archive;
/** Every control held, so the report's "none failed" branch is what is tested. */
function allHeld(a: Archive): Archive {
  const copy = structuredClone(a);
  for (const b of copy.bras) {
    b.controles = b.controles.map((c) => ({ ...c, held: true }));
    b.controle_tenu = true;
    b.etat = 'done';
  }
  copy.controle_tenu = true;
  // The verdict as it would have been had they held, so the report's ratio table does not hang on this machine's load.
  copy.verdict = buildVerdict(copy.bras, copy.coeurs);
  return copy;
}

before(async () => {
  real = (await realArchive()).archive;
});

describe('Markdown report', () => {
  it('has the header facts, one table per voice with a row per arm, the verdict and the caveats', () => {
    const a = allHeld(real);
    const md = renderMarkdown(a);
    assert.match(md, /^# piper-parallel run of /);
    assert.match(md, /\*\*SYNTHETIC voices\*\* \(synthetic-siwis-medium\)/);
    assert.match(
      md,
      new RegExp(`- machine: ${a.machine_detail.cpu.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}, ${a.coeurs} cores usable`),
    );
    assert.match(md, /- text: .*1 lines, 4 characters/);
    assert.match(md, /- passes: 3 timed per arm after 0 warm-up/);
    assert.match(md, /- voices: synthetic-siwis-medium \(SYNTHETIC, 22050 Hz\)/);
    const tables = md.split('\n').filter((l) => l.startsWith('| K | T |'));
    assert.equal(tables.length, 1);
    const rows = md.split('\n').filter((l) => /^\| [12] \| 1 \|/.test(l));
    assert.equal(rows.length, a.bras.length);
    for (const [i, b] of a.bras.entries()) {
      const row = rows[i] ?? '';
      assert.ok(row.includes(`x${b.debit_agrege_centre?.toFixed(2)}`), row);
      assert.ok(row.includes(b.affinite_demandee ? 'one core each' : 'free'), row);
      // 3 passes: held, and no spread claimed from so few; 3 rounds: an interval between them.
      assert.ok(row.endsWith('| OK (3 passes: too few to judge spread) |'), row);
      assert.match(row, /x\d+\.\d\d \[\d+\.\d, \d+\.\d\]/);
    }
    for (const p of a.verdict.phrases) assert.ok(md.includes(p));
    // The decision comes first, before any table: each voice and K's line, and the run's error rate.
    const decision = md.indexOf('## Decision');
    assert.ok(decision > 0 && decision < md.indexOf('| K | T |'), 'the decision before the tables');
    assert.match(md, /each voice's claims hold together at 95%/);
    // The one-line answer, then its details as items under it.
    for (const c of a.verdict.comparaisons) {
      assert.ok(c.ligne && md.includes(`- ${c.ligne}\n`), c.ligne);
      for (const d of c.details ?? []) assert.ok(md.includes(`  - ${d}`), d);
    }
    assert.match(md, /## Failed controls\n\nNone: every control held in every arm\./);
    assert.match(md, /each p95 in the archive is the largest value seen/);
    assert.match(md, /Its 95% interval comes from the spread between rounds/);
    assert.match(md, /Layout ratios, round by round/);
    assert.match(md, /Synthetic voices cost what a Piper medium voice costs, but they are not speech/);
  });

  it('lists every failed control with its figures and says nothing may be published', () => {
    const md = renderMarkdown(withFailedControl(allHeld(real)));
    assert.match(md, /A control failed: nothing from this run may be published/);
    assert.match(
      md,
      /- synthetic-siwis-medium K=2 T=1 (free|pinned) process: `cpu_sum` measured 120\.50 % against 150\.00 %: the streams used 120\.5% together/,
    );
    assert.doesNotMatch(md, /None: every control held/);
    assert.match(md, /\| FAILED cpu_sum: the streams used/);
  });

  it('drops the p95 caveat from 20 passes on, and names a real voice as real', () => {
    const a = allHeld(real);
    a.protocole.passes_par_bras = 20;
    for (const v of a.voix) v.synthetique = false;
    for (const b of a.bras) b.voix_synthetique = false;
    const md = renderMarkdown(a);
    assert.doesNotMatch(md, /largest value seen/);
    assert.doesNotMatch(md, /SYNTHETIC/);
    assert.match(md, /real Piper voice/);
  });

  it('keeps a table row whole when a message holds a pipe', () => {
    const a = withFailedControl(allHeld(real));
    const arm = a.bras.find((b) => !b.controle_tenu);
    const c = arm?.controles.find((k) => !k.held);
    if (c) c.message = 'a | b';
    const row = renderMarkdown(a)
      .split('\n')
      .find((l) => l.includes('FAILED cpu_sum'));
    assert.ok(row?.includes('a \\| b'), row);
  });
});
