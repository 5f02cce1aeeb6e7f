/**
 * A speech server as the capacity trials see it, whatever its protocol: a session per listener (a
 * connection), one sentence asked at a time, each answered once with when its last audio byte came
 * (on the trial's clock) and how much audio it was. Callbacks, not promises: on virtual time an
 * answer must be seen at the instant it comes, before the clock moves on.
 */

export interface AudioFormat {
  rate: number;
  width: number;
  channels: number;
}

export type SynthesisReply =
  | {
      state: 'done';
      endMs: number;
      audioSeconds: number;
      format: AudioFormat;
      /** Exact-zero samples at its end, a run of at least SILENCE_MIN_MS (silence a server adds after speech), s. */
      silenceSeconds?: number;
    }
  | { state: 'failed'; message: string };

/** One audio-start ... audio-stop pair of a reply: when its audio-stop came, and how much audio it held. */
export interface AudioPair {
  endMs: number;
  audioSeconds: number;
  silenceSeconds: number;
}

/** A whole stream's answer: the pairs the server sent, however it split the text. */
export type StreamReply =
  | { state: 'done'; endMs: number; audioSeconds: number; format: AudioFormat; pairs: AudioPair[] }
  | { state: 'failed'; message: string };

/** Trailing zeros shorter than this are a quiet end of speech, not silence a server added (the gap tolerance). */
export const SILENCE_MIN_MS = 20;

/** Zero bytes at the end of `b`, and whether all of it is zeros (read from the end: speech stops it at once). */
export function zeroTail(b: Uint8Array): { bytes: number; all: boolean } {
  let i = b.length - 1;
  while (i >= 0 && b[i] === 0) i -= 1;
  return { bytes: b.length - 1 - i, all: i < 0 };
}

/** Speech is never exact zeros: trailing zeros, in whole frames and from SILENCE_MIN_MS, are silence a server added. */
export function addedSilenceSeconds(zeroBytes: number, f: AudioFormat): number {
  const frame = f.width * f.channels;
  const silence = (Math.floor(zeroBytes / frame) * frame) / (f.rate * frame);
  return silence * 1000 >= SILENCE_MIN_MS ? silence : 0;
}

export interface ServerSession {
  /** Ask for one sentence; `reply` is called exactly once. One request at a time per session. */
  synthesize(text: string, reply: (r: SynthesisReply) => void): void;
  /**
   * Streaming text in (Wyoming from 1.7): the whole text at once or at `textRateCps`; `reply` is called once, with
   * every audio pair the server sent until it said the stream stopped (its sentences, not the lines). Absent where
   * the protocol has no such thing.
   */
  stream?(texts: readonly string[], textRateCps: number | null, reply: (r: StreamReply) => void): void;
  /**
   * Called when audio comes that no request waits for (a second answer, after the last sentence's): with no
   * request id in the protocol, one that comes after the next request is credited to it, so the trailing one
   * is what shows a server that answers twice. Absent where each request has its own reply (HTTP).
   */
  onUnasked?(fn: (message: string) => void): void;
  /** Closes the connection; nothing is called after. */
  close(): void;
}

export type OpenReply = { state: 'open'; session: ServerSession } | { state: 'failed'; message: string };

/** Opens sessions to one server. */
export interface ServerLink {
  /**
   * Opens one; the returned cancel closes what this open made, opened or not (a connection still waiting for the
   * server's hello must not outlive the worker that asked for it, nor keep the process up to its timeout).
   */
  open(reply: (r: OpenReply) => void): () => void;
}

/** What the server said of itself when probed, as the archive keeps it. */
export interface ServerDescription {
  address: string;
  protocol: 'wyoming' | 'http';
  /** The HTTP path sentences are asked at (`/synthesize`, or `/` on older Piper servers); null for Wyoming. */
  endpoint: string | null;
  /** How an HTTP server takes a sentence (http/session.ts's HttpRequestStyle); null for Wyoming. */
  request: 'synthesize-json' | 'root-json' | 'root-text' | 'get-query' | null;
  /** The server advertises streaming text in (Wyoming `supports_synthesize_streaming`). */
  streaming: boolean;
  /** Program and voice names it gave, in words. */
  said: string;
  voices: string[];
  /** The voice every request asks for (--server-voice); null: the server's default voice. */
  voice: string | null;
}

export const bytesPerSecond = (f: AudioFormat): number => f.rate * f.width * f.channels;
export const sameFormat = (a: AudioFormat, b: AudioFormat): boolean =>
  a.rate === b.rate && a.width === b.width && a.channels === b.channels;
export const formatWords = (f: AudioFormat): string => `${f.rate} Hz, ${8 * f.width}-bit, ${f.channels} channel(s)`;

/** The most of a server's own text (an error, a name) that a message quotes. */
const MAX_QUOTED = 200;

/** Whatever a server sent where text belongs, as short plain text: never throws (a JSON object may hold "toString": 1). */
export function textOf(x: unknown): string {
  let t: string;
  if (typeof x === 'string') t = x;
  else if (x === undefined || x === null) t = '';
  else
    try {
      t = JSON.stringify(x) ?? '';
    } catch {
      t = '?';
    }
  return t.length > MAX_QUOTED ? `${t.slice(0, MAX_QUOTED)}...` : t;
}

/**
 * An audio format a speech server could really send: 8-192 kHz, 1-4 bytes a sample, 1-8 channels. Anything
 * else would turn bytes into the wrong seconds of audio (at 1 Hz each byte is a second) and inflate capacity.
 */
export const plausibleFormat = (f: AudioFormat): boolean =>
  f.rate >= 8000 && f.rate <= 192_000 && f.width >= 1 && f.width <= 4 && f.channels >= 1 && f.channels <= 8;
