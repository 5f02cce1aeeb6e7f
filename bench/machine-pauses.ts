/**
 * node dist/bench/machine-pauses.js [SECONDS]: whether this machine stops as a whole, as the capacity
 * parent would feel it. A heartbeat every 2 ms in this process, run under SCHED_FIFO 10 as the capacity
 * parent is (re-run under chrt where permitted), for SECONDS (default 20) while every core is busy with
 * a nice-10 loop (as capacity workers are). Nothing of this machine's own can keep a SCHED_FIFO process
 * from running for long, so a heartbeat more than 8 ms apart is the kernel's or the host's. Printed: the
 * stalls' count, total, largest, and where each ended within a 100 ms period (by 10 ms bin, from the
 * first): a host's CPU quota (CFS bandwidth, 100 ms periods by default) holds the guest until a period
 * starts, so its stalls end in one bin.
 */
import { spawn, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

const seconds = Number(process.argv[2] ?? 20);
const STALL_MS = 8;

function heartbeat(): Promise<Array<{ startMs: number; endMs: number }>> {
  return new Promise((resolve) => {
    const stalls: Array<{ startMs: number; endMs: number }> = [];
    const endAt = performance.now() + seconds * 1000;
    let last = performance.now();
    const timer = setInterval(() => {
      const now = performance.now();
      if (now - last > STALL_MS) stalls.push({ startMs: last, endMs: now });
      last = now;
      if (now > endAt) {
        clearInterval(timer);
        resolve(stalls);
      }
    }, 2);
  });
}

async function main(): Promise<void> {
  const loops = Array.from({ length: availableParallelism() }, () =>
    spawn('nice', ['-n', '10', process.execPath, '-e', 'for(;;){}'], { stdio: 'ignore' }),
  );
  try {
    await new Promise((r) => setTimeout(r, 300));
    const stalls = await heartbeat();
    const lengths = stalls.map((s) => s.endMs - s.startMs);
    const bins = Array.from({ length: 10 }, () => 0);
    const origin = stalls[0]?.endMs ?? 0;
    for (const s of stalls) {
      const bin = Math.floor(((((s.endMs - origin) % 100) + 100) % 100) / 10);
      bins[bin] = (bins[bin] ?? 0) + 1;
    }
    const total = lengths.reduce((a, b) => a + b, 0);
    console.log(
      `${loops.length} busy nice-10 loops, ${seconds} s, heartbeat under ${process.env.PIPER_PARALLEL_FIFO ? 'SCHED_FIFO 10' : 'normal priority'}: ` +
        `${stalls.length} stall(s) over ${STALL_MS} ms, ${total.toFixed(0)} ms in all, largest ${Math.max(0, ...lengths).toFixed(1)} ms; ` +
        `ends by 10 ms bin of a 100 ms period: [${bins.join(', ')}]`,
    );
  } finally {
    for (const l of loops) l.kill('SIGKILL');
  }
}

// Run again under SCHED_FIFO 10 where permitted, as the capacity parent runs.
if (!process.env.PIPER_PARALLEL_FIFO) {
  const r = spawnSync('chrt', ['-f', '-R', '10', process.execPath, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, PIPER_PARALLEL_FIFO: '1' },
    timeout: (seconds + 30) * 1000,
  });
  if (r.status !== 0) await main();
} else await main();
