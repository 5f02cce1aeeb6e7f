import os from 'node:os';
import type { MachineBlock } from '../archive/schema.js';
import { allowedCores } from './clock.js';

/** What the machine is and how busy it was; unknown values say so instead of guessing. */
export function machineBlock(): MachineBlock {
  const cpus = os.cpus();
  return {
    architecture: os.arch(),
    plateforme: os.platform(),
    noyau: os.release(),
    cpu: cpus[0]?.model?.trim() || 'unknown',
    coeurs_logiques: cpus.length,
    coeurs_autorises: allowedCores(),
    memoire_octets: os.totalmem(),
    charge_avant: os.loadavg(),
    charge_apres: null,
    hote: os.hostname(),
  };
}
