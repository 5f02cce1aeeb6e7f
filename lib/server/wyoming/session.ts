/**
 * One Wyoming connection: `describe` answered by `info` when it opens, then per sentence a
 * `synthesize` answered by `audio-start`, `audio-chunk`s and `audio-stop`, or a whole stream answered
 * by the server's own sentences, a pair each. A pair's audio is there when its `audio-stop` comes
 * (wyoming-piper sends a sentence's chunks once it is synthesized).
 */
import net from 'node:net';
import { EventParser, encodeEvent, type WyomingEvent } from './event.js';
import { feedInOrder, wallFeedClock } from './text-feed.js';
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
  type AudioPair,
  type StreamReply,
  addedSilenceSeconds,
  zeroTail,
} from '../contract/session.js';
import { timerMs } from '../../core/timer.js';

export interface WyomingTarget {
  host: string;
  port: number;
}

export interface LinkOptions {
  /** The trial's clock, ms. */
  now: () => number;
  /** A connection, an `info`, or the next event of a sentence not come within this: that request failed. */
  replyTimeoutMs: number;
  /** The voice asked for (`voice.name` in `synthesize` and `synthesize-start`, --server-voice); absent: the server's default. */
  voice?: string;
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
  /** Told when audio comes that no request waits for: after a listener's last sentence, nothing else would hear it. */
  unasked: ((err: Error) => void) | undefined;

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
          if (!AUDIO_EVENTS.has(e.type)) continue;
          const err = new Error(`the server sent ${e.type} that no request asked for (a second answer?)`);
          this.fail(err);
          return this.unasked?.(err);
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
      timerMs(withinMs),
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

/** One audio pair as it comes: its format, its bytes, and the exact-zero run at its end. */
class PairAudio {
  format: AudioFormat | null = null;
  bytes = 0;
  private zeros = 0;

  /** Why the event breaks the pair, or undefined. */
  add(e: WyomingEvent): string | undefined {
    const f = formatOf(e.data);
    if (!f) return `the server sent an ${e.type} without rate, width and channels`;
    if (!plausibleFormat(f)) return `the server sent an implausible audio format (${formatWords(f)})`;
    if (this.format && !sameFormat(this.format, f))
      return `the audio format changed within a sentence: ${formatWords(this.format)}, then ${formatWords(f)}`;
    this.format = f;
    const payload = e.payload ?? Buffer.alloc(0);
    this.bytes += payload.length;
    const tail = zeroTail(payload);
    this.zeros = tail.all ? this.zeros + tail.bytes : tail.bytes;
    return undefined;
  }

  seconds(f: AudioFormat): { audioSeconds: number; silenceSeconds: number } {
    return { audioSeconds: this.bytes / bytesPerSecond(f), silenceSeconds: addedSilenceSeconds(this.zeros, f) };
  }
}

/**
 * Events of one sentence, from `audio-start` to `audio-stop`. Its first audio is due within the timeout, each next
 * audio event within the timeout of the one before; other events (a ping) do not move that deadline.
 */
function collectAudio(c: Connection, now: () => number, reply: (r: SynthesisReply) => void): void {
  const pair = new PairAudio();
  let dueWallMs = performance.now() + c.timeout;
  const wait = (what: string): void => c.next(onEvent, what, dueWallMs - performance.now());
  const onEvent = (e: WyomingEvent | Error): void => {
    if (e instanceof Error) return reply({ state: 'failed', message: e.message });
    if (e.type === 'error')
      return reply({ state: 'failed', message: `the server answered error: ${textOf(e.data.text)}` });
    if (e.type === 'audio-start' || e.type === 'audio-chunk') {
      const broken = pair.add(e);
      if (broken) return reply({ state: 'failed', message: broken });
      dueWallMs = performance.now() + c.timeout;
    } else if (e.type === 'audio-stop') {
      const format = pair.format;
      if (!format) return reply({ state: 'failed', message: 'the server sent audio-stop before any audio-start' });
      const done: SynthesisReply = { state: 'done', endMs: now(), format, ...pair.seconds(format) };
      // Answered once the rest of this read is seen, so audio after audio-stop cannot reach the next request.
      queueMicrotask(() => reply(c.failure ? { state: 'failed', message: c.failure.message } : done));
      return;
    }
    // Other events (a `synthesize-stopped`, a ping) are not part of this sentence: wait on.
    wait('audio event');
  };
  wait('audio');
}

/** The most sentences one streamed text may come back in. */
export const MAX_STREAM_PAIRS = 10_000;

/**
 * A whole stream's audio: every audio-start ... audio-stop pair until `synthesize-stopped`, however the server split
 * the text. A server may hold a sentence until the next one's first word (wyoming-piper does), so audio is due within
 * the timeout of the later of the last audio event and `lastTextWallMs` (when the stream's last text was sent).
 */
function collectStream(
  c: Connection,
  now: () => number,
  reply: (r: StreamReply) => void,
  lastTextWallMs: number,
): void {
  const pairs: AudioPair[] = [];
  let pair: PairAudio | null = null;
  let format: AudioFormat | null = null;
  let lastWallMs = performance.now();
  const wait = (what: string): void =>
    c.next(onEvent, what, Math.max(lastWallMs, lastTextWallMs) + c.timeout - performance.now());
  const failed = (message: string): void => reply({ state: 'failed', message });
  const onEvent = (e: WyomingEvent | Error): void => {
    if (e instanceof Error) return failed(e.message);
    if (e.type === 'error') return failed(`the server answered error: ${textOf(e.data.text)}`);
    if (e.type === 'audio-start' || e.type === 'audio-chunk') {
      if (e.type === 'audio-start' && pair?.format) return failed('the server sent audio-start inside a sentence');
      pair ??= new PairAudio();
      const broken = pair.add(e);
      if (broken) return failed(broken);
      if (format && pair.format && !sameFormat(format, pair.format))
        return failed(
          `the audio format changed between sentences: ${formatWords(format)}, then ${formatWords(pair.format)}`,
        );
      format = pair.format;
      lastWallMs = performance.now();
    } else if (e.type === 'audio-stop') {
      if (!pair?.format) return failed('the server sent audio-stop before any audio-start');
      pairs.push({ endMs: now(), ...pair.seconds(pair.format) });
      // A reply is a few sentences: a server that sends sentence after sentence must not fill the memory.
      if (pairs.length > MAX_STREAM_PAIRS)
        return failed(`the server sent more than ${MAX_STREAM_PAIRS} sentences for one streamed text`);
      pair = null;
      lastWallMs = performance.now();
    } else if (e.type === 'synthesize-stopped') {
      if (pair) return failed('the server stopped the stream in the middle of a sentence (no audio-stop)');
      if (!format || pairs.length === 0) return failed('the server stopped the stream without any audio');
      const audioSeconds = pairs.reduce((n, p) => n + p.audioSeconds, 0);
      const done: StreamReply = { state: 'done', endMs: now(), audioSeconds, format, pairs };
      queueMicrotask(() => reply(c.failure ? { state: 'failed', message: c.failure.message } : done));
      return;
    }
    wait(pairs.length === 0 && !pair ? 'audio' : 'audio event or synthesize-stopped');
  };
  wait('audio');
}

class WyomingSession implements ServerSession {
  constructor(
    private readonly c: Connection,
    private readonly now: () => number,
    voice: string | undefined,
  ) {
    this.voice = voice === undefined ? {} : { voice: { name: voice } };
  }

  /** What each request adds: the voice asked for, as wyoming's SynthesizeVoice, or nothing. */
  private readonly voice: { voice?: { name: string } };

  private cancelFeed: (() => void) | undefined;

  onUnasked(fn: (message: string) => void): void {
    this.c.unasked = (err) => fn(err.message);
  }

  synthesize(text: string, reply: (r: SynthesisReply) => void): void {
    collectAudio(this.c, this.now, reply);
    this.c.write(encodeEvent('synthesize', { text, ...this.voice }));
  }

  /**
   * The whole text in one stream (`synthesize-start`, `synthesize-chunk`s, `synthesize-stop`): each line at once,
   * or word by word at `textRateCps` characters a second as a language model would write it. The server answers
   * with its own sentences, one audio pair each, then `synthesize-stopped`.
   */
  stream(texts: readonly string[], textRateCps: number | null, reply: (r: StreamReply) => void): void {
    // A piece goes once written whole, as a model emits a token; synthesize-stop after the last.
    const words = texts.flatMap((t) => (textRateCps === null ? [`${t} `] : (`${t} `.match(/\S+\s*/g) ?? [])));
    let chars = 0;
    const pieces = [
      ...words.map((text) => ({
        atMs: textRateCps === null ? 0 : (1000 * (chars += text.length)) / textRateCps,
        item: text,
      })),
      { atMs: textRateCps === null ? 0 : (1000 * chars) / textRateCps, item: null },
    ];
    const clock = wallFeedClock();
    // A stream that replaces one still being fed stops the old feed first: its words must not land in the new one.
    this.cancelFeed?.();
    collectStream(this.c, this.now, reply, performance.now() + (pieces.at(-1)?.atMs ?? 0));
    this.c.write(encodeEvent('synthesize-start', { ...this.voice }));
    this.cancelFeed = feedInOrder(
      pieces,
      (text) =>
        this.c.write(text === null ? encodeEvent('synthesize-stop', {}) : encodeEvent('synthesize-chunk', { text })),
      clock,
    );
  }

  close(): void {
    this.cancelFeed?.();
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
    open(reply: (r: OpenReply) => void): () => void {
      const c = connectWyoming(t, o, (r) =>
        reply(r.state === 'open' ? { state: 'open', session: new WyomingSession(r.c, o.now, o.voice) } : r),
      );
      return () => c.fail(new Error('closed'));
    },
  };
}
