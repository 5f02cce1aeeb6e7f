import { readFileSync } from 'node:fs';
import os from 'node:os';
import type si from 'systeminformation';
import type { MachineBlock } from '../archive/common-schema.js';
import { ONNXRUNTIME_VERSION } from '../core/version.js';
import { allowedCores } from './clock.js';

function readOr(path: string): string | null {
  try {
    return readFileSync(path, 'utf8').trim() || null;
  } catch {
    return null;
  }
}

/** A value that reads as 0 or empty is unknown, not zero. */
const known = (n: number | null | undefined): number | null =>
  typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : null;

/** Where the machine facts come from; tests give readers that fail or answer 0. */
export interface MachineReaders {
  cpu(): Promise<Pick<si.Systeminformation.CpuData, 'manufacturer' | 'brand' | 'physicalCores' | 'governor'>>;
  speed(): Promise<Pick<si.Systeminformation.CpuCurrentSpeedData, 'cores'>>;
  temperature(): Promise<Pick<si.Systeminformation.CpuTemperatureData, 'main'>>;
  os(): Promise<Pick<si.Systeminformation.OsData, 'distro' | 'release'>>;
  system(): Promise<Pick<si.Systeminformation.SystemData, 'virtual' | 'virtualHost'>>;
  mem(): Promise<Pick<si.Systeminformation.MemData, 'total'>>;
  governorFile(): string | null;
}

/** Loaded on the first reading, not with the command line (a tenth of a second every start would pay). */
const sysinfo = async (): Promise<typeof si> => (await import('systeminformation')).default;

const SYSTEM_READERS: MachineReaders = {
  cpu: async () => (await sysinfo()).cpu(),
  speed: async () => (await sysinfo()).cpuCurrentSpeed(),
  temperature: async () => (await sysinfo()).cpuTemperature(),
  os: async () => (await sysinfo()).osInfo(),
  system: async () => (await sysinfo()).system(),
  mem: async () => (await sysinfo()).mem(),
  governorFile: () => readOr('/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor'),
};

/**
 * What the machine is and how busy it was, from systeminformation and /proc. Anything unreadable
 * (clocks and temperature on most virtual machines) is recorded as null: unknown, never guessed.
 */
export async function machineBlock(readers: MachineReaders = SYSTEM_READERS): Promise<MachineBlock> {
  const [cpu, speed, temp, osInfo, system, mem] = await Promise.all([
    readers.cpu().catch(() => undefined),
    readers.speed().catch(() => undefined),
    readers.temperature().catch(() => undefined),
    readers.os().catch(() => undefined),
    readers.system().catch(() => undefined),
    readers.mem().catch(() => undefined),
  ]);
  const clocks = (speed?.cores ?? []).map(known);
  const governor = cpu?.governor || readers.governorFile();
  const model = [cpu?.manufacturer, cpu?.brand].filter(Boolean).join(' ') || os.cpus()[0]?.model?.trim() || 'unknown';
  return {
    architecture: os.arch(),
    plateforme: os.platform(),
    noyau: os.release(),
    systeme: osInfo ? `${osInfo.distro} ${osInfo.release}`.trim() : null,
    cpu: model,
    coeurs_logiques: os.cpus().length,
    coeurs_physiques: known(cpu?.physicalCores),
    coeurs_autorises: allowedCores(),
    gouverneur: governor || null,
    frequences_mhz: clocks.length > 0 && clocks.every((c) => c !== null) ? (clocks as number[]) : null,
    virtualisation: system === undefined ? null : system.virtual ? system.virtualHost || 'yes' : 'none',
    temperature_c: known(temp?.main),
    memoire_octets: mem?.total ?? os.totalmem(),
    charge_avant: os.loadavg(),
    charge_apres: null,
    hote: os.hostname(),
    version_node: process.version,
    version_onnxruntime: ONNXRUNTIME_VERSION,
    attente: null,
  };
}

/** A hot board throttles: the temperature at the end from which, or the rise over the run by which, it is said. */
export const HOT_C = 80;
export const WARMED_C = 15;

/**
 * The warning when the clocks may have moved under the run: the governor changed, or the CPU ended hot or
 * much warmer than it began. null when neither (or nothing could be read, as on most VMs).
 */
export function throttleWarning(
  before: Pick<MachineBlock, 'gouverneur' | 'temperature_c'>,
  after: { gouverneur: string | null; temperature_c: number | null },
): string | null {
  const said: string[] = [];
  if (before.gouverneur && after.gouverneur && before.gouverneur !== after.gouverneur)
    said.push(`the CPU governor changed during the run (${before.gouverneur}, then ${after.gouverneur})`);
  const t0 = before.temperature_c;
  const t1 = after.temperature_c;
  if (t1 !== null && (t1 >= HOT_C || (t0 !== null && t1 - t0 >= WARMED_C)))
    said.push(
      `the CPU went from ${t0 === null ? 'an unread temperature' : `${Math.round(t0)} °C`} to ${Math.round(t1)} °C`,
    );
  if (said.length === 0) return null;
  return (
    `warning: ${said.join(', and ')}: a hot or re-clocked CPU runs slower, so later rounds or trials may be; ` +
    'cool it or fix the governor (performance), let it settle, and run again'
  );
}

/** The governor and temperature again, after the run, and the warning when they moved. */
export async function machineEnd(
  before: MachineBlock,
  readers: MachineReaders = SYSTEM_READERS,
): Promise<Pick<MachineBlock, 'gouverneur_apres' | 'temperature_apres_c' | 'avertissement_chaleur'>> {
  const [cpu, temp] = await Promise.all([
    readers.cpu().catch(() => undefined),
    readers.temperature().catch(() => undefined),
  ]);
  const after = { gouverneur: cpu?.governor || readers.governorFile() || null, temperature_c: known(temp?.main) };
  return {
    gouverneur_apres: after.gouverneur,
    temperature_apres_c: after.temperature_c,
    avertissement_chaleur: throttleWarning(before, after),
  };
}

/**
 * What identifies a machine across runs (not its load or clocks). The cores the run may use count:
 * a run held to 2 of 8 CPUs by taskset or a container's cpuset is another machine than all 8.
 */
export function machineFingerprint(
  m: Pick<MachineBlock, 'architecture' | 'cpu' | 'coeurs_logiques' | 'memoire_octets' | 'coeurs_autorises'>,
): string {
  return `${m.architecture}|${m.cpu}|${m.coeurs_logiques} cores|${m.coeurs_autorises.length} usable|${Math.round(m.memoire_octets / 2 ** 30)} GiB`;
}
