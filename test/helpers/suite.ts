/**
 * `npm test`: the test files marked light (first line `// light test file`) run two at a time, then
 * every other file alone. A light file asserts no timing and no control and never looks at the
 * machine's other processes, so sharing the two cores changes nothing it asserts; a file that
 * measures runs with nothing beside it, as on a user's quiet machine. Unmarked means alone: a new
 * file is safe by default.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const LIGHT_MARK = '// light test file';
const HERE = path.dirname(fileURLToPath(import.meta.url));
const TESTS = path.resolve(HERE, '..');
const FILE_TIMES = path.join(HERE, 'file-times.js');
/** No phase may hang CI: the whole suite took under 9 minutes here. */
const PHASE_TIMEOUT_MS = 30 * 60_000;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return testFiles(full);
    return e.name.endsWith('.test.js') ? [full] : [];
  });
}

/**
 * The light files that take longest (file times of 2026-12-06, 30 to 66 s each, beside another file),
 * started first: two at a time, a long file started last would run on alone while the other slot
 * idles. The rest follow in name order; a file missing from this list only runs later.
 */
export const SLOW_LIGHT_FILES = [
  'faults/signals.test.js',
  'package.test.js',
  'cli/cli.test.js',
  'capacity/archive/resume.test.js',
  'server/hostile.test.js',
  'cli/report.test.js',
  'cli/interrupt.test.js',
  'throughput/worker/first-pass.test.js',
];

/** The files of each phase: the slow light ones first (by their path's end), then by name; a light file's first line is the mark (tsc keeps it). */
export function phases(
  files: readonly string[],
  firstLine: (file: string) => string,
  slowFirst: readonly string[] = [],
): { light: string[]; alone: string[] } {
  const sorted = [...files].sort();
  const light = sorted.filter((f) => firstLine(f).startsWith(LIGHT_MARK));
  const rank = (f: string): number => {
    const i = slowFirst.findIndex((s) => f === s || f.endsWith(`/${s}`));
    return i < 0 ? slowFirst.length : i;
  };
  return { light: [...light].sort((a, b) => rank(a) - rank(b)), alone: sorted.filter((f) => !light.includes(f)) };
}

function runPhase(title: string, files: readonly string[], concurrency: number): number {
  if (files.length === 0) return 0;
  process.stdout.write(`\n# ${title}: ${files.length} file(s), ${concurrency} at a time\n`);
  const startedMs = performance.now();
  const r = spawnSync(
    process.execPath,
    [
      '--test',
      `--test-concurrency=${concurrency}`,
      '--test-reporter=spec',
      '--test-reporter-destination=stdout',
      `--test-reporter=${FILE_TIMES}`,
      '--test-reporter-destination=stdout',
      ...files,
    ],
    {
      stdio: 'inherit',
      timeout: PHASE_TIMEOUT_MS,
      killSignal: 'SIGKILL',
      // One suite run across both phases, so a run shared between files is made once (helpers/archive.ts).
      env: { ...process.env, PIPER_PARALLEL_TEST_SUITE: String(process.pid) },
    },
  );
  if (r.error) process.stderr.write(`${title}: ${r.error.message}\n`);
  // The phase's wall time: what the suite's budget is counted in (the file times above overlap in the light phase).
  process.stdout.write(`# ${title}: ${((performance.now() - startedMs) / 1000).toFixed(1)} s\n`);
  return r.status ?? 1;
}

function main(): void {
  const firstLine = (f: string): string => readFileSync(f, 'utf8').split('\n', 1)[0] ?? '';
  const { light, alone } = phases(testFiles(TESTS), firstLine, SLOW_LIGHT_FILES);
  const lightCode = runPhase('light files (no timing, no control, no look at other processes)', light, 2);
  // The measuring files run even when a light one failed, so one run shows every failure.
  const aloneCode = runPhase('files that measure or run the command line, one at a time', alone, 1);
  process.exitCode = lightCode !== 0 ? lightCode : aloneCode;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
