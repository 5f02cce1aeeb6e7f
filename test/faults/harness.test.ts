// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { it } from 'node:test';
import { streamPids } from './harness.js';

/** A process whose command line looks like a stream's, idle until killed. */
function fakeStream(env: NodeJS.ProcessEnv) {
  return spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)', 'lib/throughput/worker/process-stream.js'], {
    env,
    stdio: 'ignore',
  });
}

it('a stream left behind is found when this test file started it, never when another did', async () => {
  const mine = fakeStream(process.env);
  const { PIPER_PARALLEL_TEST_OWNER: _owner, ...otherEnv } = process.env;
  const other = fakeStream({ ...otherEnv, PIPER_PARALLEL_TEST_OWNER: '1' });
  try {
    // Until both have started (a busy machine may take a while), at most 10 s.
    let found = streamPids();
    for (let waited = 0; !found.includes(mine.pid as number) && waited < 10_000; waited += 100) {
      await new Promise((r) => setTimeout(r, 100));
      found = streamPids();
    }
    assert.ok(found.includes(mine.pid as number), `its own stream ${mine.pid} not found in ${found.join(', ')}`);
    assert.ok(!found.includes(other.pid as number), "another test file's stream was counted");
  } finally {
    mine.kill('SIGKILL');
    other.kill('SIGKILL');
    await Promise.all([once(mine, 'exit'), once(other, 'exit')]);
  }
  assert.ok(!streamPids().includes(mine.pid as number));
});
