// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
/**
 * The tree shows the architecture: no import cycle between files, none between folders (no folder
 * imports one that imports it, directly or through others), the two experiments apart from each
 * other, small folders (14 files at most, 12 in capacity), and the public API at least what it was.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ROOT } from './helpers/paths.js';

type Graph = Map<string, Set<string>>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(full) : e.name.endsWith('.ts') ? [full] : [];
  });
}

/** File -> the files it imports or starts (`new URL('./entry.js', import.meta.url)` counts: it depends on it). */
function importGraph(files: string[], read: (f: string) => string): Graph {
  const known = new Set(files);
  const graph: Graph = new Map(files.map((f) => [f, new Set<string>()]));
  for (const f of files) {
    for (const m of read(f).matchAll(/(?:from\s+|import\(\s*|new URL\(\s*)['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const target = path.join(path.dirname(f), m[1] ?? '').replace(/\.js$/, '.ts');
      if (known.has(target)) graph.get(f)?.add(target);
    }
  }
  return graph;
}

/** Each folder -> the folders its files import from (itself left out). */
function folderGraph(files: Graph): Graph {
  const graph: Graph = new Map();
  for (const [f, targets] of files) {
    const from = path.dirname(f);
    if (!graph.has(from)) graph.set(from, new Set());
    for (const t of targets) if (path.dirname(t) !== from) graph.get(from)?.add(path.dirname(t));
  }
  return graph;
}

/** Every cycle's members (Tarjan's strongly connected components of more than one node, or a self-loop). */
function cycles(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const out: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next);
    next += 1;
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const member: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = w === v ? undefined : stack.pop()) member.push(w);
    if (member.length > 1 || graph.get(v)?.has(v)) out.push(member.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}

const LIB = path.join(ROOT, 'lib');
const files = sourceFiles(LIB).map((f) => path.relative(ROOT, f));
const graph = importGraph(files, (f) => readFileSync(path.join(ROOT, f), 'utf8'));

describe('architecture', () => {
  it('the cycle finder finds a file cycle, a folder cycle through a third folder, and nothing in a clean tree', () => {
    const fake: Record<string, string> = {
      'a/x.ts': "import { y } from '../b/y.js';",
      'b/y.ts': "import { z } from '../c/z.js';",
      'c/z.ts': "const E = new URL('../a/w.js', import.meta.url);",
      'a/w.ts': '',
      'd/p.ts': "import { q } from './q.js';",
      'd/q.ts': "import { p } from './p.js';",
    };
    const g = importGraph(Object.keys(fake), (f) => fake[f] ?? '');
    assert.deepEqual(cycles(g), [['d/p.ts', 'd/q.ts']]);
    assert.deepEqual(cycles(folderGraph(g)), [['a', 'b', 'c']]);
    delete fake['c/z.ts'];
    const clean = importGraph(['a/x.ts', 'b/y.ts', 'a/w.ts'], (f) => fake[f] ?? '');
    assert.deepEqual([cycles(clean), cycles(folderGraph(clean))], [[], []]);
  });

  it('lib/ has no import cycle between files, and none between folders', () => {
    assert.ok(files.length > 150, `read ${files.length} files`);
    assert.deepEqual(cycles(graph), []);
    assert.deepEqual(cycles(folderGraph(graph)), []);
  });

  it('throughput and capacity import nothing of each other; the shared layers import neither, nor the CLI', () => {
    const crossing = (from: string, to: string[]): string[] =>
      [...graph].flatMap(([f, ts]) =>
        f.startsWith(from) ? [...ts].filter((t) => to.some((x) => t.startsWith(x))).map((t) => `${f} -> ${t}`) : [],
      );
    assert.deepEqual(crossing('lib/throughput/', ['lib/capacity/']), []);
    assert.deepEqual(crossing('lib/capacity/', ['lib/throughput/']), []);
    const upper = ['lib/throughput/', 'lib/capacity/', 'lib/summary/', 'lib/cli/', 'lib/index.ts'];
    for (const shared of ['lib/core/', 'lib/archive/', 'lib/measure/', 'lib/voice/', 'lib/workers/', 'lib/report/'])
      assert.deepEqual(crossing(shared, upper), []);
    // Nothing imports the public index or the command line from inside the library.
    assert.deepEqual(crossing('lib/', ['lib/index.ts']), []);
    assert.deepEqual(crossing('lib/throughput/', ['lib/cli/']), []);
  });

  it('no folder of lib/ holds more than 14 files, none of lib/capacity more than 12', () => {
    const counts = new Map<string, number>();
    for (const f of files) counts.set(path.dirname(f), (counts.get(path.dirname(f)) ?? 0) + 1);
    assert.deepEqual(
      [...counts].filter(([, n]) => n > 14),
      [],
    );
    const capacity = [...counts].filter(([d]) => d.startsWith('lib/capacity/'));
    assert.deepEqual(
      capacity.filter(([, n]) => n > 12),
      [],
    );
    assert.ok(capacity.length >= 6, `capacity's folders: ${capacity.map(([d]) => d).join(', ')}`);
  });

  it('the public API exports at least every name it exported before the layout changed', async () => {
    const before =
      'ArchiveSchema ArmSchema CAPACITY_SCHEMA_VERSION CapacityArchiveSchema DEFAULT_CONDITIONS MIN_ROUNDS_TO_DECIDE ' +
      'PIPER_SESSION_OPTIONS PiperParallelError ProcessAdapter ProgressReporter SCHEMA_VERSION SYNTHETIC_VOICES ' +
      'Synthesizer ThreadAdapter VoiceConfigSchema affinityControl archiveCharts archiveJsonSchema armLine binomialCdf ' +
      'buildSyntheticVoice buildVerdict capacityComparisonMarkdown capacityView checkSherpaVoice compareArchives ' +
      'compareCapacity comparisonMarkdown cpuMaxControl cpuSumControl defaultLayouts defaultVoices encodeWav ' +
      'ensureSyntheticVoice expandConditions fetchVoices formatDuration installedVoiceNames layoutName logMeanInterval ' +
      'median memoryControl outsideLoadControl parseVoiceConfig parseWavHeader phonemesToIds phonemizeLine playback ' +
      'prepareText probeSherpaVoice quantileUpperBound rateUpperBound readArchive readComparable readVoice renderHtml ' +
      'renderMarkdown renderSvg renderTable resolveVoice runArms runCapacity sherpaReadyVoice skewControl summarize ' +
      'summarizeMachines summaryHtml summaryMarkdown writeReports';
    const m = (await import('piper-parallel')) as Record<string, unknown>;
    const missing = before.split(' ').filter((name) => !(name in m));
    assert.deepEqual(missing, []);
    // The default adapters still need no argument: scripts construct them as before.
    const { ProcessAdapter, ThreadAdapter } = m as {
      ProcessAdapter: new () => unknown;
      ThreadAdapter: new () => unknown;
    };
    assert.ok(new ProcessAdapter() instanceof Object);
    assert.ok(new ThreadAdapter() instanceof Object);
  });
});
