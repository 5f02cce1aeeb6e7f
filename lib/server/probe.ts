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
import { textOf, type ServerDescription } from './contract/session.js';
import { readBody, styleWords, takesVoice, type HttpRequestStyle } from './http/session.js';
import { timerMs } from '../core/timer.js';

/** How long the probe waits, what stops it, and the voice the run will ask for (--server-voice). */
export interface ProbeOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  voice?: string;
}

export type ServerTarget =
  | { protocol: 'wyoming'; host: string; port: number; address: string }
  | { protocol: 'http'; host: string; port: number; address: string };

const EXAMPLE =
  'e.g. --server tcp://127.0.0.1:10200 (wyoming-piper) or --server http://127.0.0.1:5000 (piper.http_server)';

/** The longest --server-timeout-s a timer can hold (Node's timers take at most 2^31 - 1 ms). */
export const MAX_SERVER_TIMEOUT_S = 2147483;

export function parseServerUrl(value: string): ServerTarget {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new PiperParallelError('USAGE', `--server takes a URL, got "${textOf(value)}"; ${EXAMPLE}`);
  }
  const protocol = u.protocol === 'tcp:' ? 'wyoming' : u.protocol === 'http:' ? 'http' : undefined;
  if (!protocol)
    throw new PiperParallelError(
      'USAGE',
      `--server speaks tcp:// (Wyoming) or http:// (Piper's HTTP server), got "${textOf(value)}"; ${EXAMPLE}`,
    );
  // Neither server has a login, and the URL is archived in the command: a password there would be kept.
  if (u.username || u.password)
    throw new PiperParallelError('USAGE', `--server takes no user:password@ (neither server has a login); ${EXAMPLE}`);
  if (u.pathname !== '' && u.pathname !== '/')
    throw new PiperParallelError(
      'USAGE',
      `--server takes no path, got "${textOf(u.pathname)}" (the client finds /synthesize or / itself); ${EXAMPLE}`,
    );
  // Neither is sent to the server: dropped without a word, the run would measure something else than asked.
  if (u.search || u.hash)
    throw new PiperParallelError(
      'USAGE',
      `--server takes no query or fragment, got "${textOf(u.search + u.hash)}" (neither is sent to the server); ${EXAMPLE}`,
    );
  // URL drops a scheme's default port (http's 80); tcp:// has none.
  const port = u.port === '' && protocol === 'http' ? 80 : Number(u.port);
  if (!u.hostname || !Number.isInteger(port) || port < 1)
    throw new PiperParallelError('USAGE', `--server needs a host and a port, got "${textOf(value)}"; ${EXAMPLE}`);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  return { protocol, host, port, address: `${u.protocol}//${u.hostname}:${port}` };
}

const fail = (t: ServerTarget, what: string): PiperParallelError =>
  new PiperParallelError('SERVER', `--server ${t.address}: ${what}; check that the server runs there (${EXAMPLE})`);

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The tts programs an info lists, hostile entries (null, numbers, names that are objects) read as words or left out. */
function ttsPrograms(info: Record<string, unknown>): { names: string[]; voices: string[]; streaming: boolean } {
  const tts = (Array.isArray(info.tts) ? info.tts : []).filter(isRecord);
  const voices = tts.flatMap((p) =>
    Array.isArray(p.voices) ? p.voices.map((v) => textOf(isRecord(v) ? v.name : v) || '?') : [],
  );
  return {
    names: tts.map((p) => textOf(p.name) || '?'),
    voices,
    streaming: tts.some((p) => p.supports_synthesize_streaming === true),
  };
}

/** The programs an info names, at most MAX_PROGRAMS_SAID of them: the archive keeps what is said, not a flood. */
const MAX_PROGRAMS_SAID = 4;
const programWords = (names: readonly string[]): string =>
  names.length <= MAX_PROGRAMS_SAID
    ? names.join(', ')
    : `${names.slice(0, MAX_PROGRAMS_SAID).join(', ')} and ${names.length - MAX_PROGRAMS_SAID} more`;

/** A list longer than this is a catalogue (wyoming-piper lists all of voices.json, each "installed"), not what is loaded. */
const MAX_VOICES_KEPT = 8;

/**
 * The voices the archive keeps: the one loaded where the server says (Piper's HTTP /info), else the list when short;
 * a catalogue is counted, not copied (wyoming-piper's info weighs 83 KB for its 163 voices).
 */
export function servedVoices(listed: readonly string[], loaded?: string): { voices: string[]; words: string } {
  if (loaded !== undefined)
    return {
      voices: [loaded],
      words: `voice ${loaded} loaded${listed.length > 1 ? ` (${listed.length} listed)` : ''}`,
    };
  if (listed.length === 0) return { voices: [], words: 'voices not listed' };
  if (listed.length <= MAX_VOICES_KEPT) return { voices: [...listed], words: `voices ${listed.join(', ')}` };
  return { voices: [], words: `${listed.length} voices listed, a catalogue (it does not say which one is loaded)` };
}

function aborted(t: ServerTarget): PiperParallelError {
  return new PiperParallelError(
    'ABORTED',
    `interrupted while asking --server ${t.address} what it is; nothing was measured`,
  );
}

/** --server-voice naming a voice the server does not list: one line with what it lists. */
function unknownVoice(t: ServerTarget, voice: string, listed: readonly string[]): PiperParallelError {
  const some = listed.slice(0, MAX_VOICES_KEPT).join(', ');
  const more = listed.length > MAX_VOICES_KEPT ? ` and ${listed.length - MAX_VOICES_KEPT} more` : '';
  return new PiperParallelError(
    'USAGE',
    `--server-voice ${textOf(voice)}: ${t.address} lists no such voice (it lists ${some}${more}); ` +
      'give one it lists, or leave --server-voice out to measure its default voice',
  );
}

const voiceWords = (voice: string | undefined): string => (voice === undefined ? '' : `; asked for voice ${voice}`);

function describeWyoming(t: ServerTarget, { timeoutMs, signal, voice }: ProbeOptions): Promise<ServerDescription> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(aborted(t));
    const conn = connectWyoming(t, { now: () => performance.now(), replyTimeoutMs: timeoutMs }, (r) => {
      signal?.removeEventListener('abort', onAbort);
      if (r.state === 'failed') return reject(signal?.aborted ? aborted(t) : fail(t, r.message));
      r.c.fail(new Error('closed'));
      let p: ReturnType<typeof ttsPrograms>;
      try {
        p = ttsPrograms(r.info);
      } catch (err) {
        return reject(fail(t, `its info could not be read (${(err as Error).message})`));
      }
      if (p.names.length === 0) return reject(fail(t, 'its info lists no tts program (not a Wyoming TTS server?)'));
      // A server that lists no voice cannot be checked here: its first answer says whether it has it.
      if (voice !== undefined && p.voices.length > 0 && !p.voices.includes(voice))
        return reject(unknownVoice(t, voice, p.voices));
      resolve({
        address: t.address,
        protocol: 'wyoming',
        endpoint: null,
        request: null,
        streaming: p.streaming,
        said: `Wyoming TTS ${programWords(p.names)}; ${servedVoices(p.voices).words}${voiceWords(voice)}`,
        voices: servedVoices(p.voices).voices,
        voice: voice ?? null,
      });
    });
    const onAbort = (): void => conn.fail(new Error('interrupted'));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The most an info or voices answer may weigh. */
const MAX_JSON_BYTES = 4 * 2 ** 20;

function getJson(t: ServerTarget, path: string, timeoutMs: number, signal?: AbortSignal): Promise<unknown> {
  return new Promise((resolve) => {
    const req = http.get({ host: t.host, port: t.port, path, signal }, (res) =>
      readBody(res, MAX_JSON_BYTES, (r) => {
        try {
          resolve(!(r instanceof Error) && res.statusCode === 200 ? JSON.parse(r.toString('utf8')) : undefined);
        } catch {
          resolve(undefined);
        }
      }),
    );
    // The whole answer within the timeout: a server that trickles a byte at a time does not hold the probe.
    const deadline = setTimeout(() => req.destroy(new Error('timeout')), timerMs(timeoutMs));
    req.on('close', () => clearTimeout(deadline));
    req.on('error', () => resolve(undefined));
  });
}

const ask = (t: ServerTarget, style: HttpRequestStyle, text: string, { timeoutMs, signal, voice }: ProbeOptions) =>
  new Promise<{ status: number; body: Buffer } | Error>((resolve) =>
    post(t, { ...sentenceRequest(style, text, voice), timeoutMs, ...(signal ? { signal } : {}) }, resolve),
  );

/**
 * Each release's way, in an order that cannot mistake one for another: /synthesize (piper1-gpl from 1.5; the
 * others answer 404 or 405 there); `POST /` with text before JSON, because rhasspy/piper speaks whatever body it
 * gets (a JSON body would be spoken as JSON) while piper1-gpl 1.3-1.4 refuse a text body (500) and take JSON;
 * `GET /?text=` last. The first that answers with a WAV is the server's.
 */
const STYLES: readonly HttpRequestStyle[] = ['synthesize-json', 'root-text', 'root-json', 'get-query'];

async function findStyle(
  t: ServerTarget,
  text: string,
  o: ProbeOptions,
): Promise<{ style: HttpRequestStyle; audio: Buffer }> {
  const tried: string[] = [];
  // Found without the voice: a server that lacks it must not be mistaken for another release.
  const plain = { timeoutMs: o.timeoutMs, ...(o.signal ? { signal: o.signal } : {}) };
  for (const style of STYLES) {
    const r = await ask(t, style, text, plain);
    if (o.signal?.aborted) throw aborted(t);
    // A socket that failed is the server's state, not a release's way: said at once.
    if (r instanceof Error) throw fail(t, `${styleWords(style)}: ${r.message}`);
    if (r.status === 200) {
      const wav = wavAudio(r.body);
      if (typeof wav === 'string') throw fail(t, `${styleWords(style)} gave ${wav}`);
      return { style, audio: r.body };
    }
    tried.push(`${styleWords(style)} ${r.status}`);
    if (r.status < 400) break;
  }
  throw fail(t, `no release's way of asking for a sentence was answered with audio (${tried.join(', ')})`);
}

/** The voice asked for, tried once: a release that takes none, or an answer that is no WAV, is one line. */
async function checkVoice(t: ServerTarget, style: HttpRequestStyle, text: string, o: ProbeOptions, listed: string[]) {
  if (o.voice === undefined) return;
  if (!takesVoice(style))
    throw new PiperParallelError(
      'USAGE',
      `--server-voice: ${t.address} (${styleWords(style)}: rhasspy/piper) takes no voice in its request; ` +
        'leave --server-voice out (it speaks the voice it was started with)',
    );
  const r = await ask(t, style, text, o);
  if (o.signal?.aborted) throw aborted(t);
  if (r instanceof Error) throw fail(t, `${styleWords(style)} with voice ${textOf(o.voice)}: ${r.message}`);
  if (r.status !== 200 || typeof wavAudio(r.body) === 'string') {
    if (listed.length > 0 && !listed.includes(o.voice)) throw unknownVoice(t, o.voice, listed);
    throw new PiperParallelError(
      'USAGE',
      `--server-voice ${textOf(o.voice)}: ${t.address} answered ${r.status} without audio when asked for it; ` +
        'give a voice the server has, or leave --server-voice out to measure its default voice',
    );
  }
}

async function describeHttp(t: ServerTarget, text: string, o: ProbeOptions): Promise<ServerDescription> {
  const { timeoutMs, signal } = o;
  const { style } = await findStyle(t, text, o);
  const endpoint = style === 'synthesize-json' ? '/synthesize' : '/';
  const info = await getJson(t, '/info', timeoutMs, signal);
  const voices = await getJson(t, '/voices', timeoutMs, signal);
  if (signal?.aborted) throw aborted(t);
  const voice = isRecord(info) && isRecord(info.voice) ? info.voice.name : undefined;
  const listed = isRecord(voices) ? Object.keys(voices).map(textOf) : [];
  await checkVoice(t, style, text, o, listed);
  const served = servedVoices(listed, typeof voice === 'string' ? textOf(voice) : undefined);
  const release =
    style === 'synthesize-json'
      ? 'piper1-gpl 1.5 or later'
      : style === 'root-json'
        ? 'piper1-gpl 1.3 to 1.4'
        : 'rhasspy/piper';
  return {
    address: t.address,
    protocol: 'http',
    endpoint,
    request: style,
    streaming: false,
    said: `Piper HTTP server (${styleWords(style)}: ${release}); ${served.words}${voiceWords(o.voice)}`,
    voices: served.voices,
    voice: o.voice ?? null,
  };
}

/** What the server is and says, or a one-line error naming --server. */
export function probeServer(t: ServerTarget, sampleText: string, o: ProbeOptions): Promise<ServerDescription> {
  return t.protocol === 'wyoming' ? describeWyoming(t, o) : describeHttp(t, sampleText, o);
}
