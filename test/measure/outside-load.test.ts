import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { outsideLoadControl } from '../../lib/measure/controls.js';
import { settle } from '../../lib/measure/settle.js';
import {
  outsideCores,
  outsideCoresOver,
  parseProcStatBusy,
  parseSelfStatTicks,
  type CpuSnapshot,
} from '../../lib/measure/system-cpu.js';
import { runArms } from '../../lib/throughput/run/run-arms.js';
import { sharedVoicesDir, tempDir } from '../helpers/paths.js';

describe('outside load, from injected readings', () => {
  it('parses /proc/stat and /proc/self/stat', () => {
    assert.equal(parseProcStatBusy('cpu  100 5 20 9999 7 3 2 1 0 0\ncpu0 1 2 3\n'), 100 + 5 + 20 + 3 + 2);
    const self = '4242 (node (x) y) S 1 2 3 4 5 6 7 8 9 10 11 22 33 44 55 20 0 1 0';
    assert.equal(parseSelfStatTicks(self), 11 + 22 + 33 + 44);
    assert.equal(parseSelfStatTicks(self, false), 11 + 22);
  });

  it('counts only the cores the run may use', () => {
    const stat = 'cpu  999 0 0 0\ncpu0 10 1 2 50 0 3 0 0\ncpu1 100 0 0 50\ncpu2 7 0 0 0 0 0 0 1\n';
    assert.equal(parseProcStatBusy(stat, [0, 2]), 10 + 1 + 2 + 3 + 7);
    assert.throws(() => parseProcStatBusy(stat, [5]), /no cpu5 line/);
  });

  it('over the timed passes only: outside ticks of every window over their seconds, gaps between them ignored', () => {
    const at = (busy: number, own: number, ms: number): CpuSnapshot => ({
      systemBusyTicks: busy,
      ownTicks: own,
      atMs: ms,
    });
    // Two 1 s passes with 5 and 15 outside ticks; between them 1000 outside ticks of loading that must not count.
    const windows = [
      { before: at(0, 0, 0), after: at(205, 200, 1000) },
      { before: at(1205, 200, 5000), after: at(1420, 400, 6000) },
    ];
    assert.equal(outsideCoresOver(windows), 0.1);
    assert.equal(outsideCoresOver([]), 0);
  });

  it('is the machine busy time less our own, per second of wall, in cores', () => {
    const a: CpuSnapshot = { systemBusyTicks: 1000, ownTicks: 500, atMs: 0 };
    const b: CpuSnapshot = { systemBusyTicks: 1000 + 235, ownTicks: 500 + 200, atMs: 1000 };
    assert.equal(outsideCores(a, b), 0.35);
    assert.equal(outsideCores(a, { ...b, systemBusyTicks: 1199 }), 0);
  });

  it('the control holds at 10% of a core and fails above, saying by how much', () => {
    assert.equal(outsideLoadControl(0.1).held, true);
    const f = outsideLoadControl(0.35);
    assert.equal(f.held, false);
    assert.equal(
      f.message,
      "another program used 35% of a core during this arm's timed passes, over the 10% limit by 25 points",
    );
  });

  it('settle waits while busy, stops when calm, and records what it saw', async () => {
    /** Each look is two snapshots one second apart showing `outside` cores, and a 1-minute load. */
    const scripted = (looks: Array<{ load: number; outside: number }>) => {
      let n = 0;
      let ticks = 0;
      let look = 0;
      return {
        sampler: {
          snapshot: (): CpuSnapshot => {
            const second = n % 2 === 1;
            if (second) ticks += (looks[Math.min(look, looks.length - 1)]?.outside ?? 0) * 100;
            n += 1;
            return { systemBusyTicks: ticks, ownTicks: 0, atMs: second ? 1000 : 0 };
          },
        },
        loadavg: () => [looks[Math.min(look++, looks.length - 1)]?.load ?? 0, 0, 0],
      };
    };
    const busyThenCalm = scripted([
      { load: 1.8, outside: 0 },
      { load: 0.8, outside: 0.9 },
      { load: 0.7, outside: 0.1 },
    ]);
    const r = await settle(30, 2, { ...busyThenCalm, sleep: async () => undefined });
    assert.equal(r.calme, true);
    assert.equal(r.attendu_s, 2);
    assert.deepEqual(r.vu, [
      { charge_1min: 1.8, autre_cpu_coeurs: 0 },
      { charge_1min: 0.8, autre_cpu_coeurs: 0.9 },
      { charge_1min: 0.7, autre_cpu_coeurs: 0.1 },
    ]);
    const alwaysBusy = scripted([{ load: 5, outside: 1 }]);
    const capped = await settle(2, 2, { ...alwaysBusy, sleep: async () => undefined });
    assert.deepEqual([capped.calme, capped.attendu_s, capped.vu.length], [false, 2, 3]);
  });
});

describe('outside load, for real', () => {
  it(
    "a busy-loop process started by the test fails the arm's outside_load control",
    { skip: process.platform !== 'linux' && 'Linux /proc only' },
    async () => {
      const hog = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
      try {
        await new Promise((r) => setTimeout(r, 300));
        const r = await runArms({
          settleSeconds: 0,
          passes: 2,
          warmup: 0,
          voices: ['synthetic-siwis-medium'],
          streams: [1],
          lines: ['Bonjour tout le monde.'],
          outDir: tempDir('out'),
          voicesDir: sharedVoicesDir(),
        });
        const c = r.archive.bras[0]?.controles.find((x) => x.name === 'outside_load');
        assert.ok(c, 'no outside_load control');
        assert.equal(c.held, false, c.message);
        assert.ok((c.measured ?? 0) > 30, c.message);
        assert.equal(r.archive.controle_tenu, false);
      } finally {
        hog.kill('SIGKILL');
      }
    },
  );
});
