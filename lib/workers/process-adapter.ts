import { stripControl } from '../report/markdown.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { PiperParallelError } from '../core/errors.js';
import { findTaskset } from './taskset.js';

export { findTaskset };
import { WorkerMessageSchema, type ParentMessage, type WorkerMessage } from './messages.js';
import type { SpawnOptions, StreamWorker, WorkerAdapter, WorkerExit } from './worker.js';

class ProcessWorker implements StreamWorker {
  readonly exited: Promise<WorkerExit>;
  private readonly listeners: Array<(m: WorkerMessage) => void> = [];

  constructor(
    readonly rang: number,
    private readonly child: ChildProcess,
  ) {
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => resolve({ code, signal }));
      // 'error' without an 'exit' to follow only when the process never started; a failed send to a
      // child that was just killed must not hide the signal that killed it.
      child.on('error', () => {
        if (child.pid === undefined) resolve({ code: null, signal: null });
      });
    });
    child.on('message', (raw: unknown) => {
      const parsed = WorkerMessageSchema.safeParse(raw);
      const message: WorkerMessage = parsed.success
        ? parsed.data
        : { type: 'failed', message: `worker ${rang} sent a malformed message` };
      for (const l of this.listeners) l(message);
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  send(message: ParentMessage): void {
    // A child that died a moment ago: its exit says why; the failed send has nothing to add.
    if (this.child.connected) this.child.send(message, () => undefined);
  }

  onMessage(listener: (message: WorkerMessage) => void): void {
    this.listeners.push(listener);
  }

  async terminate(graceMs = 2000): Promise<WorkerExit> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
      const exit = await this.exited;
      clearTimeout(timer);
      return exit;
    }
    return this.exited;
  }
}

/** Each stream in its own Node process; pinned streams start under util-linux taskset. */
export class ProcessAdapter implements WorkerAdapter {
  readonly isolation = 'process' as const;

  constructor(
    private readonly options: {
      /** The worker's entry file (each experiment has its own). */
      entry: string;
      execArgv?: string[];
      args?: (rang: number) => string[];
      /** Where taskset is; tests pass null to act as a machine without it. */
      taskset?: string | null;
    },
  ) {}

  spawn({ rang, core }: SpawnOptions): StreamWorker {
    const entry = this.options.entry;
    const nodeArgs = [...(this.options.execArgv ?? []), entry, ...(this.options.args?.(rang) ?? [])];
    let command = process.execPath;
    let args = nodeArgs;
    if (core !== undefined) {
      const taskset = this.options.taskset === undefined ? findTaskset() : this.options.taskset;
      if (!taskset) {
        throw new PiperParallelError(
          'AFFINITY',
          'affinity was requested but util-linux taskset is not installed; install util-linux or use --affinity off',
        );
      }
      command = taskset;
      args = ['-c', String(core), process.execPath, ...nodeArgs];
    }
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe', 'ipc'], serialization: 'json' });
    // A worker's stderr (onnxruntime's warnings, a voice file's words in an error) reaches the terminal as every other
    // line does: stripped of control codes. Read as it comes, so a chatty worker never blocks on a full pipe.
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => process.stderr.write(stripControl(text)));
    return new ProcessWorker(rang, child);
  }
}
