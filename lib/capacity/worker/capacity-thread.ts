/** Entry of a capacity worker run as a worker thread (a piscina task that lasts until it is stopped). */
import { execFileSync } from 'node:child_process';
import { serveCapacity } from './serve.js';
import { PiperParallelError } from '../../core/errors.js';
import { allowedCores } from '../../measure/clock.js';
import { currentTid } from '../../measure/thread-cpu.js';
import { portChannel } from '../../workers/channel.js';
import { failureMessage } from '../../workers/failure.js';
import type { ThreadTask } from '../../workers/worker.js';

export default async function capacityThread(task: ThreadTask): Promise<'done' | 'failed'> {
  const { port } = task;
  const { inbox, send } = portChannel(port);
  try {
    if (task.core !== null) {
      if (!task.taskset)
        throw new PiperParallelError(
          'AFFINITY',
          'affinity was requested but util-linux taskset is not installed; install util-linux or use a free layout',
        );
      execFileSync(task.taskset, ['-p', '-c', String(task.core), String(currentTid())], { stdio: 'ignore' });
    }
    await serveCapacity(
      {
        send,
        next: () => inbox.next(),
        createSession: (create) => create(),
        cores: () => allowedCores('/proc/thread-self/status'),
      },
      await inbox.next(),
    );
    return 'done';
  } catch (err) {
    send(failureMessage(err));
    return 'failed';
  } finally {
    port.close();
  }
}
