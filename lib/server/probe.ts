/**
 * `--server URL` read and the server asked what it is, before anything is measured: a Wyoming
 * server must answer `describe` with an `info` listing a TTS program; Piper's HTTP server must give
 * a WAV for the text's first sentence at `/synthesize`, or at `/` (older releases). Whatever fails
 * is one line naming the URL and what the server said.
 */
import http from 'node:http';
import { PiperParallelError } from '../core/errors.js';
import { connectWyoming } from './wyoming/session.js';
import { post, sentenceRequest, wavAudio } from './http/session.js';
import { preview } from './wyoming/event.js';
import type { ServerDescription } from './contract/session.js';

export type ServerTarget =
  | { protocol: 'wyoming'; host: string; port: number; address: string }
  | { protocol: 'http'; host: string; port: number; address: string };

const EXAMPLE =
  'e.g. --server tcp://127.0.0.1:10200 (wyoming-piper) or --server http://127.0.0.1:5000 (piper.http_server)';

export function parseServerUrl(value: string): ServerTarget {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new PiperParallelError('USAGE', `--server takes a URL, got "${value}"; ${EXAMPLE}`);
  }
  const port = Number(u.port);
  const protocol = u.protocol === 'tcp:' ? 'wyoming' : u.protocol === 'http:' ? 'http' : undefined;
  if (!protocol)
    throw new PiperParallelError(
      'USAGE',
      `--server speaks tcp:// (Wyoming) or http:// (Piper's HTTP server), got "${value}"; ${EXAMPLE}`,
    );
  if (!u.hostname || !Number.isInteger(port) || port < 1)
    throw new PiperParallelError('USAGE', `--server needs a host and a port, got "${value}"; ${EXAMPLE}`);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  return { protocol, host, port, address: `${u.protocol}//${u.host}` };
}

const fail = (t: ServerTarget, what: string): PiperParallelError =>
  new PiperParallelError('SERVER', `--server ${t.address}: ${what}; check that the server runs there (${EXAMPLE})`);

interface TtsProgram {
  name?: unknown;
  voices?: unknown;
  supports_synthesize_streaming?: unknown;
}

function describeWyoming(t: ServerTarget, timeoutMs: number): Promise<ServerDescription> {
  return new Promise((resolve, reject) => {
    connectWyoming(t, { now: () => performance.now(), replyTimeoutMs: timeoutMs }, (r) => {
      if (r.state === 'failed') return reject(fail(t, r.message));
      r.c.fail(new Error('closed'));
      const tts = Array.isArray(r.info.tts) ? (r.info.tts as TtsProgram[]) : [];
      if (tts.length === 0) return reject(fail(t, 'its info lists no tts program (not a Wyoming TTS server?)'));
      const voices = tts.flatMap((p) =>
        Array.isArray(p.voices) ? p.voices.map((v: { name?: unknown }) => String(v?.name ?? '?')) : [],
      );
      const names = tts.map((p) => String(p.name ?? '?')).join(', ');
      resolve({
        address: t.address,
        protocol: 'wyoming',
        endpoint: null,
        streaming: tts.some((p) => p.supports_synthesize_streaming === true),
        said: `Wyoming TTS ${names}; voices ${voices.join(', ') || 'not listed'}`,
        voices,
      });
    });
  });
}

function getJson(t: ServerTarget, path: string, timeoutMs: number): Promise<unknown> {
  return new Promise((resolve) => {
    const req = http.get({ host: t.host, port: t.port, path, timeout: timeoutMs }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (b: Buffer) => parts.push(b));
      res.on('end', () => {
        try {
          resolve(res.statusCode === 200 ? JSON.parse(Buffer.concat(parts).toString('utf8')) : undefined);
        } catch {
          resolve(undefined);
        }
      });
      res.on('error', () => resolve(undefined));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
  });
}

const postOnce = (t: ServerTarget, endpoint: string, text: string, timeoutMs: number) =>
  new Promise<{ status: number; body: Buffer } | Error>((resolve) =>
    post(t, { ...sentenceRequest(endpoint, text), timeoutMs }, resolve),
  );

async function describeHttp(t: ServerTarget, text: string, timeoutMs: number): Promise<ServerDescription> {
  let endpoint = '/synthesize';
  let r = await postOnce(t, endpoint, text, timeoutMs);
  if (!(r instanceof Error) && (r.status === 404 || r.status === 405)) {
    endpoint = '/';
    r = await postOnce(t, endpoint, text, timeoutMs);
  }
  if (r instanceof Error) throw fail(t, r.message);
  if (r.status !== 200) throw fail(t, `POST ${endpoint} answered ${r.status}: ${preview(r.body)}`);
  const wav = wavAudio(r.body);
  if (typeof wav === 'string') throw fail(t, `POST ${endpoint} gave ${wav}`);
  const info = (await getJson(t, '/info', timeoutMs)) as { voice?: { name?: unknown } } | undefined;
  const voices = await getJson(t, '/voices', timeoutMs);
  const names = [
    ...new Set([
      ...(typeof info?.voice?.name === 'string' ? [info.voice.name] : []),
      ...(voices && typeof voices === 'object' ? Object.keys(voices) : []),
    ]),
  ];
  return {
    address: t.address,
    protocol: 'http',
    endpoint,
    streaming: false,
    said: `Piper HTTP server (POST ${endpoint}${endpoint === '/' ? ', an older release' : ''}); voices ${names.join(', ') || 'not listed'}`,
    voices: names,
  };
}

/** What the server is and says, or a one-line error naming --server. */
export function probeServer(t: ServerTarget, sampleText: string, timeoutMs: number): Promise<ServerDescription> {
  return t.protocol === 'wyoming' ? describeWyoming(t, timeoutMs) : describeHttp(t, sampleText, timeoutMs);
}
