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
  { state: 'done'; endMs: number; audioSeconds: number; format: AudioFormat } | { state: 'failed'; message: string };

export interface ServerSession {
  /** Ask for one sentence; `reply` is called exactly once. One request at a time per session. */
  synthesize(text: string, reply: (r: SynthesisReply) => void): void;
  /**
   * Streaming text in (Wyoming from 1.7): the whole text at once or at `textRateCps`; `onSentence` is called once
   * per line, in order, until one fails. Absent where the protocol has no such thing.
   */
  stream?(
    texts: readonly string[],
    textRateCps: number | null,
    onSentence: (i: number, r: SynthesisReply) => void,
  ): void;
  /** Closes the connection; nothing is called after. */
  close(): void;
}

export type OpenReply = { state: 'open'; session: ServerSession } | { state: 'failed'; message: string };

/** Opens sessions to one server. */
export interface ServerLink {
  open(reply: (r: OpenReply) => void): void;
}

/** What the server said of itself when probed, as the archive keeps it. */
export interface ServerDescription {
  address: string;
  protocol: 'wyoming' | 'http';
  /** The HTTP path sentences are posted to (`/synthesize`, or `/` on older Piper servers); null for Wyoming. */
  endpoint: string | null;
  /** The server advertises streaming text in (Wyoming `supports_synthesize_streaming`). */
  streaming: boolean;
  /** Program and voice names it gave, in words. */
  said: string;
  voices: string[];
}

export const bytesPerSecond = (f: AudioFormat): number => f.rate * f.width * f.channels;
export const sameFormat = (a: AudioFormat, b: AudioFormat): boolean =>
  a.rate === b.rate && a.width === b.width && a.channels === b.channels;
export const formatWords = (f: AudioFormat): string => `${f.rate} Hz, ${8 * f.width}-bit, ${f.channels} channel(s)`;
