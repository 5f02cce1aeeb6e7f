/**
 * What a stream worker run as its own process does: listen to the parent, meet it at each barrier,
 * count the whole process's CPU. The entry file calls this; the fault suite calls it with a host
 * of its own wrapped around this one.
 */
import { PiperParallelError } from '../../core/errors.js';
import { allowedCores, waitUntil } from '../../measure/clock.js';
import type { ReceivedParentMessage } from '../../workers/messages.js';
import { processChannel } from '../../workers/channel.js';
import { runStream, type StreamHost } from './stream.js';
import { failureMessage } from '../../workers/failure.js';

export async function runProcessStream(
  wrap: (host: StreamHost, init: ReceivedParentMessage) => StreamHost = (h) => h,
): Promise<void> {
  const { inbox, send } = processChannel();

  const host: StreamHost = {
    send,
    // The parent is the barrier: it answers every stream's ready with one start instant.
    barrier: async (pass) => {
      const start = await inbox.next();
      if (start.type !== 'start' || start.pass !== pass) {
        throw new PiperParallelError('BARRIER', `expected the start of pass ${pass}, got ${start.type}`);
      }
      await waitUntil(start.atMs);
    },
    createSession: (create) => create(),
    cpuSeconds: () => {
      const u = process.cpuUsage();
      return (u.user + u.system) / 1e6;
    },
    cores: () => allowedCores('/proc/self/status'),
  };
  try {
    const init = await inbox.next();
    await runStream(wrap(host, init), init);
    process.disconnect?.();
  } catch (err) {
    send(failureMessage(err));
    process.exitCode = 1;
    process.disconnect?.();
  }
}
