/** Entry of a capacity worker run as its own process (possibly under taskset). */
import { serveCapacity } from './serve.js';
import { allowedCores } from '../../measure/clock.js';
import { processChannel } from '../../workers/channel.js';
import { failureMessage } from '../../workers/failure.js';

const { inbox, send } = processChannel();
try {
  await serveCapacity(
    {
      send,
      next: () => inbox.next(),
      createSession: (create) => create(),
      cores: () => allowedCores('/proc/self/status'),
    },
    await inbox.next(),
  );
} catch (err) {
  send(failureMessage(err));
  process.exitCode = 1;
  process.disconnect?.();
}
