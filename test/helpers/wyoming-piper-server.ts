/**
 * A Wyoming server that behaves as wyoming-piper 2.4's handler does (its code read with `fetch`:
 * wyoming_piper/handler.py, on the wyoming library's AsyncEventHandler), its engine replaced by a
 * clock of known speed. On loopback only. What it keeps of the real one:
 * - one event loop for every connection, and synthesis blocks it: while a sentence is made no
 *   connection is read or answered (a `describe` waits too);
 * - a connection's handler goes on through every event already buffered before another runs (a
 *   read of buffered bytes does not yield), so a stream written all at once is served whole, then
 *   the next connection's;
 * - streaming text (`synthesize-start` / `-chunk` / `-stop`) is split by sentence-stream's rules
 *   (sentence-stream.ts): a sentence is made once the next one's first letter has come, the last at
 *   `synthesize-stop`, then `synthesize-stopped`; one audio-start ... audio-stop pair per sentence;
 * - a plain `synthesize` on a connection that has streamed is ignored (no answer); outside a stream
 *   it is split the same way and answered as one pair;
 * - `sentenceSilenceSeconds` (--sentence-silence) adds zeros after every sentence but the last;
 * - `info` lists `catalogVoices` voices, all marked installed, as its voices.json catalogue does.
 */
import net from 'node:net';
import { SentenceSplitter, splitSentences } from './sentence-stream.js';
import { reader, wyomingEvent } from './speech-servers.js';

export interface WyomingPiperSpec {
  /** x real time: a sentence of A seconds of audio holds the loop A / speed seconds. */
  speed: number;
  /** Audio a character of text makes (a sentence at least 0.2 s). */
  secondsPerChar: number;
  /** --no-streaming: streaming events are ignored and info says so. */
  noStreaming?: boolean;
  sentenceSilenceSeconds?: number;
  /** How many voices info lists (default 1). */
  catalogVoices?: number;
  /** The names info gives its first voices (the rest are made up); default fr_FR-siwis-medium first. */
  voiceNames?: string[];
}

export interface WyomingPiperServer {
  port: number;
  url: string;
  /** Every sentence synthesized, in the order made, with the connection it was for. */
  made: Array<{ connection: number; text: string; voice: string | null }>;
  /** When each describe was answered, ms after the server started. */
  infoAtMs: number[];
  close(): Promise<void>;
}

const RATE = 22050;
const SAMPLES_PER_CHUNK = 1024;
const FORMAT = { rate: RATE, width: 2, channels: 1 };

interface Incoming {
  type: string;
  data: Record<string, unknown>;
}

interface Conn {
  id: number;
  socket: net.Socket;
  inbox: Incoming[];
  streaming: boolean;
  splitter: SentenceSplitter;
  /** The voice its last synthesize or synthesize-start named (`voice.name`); null: the default. */
  voice: string | null;
}

const voiceName = (data: Record<string, unknown>): string | null => {
  const v = data.voice;
  return typeof v === 'object' && v !== null && typeof (v as { name?: unknown }).name === 'string'
    ? (v as { name: string }).name
    : null;
};

export function startWyomingPiper(spec: WyomingPiperSpec): Promise<WyomingPiperServer> {
  const t0 = performance.now();
  const made: WyomingPiperServer['made'] = [];
  const infoAtMs: number[] = [];
  const sockets = new Set<net.Socket>();
  /** Connections with events waiting, in the order they came; the head runs until its inbox is empty. */
  const ready: Conn[] = [];
  let blocked = false;
  let nextId = 0;

  const write = (c: Conn, b: Buffer): void => {
    if (!c.socket.destroyed) c.socket.write(b);
  };
  const audioOf = (text: string): Buffer => {
    const samples = Math.round(Math.max(0.2, text.length * spec.secondsPerChar) * RATE);
    // Speech is never exact zeros here, so the silence after it can be told.
    return Buffer.alloc(samples * 2, 0x11);
  };
  const chunks = (c: Conn, audio: Buffer): void => {
    for (let at = 0; at < audio.length; at += SAMPLES_PER_CHUNK * 2)
      write(c, wyomingEvent('audio-chunk', FORMAT, audio.subarray(at, at + SAMPLES_PER_CHUNK * 2)));
  };
  /** Makes one sentence: the loop is held for its audio / speed, then its events go out. */
  const synthesize = (
    c: Conn,
    text: string,
    o: { start: boolean; stop: boolean; silence: boolean },
    then: () => void,
  ): void => {
    const speech = audioOf(text);
    const silence =
      o.silence && spec.sentenceSilenceSeconds
        ? Buffer.alloc(Math.round(spec.sentenceSilenceSeconds * RATE) * 2)
        : Buffer.alloc(0);
    blocked = true;
    setTimeout(
      () => {
        blocked = false;
        made.push({ connection: c.id, text, voice: c.voice });
        if (o.start) write(c, wyomingEvent('audio-start', FORMAT));
        chunks(c, Buffer.concat([speech, silence]));
        if (o.stop) write(c, wyomingEvent('audio-stop', {}));
        then();
      },
      (1000 * speech.length) / 2 / RATE / spec.speed,
    );
  };
  /** Sentences one after another, each a pair of its own (a stream's), the last optionally without silence. */
  const pairs = (c: Conn, texts: string[], silenceLast: boolean, then: () => void): void => {
    const [text, ...rest] = texts;
    if (text === undefined) return then();
    const silence = rest.length > 0 || silenceLast;
    synthesize(c, text, { start: true, stop: true, silence }, () => pairs(c, rest, silenceLast, then));
  };
  /** A plain synthesize: its sentences in one pair, silence after all but the last. */
  const plain = (c: Conn, text: string, then: () => void): void => {
    const sentences = splitSentences(text);
    if (sentences.length === 0) {
      write(c, wyomingEvent('audio-stop', {}));
      return then();
    }
    const step = (i: number): void => {
      const s = sentences[i];
      if (s === undefined) return then();
      const last = i === sentences.length - 1;
      synthesize(c, s, { start: i === 0, stop: last, silence: !last }, () => step(i + 1));
    };
    step(0);
  };

  const handle = (c: Conn, e: Incoming, then: () => void): void => {
    if (e.type === 'describe') {
      infoAtMs.push(performance.now() - t0);
      const voices = Array.from({ length: spec.catalogVoices ?? 1 }, (_, i) => ({
        name: spec.voiceNames?.[i] ?? (i === 0 ? 'fr_FR-siwis-medium' : `xx_XX-voice${i}-medium`),
        installed: true,
        languages: ['fr_FR'],
      }));
      write(
        c,
        wyomingEvent('info', {
          tts: [{ name: 'piper', installed: true, voices, supports_synthesize_streaming: !spec.noStreaming }],
        }),
      );
      return then();
    }
    if (e.type === 'synthesize') {
      // Sent beside a stream for older servers: ignored once the connection has streamed.
      if (c.streaming) return then();
      c.voice = voiceName(e.data);
      return plain(c, String(e.data.text ?? ''), then);
    }
    if (spec.noStreaming) return then();
    if (e.type === 'synthesize-start') {
      c.streaming = true;
      c.voice = voiceName(e.data);
      c.splitter = new SentenceSplitter();
      return then();
    }
    if (e.type === 'synthesize-chunk') return pairs(c, c.splitter.add(String(e.data.text ?? '')), true, then);
    if (e.type === 'synthesize-stop') {
      const last = c.splitter.finish();
      return pairs(c, last ? [last] : [], false, () => {
        write(c, wyomingEvent('synthesize-stopped', {}));
        then();
      });
    }
    then();
  };
  /** Runs whatever may run: the head connection's next event, unless a synthesis holds the loop. */
  const run = (): void => {
    if (blocked) return;
    const c = ready[0];
    if (!c) return;
    const e = c.inbox.shift();
    if (!e) {
      ready.shift();
      return run();
    }
    handle(c, e, run);
  };

  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    const c: Conn = {
      id: nextId++,
      socket,
      inbox: [],
      streaming: false,
      splitter: new SentenceSplitter(),
      voice: null,
    };
    socket.on(
      'data',
      reader((type, data) => {
        c.inbox.push({ type, data });
        if (!ready.includes(c)) ready.push(c);
        run();
      }),
    );
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      resolve({
        port,
        url: `tcp://127.0.0.1:${port}`,
        made,
        infoAtMs,
        close: () =>
          new Promise((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
