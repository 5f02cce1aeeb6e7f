import type { MessagePort } from 'node:worker_threads';
import type { ParentMessage, WorkerMessage } from './messages.js';

export interface WorkerExit {
  code: number | null;
  signal: string | null;
}

/** One stream worker, whatever runs it (a process or a thread). */
export interface StreamWorker {
  readonly rang: number;
  /** OS process id (the parent's own for a thread). */
  readonly pid: number | undefined;
  send(message: ParentMessage): void;
  onMessage(listener: (message: WorkerMessage) => void): void;
  /** Settles when the worker is gone, never rejects. */
  readonly exited: Promise<WorkerExit>;
  /** Ask it to stop, force it after `graceMs`, and resolve once it is reaped. */
  terminate(graceMs?: number): Promise<WorkerExit>;
}

export interface SpawnOptions {
  rang: number;
  /** Pin to this core before the voice loads; undefined = free. */
  core: number | undefined;
}

export interface WorkerAdapter {
  readonly isolation: 'process' | 'thread' | 'server';
  /** The workers meet on their own barrier (threads, shared memory); the parent sends no start. */
  readonly selfSynchronized?: boolean;
  /** Before an arm's workers are spawned (threads: a pool of exactly `streams` workers). */
  openArm?(streams: number, timeouts: { barrierMs: number; loadMs: number }): void;
  spawn(options: SpawnOptions): StreamWorker;
  /** After every worker of the arm is gone. */
  closeArm?(): Promise<void>;
}

/** What a thread adapter hands each worker thread (a piscina task that lasts the arm). */
export interface ThreadTask {
  rang: number;
  core: number | null;
  port: MessagePort;
  barrier: SharedArrayBuffer;
  barrierMs: number;
  loadMs: number;
  taskset: string | null;
}
