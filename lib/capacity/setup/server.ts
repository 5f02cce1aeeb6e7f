/**
 * A running server measured as a layout of its own: `--server URL` is read and the server probed
 * before anything is measured; it then stands in the run as a voice named `server` with one layout,
 * a connection per listener, asked one line of the text at a time. With `--voice`, the local voice's
 * layouts run in the same rounds, on the same text and arrival pattern.
 */
import { PiperParallelError } from '../../core/errors.js';
import { probeServer, parseServerUrl, type ProbeOptions } from '../../server/probe.js';
import type { ServerDescription, ServerLink, ServerSession } from '../../server/contract/session.js';
import { httpLink } from '../../server/http/session.js';
import { wyomingLink } from '../../server/wyoming/session.js';
import type { VoiceInfo } from '../../voice/load.js';
import type { VoiceConfig } from '../../voice/format/config.js';
import type { PreparedText } from '../../voice/text.js';
import type { Layout } from '../trial/layouts.js';
import { timerMs } from '../../core/timer.js';

export const SERVER_VOICE = 'server';
export const SERVER_LAYOUT: Layout = { workers: 'K', threads: 1, pinned: false, isolation: 'server' };
/** A server that has not answered a connection, an `info` or a sentence's next event within this has failed. */
export const DEFAULT_SERVER_TIMEOUT_MS = 30_000;

/** A server to measure: what it said of itself, and how to open sessions to it on a given clock. */
export interface ServerHandle {
  description: ServerDescription;
  link: (now: () => number) => ServerLink;
}

/** `--server URL` probed, its sessions asking for `o.voice` (--server-voice) when given; a handle is used as it is. */
export async function resolveServer(
  given: string | ServerHandle,
  sampleText: string,
  o: ProbeOptions = { timeoutMs: DEFAULT_SERVER_TIMEOUT_MS },
): Promise<ServerHandle> {
  if (typeof given !== 'string') return given;
  const t = parseServerUrl(given);
  const description = await probeServer(t, sampleText, o);
  const voice = o.voice === undefined ? {} : { voice: o.voice };
  return {
    description,
    link: (now) => {
      const options = { now, replyTimeoutMs: o.timeoutMs, ...voice };
      return t.protocol === 'wyoming'
        ? wyomingLink(t, options)
        : httpLink({ ...t, style: description.request ?? 'synthesize-json' }, options);
    },
  };
}

/** Asks the server once more after the run: is it still answering? Ctrl-C ends the wait (false). */
export function stillAnswering(
  h: ServerHandle,
  sampleText: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    let session: ServerSession | undefined;
    // Set once the open is asked for; finish may run before (an open that fails at once).
    const opened: { close?: () => void } = {};
    let over = false;
    const finish = (answered: boolean): void => {
      if (over) return;
      over = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      // Closed whatever happened: a server that pings or trickles must not keep the process from exiting.
      session?.close();
      opened.close?.();
      resolve(answered);
    };
    const timer = setTimeout(() => finish(false), timerMs(timeoutMs + 1000));
    const onAbort = (): void => finish(false);
    signal?.addEventListener('abort', onAbort, { once: true });
    opened.close = h
      .link(() => performance.now())
      .open((r) => {
        if (r.state === 'failed') return finish(false);
        session = r.session;
        if (over) return session.close();
        r.session.synthesize(sampleText, (x) => finish(x.state === 'done'));
      });
  });
}

/** Nothing of it is read by a server session: it only fills the worker's init as a voice's would. */
const NO_CONFIG: VoiceConfig = {
  audio: { sample_rate: 22050 },
  espeak: { voice: 'und' },
  inference: { noise_scale: 0.667, length_scale: 1, noise_w: 0.8 },
  phoneme_id_map: { _: [0] },
  num_symbols: 1,
  num_speakers: 1,
};

export function serverVoice(): VoiceInfo {
  return {
    name: SERVER_VOICE,
    onnxPath: '',
    configPath: '',
    config: NO_CONFIG,
    sizeBytes: 0,
    sha256: '',
    synthetic: false,
  };
}

/** The server is sent text: one request per non-empty line. */
export function serverText(lines: readonly string[]): PreparedText {
  const sentences = lines
    .map((l) => l.trim())
    .filter((l) => l.length > 0)
    .map((text) => ({ text, phonemes: [], ids: [], phonemizeSeconds: 0 }));
  if (sentences.length === 0)
    throw new PiperParallelError('TEXT', 'the text has no line to send the server; give a --text-file with sentences');
  return { sentences, phonemizeSeconds: 0, missingPhonemes: {} };
}

/**
 * A streaming server is sent each listener's whole text in one stream: one job, whose lines the session writes one
 * after another; what comes back is the server's own sentences, however it splits them.
 */
export function streamText(lines: readonly string[]): PreparedText {
  const whole = serverText(lines);
  const text = whole.sentences.map((s) => s.text).join('\n');
  return { ...whole, sentences: [{ text, phonemes: [], ids: [], phonemizeSeconds: 0 }] };
}
