// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
/** Interruptions, concurrent runs and a soak: nothing hangs, nothing is lost, nothing is left running. */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, it } from 'node:test';
import { ArchiveSchema } from '../../lib/throughput/schema.js';
import { runArms } from '../../lib/throughput/run/run-arms.js';
import { sharedVoicesDir, tempDir } from '../helpers/paths.js';
import { archives, assertClean, partialArms, runCli, streamPids, workspace } from './harness.js';

/**
 * Run with the traced command line and send `signal` 300 ms after stream 0 said ready for its first
 * pass (a warm-up one when `warmup` > 0, else timed pass 0); return what the trace showed at that
 * moment, so the test can check the phase it hit.
 */
async function interrupted(signal: NodeJS.Signals, warmup: number): Promise<{ traceAtSignal: string }> {
  const w = workspace();
  // The built-in text: passes of several seconds, so 300 ms after ready the pass is under way.
  const args = [
    '6',
    '--rounds',
    '3',
    '--settle',
    '0',
    '--voice',
    'synthetic-siwis-medium',
    '--streams',
    '1',
    '--warmup',
    String(warmup),
    '--out-dir',
    w.out,
    '--voices-dir',
    w.voices,
  ];
  let traceAtSignal = '';
  let latest = '';
  let timer: NodeJS.Timeout | undefined;
  const readyLine = /trace: stream 0 \(pid \d+\) ready 0\n/;
  const r = await runCli(args, {
    trace: true,
    onStderr: (err, pid) => {
      latest = err;
      if (timer !== undefined || !readyLine.test(err)) return;
      timer = setTimeout(() => {
        traceAtSignal = latest;
        process.kill(pid, signal);
      }, 300);
    },
  });
  clearTimeout(timer);
  // 128 + the signal's number: SIGINT 2, SIGTERM 15.
  assert.equal(r.code, signal === 'SIGTERM' ? 143 : 130, `${signal}: ${r.stderr}`);
  assert.match(
    r.stderr,
    /piper-parallel: interrupted during synthetic-siwis-medium K=1 T=1 free in round 1; 0 finished arm round\(s\) kept in \S+\.jsonl; resume with: piper-parallel --resume \S+/,
  );
  assert.deepEqual(archives(w), []);
  assert.deepEqual(partialArms(w), [0]);
  assertClean(w, r);
  return { traceAtSignal };
}

/** At the signal: warm-up pass 0 of 3 under way (ready 0 said, its result not in), no timed pass yet. */
function duringWarmup(trace: string): void {
  assert.match(trace, /ready 0\n/);
  assert.doesNotMatch(trace, /stream 0 \(pid \d+\) pass 0 warm-up/);
  assert.doesNotMatch(trace, /pass \d+\n/, 'a timed pass had ended before the signal');
}

/** At the signal: timed pass 0 under way (ready 0 said, its result not in), no warm-up asked. */
function duringTimedPass(trace: string): void {
  assert.match(trace, /ready 0\n/);
  assert.doesNotMatch(trace, /warm-up/);
  assert.doesNotMatch(trace, /stream 0 \(pid \d+\) pass 0/);
}

describe('interruptions', () => {
  it('Ctrl-C during the warm-up: exit 130, partial kept, no stream left', async () =>
    duringWarmup((await interrupted('SIGINT', 3)).traceAtSignal));
  it('Ctrl-C during a timed pass', async () => duringTimedPass((await interrupted('SIGINT', 0)).traceAtSignal));
  it('SIGTERM during the warm-up', async () => duringWarmup((await interrupted('SIGTERM', 3)).traceAtSignal));
  it('SIGTERM during a timed pass', async () => duringTimedPass((await interrupted('SIGTERM', 0)).traceAtSignal));

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} while the archive is written: a whole archive or none, never half of one`, async () => {
      const w = workspace();
      let sent = false;
      const r = await runCli(
        [
          '1',
          '--settle',
          '0',
          '--voice',
          'synthetic-siwis-medium',
          '--streams',
          '1',
          '--warmup',
          '0',
          '--text-file',
          w.text,
          '--out-dir',
          w.out,
          '--voices-dir',
          w.voices,
        ],
        {
          onStdout: (out, pid) => {
            if (!sent && /K=1\s+T=1/.test(out)) {
              sent = true;
              process.kill(pid, signal);
            }
          },
        },
      );
      if (r.code === (signal === 'SIGTERM' ? 143 : 130)) {
        assert.deepEqual(archives(w), []);
        assert.deepEqual(partialArms(w), [1]);
      } else {
        assert.ok(r.code === 0 || r.code === 3, r.stderr);
        const [file] = archives(w);
        assert.ok(file);
        ArchiveSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
        assert.deepEqual(partialArms(w), []);
      }
      assertClean(w, r);
    });
  }
});

describe('two runs at once and a soak', () => {
  it('two runs in the same folder at the same time: both archives land, no partial is left or mixed', async () => {
    const w = workspace();
    const args = [
      '1',
      '--settle',
      '0',
      '--voice',
      'synthetic-siwis-medium',
      '--streams',
      '1,2',
      '--warmup',
      '0',
      '--text-file',
      w.text,
      '--out-dir',
      w.out,
      '--voices-dir',
      w.voices,
    ];
    const [a, b] = await Promise.all([runCli(args), runCli(args)]);
    for (const r of [a, b]) assert.ok(r.code === 0 || r.code === 3, r.stderr);
    const files = archives(w);
    assert.equal(files.length, 2);
    for (const f of files) assert.equal(ArchiveSchema.parse(JSON.parse(readFileSync(f, 'utf8'))).bras.length, 2);
    assert.ok(!existsSync(path.join(w.out, '.partial')) || readdirSync(path.join(w.out, '.partial')).length === 0);
    assertClean(w, a);
  });

  it('three runs back to back (processes and threads, 1 pass, short text): parent memory does not grow run after run, nothing left behind, three archives', async () => {
    // Memory is read after a forced collection: the JS heap and external memory of the parent.
    // RSS is reported beside it; it wanders with the allocator and the phonemizer's garbage.
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const out = tempDir('soak');
    const used: number[] = [];
    const rss: number[] = [];
    const paths: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      // A process arm and a thread arm: both adapters' leftovers would show, at half the default run's time.
      const r = await runArms({
        settleSeconds: 0,
        passes: 1,
        warmup: 1,
        voices: ['synthetic-siwis-medium'],
        lines: ['Bonjour tout le monde.'],
        outDir: out,
        voicesDir: sharedVoicesDir(),
        conditions: [
          { flux: 1, fils: 1, affinite: false, isolation: 'process' },
          { flux: 1, fils: 1, affinite: false, isolation: 'thread' },
        ],
      });
      paths.push(r.path);
      gc();
      const m = process.memoryUsage();
      used.push(m.heapUsed + m.external);
      rss.push(m.rss);
      assert.deepEqual(streamPids(), []);
    }
    assert.equal(new Set(paths).size, 3);
    // The first run loads the phonemizer and onnxruntime for good; from the second on, a leak of a
    // run's worth (a voice's tensors, an arm's records) would show. The margin is for the collector's
    // own bookkeeping, which no machine load changes.
    const [, second = 0, third = 0] = used;
    assert.ok(third <= second * 1.2 + 8 * 2 ** 20, `heap+external ${used.join(', ')} bytes (RSS ${rss.join(', ')})`);
  });
});

describe('a parent killed outright (SIGKILL: no handler runs)', () => {
  it('leaves no worker running 5 s later: each worker sees its channel close and exits', async () => {
    const w = workspace();
    let workers: number[] = [];
    let poll: NodeJS.Timeout | undefined;
    const r = await runCli(
      [
        'capacity',
        '--voice',
        'synthetic-siwis-medium',
        '--voices-dir',
        w.voices,
        '--text-file',
        w.text,
        '--max-streams',
        '4',
        '--settle',
        '0',
        '--out-dir',
        w.out,
        // Its progress lines on stderr, where the test reads them.
        '--json',
      ],
      {
        onStderr: (err, pid) => {
          // Once trials run, look every 20 ms for a moment the parent has workers (between two trials it may have
          // none), and kill it there.
          if (poll !== undefined || !/^trial 1 /m.test(err)) return;
          poll = setInterval(() => {
            const now = streamPids(pid);
            if (now.length === 0 || workers.length > 0) return;
            workers = now;
            clearInterval(poll);
            process.kill(pid, 'SIGKILL');
          }, 20);
        },
      },
    );
    clearInterval(poll);
    assert.equal(r.signal ?? 'SIGKILL', 'SIGKILL', r.stderr);
    assert.ok(workers.length > 0, 'no worker was seen before the kill');
    const deadline = Date.now() + 5000;
    let left = workers;
    while (left.length > 0 && Date.now() < deadline) {
      await new Promise((x) => setTimeout(x, 100));
      left = left.filter((p) => existsSync(`/proc/${p}`) && !readFileSync(`/proc/${p}/stat`, 'utf8').includes(') Z '));
    }
    assert.deepEqual(left, [], 'workers still running 5 s after their parent was killed');
  });
});
