/** Entry of a capacity worker run as its own process (possibly under taskset). */
import { serveCapacity } from '../../capacity/runtime/serve.js';
import { allowedCores } from '../../measure/clock.js';
import { ParentMessageSchema, type ReceivedParentMessage, type WorkerMessage } from '../messages.js';
import { Inbox } from '../runtime/inbox.js';
import { failureMessage } from '../runtime/stream.js';

const inbox = new Inbox<ReceivedParentMessage>();
const send = (m: WorkerMessage): void => void process.send?.(m);
process.on('message', (raw: unknown) => {
  const parsed = ParentMessageSchema.safeParse(raw);
  if (parsed.success) inbox.push(parsed.data);
});
// Ctrl-C reaches the whole process group: the parent decides. The parent gone: stop at once.
process.on('SIGINT', () => undefined);
process.on('disconnect', () => process.exit(0));
try {
  await serveCapacity({ send, next: () => inbox.next(), createSession: (create) => create(), cores: () => allowedCores('/proc/self/status') }, await inbox.next());
} catch (err) {
  send(failureMessage(err));
  process.exitCode = 1;
  process.disconnect?.();
}
