/**
 * What a stream worker run as its own process does: listen to the parent, meet it at each barrier,
 * count the whole process's CPU. The entry file calls this; the fault suite calls it with a host
 * of its own wrapped around this one.
 */
import { PiperParallelError } from '../../errors.js';
import { allowedCores, waitUntil } from '../../measure/clock.js';
import { ParentMessageSchema, type ReceivedParentMessage, type WorkerMessage } from '../messages.js';
import { Inbox } from './inbox.js';
import { failureMessage, runStream, type StreamHost } from './stream.js';

export async function runProcessStream(wrap: (host: StreamHost, init: ReceivedParentMessage) => StreamHost = (h) => h): Promise<void> {
  const inbox = new Inbox<ReceivedParentMessage>();
  const send = (message: WorkerMessage): void => void process.send?.(message);
  process.on('message', (raw: unknown) => {
    const parsed = ParentMessageSchema.safeParse(raw);
    if (parsed.success) inbox.push(parsed.data);
  });
  // Ctrl-C reaches the whole process group: the parent decides (SIGTERM, then SIGKILL).
  process.on('SIGINT', () => undefined);
  // The parent went away: nothing to report to, stop at once.
  process.on('disconnect', () => process.exit(0));

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
