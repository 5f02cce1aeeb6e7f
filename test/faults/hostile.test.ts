// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
/**
 * Archives shared by someone else: their strings reach Markdown and terminals escaped; their size,
 * their NaNs and their zero spans never crash a reader; publishing one can leave the host out.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import { readJsonFile, parsePythonJson } from '../../lib/archive/read.js';
import { redacted, redactPaths, REDACTED_HOST } from '../../lib/archive/redact.js';
import { capacityMarkdown } from '../../lib/capacity/report/render.js';
import { mdCell, mdText, stripControl } from '../../lib/report/markdown.js';
import { compareArchives, comparisonMarkdown } from '../../lib/throughput/compare/compare.js';
import { readComparable } from '../../lib/throughput/compare/read.js';
import { renderMarkdown } from '../../lib/throughput/report/markdown.js';
import { checkRunSize } from '../../lib/throughput/arm/size-check.js';
import { maxOf, minOf } from '../../lib/core/extremes.js';
import type { Archive } from '../../lib/throughput/schema.js';
import { summarizeMachines } from '../../lib/summary/summarize.js';
import { summaryMarkdown } from '../../lib/summary/render/markdown.js';
import { realArchive } from '../helpers/archive.js';
import { pythonArchive } from '../helpers/old-archives.js';
import { tempDir } from '../helpers/paths.js';
import { capacityTemplate } from '../helpers/summary-fixtures.js';

/** An OSC 52 sequence (writes the terminal's clipboard), raw HTML, an inline link and a pipe. */
const HOSTILE = 'evil\u001b]52;c;cm0gLXJmIH4=\u0007<img src=x onerror=alert(1)>[click](https://example.org)|cell\nline';
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

let real: Archive;
before(async () => {
  real = (await realArchive()).archive;
});

function poisoned(a: Archive): Archive {
  const copy = structuredClone(a);
  for (const b of copy.bras) {
    b.voix = HOSTILE;
    for (const c of b.controles) c.message = HOSTILE;
  }
  copy.voix = copy.voix.map((v) => ({ ...v, nom: HOSTILE }));
  copy.verdict.phrases = [HOSTILE];
  copy.protocole.commande = HOSTILE;
  copy.etiquette = HOSTILE;
  return copy;
}

describe('hostile archives', () => {
  it('the escaper: no control character, no raw HTML, no link, a pipe escaped in cells, one line', () => {
    for (const out of [mdText(HOSTILE), mdCell(HOSTILE)]) {
      assert.doesNotMatch(out, CONTROL);
      assert.doesNotMatch(out, /<img|\]\(https/);
      assert.ok(!out.includes('\n'));
    }
    assert.match(mdCell('a | b'), /a \\\| b/);
    assert.equal(stripControl('ok\u001b[2J\u009b31m'), 'ok[2J31m');
  });

  it('every Markdown the tool prints of a shared archive is escaped: report, compare, capacity report, summary', async () => {
    const a = poisoned(real);
    const cap = structuredClone(await capacityTemplate());
    cap.phrases = [HOSTILE];
    cap.voix = cap.voix.map((v) => ({ ...v, nom: HOSTILE }));
    cap.etiquette = HOSTILE;
    const dir = tempDir('hostile');
    const file = path.join(dir, 'piper-parallel-20260101-000000.json');
    writeFileSync(file, JSON.stringify(a));
    const summary = summaryMarkdown(await summarizeMachines([file], { prices: [] }));
    const outputs = {
      report: renderMarkdown(a),
      compare: comparisonMarkdown(compareArchives(a, a, { tolerancePercent: 5, force: true })),
      capacity: capacityMarkdown(cap),
      summary,
    };
    for (const [name, md] of Object.entries(outputs)) {
      assert.doesNotMatch(md, CONTROL, `${name} carries a control character`);
      assert.doesNotMatch(md, /<img/, `${name} carries raw HTML`);
      assert.doesNotMatch(md, /\]\(https:\/\/example/, `${name} carries a link`);
    }
    // The escaping is not an erasure: the text is still there, readable.
    assert.match(outputs.report, /evil\]52;c;cm0gLXJmIH4=&lt;img src=x onerror=alert\(1\)&gt;\[click\]\\\(https/);
  });

  it('readers: a file too large, a FIFO, Python NaNs, a schema 1 pass with no span', async () => {
    const dir = tempDir('readers');
    const big = path.join(dir, 'big.json');
    writeFileSync(big, `[${'0,'.repeat(5000)}0]`);
    await assert.rejects(readJsonFile(big, 1000), /big\.json is over 0 MiB, larger than any archive this tool writes/);
    const fifo = path.join(dir, 'fifo.json');
    execFileSync('mkfifo', [fifo]);
    await assert.rejects(readJsonFile(fifo), /fifo\.json is a FIFO, not an archive file/);
    // What Python's json.dumps writes for a figure it could not compute; strings keep their words.
    assert.deepEqual(parsePythonJson('{"a": NaN, "b": [Infinity, -Infinity], "c": "NaN or Infinity"}'), {
      a: null,
      b: [null, null],
      c: 'NaN or Infinity',
    });
    const py = JSON.stringify(pythonArchive(5)).replace('"rtf":0.2', '"rtf":NaN');
    assert.ok(py.includes('NaN'));
    const pyFile = path.join(dir, 'python.json');
    writeFileSync(pyFile, py);
    const run = await readComparable(pyFile);
    assert.equal(run.tool, 'python');
  });

  it('a schema 1 pass with no span gives no infinite aggregate; no long array is spread into Math.max', async () => {
    const v1 = structuredClone(real) as unknown as {
      schema_version: number;
      bras: Array<{ enfants: Array<{ passes: Array<{ debut_ms: number; fin_ms: number }> }> }>;
    };
    v1.schema_version = 1;
    // Every pass of the first arm ends when it starts: no time over which to count its speech.
    for (const e of v1.bras[0]?.enfants ?? []) for (const p of e.passes) p.fin_ms = p.debut_ms;
    const file = path.join(tempDir('v1'), 'v1.json');
    writeFileSync(file, JSON.stringify(v1));
    const run = await readComparable(file);
    for (const arm of run.arms)
      assert.ok(arm.aggregate === null || Number.isFinite(arm.aggregate), `${arm.key}: ${arm.aggregate}`);
    assert.equal(run.arms[0]?.aggregate, null);
    assert.ok(run.arms.slice(1).every((a) => a.aggregate !== null));
    const long = new Array<number>(500_000).fill(1);
    long[123_456] = 7;
    // The hazard is real: a spread this long is more arguments than the engine takes.
    assert.throws(() => Math.max(...long), RangeError);
    assert.deepEqual(
      [maxOf(long), minOf(long), maxOf([]), minOf([]), maxOf([1, Number.NaN])],
      [7, 1, -Infinity, Infinity, Number.NaN],
    );
  });

  it('publishing: --redact leaves the host and the folders out, keeps every key and every figure', () => {
    assert.equal(
      redactPaths('piper-parallel 6 --out-dir /home/ana/runs --text-file=texts/reply.txt --voice x'),
      'piper-parallel 6 --out-dir …/runs --text-file=…/reply.txt --voice x',
    );
    const a = redacted(real);
    assert.equal(a.machine_detail.hote, REDACTED_HOST);
    assert.deepEqual(Object.keys(a).sort(), Object.keys(real).sort());
    assert.deepEqual(a.bras, real.bras);
    assert.doesNotMatch(a.protocole.commande, /\/[^ ]*\//);
  });

  it('a run too big for the machine is refused before any stream starts, naming the option; --force runs it', () => {
    const c = (flux: number, fils = 1) => ({ flux, fils, affinite: false, isolation: 'process' as const });
    const base = { modelBytes: 60 * 2 ** 20, cores: 2, memAvailableBytes: 4 * 2 ** 30, force: false };
    assert.throws(
      () => checkRunSize({ ...base, conditions: [c(1), c(500)] }),
      /--streams 500 would need about 390000 MiB \(500 streams x 780 MiB\) and MemAvailable is 4096 MiB; give fewer --streams, or --force/,
    );
    assert.throws(() => checkRunSize({ ...base, conditions: [c(1, 64)] }), /--threads 64 is over 8 per usable core/);
    checkRunSize({ ...base, conditions: [c(1), c(4)] });
    checkRunSize({ ...base, conditions: [c(500, 64)], force: true });
    // Memory unknown: only the threads are judged.
    checkRunSize({ ...base, memAvailableBytes: null, conditions: [c(500)] });
  });
});
