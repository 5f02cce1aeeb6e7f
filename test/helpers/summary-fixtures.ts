/**
 * Archives of machines this test suite never ran on, made by the tests (FIXTURES, not measurements):
 * a real throughput archive of this machine and a capacity archive of a fake machine on virtual
 * time, each given another machine's identity and round figures chosen so every summary figure can
 * be worked out by hand.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Archive, MachineBlock } from '../../lib/throughput/schema.js';
import type { CapacityArchive } from '../../lib/capacity/archive/schema.js';
import { sweepOn, FIXTURE_MACHINE } from '../capacity/sweep-harness.js';

export const PI5: MachineBlock = {
  ...FIXTURE_MACHINE,
  architecture: 'arm64',
  cpu: 'fixture Cortex-A76',
  coeurs_logiques: 4,
  coeurs_autorises: [0, 1, 2, 3],
  memoire_octets: 8 * 2 ** 30,
  hote: 'fixture-pi5',
};
export const N100: MachineBlock = {
  ...FIXTURE_MACHINE,
  architecture: 'x64',
  cpu: 'fixture Intel N100',
  coeurs_logiques: 4,
  coeurs_autorises: [0, 1, 2, 3],
  memoire_octets: 16 * 2 ** 30,
  hote: 'fixture-n100',
};

export const VOICE = 'synthetic-siwis-medium';

/** Round figures per arm of the real run's four (K=1 free, K=1 pinned, K=2 free, K=2 pinned). */
export type Rounds = [number[], number[], number[], number[]];

/** The real archive as another machine's: its identity, label, date, and these round figures. */
export function throughputFixture(
  real: Archive,
  machine: MachineBlock,
  rounds: Rounds,
  o: { label?: string; date: string; rss?: number; textSha?: string },
): Archive {
  const a = structuredClone(real);
  a.machine_detail = machine;
  a.coeurs = machine.coeurs_autorises.length;
  a.etiquette = o.label ?? null;
  a.date_utc = o.date;
  if (o.textSha) a.protocole.texte.sha256 = o.textSha;
  a.bras.forEach((b, i) => {
    const r = rounds[i] as number[];
    b.debit_agrege_manches = r;
    b.debit_agrege_centre = Math.exp(r.reduce((n, x) => n + Math.log(x), 0) / r.length);
    b.controle_tenu = true;
    for (const e of b.enfants) e.rss_pic_octets = o.rss ?? 300 * 2 ** 20;
  });
  return a;
}

let template: Promise<CapacityArchive> | undefined;
/** A capacity archive of a fake 2-core machine at x5 on virtual time (one pool of 2 workers). */
export function capacityTemplate(): Promise<CapacityArchive> {
  template ??= sweepOn({
    machine: { cores: 2, speed: 5, audioSeconds: [1, 1, 1] },
    layouts: [{ workers: 2, threads: 1, pinned: false, isolation: 'process' }],
  }).then((o) => o.archive);
  return template;
}

/** The capacity template as another machine's, its one answer set to these figures. */
export function capacityFixture(
  t: CapacityArchive,
  machine: MachineBlock,
  answer: { noGap: number; range: [number, number]; inBound: number; boundMs?: number },
  o: { label?: string; date: string; voiceSha: string },
): CapacityArchive {
  const a = structuredClone(t);
  a.machine_detail = machine;
  a.coeurs = machine.coeurs_autorises.length;
  a.etiquette = o.label ?? null;
  a.date_utc = o.date;
  if (answer.boundMs) a.protocole.premier_son_max_ms = answer.boundMs;
  for (const v of a.voix) Object.assign(v, { nom: VOICE, synthetique: true, sha256: o.voiceSha });
  for (const e of a.capacite) {
    Object.assign(e, {
      voix: VOICE,
      flux_max_sans_trou: answer.noGap,
      prevision: [answer.range[0], answer.range[1]],
      flux_max_dans_la_borne: answer.inBound,
      controle_tenu: true,
    });
    e.preuves = e.preuves.filter((p) => p.flux <= answer.inBound);
  }
  return a;
}

export function writeFixture(dir: string, name: string, value: unknown): string {
  const file = path.join(dir, name);
  writeFileSync(file, JSON.stringify(value));
  return file;
}
