/**
 * Earlier capacity runs of the same workload on the same machine, found in the run's out-dir: their
 * live speeds, per voice and layout, measure the drift between runs that one run cannot see. With at
 * least two earlier runs, a layout's rerun range allows the larger of that measured drift and the
 * assumed one (live.ts's DEFAULT_DRIFT_SD), never less.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { readBounded } from '../../core/read-bounded.js';
import { betweenRunsUpper } from '../../measure/between-runs.js';
import { machineFingerprint } from '../../measure/machine.js';
import { tQuantile975 } from '../../measure/stats.js';
import { CapacityArchiveSchema, type CapacityArchive } from '../archive/schema.js';
import type { CapacityPlan } from './plan.js';

/** A capacity archive larger than this is not read as history (a default run writes a few MiB). */
const HISTORY_LIMIT_BYTES = 64 * 2 ** 20;
/** Earlier runs needed before their spread replaces the assumption. */
export const HISTORY_RUNS = 2;
/** The one-sided confidence of the bound on the drift between runs (chosen by seeded simulation, test/capacity/setup). */
export const DRIFT_UPPER_LEVEL = 0.8;

export interface EarlierSpeed {
  /** The run's mean S, and the variance of its mean log S (from its interval; null: unknown). */
  centre: number;
  within: number | null;
}

export interface History {
  /** Archives read as earlier runs of this workload. */
  files: string[];
  /** Per `voice|layout`, each earlier run's live speed. */
  speeds: Map<string, EarlierSpeed[]>;
}

export const historyKey = (voice: string, layout: string): string => `${voice}|${layout}`;

/** One run's S as a draw: its centre and the variance of its mean log S (half-width / t). */
export function speedDraw(e: {
  debit_vivant: number | null;
  debit_vivant_ic95: [number, number] | null;
  debit_vivant_essais: number;
  debit_vivant_manches?: number | undefined;
}): EarlierSpeed | null {
  if (e.debit_vivant === null || e.debit_vivant <= 0) return null;
  const ic = e.debit_vivant_ic95;
  // The interval's degrees of freedom: its rounds (older archives: its trials).
  const n = e.debit_vivant_manches ?? e.debit_vivant_essais;
  const within = ic && n >= 2 ? (Math.log(ic[1] / e.debit_vivant) / tQuantile975(n - 1)) ** 2 : null;
  return { centre: e.debit_vivant, within };
}

/**
 * The server a run measured, as what moves its speed: address, protocol, how the text was sent and at what rate
 * (null: no server). A run against another server, or one that streamed where this one does not, is no history.
 */
function serverKey(s: CapacityArchive['serveur']): string | null {
  if (!s) return null;
  return [s.adresse, s.protocole, s.envoi ?? 'phrase', s.debit_texte_cps ?? 'all', s.voix_demandee ?? 'default'].join(
    '|',
  );
}

function planServerKey(plan: CapacityPlan): string | null {
  const sv = plan.server;
  if (!sv) return null;
  const d = sv.handle.description;
  return [
    d.address,
    d.protocol,
    sv.stream ? 'flux' : 'phrase',
    sv.stream?.textRateCps ?? 'all',
    d.voice ?? 'default',
  ].join('|');
}

/**
 * The same workload: machine, session profile, server, text, voices, arrivals, schedule, first-audio bound. A
 * `--session libpiper` run beside a default one measures the profile, not the machine's drift between runs.
 */
export function sameWorkload(a: CapacityArchive, plan: CapacityPlan): boolean {
  const voices = new Map(plan.voices.map((v) => [v.name, v.sha256]));
  return (
    // Archives from before the profile was recorded ran libpiper's settings.
    (a.protocole.profil_session ?? 'libpiper') === plan.session &&
    serverKey(a.serveur) === planServerKey(plan) &&
    machineFingerprint(a.machine_detail) === machineFingerprint(plan.machine) &&
    a.protocole.texte.sha256 === plan.text.sha256 &&
    a.protocole.arrivees === plan.arrivals &&
    a.protocole.ordre_file === plan.schedule &&
    a.protocole.premier_son_max_ms === plan.firstAudioMs &&
    a.voix.every((v) => voices.get(v.nom) === undefined || voices.get(v.nom) === v.sha256)
  );
}

/** Earlier runs in the out-dir; a file that is not a readable capacity archive of this workload is passed over. */
export async function readHistory(plan: CapacityPlan): Promise<History> {
  const history: History = { files: [], speeds: new Map() };
  let names: string[];
  try {
    names = (await readdir(plan.outDir)).filter((n) => /^capacity-.*\.json$/.test(n)).sort();
  } catch {
    return history;
  }
  for (const name of names) {
    const file = path.join(plan.outDir, name);
    try {
      const read = await readBounded(file, HISTORY_LIMIT_BYTES);
      if (read.state !== 'read') continue;
      const parsed = CapacityArchiveSchema.safeParse(JSON.parse(read.bytes.toString('utf8')));
      if (!parsed.success || !sameWorkload(parsed.data, plan)) continue;
      history.files.push(file);
      for (const e of parsed.data.capacite) {
        const draw = speedDraw(e);
        if (!draw) continue;
        const key = historyKey(e.voix, e.disposition);
        history.speeds.set(key, [...(history.speeds.get(key) ?? []), draw]);
      }
    } catch {
      // Not JSON, unreadable, vanished: not history.
    }
  }
  return history;
}

/**
 * The drift between runs (sd of log S) over the earlier runs and this one, beyond the spread inside them: its upper
 * confidence bound at DRIFT_UPPER_LEVEL, not its estimate, which from 3 runs (2 degrees of freedom) is often far below
 * the truth (used as known, it covered a rerun 90.8% of the time at a true 15%, the bound 97.8%: docs/contributing/statistics.md). Null below
 * HISTORY_RUNS earlier runs or where a run's own spread is unknown.
 */
export function measuredDrift(earlier: readonly EarlierSpeed[], now: EarlierSpeed | null): number | null {
  if (earlier.length < HISTORY_RUNS || now === null) return null;
  const all = [...earlier, now];
  return betweenRunsUpper(
    all.map((s) => s.centre),
    all.map((s) => s.within),
    DRIFT_UPPER_LEVEL,
  );
}
