/**
 * Piper's HTTP server: one POST per sentence (`/synthesize` with JSON `{"text"}`, or `/` with the
 * text as the body on older releases), a whole WAV back. A session is a keep-alive connection of
 * its own, as a streaming player's would be; the sentence is there when the last byte of its WAV is.
 */
import http from 'node:http';
import { parseWavHeader } from '../../voice/format/wav.js';
import { preview } from '../wyoming/event.js';
import {
  addedSilenceSeconds,
  plausibleFormat,
  zeroTail,
  type AudioFormat,
  type OpenReply,
  type ServerLink,
  type ServerSession,
  type SynthesisReply,
} from '../contract/session.js';
import { timerMs } from '../../core/timer.js';

/**
 * How a release of Piper's HTTP server takes a sentence, read in each release's code: piper1-gpl from 1.5
 * `POST /synthesize` with JSON; piper1-gpl 1.3 to 1.4 `POST /` with JSON (a text body fails its json.loads: 500);
 * rhasspy/piper `POST /` with the text as the body (a JSON body would be spoken as it is), or `GET /?text=`.
 */
export type HttpRequestStyle = 'synthesize-json' | 'root-json' | 'root-text' | 'get-query';

/** piper1-gpl's JSON body takes a `voice`; rhasspy/piper's text body and query take the text only. */
export const takesVoice = (style: HttpRequestStyle): boolean => style === 'synthesize-json' || style === 'root-json';

export interface HttpTarget {
  host: string;
  port: number;
  style: HttpRequestStyle;
}

/** The request line of a style, in words: "POST /synthesize (JSON)". */
export const styleWords = (style: HttpRequestStyle): string =>
  ({
    'synthesize-json': 'POST /synthesize (JSON)',
    'root-json': 'POST / (JSON)',
    'root-text': 'POST / (text)',
    'get-query': 'GET /?text=',
  })[style];

export interface HttpLinkOptions {
  now: () => number;
  replyTimeoutMs: number;
  /** The voice asked for (`voice` in the JSON body, --server-voice); absent: the server's default. */
  voice?: string;
}

/** A WAV's format and audio seconds, or why it is not one. */
export function wavAudio(body: Buffer): { format: AudioFormat; audioSeconds: number; silenceSeconds: number } | string {
  let h;
  try {
    h = parseWavHeader(body);
  } catch (err) {
    return `an answer that is not a WAV (${(err as Error).message}): ${preview(body)}`;
  }
  const format = { rate: h.sampleRate, width: h.bitsPerSample / 8, channels: h.channels };
  // As a Wyoming server's: a format no speech server sends would turn bytes into the wrong seconds of speech.
  if (!Number.isInteger(format.width) || !plausibleFormat(format))
    return `an implausible audio format: a WAV with ${h.bitsPerSample} bits, ${h.sampleRate} Hz, ${h.channels} channel(s)`;
  // A streaming writer may leave the data size at 0 or 0xffffffff: the bytes that came are the audio.
  const bytes = Math.min(body.length - 44, h.dataBytes > 0 && h.dataBytes < 0xffffffff ? h.dataBytes : body.length);
  // Silence the server added at the end is kept apart from speech, as a Wyoming server's is.
  const silenceSeconds = addedSilenceSeconds(zeroTail(body.subarray(44, 44 + bytes)).bytes, format);
  return { format, audioSeconds: bytes / (format.rate * format.width * format.channels), silenceSeconds };
}

/**
 * The most a sentence's WAV may weigh: three minutes of 22.05 kHz 16-bit mono (Piper's largest rate), 43 s of 48 kHz
 * stereo. Each listener's connection may hold one: 256 MiB at 32 listeners (2 GiB at the 64 MiB cap it replaced).
 */
export const MAX_WAV_BYTES = 8 * 2 ** 20;

/** A response's whole body, refused past `limitBytes` (the response is destroyed then). */
export function readBody(res: http.IncomingMessage, limitBytes: number, done: (r: Buffer | Error) => void): void {
  const parts: Buffer[] = [];
  let size = 0;
  let settled = false;
  const end = (r: Buffer | Error): void => {
    if (settled) return;
    settled = true;
    done(r);
  };
  res.on('data', (b: Buffer) => {
    size += b.length;
    if (size > limitBytes) {
      end(new Error(`an answer over ${Math.round(limitBytes / 2 ** 20)} MiB`));
      res.destroy();
    } else parts.push(b);
  });
  res.on('end', () => end(Buffer.concat(parts)));
  res.on('error', (err) => end(err));
  res.on('aborted', () => end(new Error('the server closed the connection in the middle of its answer')));
}

/** One request, its whole body within `timeoutMs` of asking (not of the last byte); the failure says the status or the socket's error. */
export function post(
  t: { host: string; port: number; agent?: http.Agent },
  {
    method = 'POST',
    path,
    body,
    type,
    timeoutMs,
    signal,
  }: { method?: 'POST' | 'GET'; path: string; body: string; type: string; timeoutMs: number; signal?: AbortSignal },
  done: (r: { status: number; body: Buffer } | Error) => void,
): void {
  let settled = false;
  const end = (r: { status: number; body: Buffer } | Error): void => {
    if (settled) return;
    settled = true;
    clearTimeout(deadline);
    done(r);
  };
  const req = http.request(
    {
      host: t.host,
      port: t.port,
      path,
      method,
      agent: t.agent,
      headers: method === 'POST' ? { 'content-type': type } : {},
      signal,
    },
    (res) =>
      readBody(res, MAX_WAV_BYTES, (r) => end(r instanceof Error ? r : { status: res.statusCode ?? 0, body: r })),
  );
  // A whole answer within the timeout: a server that sends a byte now and then cannot hold a request for ever.
  const deadline = setTimeout(() => {
    const err = new Error(`no whole answer within ${Math.round(timeoutMs / 1000)} s`);
    end(err);
    req.destroy(err);
  }, timerMs(timeoutMs));
  req.on('error', (err) =>
    end(err.message.startsWith('no whole answer') ? err : new Error(`the request failed: ${err.message}`)),
  );
  req.end(method === 'POST' ? body : undefined);
}

export function sentenceRequest(
  style: HttpRequestStyle,
  text: string,
  voice?: string,
): { method: 'POST' | 'GET'; path: string; body: string; type: string } {
  const json = { body: JSON.stringify(voice === undefined ? { text } : { text, voice }), type: 'application/json' };
  if (style === 'synthesize-json') return { method: 'POST', path: '/synthesize', ...json };
  if (style === 'root-json') return { method: 'POST', path: '/', ...json };
  if (style === 'root-text') return { method: 'POST', path: '/', body: text, type: 'text/plain; charset=utf-8' };
  return { method: 'GET', path: `/?text=${encodeURIComponent(text)}`, body: '', type: '' };
}

class HttpSession implements ServerSession {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  private closed = false;

  constructor(
    private readonly t: HttpTarget,
    private readonly o: HttpLinkOptions,
  ) {}

  synthesize(text: string, reply: (r: SynthesisReply) => void): void {
    const req = { ...sentenceRequest(this.t.style, text, this.o.voice), timeoutMs: this.o.replyTimeoutMs };
    post({ ...this.t, agent: this.agent }, req, (r) => {
      if (this.closed) return;
      if (r instanceof Error) return reply({ state: 'failed', message: r.message });
      if (r.status !== 200)
        return reply({
          state: 'failed',
          message: `${styleWords(this.t.style)} answered ${r.status}: ${preview(r.body)}`,
        });
      const endMs = this.o.now();
      const wav = wavAudio(r.body);
      if (typeof wav === 'string')
        return reply({ state: 'failed', message: `${styleWords(this.t.style)} gave ${wav}` });
      reply({ state: 'done', endMs, ...wav });
    });
  }

  close(): void {
    this.closed = true;
    this.agent.destroy();
  }
}

export function httpLink(t: HttpTarget, o: HttpLinkOptions): ServerLink {
  return {
    open(reply: (r: OpenReply) => void): () => void {
      // HTTP has no handshake: the session's connection opens with its first request.
      let session: HttpSession | undefined;
      let cancelled = false;
      queueMicrotask(() => {
        if (cancelled) return;
        session = new HttpSession(t, o);
        reply({ state: 'open', session });
      });
      return () => {
        cancelled = true;
        session?.close();
      };
    },
  };
}
