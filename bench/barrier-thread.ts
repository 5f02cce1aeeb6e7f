/** Bench worker: meets its peers on the SharedArrayBuffer barrier `rounds` times, records each release. */
import { parentPort, workerData } from 'node:worker_threads';
import { SabBarrier } from '../lib/workers/sab-barrier.js';

const { buffer, rounds } = workerData as { buffer: SharedArrayBuffer; rounds: number };
const barrier = new SabBarrier(buffer);
const released = new Float64Array(rounds);
for (let r = 0; r < rounds; r += 1) {
  barrier.arrive(10_000);
  released[r] = Number(process.hrtime.bigint()) / 1e6;
  // A little work between rounds, as a pass would do.
  const t = performance.now();
  while (performance.now() - t < 1) {
    // spin
  }
}
parentPort?.postMessage(released);
