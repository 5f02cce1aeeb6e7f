// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TrialRecord } from '../../../lib/capacity/archive/schema.js';
import { playback } from '../../../lib/capacity/trial/playback.js';
import { trialHeld, trialLiveSpeed, trialOutcome, trialRecord } from '../../../lib/capacity/trial/record.js';
import { VirtualTimers } from '../../../lib/capacity/trial/timers.js';
import { runTrial, type TrialResult } from '../../../lib/capacity/trial/trial.js';
import { FakeWorkers } from '../fake-workers.js';

const base = { leadMs: 50, timeoutMs: 60_000 };

/**
 * Two listeners, 500 ms apart, on virtual time: the second arrival's wake fires 8 ms after it is due,
 * `stoppedMs` of that the machine's (what Timers.stoppedMs says for that wake only).
 */
async function lateSecondArrival(stoppedMs: number): Promise<{ result: TrialResult; record: TrialRecord }> {
  const inner = new VirtualTimers(0);
  let calls = 0;
  let stopped = 0;
  const timers = {
    now: () => inner.now(),
    at: (ms: number, fn: () => void) => {
      const second = calls++ === 2;
      return inner.at(ms + (second ? 8 : 0), () => {
        stopped = second ? stoppedMs : 0;
        fn();
        stopped = 0;
      });
    },
    stoppedMs: () => stopped,
  };
  const workers = new FakeWorkers(
    2,
    inner,
    () => 100,
    () => 1,
  );
  const result = await runTrial({
    ...base,
    workers,
    offsetsMs: [0, 500],
    policy: 'fifo',
    estimatedAudioSeconds: [1, 1],
    timers,
  });
  const record = trialRecord(result, {
    voice: 'v',
    layout: 'l',
    k: 2,
    workers: 2,
    round: 1,
    purpose: 'sans_trou',
    firstAudioLimitMs: 500,
    cores: 2,
    swapPages: 0,
  });
  return { result, record };
}

describe('a capacity trial, with fake workers on virtual time', () => {
  it('fifo: two workers, two listeners arriving together; every time worked out by hand', async () => {
    const timers = new VirtualTimers(0);
    const workers = new FakeWorkers(
      2,
      timers,
      (s) => [500, 800][s] as number,
      (s) => [2, 1][s] as number,
    );
    const r = await runTrial({
      ...base,
      workers,
      offsetsMs: [0, 0],
      policy: 'fifo',
      estimatedAudioSeconds: [2, 1],
      timers,
    });
    assert.equal(r.state, 'done');
    // 50: w0 <- L0s0, w1 <- L0s1; 550: w0 <- L1s0; 850: w1 <- L1s1.
    assert.deepEqual(
      workers.sent.map((j) => [j.worker, j.sentence, j.atMs]),
      [
        [0, 0, 50],
        [1, 1, 50],
        [0, 0, 550],
        [1, 1, 850],
      ],
    );
    assert.deepEqual(
      r.streams.map((s) => s.firstAudioMs),
      [500, 1000],
    );
    assert.deepEqual(
      r.streams.map((s) => s.sentences.map((p) => [p.readyMs, p.playMs, p.endMs])),
      [
        [
          [550, 550, 2550],
          [850, 2550, 3550],
        ],
        [
          [1050, 1050, 3050],
          [1650, 3050, 4050],
        ],
      ],
    );
    assert.equal(r.gaps, 0);
    // Nearest-rank p95 of [500, 1000] is 1000.
    assert.equal(r.firstAudioP95Ms, 1000);
    assert.equal(trialHeld(r), true);
    assert.equal(trialOutcome(r, 'sans_trou', 1000, null).inBound, true);
    assert.equal(trialOutcome(r, 'sans_trou', 999, null).inBound, false);
    assert.equal(r.worstLatenessMs, 0);
  });

  it("deadline: the same trial serves each listener's first sentence first, and first audio p95 falls to 500 ms", async () => {
    const timers = new VirtualTimers(0);
    const workers = new FakeWorkers(
      2,
      timers,
      (s) => [500, 800][s] as number,
      (s) => [2, 1][s] as number,
    );
    const r = await runTrial({
      ...base,
      workers,
      offsetsMs: [0, 0],
      policy: 'deadline',
      estimatedAudioSeconds: [2, 1],
      timers,
    });
    // 50: both first sentences; 550: L1s1 (due 50 + 2000, L1 not yet playing) then L0s1 (due 550 + 2000).
    assert.deepEqual(
      workers.sent.map((j) => [j.worker, j.sentence, j.atMs]),
      [
        [0, 0, 50],
        [1, 0, 50],
        [0, 1, 550],
        [1, 1, 550],
      ],
    );
    assert.deepEqual(
      r.streams.map((s) => s.firstAudioMs),
      [500, 500],
    );
    assert.equal(r.firstAudioP95Ms, 500);
    assert.equal(r.gaps, 0);
  });

  it('a sentence ready after the previous one ended is a gap, counted and timed', async () => {
    const timers = new VirtualTimers(0);
    const workers = new FakeWorkers(
      1,
      timers,
      (s) => [200, 1500][s] as number,
      () => 1,
    );
    const r = await runTrial({
      ...base,
      workers,
      offsetsMs: [0],
      policy: 'fifo',
      estimatedAudioSeconds: [1, 1],
      timers,
    });
    // s0 ready 250, plays to 1250; s1 ready 1750: 500 ms of silence.
    const s = r.streams[0]!;
    assert.deepEqual([s.firstAudioMs, s.gaps, s.gapSeconds, s.worstGapSeconds], [200, 1, 0.5, 0.5]);
    assert.deepEqual(
      s.sentences.map((p) => [p.playMs, p.gapMs]),
      [
        [250, 0],
        [1750, 500],
      ],
    );
    assert.equal(trialHeld(r), false);
    const rec = trialRecord(r, {
      voice: 'v',
      layout: 'l',
      k: 1,
      workers: 1,
      round: 1,
      purpose: 'sans_trou',
      firstAudioLimitMs: 500,
      cores: 2,
      swapPages: 0,
    });
    assert.deepEqual([rec.tenu, rec.trous, rec.flux_avec_trous, rec.premier_son_p95_ms], [false, 1, 1, 200]);
    assert.deepEqual(
      rec.flux_detail[0]!.phrases.map((p) => p.joue_ms),
      [250, 1750],
    );
  });

  it('cross-check: a stream served below real time hears gaps, one served well above does not', async () => {
    for (const [speed, expectGaps] of [
      [0.5, true],
      [0.8, true],
      [1.25, false],
      [2, false],
    ] as const) {
      const timers = new VirtualTimers(0);
      // Every sentence 1 s of audio, computed in 1/speed s: the listener's own x real time.
      const workers = new FakeWorkers(
        1,
        timers,
        () => 1000 / speed,
        () => 1,
      );
      const r = await runTrial({
        ...base,
        workers,
        offsetsMs: [0],
        policy: 'deadline',
        estimatedAudioSeconds: [1, 1, 1, 1],
        timers,
      });
      const rec = trialRecord(r, {
        voice: 'v',
        layout: 'l',
        k: 1,
        workers: 1,
        round: 2,
        purpose: 'sans_trou',
        firstAudioLimitMs: 5000,
        cores: 2,
        swapPages: 0,
      });
      assert.ok(Math.abs((rec.debit_par_flux ?? 0) - speed) < 1e-9, `per stream x${rec.debit_par_flux}`);
      assert.equal(rec.trous > 0, expectGaps, `x${speed}: ${rec.trous} gaps`);
      assert.equal(rec.trous, expectGaps ? 3 : 0);
    }
  });

  it('a short reply can hide a machine that falls behind: no gap heard, under x1 per listener, not held', async () => {
    const timers = new VirtualTimers(0);
    // One worker, two listeners; sentence 0 plays 2 s (made in 500 ms), sentence 1 plays 0.2 s (made in 900 ms).
    const workers = new FakeWorkers(
      1,
      timers,
      (s) => [500, 900][s] as number,
      (s) => [2, 0.2][s] as number,
    );
    const r = await runTrial({
      ...base,
      workers,
      offsetsMs: [0, 0],
      policy: 'deadline',
      estimatedAudioSeconds: [2, 0.2],
      timers,
    });
    // Ready: L0s0 550, L1s0 1050, L0s1 1950 (due 2550), L1s1 2850 (due 3050): no gap.
    assert.deepEqual([r.state, r.gaps], ['done', 0]);
    // 4.4 s of audio made from 50 to 2850 ms: x1.571, x0.786 per listener.
    const out = trialOutcome(r, 'sans_trou', 10_000, trialLiveSpeed(r, 1).speed);
    assert.deepEqual([out.gapFree, out.keptPace, out.held], [true, false, false]);
    assert.equal(trialHeld(r), false);
    const rec = trialRecord(r, {
      voice: 'v',
      layout: 'l',
      k: 2,
      workers: 1,
      round: 1,
      purpose: 'sans_trou',
      firstAudioLimitMs: 500,
      cores: 2,
      swapPages: 0,
    });
    assert.deepEqual([rec.sans_trou, rec.au_rythme, rec.tenu], [true, false, false]);
    assert.ok(Math.abs((rec.debit_par_flux ?? 0) - 4.4 / 2.8 / 2) < 1e-9, String(rec.debit_par_flux));
    // The same sentences made faster keep pace: held.
    const quick = new FakeWorkers(
      1,
      timers,
      (s) => [500, 500][s] as number,
      (s) => [2, 0.2][s] as number,
    );
    const q = await runTrial({
      ...base,
      workers: quick,
      offsetsMs: [0, 0],
      policy: 'deadline',
      estimatedAudioSeconds: [2, 0.2],
      timers,
    });
    assert.deepEqual(trialOutcome(q, 'sans_trou', 10_000, trialLiveSpeed(q, 1).speed), {
      gapFree: true,
      keptPace: true,
      held: true,
      inBound: true,
    });
  });

  it('a trial stopped at a gap before every listener arrived: only the listeners due count for the arrivals control', async () => {
    const timers = new VirtualTimers(1000);
    // Each 1 s sentence takes 1.2 s on the one worker: listener 0's second sentence is 200 ms late, at 50 + 2400.
    const workers = new FakeWorkers(
      1,
      timers,
      () => 1200,
      () => 1,
    );
    const r = await runTrial({
      ...base,
      workers,
      offsetsMs: [0, 300, 600, 5000],
      policy: 'fifo',
      estimatedAudioSeconds: [1, 1],
      timers,
      stop: { atGap: true },
    });
    assert.equal(r.state, 'stopped');
    assert.equal(r.gaps, 1);
    assert.deepEqual([r.endMs, r.settledMs], [1000 + 50 + 2400, 1000 + 50 + 2400]);
    // The last listener was due at 6050, after the trial ended: not due, not late, not arrived.
    assert.deepEqual(
      r.arrivals.map((a) => a.due),
      [true, true, true, false],
    );
    assert.equal(r.worstLatenessMs, 0);
    const rec = trialRecord(r, {
      voice: 'v',
      layout: 'l',
      k: 4,
      workers: 1,
      round: 1,
      purpose: 'sans_trou',
      firstAudioLimitMs: 500,
      cores: 2,
      swapPages: 0,
    });
    assert.equal(rec.controles.find((c) => c.name === 'arrivals')?.held, true);
    assert.equal(rec.controle_tenu, true);
    assert.deepEqual([rec.tenu, rec.sans_trou], [false, false]);
    assert.equal(rec.flux_detail[3]?.arrivee_ms, null);
    // Listener 0 waited 1200 ms; listeners 1 and 2 had no audio yet and count their wait so far (3450 - 1350, 3450 - 1650), not nothing.
    assert.equal(r.firstAudioP95Ms, 2100);
  });

  it('a due listener that arrives late fails the arrivals control, whatever it heard', async () => {
    const { result: r, record: rec } = await lateSecondArrival(0);
    assert.equal(r.worstLatenessMs, 8);
    assert.deepEqual(
      [rec.tenu, rec.controle_tenu, rec.controles.find((c) => c.name === 'arrivals')?.measured],
      [true, false, 8],
    );
  });

  it('the part of a late arrival the whole machine stopped is left out of the control, and kept in the archive', async () => {
    const late = async (stoppedMs: number): Promise<TrialRecord> => (await lateSecondArrival(stoppedMs)).record;
    const paused = await late(6);
    const arrivals = paused.controles.find((c) => c.name === 'arrivals');
    assert.deepEqual([arrivals?.held, arrivals?.measured, paused.controle_tenu], [true, 2, true]);
    assert.match(arrivals?.message ?? '', /leaving out up to 6 ms the whole machine stopped/);
    assert.deepEqual(
      [paused.retard_arrivee_max_ms, paused.retard_arrivee_brut_max_ms, paused.arret_machine_ms],
      [2, 8, 6],
    );
    // Only 2 ms of it the machine's: 6 ms remain the parent's, over the limit.
    const own = await late(2);
    assert.deepEqual([own.controle_tenu, own.retard_arrivee_max_ms, own.arret_machine_ms], [false, 6, 2]);
  });

  it('a worker that fails ends the trial as failed, naming it; a trial past its time is timed-out', async () => {
    const timers = new VirtualTimers(0);
    const failing = new FakeWorkers(
      2,
      timers,
      () => 100,
      () => 1,
      { worker: 1, job: 1 },
    );
    const r = await runTrial({
      ...base,
      workers: failing,
      offsetsMs: [0],
      policy: 'fifo',
      estimatedAudioSeconds: [1, 1],
      timers,
    });
    assert.deepEqual([r.state, r.message], ['failed', 'worker 1 failed: injected']);
    const t2 = new VirtualTimers(0);
    const r2 = await runTrial({
      ...base,
      workers: new FakeWorkers(
        1,
        t2,
        () => 100_000,
        () => 1,
      ),
      offsetsMs: [0],
      policy: 'fifo',
      estimatedAudioSeconds: [1],
      timers: t2,
      timeoutMs: 5000,
    });
    assert.deepEqual([r2.state, r2.message], ['timed-out', 'the trial did not finish within 5 s']);
    // Fake worker w takes w major faults per job; a worker given no job took none.
    const t3 = new VirtualTimers(0);
    const idle = await runTrial({
      ...base,
      workers: new FakeWorkers(
        3,
        t3,
        () => 10,
        () => 1,
      ),
      offsetsMs: [0],
      policy: 'fifo',
      estimatedAudioSeconds: [1, 1],
      timers: t3,
    });
    assert.deepEqual(idle.majorFaults, [0, 1, 0]);
  });

  it("playback by itself: the first sentence's wait is the first audio, never a gap", () => {
    const p = playback(100, [
      { readyMs: 400, audioSeconds: 0.5 },
      { readyMs: 900.5, audioSeconds: 1 },
      { readyMs: 2000, audioSeconds: 1 },
    ]);
    // 400-900, then 900.5 (0.5 ms: the clock's grain, no gap), plays to 1900.5, then 2000: a 99.5 ms gap.
    assert.deepEqual([p.firstAudioMs, p.gaps, p.gapSeconds, p.worstGapSeconds], [300, 1, 0.0995, 0.0995]);
    // A 15 ms wait is reported apart, under the 20 ms tolerance: not a gap heard; a pre-buffer of 20 ms hides it.
    const short = [
      { readyMs: 400, audioSeconds: 0.5 },
      { readyMs: 915, audioSeconds: 1 },
    ];
    const q = playback(100, short);
    assert.deepEqual([q.gaps, q.shortGaps, q.worstGapSeconds], [0, 1, 0.015]);
    const buffered = playback(100, short, { prebufferMs: 20 });
    assert.deepEqual([buffered.firstAudioMs, buffered.gaps, buffered.shortGaps], [320, 0, 0]);
    // With no tolerance it is a gap.
    assert.equal(playback(100, short, { toleranceMs: 1 }).gaps, 1);
  });

  it('a trial stopped at a gap waits for the sentences still in flight, so they never reach the next trial', async () => {
    const timers = new VirtualTimers(0);
    // Two workers; listener 0's sentences: 1 s of audio each; sentence 1 takes 1.5 s, so its gap is known while sentence 2 is still running.
    const workers = new FakeWorkers(
      2,
      timers,
      (s) => [100, 1500, 5000][s] as number,
      () => 1,
    );
    const r = await runTrial({
      ...base,
      workers,
      offsetsMs: [0],
      policy: 'fifo',
      estimatedAudioSeconds: [1, 1, 1],
      timers,
      stop: { atGap: true },
    });
    assert.equal(r.state, 'stopped');
    // It ended at the gap (50 + 1500) but resolved once sentence 2 came back (50 + 100 + 5000).
    assert.deepEqual([r.endMs, r.settledMs, r.pending], [1550, 5150, 0]);
    const next = await runTrial({
      ...base,
      workers,
      offsetsMs: [0],
      policy: 'fifo',
      estimatedAudioSeconds: [1, 1, 1],
      timers,
    });
    assert.equal(next.state, 'done', next.message);
  });

  it('a worker that fails during that wait ends it at once; its sentence is left pending, so the caller lets the workers go', async () => {
    const timers = new VirtualTimers(0);
    // Job 2 (sentence 2, on worker 0) fails 5000 ms in.
    const workers = new FakeWorkers(
      2,
      timers,
      (s) => [100, 1500, 5000][s] as number,
      () => 1,
      { worker: 0, job: 2 },
    );
    const r = await runTrial({
      ...base,
      workers,
      offsetsMs: [0],
      policy: 'fifo',
      estimatedAudioSeconds: [1, 1, 1],
      timers,
      stop: { atGap: true },
    });
    assert.deepEqual([r.state, r.settledMs, r.pending], ['stopped', 5150, 1]);
  });

  it('a worker of its own per listener: worker i serves listener i only, in order', async () => {
    const timers = new VirtualTimers(0);
    // Worker 1 is slow: in a pool, worker 0 would take listener 1's sentences too.
    const workers = new FakeWorkers(
      2,
      timers,
      () => 100,
      () => 1,
    );
    const slow = new FakeWorkers(
      2,
      timers,
      (_s, w) => (w === 1 ? 400 : 100),
      () => 1,
    );
    const own = await runTrial({
      ...base,
      workers: slow,
      dedicated: true,
      offsetsMs: [0, 0],
      policy: 'deadline',
      estimatedAudioSeconds: [1, 1, 1],
      timers,
    });
    assert.equal(own.state, 'done');
    assert.ok(own.jobs.every((j) => j.stream === j.worker));
    assert.deepEqual(
      [0, 1].map((w) => own.jobs.filter((j) => j.worker === w).map((j) => j.sentence)),
      [
        [0, 1, 2],
        [0, 1, 2],
      ],
    );
    const pool = await runTrial({
      ...base,
      workers,
      offsetsMs: [0, 0],
      policy: 'fifo',
      estimatedAudioSeconds: [1, 1, 1],
      timers,
    });
    // fifo in a pool: listener 0's first two sentences go to both workers at once.
    assert.deepEqual(
      workers.sent.slice(0, 2).map((j) => [j.worker, j.sentence]),
      [
        [0, 0],
        [1, 1],
      ],
    );
    assert.ok(pool.jobs.some((j) => j.stream !== j.worker));
    await assert.rejects(
      runTrial({
        ...base,
        workers,
        dedicated: true,
        offsetsMs: [0],
        policy: 'fifo',
        estimatedAudioSeconds: [1],
        timers,
      }),
      /needs 1 workers, got 2/,
    );
  });

  it('a first-audio trial ends once every listener has its first audio, or at the first one over the bound', async () => {
    const timers = new VirtualTimers(0);
    const workers = new FakeWorkers(
      2,
      timers,
      () => 300,
      () => 1,
    );
    const r = await runTrial({
      ...base,
      workers,
      offsetsMs: [0, 0],
      policy: 'deadline',
      estimatedAudioSeconds: [1, 1, 1],
      timers,
      stop: { atGap: true, firstAudioMs: 500 },
    });
    assert.deepEqual([r.state, r.message, r.jobs.length], ['stopped', 'every listener has its first audio', 2]);
    assert.deepEqual(trialOutcome(r, 'premier_son', 500, null), {
      gapFree: null,
      keptPace: null,
      held: null,
      inBound: true,
    });
    const over = await runTrial({
      ...base,
      workers: new FakeWorkers(
        1,
        timers,
        () => 300,
        () => 1,
      ),
      offsetsMs: [0, 0],
      policy: 'deadline',
      estimatedAudioSeconds: [1, 1, 1],
      timers,
      stop: { atGap: true, firstAudioMs: 500 },
    });
    // The one worker: listener 0 at 300 ms, listener 1 at 600 ms, over 500.
    assert.deepEqual(
      [over.state, over.message],
      ['stopped', 'listener 1 waited 600 ms for its first audio, over 500 ms'],
    );
    assert.deepEqual(trialOutcome(over, 'premier_son', 500, null), {
      gapFree: null,
      keptPace: null,
      held: null,
      inBound: false,
    });
  });
});
