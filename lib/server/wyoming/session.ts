/**
 * One Wyoming connection: `describe` answered by `info` when it opens, then per sentence a
 * `synthesize` answered by `audio-start`, `audio-chunk`s and `audio-stop`. The sentence's audio is
 * there when `audio-stop` comes (wyoming-piper sends a sentence's chunks once it is synthesized).
 */
import net from 'node:net';
import { EventParser, encodeEvent, type WyomingEvent } from './event.js';
import {
  bytesPerSecond,
  formatWords,
  plausibleFormat,
  sameFormat,
  textOf,
  type AudioFormat,
  type OpenReply,
  type ServerLink,
  type ServerSession,
  type SynthesisReply,
} from '../contract/session.js';

export interface WyomingTarget {
  host: string;
  port: number;
}

export interface LinkOptions {
  /** The trial's clock, ms. */
  now: () => number;
  /** A connection, an `info`, or the next event of a sentence not come within this: that request failed. */
  replyTimeoutMs: number;
}

const formatOf = (d: Record<string, unknown>): AudioFormat | null => {
  const { rate, width, channels } = d;
  const ok = (x: unknown): x is number => typeof x === 'number' && Number.isInteger(x) && x > 0;
  return ok(rate) && ok(width) && ok(channels) ? { rate, width, channels } : null;
};

type Waiter = (e: WyomingEvent | Error) => void;

const AUDIO_EVENTS = new Set(['audio-start', 'audio-chunk', 'audio-stop']);

/** The socket, its parser, and the one request waiting for events; a close or bad bytes fail it. */
class Connection {
  private readonly parser = new EventParser();
  private waiter: Waiter | undefined;
  private timer: NodeJS.Timeout | undefined;
  private dead: Error | undefined;

  constructor(
    readonly socket: net.Socket,
    private readonly timeoutMs: number,
  ) {
    socket.on('data', (chunk: Buffer) => {
      let events: WyomingEvent[];
      try {
        events = this.parser.push(chunk);
      } catch (err) {
        return this.fail(new Error(`the server sent ${(err as Error).message}`));
      }
      for (const e of events) {
        if (this.dead) return;
        // Audio no request waits for (a second answer to one sentence) would be credited to the next request.
        if (!this.waiter) {
          if (AUDIO_EVENTS.has(e.type))
            return this.fail(new Error(`the server sent ${e.type} that no request asked for (a second answer?)`));
          continue;
        }
        try {
          this.deliver(e);
        } catch (err) {
          // Whatever a hostile event makes a handler throw ends this connection, not the process.
          return this.fail(
            new Error(`the server sent a ${textOf(e.type)} event this client cannot read (${(err as Error).message})`),
          );
        }
      }
    });
    socket.on('error', (err) => this.fail(new Error(`the connection failed: ${err.message}`)));
    socket.on('close', () =>
      this.fail(
        new Error(
          this.parser.pendingBytes > 0
            ? 'the server closed the connection in the middle of an event (truncated)'
            : 'the server closed the connection',
        ),
      ),
    );
  }

  /** The next event (or the failure that ends the connection), within `withinMs` (default: the timeout). */
  next(fn: Waiter, what: string, withinMs = this.timeoutMs): void {
    if (this.dead) return fn(this.dead);
    this.waiter = fn;
    this.timer = setTimeout(
      () => this.fail(new Error(`no ${what} within ${Math.round(this.timeoutMs / 1000)} s`)),
      Math.max(0, withinMs),
    );
  }

  get timeout(): number {
    return this.timeoutMs;
  }

  private deliver(e: WyomingEvent | Error): void {
    clearTimeout(this.timer);
    const w = this.waiter;
    this.waiter = undefined;
    w?.(e);
  }

  /** Why the connection ended, if it has. */
  get failure(): Error | undefined {
    return this.dead;
  }

  fail(err: Error): void {
    if (this.dead) return;
    this.dead = err;
    this.socket.destroy();
    this.deliver(err);
  }

  write(b: Buffer): void {
    if (!this.dead) this.socket.write(b);
  }
}

/**
 * Events of one sentence, from `audio-start` to `audio-stop`; in a stream, `synthesize-stopped` first fails it with
 * `early`. Its first audio is due within the timeout from `fromWallMs` (when its text was all sent), each next audio
 * event within the timeout of the one before; other events (a ping) do not move that deadline.
 */
function collectAudio(
  c: Connection,
  now: () => number,
  reply: (r: SynthesisReply) => void,
  o: { early?: string; fromWallMs?: number; chained?: boolean } = {},
): void {
  let format: AudioFormat | null = null;
  let bytes = 0;
  let dueWallMs = Math.max(performance.now(), o.fromWallMs ?? 0) + c.timeout;
  const wait = (what: string): void => c.next(onEvent, what, dueWallMs - performance.now());
  const onEvent = (e: WyomingEvent | Error): void => {
    if (e instanceof Error) return reply({ state: 'failed', message: e.message });
    if (e.type === 'error')
      return reply({ state: 'failed', message: `the server answered error: ${textOf(e.data.text)}` });
    if (e.type === 'synthesize-stopped' && o.early) return reply({ state: 'failed', message: o.early });
    if (e.type === 'audio-start' || e.type === 'audio-chunk') {
      const f = formatOf(e.data);
      if (!f)
        return reply({ state: 'failed', message: `the server sent an ${e.type} without rate, width and channels` });
      if (!plausibleFormat(f))
        return reply({ state: 'failed', message: `the server sent an implausible audio format (${formatWords(f)})` });
      if (format && !sameFormat(format, f))
        return reply({
          state: 'failed',
          message: `the audio format changed within a sentence: ${formatWords(format)}, then ${formatWords(f)}`,
        });
      format = f;
      bytes += e.payload?.length ?? 0;
      dueWallMs = performance.now() + c.timeout;
    } else if (e.type === 'audio-stop') {
      if (!format) return reply({ state: 'failed', message: 'the server sent audio-stop before any audio-start' });
      const done: SynthesisReply = {
        state: 'done',
        endMs: now(),
        audioSeconds: bytes / bytesPerSecond(format),
        format,
      };
      // In a stream the next sentence's collector takes over at once (its audio may be in this same read); a plain
      // request is answered once the rest of this read is seen, so audio after audio-stop cannot reach the next one.
      if (o.chained) return reply(done);
      queueMicrotask(() => reply(c.failure ? { state: 'failed', message: c.failure.message } : done));
      return;
    }
    // Other events (a `synthesize-stopped`, a ping) are not part of this sentence: wait on.
    wait('audio event');
  };
  wait('audio');
}

class WyomingSession implements ServerSession {
  constructor(
    private readonly c: Connection,
    private readonly now: () => number,
  ) {}

  private readonly feeds: NodeJS.Timeout[] = [];

  synthesize(text: string, reply: (r: SynthesisReply) => void): void {
    collectAudio(this.c, this.now, reply);
    this.c.write(encodeEvent('synthesize', { text }));
  }

  /**
   * The whole text in one stream (`synthesize-start`, `synthesize-chunk`s, `synthesize-stop`): each line at once,
   * or word by word at `textRateCps` characters a second as a language model would write it. The server answers
   * each sentence as `audio-start` ... `audio-stop`; the i-th is line i.
   */
  stream(
    texts: readonly string[],
    textRateCps: number | null,
    onSentence: (i: number, r: SynthesisReply) => void,
  ): void {
    let i = 0;
    const early = (): string =>
      `the server ended the stream after ${i} sentence(s) of ${texts.length}: give the text one sentence per line`;
    const pieces = texts.map((t) => (textRateCps === null ? [`${t} `] : (`${t} `.match(/\S+\s*/g) ?? [])));
    // When each piece goes (ms after the stream starts), and when each sentence can be released: a server that ends
    // a sentence at the next one's first word has it then, the last at synthesize-stop.
    const startWallMs = performance.now();
    let chars = 0;
    const sendAt = pieces.map((line) =>
      line.map((p) => (textRateCps === null ? 0 : (1000 * (chars += p.length)) / textRateCps)),
    );
    const stopAt = textRateCps === null ? 0 : (1000 * chars) / textRateCps;
    const releaseAt = texts.map((_, j) => sendAt[j + 1]?.[0] ?? stopAt);
    const next = (): void =>
      collectAudio(
        this.c,
        this.now,
        (r) => {
          onSentence(i, r);
          i += 1;
          if (r.state === 'done' && i < texts.length) next();
        },
        { early: early(), fromWallMs: startWallMs + (releaseAt[i] ?? stopAt), chained: true },
      );
    next();
    this.c.write(encodeEvent('synthesize-start', {}));
    pieces.forEach((line, j) =>
      line.forEach((piece, k) => {
        const send = (): void => this.c.write(encodeEvent('synthesize-chunk', { text: piece }));
        // A piece goes once written whole, as a model emits a token.
        if (textRateCps === null) send();
        else this.feeds.push(setTimeout(send, sendAt[j]?.[k] ?? 0));
      }),
    );
    const stop = (): void => this.c.write(encodeEvent('synthesize-stop', {}));
    if (textRateCps === null) stop();
    else this.feeds.push(setTimeout(stop, stopAt));
  }

  close(): void {
    for (const t of this.feeds) clearTimeout(t);
    this.c.fail(new Error('closed'));
  }
}

/** Connects, says `describe`, waits for `info`; `onInfo` sees its data. */
export function connectWyoming(
  t: WyomingTarget,
  o: LinkOptions,
  done: (
    r: { state: 'open'; c: Connection; info: Record<string, unknown> } | { state: 'failed'; message: string },
  ) => void,
): Connection {
  const c = new Connection(net.connect({ host: t.host, port: t.port }), o.replyTimeoutMs);
  c.next((e) => {
    if (e instanceof Error) return done({ state: 'failed', message: e.message });
    if (e.type !== 'info') {
      const message = `the server answered describe with ${textOf(e.type)}, not info`;
      // Closed here: a socket left open would keep the process from exiting after the one-line error.
      c.fail(new Error(message));
      return done({ state: 'failed', message });
    }
    done({ state: 'open', c, info: e.data });
  }, 'info after describe');
  c.write(encodeEvent('describe'));
  return c;
}

export function wyomingLink(t: WyomingTarget, o: LinkOptions): ServerLink {
  return {
    open(reply: (r: OpenReply) => void): void {
      connectWyoming(t, o, (r) =>
        reply(r.state === 'open' ? { state: 'open', session: new WyomingSession(r.c, o.now) } : r),
      );
    },
  };
}
