/**
 * The worker interface over a running speech server: each worker is one session (a connection) to
 * it, loaded when the session opens, answering each job with the sentence's audio as the server
 * sent it. The server is a black box: a job's start is when the sentence was asked for, its end
 * when its last audio byte came; its audio is the pairs the server sent (a stream: the whole text,
 * one job). A session that fails fails its worker; the audio format must stay the one the first
 * sentence came in, or the worker fails saying both.
 */
import type { ParentMessage, WorkerMessage } from '../../workers/messages.js';
import type { SpawnOptions, StreamWorker, WorkerAdapter, WorkerExit } from '../../workers/worker.js';
import {
  formatWords,
  sameFormat,
  type AudioFormat,
  type ServerLink,
  type AudioPair,
  type ServerSession,
} from '../../server/contract/session.js';

export interface ServerAdapterOptions {
  link: ServerLink;
  /** The trial's clock, ms. */
  now: () => number;
  /** Names the server in every failure. */
  address: string;
  /**
   * Each listener's whole text in one stream (Wyoming `synthesize-start` ... `synthesize-stop`), at once or at this
   * many characters a second; absent: one request per sentence.
   */
  stream?: { textRateCps: number | null };
}

class ServerWorker implements StreamWorker {
  readonly pid = undefined;
  readonly exited: Promise<WorkerExit>;
  private session: ServerSession | undefined;
  /** Closes the connection this worker opened, answered or not. */
  private closeOpen: (() => void) | undefined;
  private texts: string[] = [];
  private readonly listeners: Array<(m: WorkerMessage) => void> = [];
  private gone = false;
  private markExited: (x: WorkerExit) => void = () => undefined;

  constructor(
    readonly rang: number,
    private readonly o: ServerAdapterOptions,
    private readonly adapter: ServerAdapter,
  ) {
    this.exited = new Promise((resolve) => {
      this.markExited = resolve;
    });
  }

  onMessage(listener: (m: WorkerMessage) => void): void {
    this.listeners.push(listener);
  }

  private post(m: WorkerMessage): void {
    if (!this.gone) for (const l of this.listeners) l(m);
  }

  private failed(message: string): void {
    this.post({ type: 'failed', message: `server ${this.o.address}, connection ${this.rang}: ${message}` });
  }

  send(m: ParentMessage): void {
    if (m.type === 'init') {
      this.texts = m.prepared.sentences.map((s) => s.text);
      const t0 = this.o.now();
      this.closeOpen = this.o.link.open((r) => {
        if (this.gone) return r.state === 'open' ? r.session.close() : undefined;
        if (r.state === 'failed') return this.failed(r.message);
        this.session = r.session;
        // A second answer after this listener's last sentence fails its trial (or the next, between trials).
        r.session.onUnasked?.((message) => this.failed(message));
        this.post({
          type: 'loaded',
          pid: process.pid,
          cores: [],
          loadSeconds: (this.o.now() - t0) / 1000,
          phonemizeSeconds: 0,
          sentences: this.texts.length,
          missingPhonemes: {},
        });
      });
    } else if (m.type === 'job') this.job(m.id, m.sentence);
  }

  private job(id: number, sentence: number): void {
    const text = this.texts[sentence];
    const session = this.session;
    if (!session || text === undefined) return this.failed(`job ${id} asked for sentence ${sentence}, not there`);
    const job = { id, sentence, startMs: this.o.now() };
    const stream = this.o.stream;
    if (!stream)
      return session.synthesize(text, (r) =>
        r.state === 'failed'
          ? this.failed(r.message)
          : this.answer(job, r.format, [
              { endMs: r.endMs, audioSeconds: r.audioSeconds, silenceSeconds: r.silenceSeconds ?? 0 },
            ]),
      );
    if (!session.stream) return this.failed('this protocol has no streaming text in');
    // A streamed text is one job: its lines (joined by newlines, see streamText) go in one stream, and what the
    // listener hears is every pair the server sent back.
    session.stream(text.split('\n'), stream.textRateCps, (r) =>
      r.state === 'failed' ? this.failed(r.message) : this.answer(job, r.format, r.pairs),
    );
  }

  private answer(
    job: { id: number; sentence: number; startMs: number },
    format: AudioFormat,
    pairs: AudioPair[],
  ): void {
    const changed = this.adapter.checkFormat(format);
    if (changed) return this.failed(changed);
    const last = pairs.at(-1);
    this.post({
      type: 'done',
      ...job,
      endMs: last?.endMs ?? this.o.now(),
      audioSeconds: pairs.reduce((n, p) => n + p.audioSeconds, 0),
      pairs,
    });
  }

  terminate(): Promise<WorkerExit> {
    if (!this.gone) {
      this.gone = true;
      this.session?.close();
      this.closeOpen?.();
      this.markExited({ code: 0, signal: null });
    }
    return this.exited;
  }
}

export class ServerAdapter implements WorkerAdapter {
  readonly isolation = 'server' as const;
  /** The format of the first sentence any session got: every later one must match it. */
  format: AudioFormat | null = null;

  constructor(private readonly o: ServerAdapterOptions) {}

  spawn(options: SpawnOptions): StreamWorker {
    return new ServerWorker(options.rang, this.o, this);
  }

  /** Why this format breaks the audio-format control, or undefined. */
  checkFormat(f: AudioFormat): string | undefined {
    if (!this.format) this.format = f;
    else if (!sameFormat(this.format, f))
      return `audio format control: the server first sent ${formatWords(this.format)}, now ${formatWords(f)}`;
    return undefined;
  }
}
