/**
 * A worker's line to the parent, typed: parent messages validated into an inbox, worker messages
 * sent. One for a child process (IPC), one for a worker thread (its MessagePort).
 */
import type { MessagePort } from 'node:worker_threads';
import { ParentMessageSchema, type ReceivedParentMessage, type WorkerMessage } from './messages.js';
import { Inbox } from './inbox.js';

export interface Channel {
  inbox: Inbox<ReceivedParentMessage>;
  send(message: WorkerMessage): void;
}

function listen(on: (fn: (raw: unknown) => void) => void): Inbox<ReceivedParentMessage> {
  const inbox = new Inbox<ReceivedParentMessage>();
  on((raw) => {
    const parsed = ParentMessageSchema.safeParse(raw);
    if (parsed.success) inbox.push(parsed.data);
  });
  return inbox;
}

/** In a child process: Ctrl-C is the parent's to handle, and a parent gone means stop at once. */
export function processChannel(): Channel {
  const inbox = listen((fn) => process.on('message', fn));
  // Ctrl-C reaches the whole process group: the parent decides (SIGTERM, then SIGKILL).
  process.on('SIGINT', () => undefined);
  // The parent went away: nothing to report to, stop at once.
  process.on('disconnect', () => process.exit(0));
  return { inbox, send: (m) => void process.send?.(m) };
}

export function portChannel(port: MessagePort): Channel {
  return { inbox: listen((fn) => port.on('message', fn)), send: (m) => port.postMessage(m) };
}
