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

/**
 * What identifies a machine across runs (not its load or clocks). The cores the run may use count:
 * a run held to 2 of 8 CPUs by taskset or a container's cpuset is another machine than all 8.
 */
export function machineFingerprint(
  m: Pick<MachineBlock, 'architecture' | 'cpu' | 'coeurs_logiques' | 'memoire_octets' | 'coeurs_autorises'>,
): string {
  return `${m.architecture}|${m.cpu}|${m.coeurs_logiques} cores|${m.coeurs_autorises.length} usable|${Math.round(m.memoire_octets / 2 ** 30)} GiB`;
}
