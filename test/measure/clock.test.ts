// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { allowedCores, parseCpuList, waitUntil } from '../../lib/measure/clock.js';
import { tempDir } from '../helpers/paths.js';

describe('CPU lists and affinity readings', () => {
  it('parses kernel CPU lists', () => {
    assert.deepEqual(parseCpuList('0-2,5\n'), [0, 1, 2, 5]);
    assert.deepEqual(parseCpuList('1'), [1]);
    assert.throws(() => parseCpuList('a-b'), /not a CPU list/);
  });

  it('reads Cpus_allowed_list from a faked /proc status file', () => {
    const file = path.join(tempDir('proc'), 'status');
    writeFileSync(file, 'Name:\tnode\nCpus_allowed:\t2\nCpus_allowed_list:\t1\nMems_allowed:\t1\n');
    assert.deepEqual(allowedCores(file), [1]);
  });

  it('waitUntil returns at or after the instant on the injected clock', async () => {
    let t = 0;
    const now = (): number => (t += 0.5);
    await waitUntil(10, now);
    assert.ok(t >= 10);
  });
});
