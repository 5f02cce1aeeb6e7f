import os from 'node:os';
import type { CpuSampler } from './system-cpu.js';
import { outsideCores } from './system-cpu.js';

export interface SettleResult {
  attendu_s: number;
  limite_s: number;
  calme: boolean;
  vu: Array<{ charge_1min: number; autre_cpu_coeurs: number | null }>;
}

export interface SettleDeps {
  sampler: CpuSampler;
  loadavg?: () => number[];
  sleep?: (ms: number) => Promise<void>;
  signal?: AbortSignal;
}

/**
 * Before the first arm: while the machine is busy (1-minute load above 0.5 per core, or other
 * programs using half a core or more over a one-second look), wait, up to `limitSeconds`.
 */
export async function settle(limitSeconds: number, cores: number, deps: SettleDeps): Promise<SettleResult> {
  const loadavg = deps.loadavg ?? os.loadavg;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const seen: SettleResult['vu'] = [];
  if (limitSeconds <= 0) return { attendu_s: 0, limite_s: 0, calme: false, vu: seen };
  let waited = 0;
  for (;;) {
    const a = deps.sampler.snapshot();
    await sleep(1000);
    const b = deps.sampler.snapshot();
    const outside = outsideCores(a, b);
    const load = loadavg()[0] ?? 0;
    seen.push({ charge_1min: load, autre_cpu_coeurs: Number(outside.toFixed(3)) });
    const calm = load <= 0.5 * cores && outside < 0.5;
    if (calm || waited + 1 > limitSeconds || deps.signal?.aborted)
      return { attendu_s: waited, limite_s: limitSeconds, calme: calm, vu: seen };
    waited += 1;
  }
}
