/**
 * Piper's HTTP server: one POST per sentence (`/synthesize` with JSON `{"text"}`, or `/` with the
 * text as the body on older releases), a whole WAV back. A session is a keep-alive connection of
 * its own, as a streaming player's would be; the sentence is there when the last byte of its WAV is.
 */
import http from 'node:http';
import { parseWavHeader } from '../../voice/format/wav.js';
import { preview } from '../wyoming/event.js';
import type { AudioFormat, OpenReply, ServerLink, ServerSession, SynthesisReply } from '../contract/session.js';

export interface HttpTarget {
  host: string;
  port: number;
  /** `/synthesize` or `/`. */
  endpoint: string;
}

export interface HttpLinkOptions {
  now: () => number;
  replyTimeoutMs: number;
}

/** A WAV's format and audio seconds, or why it is not one. */
export function wavAudio(body: Buffer): { format: AudioFormat; audioSeconds: number } | string {
  let h;
  try {
    h = parseWavHeader(body);
  } catch (err) {
    return `an answer that is not a WAV (${(err as Error).message}): ${preview(body)}`;
  }
  const format = { rate: h.sampleRate, width: h.bitsPerSample / 8, channels: h.channels };
  if (!Number.isInteger(format.width) || format.width < 1 || format.rate < 1 || format.channels < 1)
    return `a WAV with ${h.bitsPerSample} bits, ${h.sampleRate} Hz, ${h.channels} channel(s)`;
  // A streaming writer may leave the data size at 0 or 0xffffffff: the bytes that came are the audio.
  const bytes = Math.min(body.length - 44, h.dataBytes > 0 && h.dataBytes < 0xffffffff ? h.dataBytes : body.length);
  return { format, audioSeconds: bytes / (format.rate * format.width * format.channels) };
}

/** One POST, its whole body; the failure says the status or the socket's error. */
export function post(
  t: { host: string; port: number; agent?: http.Agent },
  { path, body, type, timeoutMs }: { path: string; body: string; type: string; timeoutMs: number },
  done: (r: { status: number; body: Buffer } | Error) => void,
): void {
  let settled = false;
  const end = (r: { status: number; body: Buffer } | Error): void => {
    if (settled) return;
    settled = true;
    done(r);
  };
  const req = http.request(
    { host: t.host, port: t.port, path, method: 'POST', agent: t.agent, headers: { 'content-type': type } },
    (res) => {
      const parts: Buffer[] = [];
      res.on('data', (b: Buffer) => parts.push(b));
      res.on('end', () => end({ status: res.statusCode ?? 0, body: Buffer.concat(parts) }));
      res.on('error', (err) => end(err));
      res.on('aborted', () => end(new Error('the server closed the connection in the middle of its answer')));
    },
  );
  req.setTimeout(timeoutMs, () => {
    req.destroy(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`));
  });
  req.on('error', (err) =>
    end(err.message.startsWith('no answer') ? err : new Error(`the request failed: ${err.message}`)),
  );
  req.end(body);
}

export const sentenceRequest = (endpoint: string, text: string): { path: string; body: string; type: string } =>
  endpoint === '/'
    ? { path: '/', body: text, type: 'text/plain; charset=utf-8' }
    : { path: endpoint, body: JSON.stringify({ text }), type: 'application/json' };

class HttpSession implements ServerSession {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  private closed = false;

  constructor(
    private readonly t: HttpTarget,
    private readonly o: HttpLinkOptions,
  ) {}

  synthesize(text: string, reply: (r: SynthesisReply) => void): void {
    const req = { ...sentenceRequest(this.t.endpoint, text), timeoutMs: this.o.replyTimeoutMs };
    post({ ...this.t, agent: this.agent }, req, (r) => {
      if (this.closed) return;
      if (r instanceof Error) return reply({ state: 'failed', message: r.message });
      if (r.status !== 200)
        return reply({ state: 'failed', message: `POST ${this.t.endpoint} answered ${r.status}: ${preview(r.body)}` });
      const endMs = this.o.now();
      const wav = wavAudio(r.body);
      if (typeof wav === 'string') return reply({ state: 'failed', message: `POST ${this.t.endpoint} gave ${wav}` });
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
    open(reply: (r: OpenReply) => void): void {
      // HTTP has no handshake: the session's connection opens with its first request.
      queueMicrotask(() => reply({ state: 'open', session: new HttpSession(t, o) }));
    },
  };
}
