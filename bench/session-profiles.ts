/**
 * node dist/bench/session-profiles.js [ROUNDS] [VOICE]: the two session profiles side by side in one
 * run. Every round runs the four default layouts under piper-tts and under libpiper, the eight arms
 * in a seeded order of their own, each with fresh processes (a warm-up, one timed pass): a round is
 * a new set of workers, the unit the throughput verdict counts. Prints, per layout, the speed ratio
 * piper-tts / libpiper paired by round with its 95% interval, and each profile's round-to-round
 * spread (sd of the log aggregate), then the spread pooled over layouts. Arms whose controls failed
 * are left out of both (their round is not paired). Default 8 rounds of synthetic-siwis-medium.
 */
import { Prng } from '../lib/core/prng.js';
import { allowedCores } from '../lib/measure/clock.js';
import { settle } from '../lib/measure/settle.js';
import { ratioInterval, stdev } from '../lib/measure/stats.js';
import { procCpuSampler } from '../lib/measure/system-cpu.js';
import { DEFAULT_TIMEOUTS, runArmWorkers } from '../lib/throughput/arm/arm.js';
import { DEFAULT_CONDITIONS } from '../lib/throughput/arm/conditions.js';
import { armRecord } from '../lib/throughput/arm/record.js';
import type { Condition } from '../lib/throughput/schema.js';
import { layoutLabel } from '../lib/throughput/verdict/labels.js';
import { ProcessAdapter } from '../lib/throughput/worker/adapters.js';
import { DEFAULT_SENTENCES } from '../lib/voice/default-text.js';
import { locateVoice, voicePlaces } from '../lib/voice/places.js';
import { SESSION_PROFILES, type SessionProfile } from '../lib/voice/session-profile.js';
import { prepareText } from '../lib/voice/text.js';

const rounds = Number(process.argv[2] ?? 8);
const voiceName = process.argv[3] ?? 'synthetic-siwis-medium';
const conditions: Condition[] = DEFAULT_CONDITIONS.map((c) => ({ ...c, isolation: 'process' }));
const cores = allowedCores();
const sampler = procCpuSampler(cores);
const voice = await locateVoice(voiceName, voicePlaces(undefined));
const prepared = await prepareText(DEFAULT_SENTENCES, voice.config);
const prng = new Prng(20261204);

type Cell = { profile: SessionProfile; condition: Condition; label: string };
const cells: Cell[] = SESSION_PROFILES.flatMap((profile) =>
  conditions.map((condition) => ({ profile, condition, label: layoutLabel(recordShape(condition), condition.flux) })),
);
function recordShape(c: Condition) {
  return { isolation: c.isolation, affinite_demandee: c.affinite, flux_simultanes: c.flux, fils_par_flux: c.fils };
}
/** figures[profile|label][round] = the arm's aggregate, x real time; null where its controls failed. */
const figures = new Map<string, Array<number | null>>();
const key = (p: SessionProfile, label: string): string => `${p}|${label}`;

const waited = await settle(30, cores.length, { sampler });
console.log(
  `${voiceName}${voice.synthetic ? ' (SYNTHETIC)' : ''}, ${cores.length} cores, ${rounds} rounds; settled: ${waited.calme ? 'calm' : 'still busy'}`,
);
for (let round = 0; round < rounds; round += 1) {
  const order = [...cells];
  for (let i = order.length - 1; i > 0; i -= 1) {
    const j = Math.floor(prng.next() * (i + 1));
    [order[i], order[j]] = [order[j] as Cell, order[i] as Cell];
  }
  for (const cell of order) {
    const c = cell.condition;
    const run = await runArmWorkers({
      adapter: new ProcessAdapter(),
      streams: c.flux,
      cores: Array.from({ length: c.flux }, (_, r) => (c.affinite ? cores[r % cores.length] : undefined)),
      init: {
        voice: { name: voice.name, onnxPath: voice.onnxPath, config: voice.config },
        threads: c.fils,
        prepared,
        warmup: 1,
        passes: 1,
        engine: { kind: 'onnxruntime', scope: 'model', session: cell.profile },
      },
      timeouts: DEFAULT_TIMEOUTS,
      cpuSampler: sampler,
    });
    const rec = armRecord(run, {
      voice: { name: voice.name, synthetic: voice.synthetic, sha256: voice.sha256 },
      condition: c,
      allCores: cores,
    });
    const value = rec.controle_tenu ? rec.debit_agrege_passe_mediane : null;
    const k = key(cell.profile, cell.label);
    figures.set(k, [...(figures.get(k) ?? []), value]);
    const failed = rec.controles.filter((x) => !x.held).map((x) => x.name);
    console.log(
      `round ${round + 1} ${cell.profile.padEnd(9)} ${cell.label.padEnd(40)} ` +
        `${value === null ? `controls failed (${failed.join(', ') || rec.etat})` : `x${value.toFixed(2)}`}`,
    );
  }
}

const pct = (x: number): string => `${x >= 1 ? '+' : ''}${((x - 1) * 100).toFixed(1)}%`;
const pooled: Record<SessionProfile, number[]> = { 'piper-tts': [], libpiper: [] };
console.log(
  `\nper layout (${voiceName}${voice.synthetic ? ', SYNTHETIC' : ''}): piper-tts / libpiper, paired by round`,
);
for (const c of conditions) {
  const label = layoutLabel(recordShape(c), c.flux);
  const a = figures.get(key('piper-tts', label)) ?? [];
  const b = figures.get(key('libpiper', label)) ?? [];
  const logs = a.flatMap((x, i) => (x !== null && b[i] != null ? [Math.log(x / (b[i] as number))] : []));
  const ci = ratioInterval(logs, 0.95);
  const mean = logs.length > 0 ? Math.exp(logs.reduce((s, v) => s + v, 0) / logs.length) : Number.NaN;
  const sd = (v: Array<number | null>): number | null => stdev(v.filter((x): x is number => x !== null).map(Math.log));
  for (const p of SESSION_PROFILES) {
    const l = (figures.get(key(p, label)) ?? []).filter((x): x is number => x !== null).map(Math.log);
    const m = l.reduce((s, x) => s + x, 0) / Math.max(1, l.length);
    pooled[p].push(...l.map((x) => x - m));
  }
  const sa = sd(a);
  const sb = sd(b);
  console.log(
    `  ${label.padEnd(40)} ${pct(mean)} [${ci ? `${pct(ci[0])}, ${pct(ci[1])}` : 'too few rounds'}] over ${logs.length} paired rounds; ` +
      `round-to-round sd of log: piper-tts ${sa === null ? '-' : sa.toFixed(3)}, libpiper ${sb === null ? '-' : sb.toFixed(3)}`,
  );
}
for (const p of SESSION_PROFILES) {
  const n = pooled[p].length;
  // Each layout's mean taken out: n - layouts degrees of freedom.
  const ss = pooled[p].reduce((s, x) => s + x * x, 0);
  const df = n - conditions.length;
  console.log(`pooled sd of log, ${p}: ${df > 0 ? Math.sqrt(ss / df).toFixed(3) : '-'} (${n} arm rounds, df ${df})`);
}
