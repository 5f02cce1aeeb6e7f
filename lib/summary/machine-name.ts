/** A machine's short name when no run gave it a --label: read from its fingerprint, unique to it. */
import { createHash } from 'node:crypto';

/** Words of a CPU brand that name no model. */
const NOISE = new Set([
  'amd',
  'intel',
  'r',
  'tm',
  'cpu',
  'processor',
  'core',
  'with',
  'radeon',
  'graphics',
  'unknown',
  'apple',
  'arm',
]);

/** e.g. `x64|AMD EPYC 7B13|2 cores|2 usable|24 GiB` -> `x64-epyc-7b13-2c-24g-5f0d`. */
export function machineShortName(fingerprint: string): string {
  const [arch = '?', cpu = '', , usable = '', memory = ''] = fingerprint.split('|');
  const words = cpu
    .toLowerCase()
    .replace(/@.*$/, '')
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '' && !NOISE.has(w) && !/^\d+(th|nd|rd|st)$/.test(w))
    .slice(0, 2);
  const cores = /^(\d+)/.exec(usable)?.[1];
  const gib = /^(\d+)/.exec(memory)?.[1];
  const hash = createHash('sha256').update(fingerprint).digest('hex').slice(0, 4);
  return [arch, ...words, cores ? `${cores}c` : '', gib ? `${gib}g` : '', hash].filter((p) => p !== '').join('-');
}
