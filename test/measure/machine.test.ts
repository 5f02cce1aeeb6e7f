// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allowedCores } from '../../lib/measure/clock.js';
import { machineBlock, machineFingerprint, type MachineReaders } from '../../lib/measure/machine.js';

const fail = (): Promise<never> => Promise.reject(new Error('unreadable here'));
const unreadable: MachineReaders = {
  cpu: fail,
  speed: fail,
  temperature: fail,
  os: fail,
  system: fail,
  mem: fail,
  governorFile: () => null,
};

describe('machine_detail', () => {
  it('what cannot be read is null, never guessed', async () => {
    const m = await machineBlock(unreadable);
    assert.deepEqual(
      [m.systeme, m.coeurs_physiques, m.gouverneur, m.frequences_mhz, m.virtualisation, m.temperature_c],
      [null, null, null, null, null, null],
    );
    // Facts Node itself knows stay.
    assert.ok(m.coeurs_logiques >= 1 && m.memoire_octets > 0 && m.cpu.length > 0);
  });

  it('a reading of 0 (a clock, a temperature, a core count) is unknown, not zero', async () => {
    const zeros: MachineReaders = {
      ...unreadable,
      cpu: async () => ({ manufacturer: 'X', brand: 'Y', physicalCores: 0, governor: '' }),
      speed: async () => ({ cores: [0, 2400] }),
      temperature: async () => ({ main: 0 }),
      system: async () => ({ virtual: true, virtualHost: 'KVM' }),
      governorFile: () => 'performance',
    };
    const m = await machineBlock(zeros);
    assert.deepEqual([m.coeurs_physiques, m.frequences_mhz, m.temperature_c], [null, null, null]);
    assert.deepEqual([m.cpu, m.gouverneur, m.virtualisation], ['X Y', 'performance', 'KVM']);
  });

  it('records the cores this run may use, and they are part of the fingerprint', async () => {
    const m = await machineBlock(unreadable);
    assert.deepEqual(m.coeurs_autorises, allowedCores());
    const all = {
      architecture: 'x64',
      cpu: 'C',
      coeurs_logiques: 8,
      memoire_octets: 2 ** 34,
      coeurs_autorises: [0, 1, 2, 3, 4, 5, 6, 7],
    };
    // The same box held to 2 of its 8 CPUs (taskset, a container's cpuset) is not the same machine.
    assert.notEqual(machineFingerprint(all), machineFingerprint({ ...all, coeurs_autorises: [0, 1] }));
    assert.equal(machineFingerprint(all), 'x64|C|8 cores|8 usable|16 GiB');
  });
});
