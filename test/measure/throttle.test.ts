// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { machineEnd, throttleWarning, type MachineReaders } from '../../lib/measure/machine.js';
import { FIXTURE_MACHINE } from '../capacity/sweep-harness.js';

describe('a CPU that heated up or was re-clocked during a run', () => {
  it('is said when the governor changed, the CPU ended at 80 °C or more, or rose 15 °C; never from what was not read', () => {
    const at = (gouverneur: string | null, temperature_c: number | null) => ({ gouverneur, temperature_c });
    assert.equal(throttleWarning(at('performance', 50), at('performance', 60)), null);
    assert.match(
      throttleWarning(at('performance', 50), at('powersave', 52)) ?? '',
      /^warning: the CPU governor changed during the run \(performance, then powersave\): .*run again$/,
    );
    assert.match(throttleWarning(at(null, 52), at(null, 81)) ?? '', /the CPU went from 52 °C to 81 °C/);
    assert.match(throttleWarning(at(null, 40), at(null, 55)) ?? '', /from 40 °C to 55 °C/);
    assert.equal(throttleWarning(at(null, 40), at(null, 54)), null);
    // A VM reads neither: nothing said.
    assert.equal(throttleWarning(at(null, null), at(null, null)), null);
  });

  it('the end of a run reads them again through the same readers, and keeps them', async () => {
    const readers = {
      cpu: async () => ({ manufacturer: 'x', brand: 'y', physicalCores: 2, governor: 'powersave' }),
      temperature: async () => ({ main: 83 }),
      governorFile: () => null,
    } as unknown as MachineReaders;
    const end = await machineEnd(
      { ...structuredClone(FIXTURE_MACHINE), gouverneur: 'performance', temperature_c: 61 },
      readers,
    );
    assert.deepEqual([end.gouverneur_apres, end.temperature_apres_c], ['powersave', 83]);
    assert.match(end.avertissement_chaleur ?? '', /governor changed .*, and the CPU went from 61 °C to 83 °C/);
  });
});
