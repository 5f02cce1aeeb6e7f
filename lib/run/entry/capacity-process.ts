/** Entry of a capacity worker run as its own process (possibly under taskset). */
import { serveCapacity } from '../../capacity/runtime/serve.js';
import { allowedCores } from '../../measure/clock.js';
import { processChannel } from '../runtime/channel.js';
import { failureMessage } from '../runtime/stream.js';

const { inbox, send } = processChannel();
try {
  await serveCapacity({ send, next: () => inbox.next(), createSession: (create) => create(), cores: () => allowedCores('/proc/self/status') }, await inbox.next());
} catch (err) {
  send(failureMessage(err));
  process.exitCode = 1;
  process.disconnect?.();
}
