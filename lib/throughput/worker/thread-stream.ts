/**
 * Entry of a stream worker run as a worker thread (a piscina task that lasts the whole arm).
 * Pins its own thread before its session exists, counts the CPU of its thread and of the
 * onnxruntime pool threads its session created, and meets the others on a shared-memory barrier.
 */
import { execFileSync } from 'node:child_process';
import { PiperParallelError } from '../../core/errors.js';
import { allowedCores } from '../../measure/clock.js';
import { currentTid, processTids, threadsCpuSeconds } from '../../measure/thread-cpu.js';
import { SHERPA_THREAD_REFUSAL } from '../../workers/messages.js';
import { portChannel } from '../../workers/channel.js';
import { SabBarrier } from '../../workers/sab-barrier.js';
import { runStream, type StreamHost } from './stream.js';
import { failureMessage } from '../../workers/failure.js';
import type { ThreadTask } from '../../workers/worker.js';

export default async function threadStream(task: ThreadTask): Promise<'done' | 'failed'> {
  const { port } = task;
  const { inbox, send } = portChannel(port);
  const barrier = new SabBarrier(task.barrier);
  try {
    const tid = currentTid();
    if (task.core !== null) {
      if (!task.taskset)
        throw new PiperParallelError(
          'AFFINITY',
          'affinity was requested but util-linux taskset is not installed; install util-linux or use --affinity off',
        );
      // Threads onnxruntime creates later inherit this thread's affinity.
      execFileSync(task.taskset, ['-p', '-c', String(task.core), String(tid)], { stdio: 'ignore' });
    }
    let counted = [tid];
    const host: StreamHost = {
      send,
      barrier: async () => barrier.arrive(task.barrierMs),
      // Serialized across the arm's threads so the threads a session adds are known to be its own.
      createSession: (create) =>
        barrier.withLock(async () => {
          const before = new Set(processTids());
          const session = await create();
          counted = [tid, ...processTids().filter((t) => !before.has(t))];
          return session;
        }, task.loadMs),
      cpuSeconds: () => threadsCpuSeconds(counted),
      cores: () => allowedCores('/proc/thread-self/status'),
      identity: () => ({ tid, cpuThreads: counted.length }),
    };
    const first = await inbox.next();
    // sherpa-onnx ends its whole process on a fatal error: in a thread, that would be the parent's.
    if (first.type === 'init' && first.engine.kind === 'sherpa')
      throw new PiperParallelError('USAGE', SHERPA_THREAD_REFUSAL);
    await runStream(host, first);
    return 'done';
  } catch (err) {
    send(failureMessage(err));
    // The others must not wait for this stream.
    barrier.break();
    return 'failed';
  } finally {
    port.close();
  }
}
