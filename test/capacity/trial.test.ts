import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { playback } from '../../lib/capacity/playback.js';
import { trialHeld, trialRecord } from '../../lib/capacity/record.js';
import { VirtualTimers } from '../../lib/capacity/timers.js';
import { runTrial } from '../../lib/capacity/trial.js';
import { FakeWorkers } from './fake-workers.js';

const base = { leadMs: 50, timeoutMs: 60_000 };

describe('a capacity trial, with fake workers on virtual time', () => {
  it('fifo: two workers, two listeners arriving together; every time worked out by hand', async () => {
    const timers = new VirtualTimers(0);
    const workers = new FakeWorkers(2, timers, (s) => [500, 800][s] as number, (s) => [2, 1][s] as number);
    const r = await runTrial({ ...base, workers, offsetsMs: [0, 0], policy: 'fifo', estimatedAudioSeconds: [2, 1], timers });
    assert.equal(r.state, 'done');
    // 50: w0 <- L0s0, w1 <- L0s1; 550: w0 <- L1s0; 850: w1 <- L1s1.
    assert.deepEqual(workers.sent.map((j) => [j.worker, j.sentence, j.atMs]), [[0, 0, 50], [1, 1, 50], [0, 0, 550], [1, 1, 850]]);
    assert.deepEqual(r.streams.map((s) => s.firstAudioMs), [500, 1000]);
    assert.deepEqual(r.streams.map((s) => s.sentences.map((p) => [p.readyMs, p.playMs, p.endMs])), [[[550, 550, 2550], [850, 2550, 3550]], [[1050, 1050, 3050], [1650, 3050, 4050]]]);
    assert.equal(r.gaps, 0);
    // Nearest-rank p95 of [500, 1000] is 1000.
    assert.equal(r.firstAudioP95Ms, 1000);
    assert.equal(trialHeld(r, 1000), true);
    assert.equal(trialHeld(r, 999), false);
    assert.equal(r.worstLatenessMs, 0);
  });

  it('deadline: the same trial serves each listener\'s first sentence first, and first audio p95 falls to 500 ms', async () => {
    const timers = new VirtualTimers(0);
    const workers = new FakeWorkers(2, timers, (s) => [500, 800][s] as number, (s) => [2, 1][s] as number);
    const r = await runTrial({ ...base, workers, offsetsMs: [0, 0], policy: 'deadline', estimatedAudioSeconds: [2, 1], timers });
    // 50: both first sentences; 550: L1s1 (due 50 + 2000, L1 not yet playing) then L0s1 (due 550 + 2000).
    assert.deepEqual(workers.sent.map((j) => [j.worker, j.sentence, j.atMs]), [[0, 0, 50], [1, 0, 50], [0, 1, 550], [1, 1, 550]]);
    assert.deepEqual(r.streams.map((s) => s.firstAudioMs), [500, 500]);
    assert.equal(r.firstAudioP95Ms, 500);
    assert.equal(r.gaps, 0);
  });

  it('a sentence ready after the previous one ended is a gap, counted and timed', async () => {
    const timers = new VirtualTimers(0);
    const workers = new FakeWorkers(1, timers, (s) => [200, 1500][s] as number, () => 1);
    const r = await runTrial({ ...base, workers, offsetsMs: [0], policy: 'fifo', estimatedAudioSeconds: [1, 1], timers });
    // s0 ready 250, plays to 1250; s1 ready 1750: 500 ms of silence.
    const s = r.streams[0]!;
    assert.deepEqual([s.firstAudioMs, s.gaps, s.gapSeconds, s.worstGapSeconds], [200, 1, 0.5, 0.5]);
    assert.deepEqual(s.sentences.map((p) => [p.playMs, p.gapMs]), [[250, 0], [1750, 500]]);
    assert.equal(trialHeld(r, 10_000), false);
    const rec = trialRecord(r, { voice: 'v', layout: 'l', k: 1, workers: 1, round: 1, firstAudioLimitMs: 500, swapPages: 0 });
    assert.deepEqual([rec.tenu, rec.trous, rec.flux_avec_trous, rec.premier_son_p95_ms], [false, 1, 1, 200]);
    assert.deepEqual(rec.flux_detail[0]!.phrases.map((p) => p.joue_ms), [250, 1750]);
  });

  it('cross-check: a stream served below real time hears gaps, one served well above does not', async () => {
    for (const [speed, expectGaps] of [[0.5, true], [0.8, true], [1.25, false], [2, false]] as const) {
      const timers = new VirtualTimers(0);
      // Every sentence 1 s of audio, computed in 1/speed s: the listener's own x real time.
      const workers = new FakeWorkers(1, timers, () => 1000 / speed, () => 1);
      const r = await runTrial({ ...base, workers, offsetsMs: [0], policy: 'deadline', estimatedAudioSeconds: [1, 1, 1, 1], timers });
      const rec = trialRecord(r, { voice: 'v', layout: 'l', k: 1, workers: 1, round: 2, firstAudioLimitMs: 5000, swapPages: 0 });
      assert.ok(Math.abs((rec.debit_par_flux ?? 0) - speed) < 1e-9, `per stream x${rec.debit_par_flux}`);
      assert.equal(rec.trous > 0, expectGaps, `x${speed}: ${rec.trous} gaps`);
      assert.equal(rec.trous, expectGaps ? 3 : 0);
    }
  });

  it('staggered listeners: lateness 0 on virtual time, and the arrivals control holds; a search step stops at its first gap', async () => {
    const timers = new VirtualTimers(1000);
    // Each 1 s sentence takes 1.2 s: listener 0's second sentence is ready 200 ms after its first ended.
    const workers = new FakeWorkers(1, timers, () => 1200, () => 1);
    const r = await runTrial({ ...base, workers, offsetsMs: [0, 300, 600], policy: 'fifo', estimatedAudioSeconds: [1, 1], timers, stopAtFirstGap: true });
    assert.equal(r.state, 'stopped');
    assert.equal(r.gaps, 1);
    assert.equal(r.jobs.length, 2);
    // The one worker was idle when it stopped: nothing in flight.
    assert.equal(r.pending, 0);
    assert.deepEqual(r.arrivals.map((a) => a.actualMs - a.plannedMs), [0, 0, 0]);
    const rec = trialRecord(r, { voice: 'v', layout: 'l', k: 3, workers: 1, round: 1, firstAudioLimitMs: 500, swapPages: 0 });
    assert.equal(rec.controles.find((c) => c.name === 'arrivals')?.held, true);
    assert.equal(rec.controle_tenu, true);
  });

  it('a worker that fails ends the trial as failed, naming it; a trial past its time is timed-out', async () => {
    const timers = new VirtualTimers(0);
    const failing = new FakeWorkers(2, timers, () => 100, () => 1, { worker: 1, job: 1 });
    const r = await runTrial({ ...base, workers: failing, offsetsMs: [0], policy: 'fifo', estimatedAudioSeconds: [1, 1], timers });
    assert.deepEqual([r.state, r.message], ['failed', 'worker 1 failed: injected']);
    const slow = new FakeWorkers(1, new VirtualTimers(0), () => 100_000, () => 1);
    const t2 = new VirtualTimers(0);
    const r2 = await runTrial({ ...base, workers: new FakeWorkers(1, t2, () => 100_000, () => 1), offsetsMs: [0], policy: 'fifo', estimatedAudioSeconds: [1], timers: t2, timeoutMs: 5000 });
    assert.equal(slow.count, 1);
    assert.deepEqual([r2.state, r2.message], ['timed-out', 'the trial did not finish within 5 s']);
    // Fake worker w takes w major faults per job; a worker given no job took none.
    const t3 = new VirtualTimers(0);
    const idle = await runTrial({ ...base, workers: new FakeWorkers(3, t3, () => 10, () => 1), offsetsMs: [0], policy: 'fifo', estimatedAudioSeconds: [1, 1], timers: t3 });
    assert.deepEqual(idle.majorFaults, [0, 1, 0]);
  });

  it('playback by itself: the first sentence\'s wait is the first audio, never a gap', () => {
    const p = playback(100, [{ readyMs: 400, audioSeconds: 0.5 }, { readyMs: 900.5, audioSeconds: 1 }, { readyMs: 2000, audioSeconds: 1 }]);
    // 400-900, then 900.5 (0.5 ms: the clock's grain, no gap), plays to 1900.5, then 2000: a 99.5 ms gap.
    assert.deepEqual([p.firstAudioMs, p.gaps, p.gapSeconds, p.worstGapSeconds], [300, 1, 0.0995, 0.0995]);
  });

  it('a trial stopped at a gap waits for the sentences still in flight, so they never reach the next trial', async () => {
    const timers = new VirtualTimers(0);
    // Two workers; listener 0's sentences: 1 s of audio each; sentence 1 takes 1.5 s, so its gap is known while sentence 2 is still running.
    const workers = new FakeWorkers(2, timers, (s) => [100, 1500, 5000][s] as number, () => 1);
    const r = await runTrial({ ...base, workers, offsetsMs: [0], policy: 'fifo', estimatedAudioSeconds: [1, 1, 1], timers, stopAtFirstGap: true });
    assert.equal(r.state, 'stopped');
    assert.equal(r.pending, 0);
    // Settled after the in-flight sentence came back (t = 50 + 100 + 5000), not at the gap (50 + 1500).
    assert.equal(timers.now(), 5150);
    const next = await runTrial({ ...base, workers, offsetsMs: [0], policy: 'fifo', estimatedAudioSeconds: [1, 1, 1], timers });
    assert.equal(next.state, 'done', next.message);
  });
});
