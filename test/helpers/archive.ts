import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ArchiveSchema, type Archive } from '../../lib/throughput/schema.js';
import { median } from '../../lib/measure/stats.js';
import { studentQuantile } from '../../lib/measure/student.js';
import { runArms } from '../../lib/throughput/run/run-arms.js';
import { alive } from './alive.js';
import { ROOT, sharedVoicesDir, tempDir } from './paths.js';

/**
 * A small real run (synthetic voice, a one-word text): K=1 and K=2, free and pinned, so every
 * chart kind has data. Made once per suite run and shared by the test files that read it: each file
 * runs in its own process, so the suite's pid (test/helpers/suite.ts; the runner's when a file is
 * run by hand) and the built library's content name the copy (a rebuilt or mutated library makes a
 * new run).
 */
let made: Promise<{ archive: Archive; path: string }> | undefined;
export function realArchive(): Promise<{ archive: Archive; path: string }> {
  made ??= (async () => {
    removeStaleCopies();
    const shared = path.join(os.tmpdir(), `${SHARED_PREFIX}${suiteRun()}-${libraryHash()}.json`);
    if (existsSync(shared))
      return { archive: ArchiveSchema.parse(JSON.parse(readFileSync(shared, 'utf8'))), path: shared };
    const r = await runArms({
      settleSeconds: 0,
      passes: 3,
      warmup: 0,
      voices: ['synthetic-siwis-medium'],
      streams: [1, 2],
      affinity: 'both',
      lines: ['Oui.'],
      outDir: path.join(tempDir('report-run'), 'm'),
      voicesDir: sharedVoicesDir(),
    });
    // Whole or not at all: written beside, then renamed.
    writeFileSync(`${shared}.tmp`, JSON.stringify(r.archive));
    renameSync(`${shared}.tmp`, shared);
    return { archive: r.archive, path: r.path };
  })();
  return made;
}

const SHARED_PREFIX = 'pp-shared-real-archive-';
/** The pid every test file of this suite run shares. */
const suiteRun = (): number => Number(process.env.PIPER_PARALLEL_TEST_SUITE ?? process.ppid);

/** Copies left by suite runs that are over (their runner's pid is gone), so /tmp does not keep one per run. */
function removeStaleCopies(): void {
  for (const f of readdirSync(os.tmpdir())) {
    const pid = Number(f.slice(SHARED_PREFIX.length).split('-')[0]);
    if (!f.startsWith(SHARED_PREFIX) || !Number.isInteger(pid) || pid === suiteRun() || alive(pid)) continue;
    rmSync(path.join(os.tmpdir(), f), { force: true });
  }
}

/** The built library's content, so a shared run never outlives the code that made it. */
function libraryHash(): string {
  const lib = path.join(ROOT, 'dist', 'lib');
  const hash = createHash('sha256');
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.name.endsWith('.js')) hash.update(e.name).update(readFileSync(full));
    }
  };
  walk(lib);
  return hash.digest('hex').slice(0, 16);
}

/** The same archive with one arm's cpu_sum control failed, figures and all. */
export function withFailedControl(a: Archive): Archive {
  const copy = structuredClone(a);
  const arm = copy.bras.find((b) => b.flux_simultanes === 2);
  if (!arm) throw new Error('fixture has no K=2 arm');
  arm.controles = arm.controles.filter((c) => c.name !== 'cpu_sum');
  arm.controles.push({
    name: 'cpu_sum',
    threshold: 150,
    measured: 120.5,
    unit: '%',
    held: false,
    message: 'the streams used 120.5% together, 29.5 points short of 150%',
  });
  arm.controle_tenu = false;
  copy.controle_tenu = false;
  return copy;
}

/** What each chart of the report must hold, counted from the archive independently of the chart code. */
export function expectedMarks(a: Archive): Map<string, number> {
  const out = new Map<string, number>();
  const voice = 'synthetic-siwis-medium';
  const arms = a.bras;
  out.set(
    'drift',
    arms.reduce(
      (n, b) => n + b.synchro.filter((s) => !s.echauffement && s.etendue_s > 0 && s.audio_total_s > 0).length,
      0,
    ),
  );
  out.set(
    `throughput-${voice}`,
    arms.filter((b) => b.debit_agrege_passe_mediane !== null).length +
      arms.filter((b) => b.debit_agrege_ic95 !== null).length +
      arms.reduce((n, b) => n + b.debit_par_flux_mediane.filter((v) => v !== null).length, 0),
  );
  // The ideal line is one mark; one dot per arm.
  out.set(`scaling-${voice}`, 1 + arms.filter((b) => b.debit_agrege_passe_mediane !== null).length);
  out.set(
    `skew-${voice}`,
    arms.filter((b) => b.flux_simultanes >= 2).reduce((n, b) => n + b.synchro.filter((s) => !s.echauffement).length, 0),
  );
  arms.forEach((b, i) => {
    const limits = b.controles.filter((c) => c.name === 'cpu_max' || c.name === 'cpu_sum').length;
    out.set(
      `cpu-${voice}-${i}`,
      b.enfants.reduce((n, c) => n + c.passes.filter((p) => p.cpu_pourcent !== null).length, 0) + limits,
    );
  });
  return out;
}

/**
 * Recomputed from two archives' own figures, not from compare's verdicts: is there an arm, its
 * controls held in both runs, whose aggregate or median-stream throughput fell by more than the
 * tolerance by the runs' rounds (the Welch 95% interval of B/A from the logs of their round figures
 * wholly below 1 - tolerance)? compare must exit 4 exactly then.
 */
type Arm = Archive['bras'][number];
const armKeyOf = (x: Arm): string =>
  [x.voix, x.flux_simultanes, x.fils_par_flux, x.affinite_demandee, x.isolation].join(' ');

/** Per round, the arm's figure and its streams' median pass throughput. */
function roundsOf(x: Arm): Array<number[]> {
  const perStream = x.debit_agrege_manches.flatMap((_, i) => {
    const r = x.enfants.flatMap((e) =>
      e.passes.filter((p) => p.manche === i + 1 && p.ratio !== null).map((p) => p.ratio as number),
    );
    return r.length > 0 ? [median(r)] : [];
  });
  return [x.debit_agrege_manches.filter((v): v is number => v !== null && v > 0), perStream.filter((v) => v > 0)];
}

/** B/A's Welch interval from round figures; null below 2 rounds in either. */
function interval(a: number[], b: number[]): [number, number] | null {
  if (a.length < 2 || b.length < 2) return null;
  const m = (v: number[]) => v.map(Math.log).reduce((s, x) => s + x, 0) / v.length;
  const w = (v: number[]) => v.map(Math.log).reduce((s, x) => s + (x - m(v)) ** 2, 0) / (v.length - 1) / v.length;
  const se2 = w(a) + w(b);
  const df = se2 === 0 ? 1e9 : se2 ** 2 / (w(a) ** 2 / (a.length - 1) + w(b) ** 2 / (b.length - 1));
  const half = studentQuantile(0.975, df) * Math.sqrt(se2);
  return [Math.exp(m(b) - m(a) - half), Math.exp(m(b) - m(a) + half)];
}

/** Pairs of arms compare counts: same key, controls held in both runs. */
function heldPairs(a: Archive, b: Archive): Array<[Arm, Arm]> {
  return a.bras.flatMap((x): Array<[Arm, Arm]> => {
    const y = b.bras.find((z) => armKeyOf(z) === armKeyOf(x));
    return y && x.controle_tenu && y.controle_tenu ? [[x, y]] : [];
  });
}

const intervals = (a: Archive, b: Archive): Array<[number, number]> =>
  heldPairs(a, b).flatMap(([x, y]) =>
    roundsOf(x)
      .map((rx, i) => interval(rx, roundsOf(y)[i] ?? []))
      .filter((v): v is [number, number] => v !== null),
  );

export function throughputFellBeyond(a: Archive, b: Archive, tolerancePercent: number): boolean {
  return intervals(a, b).some((i) => i[1] < 1 - tolerancePercent / 100);
}

/** Recomputed the same way: could compare count any arm at all (an interval wholly beyond or within the tolerance)? If not, it must exit 2. */
export function anyArmComparable(a: Archive, b: Archive, tolerancePercent: number): boolean {
  const t = tolerancePercent / 100;
  return intervals(a, b).some((i) => i[0] > 1 + t || i[1] < 1 - t || (i[0] >= 1 - t && i[1] <= 1 + t));
}
