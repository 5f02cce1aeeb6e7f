import { PiperParallelError } from '../core/errors.js';

const COUNT = 0;
const GENERATION = 1;
const BROKEN = 2;
const PARTIES = 3;
const LOCK = 4;
const SLOTS = 5;

/**
 * A reusable barrier for worker threads on a SharedArrayBuffer: arrivals are counted, the last
 * one bumps the generation and wakes the rest. A waiter that times out breaks the barrier, and a
 * broken barrier (also breakable from the main thread) releases every waiter with an error.
 * It also carries a small mutex, used to serialize session creation.
 */
export class SabBarrier {
  private readonly cells: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer) {
    this.cells = new Int32Array(buffer);
  }

  static create(parties: number): SabBarrier {
    const b = new SabBarrier(new SharedArrayBuffer(SLOTS * 4));
    Atomics.store(b.cells, PARTIES, parties);
    return b;
  }

  get broken(): boolean {
    return Atomics.load(this.cells, BROKEN) !== 0;
  }

  /** Release every waiter with an error; later arrivals fail at once. */
  break(): void {
    Atomics.store(this.cells, BROKEN, 1);
    Atomics.notify(this.cells, GENERATION);
    Atomics.notify(this.cells, LOCK);
  }

  /** Wait for every party (blocks the calling worker thread; never call it on the main thread). */
  arrive(timeoutMs: number, now: () => number = () => performance.now()): void {
    if (this.broken)
      throw new PiperParallelError('BARRIER', 'the barrier is broken: another stream failed or the arm was stopped');
    const generation = Atomics.load(this.cells, GENERATION);
    const arrived = Atomics.add(this.cells, COUNT, 1) + 1;
    if (arrived === Atomics.load(this.cells, PARTIES)) {
      Atomics.store(this.cells, COUNT, 0);
      Atomics.add(this.cells, GENERATION, 1);
      Atomics.notify(this.cells, GENERATION);
      return;
    }
    const deadline = now() + timeoutMs;
    for (;;) {
      const left = deadline - now();
      if (left <= 0) {
        this.break();
        throw new PiperParallelError(
          'BARRIER',
          `the barrier timed out after ${Math.round(timeoutMs / 1000)} s: a stream did not arrive`,
        );
      }
      Atomics.wait(this.cells, GENERATION, generation, left);
      if (Atomics.load(this.cells, GENERATION) !== generation) return;
      if (this.broken)
        throw new PiperParallelError(
          'BARRIER',
          'the barrier was broken while waiting: another stream failed or the arm was stopped',
        );
    }
  }

  /** Run `fn` while holding the mutex (blocking wait, worker threads only). */
  async withLock<T>(fn: () => Promise<T>, timeoutMs: number): Promise<T> {
    const deadline = performance.now() + timeoutMs;
    while (Atomics.compareExchange(this.cells, LOCK, 0, 1) !== 0) {
      if (this.broken)
        throw new PiperParallelError('BARRIER', 'the barrier was broken while waiting for the session lock');
      const left = deadline - performance.now();
      if (left <= 0)
        throw new PiperParallelError(
          'TIMEOUT',
          `waited ${Math.round(timeoutMs / 1000)} s for another stream to create its session`,
        );
      Atomics.wait(this.cells, LOCK, 1, Math.min(left, 100));
    }
    try {
      return await fn();
    } finally {
      Atomics.store(this.cells, LOCK, 0);
      Atomics.notify(this.cells, LOCK);
    }
  }
}
