/**
 * Speech servers for the tests, on loopback only, written from the protocols' descriptions and not
 * from lib/server (a misreading there must not be mirrored here): a Wyoming TTS server and Piper's
 * HTTP server, each of known speed (every sentence `audioSeconds` long, made in audioSeconds / speed),
 * `slots` sentences at once (1: one global lock, as wyoming-piper's), and faults to order.
 */
import http from 'node:http';
import net from 'node:net';

export interface SpeechServerSpec {
  speed: number;
  slots: number;
  audioSeconds: number;
  /** Wyoming: advertise streaming text in. */
  streaming?: boolean;
  /**
   * HTTP: which release's routes, as each release's code has them. `synthesize-json` (piper1-gpl 1.5 on, the
   * default): `POST /synthesize` JSON, `GET /info`, `GET /voices`. `root-json` (piper1-gpl 1.3-1.4): `POST /` whose
   * body goes through json.loads (a text body: 500), `GET /voices`, no `/info`. `root-text` (rhasspy/piper):
   * `GET` or `POST /`, the body (or `?text=`) spoken as it is, nothing else.
   */
  release?: 'synthesize-json' | 'root-json' | 'root-text';
  fault?: 'truncate' | 'bad-data-length' | 'stall-mid-chunk' | 'close-early' | 'garbage' | 'no-tts' | 'not-wav';
  /** After this many sentences in all, every connection is cut and the server stops listening. */
  dieAfter?: number;
  /**
   * The voices it has (default `test-voice`), listed in info and /voices; a request may name one (Wyoming
   * `voice.name`, HTTP JSON `voice`), and one it lacks is refused: a Wyoming `error`, an HTTP 500.
   */
  voices?: string[];
}

export interface RunningServer {
  port: number;
  url: string;
  /** Sentences begun. */
  served(): number;
  /** Connections open now. */
  connections(): number;
  /** The voice each request named, in order (null: none named); streams count at their `synthesize-start`. */
  asked(): Array<string | null>;
  close(): Promise<void>;
}

const RATE = 16000;
const CHUNK_SAMPLES = 1024;

/** At most `slots` at once, in the order asked (an asyncio.Lock is FIFO too). */
function limiter(slots: number) {
  let busy = 0;
  const waiting: Array<() => void> = [];
  const release = (): void => {
    busy -= 1;
    waiting.shift()?.();
  };
  return (work: (done: () => void) => void): void => {
    const go = (): void => {
      busy += 1;
      work(release);
    };
    if (busy < slots) go();
    else waiting.push(go);
  };
}

export function wyomingEvent(type: string, data: Record<string, unknown>, payload?: Buffer): Buffer {
  const body = Buffer.from(JSON.stringify(data));
  const head = { type, version: '1.7.0', data_length: body.length, payload_length: payload?.length ?? 0 };
  return Buffer.concat([Buffer.from(`${JSON.stringify(head)}\n`), body, payload ?? Buffer.alloc(0)]);
}

/** Splits the bytes a client sent into events; the data section is parsed, the payload skipped. */
export function reader(onEvent: (type: string, data: Record<string, unknown>) => void): (b: Buffer) => void {
  let buf = Buffer.alloc(0);
  return (b) => {
    buf = Buffer.concat([buf, b]);
    for (;;) {
      const nl = buf.indexOf(10);
      if (nl < 0) return;
      const head = JSON.parse(buf.subarray(0, nl).toString()) as {
        type: string;
        data?: Record<string, unknown>;
        data_length?: number;
        payload_length?: number;
      };
      const need = nl + 1 + (head.data_length ?? 0) + (head.payload_length ?? 0);
      if (buf.length < need) return;
      const dataBytes = buf.subarray(nl + 1, nl + 1 + (head.data_length ?? 0));
      const data = { ...(head.data ?? {}), ...(dataBytes.length > 0 ? JSON.parse(dataBytes.toString()) : {}) };
      buf = buf.subarray(need);
      onEvent(head.type, data);
    }
  };
}

function sentenceEvents(spec: SpeechServerSpec, socket: net.Socket): void {
  const fmt = { rate: RATE, width: 2, channels: 1 };
  const bytes = Math.round(spec.audioSeconds * RATE) * 2;
  if (spec.fault === 'truncate') {
    socket.write(wyomingEvent('audio-start', fmt));
    socket.end(wyomingEvent('audio-chunk', fmt, Buffer.alloc(4096)).subarray(0, 50));
    return;
  }
  if (spec.fault === 'stall-mid-chunk') {
    socket.write(wyomingEvent('audio-start', fmt));
    socket.write(wyomingEvent('audio-chunk', fmt, Buffer.alloc(4096)).subarray(0, 2000));
    return;
  }
  if (spec.fault === 'bad-data-length') {
    const body = Buffer.from(JSON.stringify(fmt));
    socket.write(
      Buffer.concat([Buffer.from(`${JSON.stringify({ type: 'audio-start', data_length: body.length - 6 })}\n`), body]),
    );
    return;
  }
  socket.write(wyomingEvent('audio-start', fmt));
  for (let at = 0; at < bytes; at += CHUNK_SAMPLES * 2)
    // Speech is never exact zeros: zeros at a pair's end are read as silence the server added.
    socket.write(wyomingEvent('audio-chunk', fmt, Buffer.alloc(Math.min(CHUNK_SAMPLES * 2, bytes - at), 0x11)));
  socket.write(wyomingEvent('audio-stop', {}));
}

/** The voice a request names, as wyoming's SynthesizeVoice or piper1-gpl's JSON `voice` has it; null when none. */
function namedVoice(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'object' && v !== null && typeof (v as { name?: unknown }).name === 'string')
    return (v as { name: string }).name;
  return null;
}

function listen(
  server: net.Server | http.Server,
  sockets: Set<net.Socket>,
  served: () => number,
  asked: Array<string | null>,
): Promise<RunningServer> {
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      resolve({
        port,
        url: `${server instanceof http.Server ? 'http' : 'tcp'}://127.0.0.1:${port}`,
        served,
        connections: () => sockets.size,
        asked: () => [...asked],
        close: () =>
          new Promise((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

/** Cuts every connection and stops listening once `dieAfter` sentences have begun. */
function mortal(spec: SpeechServerSpec, server: net.Server | http.Server, sockets: Set<net.Socket>) {
  let n = 0;
  return {
    begin: (): boolean => {
      n += 1;
      if (spec.dieAfter === undefined || n <= spec.dieAfter) return true;
      server.close();
      for (const s of sockets) s.destroy();
      return false;
    },
    served: () => n,
  };
}

/**
 * Streaming text in, as wyoming-piper does it: text gathered from `synthesize-chunk`s, each sentence (ended by . ! or ?
 * then a space) synthesized once its text is whole, one after the other on its connection, then `synthesize-stopped`.
 */
function streamingConnection(
  socket: net.Socket,
  spec: SpeechServerSpec,
  slot: ReturnType<typeof limiter>,
  life: { begin: () => boolean },
) {
  let text = '';
  let stopped = false;
  const todo: string[] = [];
  let busy = false;
  const pump = (): void => {
    if (busy || socket.destroyed) return;
    if (todo.length === 0) {
      if (stopped) socket.write(wyomingEvent('synthesize-stopped', {}));
      stopped = false;
      return;
    }
    todo.shift();
    if (!life.begin()) return;
    busy = true;
    slot((done) =>
      setTimeout(
        () => {
          done();
          busy = false;
          if (!socket.destroyed) sentenceEvents(spec, socket);
          pump();
        },
        (1000 * spec.audioSeconds) / spec.speed,
      ),
    );
  };
  return (type: string, data: Record<string, unknown>): boolean => {
    if (type === 'synthesize-start') text = '';
    else if (type === 'synthesize-chunk') {
      text += String(data.text ?? '');
      for (let m = /^\s*(.*?[.!?])\s+/.exec(text); m; m = /^\s*(.*?[.!?])\s+/.exec(text)) {
        todo.push(m[1] as string);
        text = text.slice(m[0].length);
      }
    } else if (type === 'synthesize-stop') {
      if (text.trim()) todo.push(text.trim());
      text = '';
      stopped = true;
    } else return false;
    pump();
    return true;
  };
}

export function startWyomingServer(spec: SpeechServerSpec): Promise<RunningServer> {
  const sockets = new Set<net.Socket>();
  const slot = limiter(spec.slots);
  const server = net.createServer();
  const life = mortal(spec, server, sockets);
  const voices = spec.voices ?? ['test-voice'];
  const asked: Array<string | null> = [];
  /** Records the voice a request names; false (an `error` sent) when it names one this server lacks. */
  const hasVoice = (socket: net.Socket, data: Record<string, unknown>): boolean => {
    const name = namedVoice(data.voice);
    asked.push(name);
    if (name === null || voices.includes(name)) return true;
    socket.write(wyomingEvent('error', { text: `voice ${name} not found` }));
    return false;
  };
  server.on('connection', (socket) => {
    if (spec.fault === 'garbage') return void socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    socket.on('error', () => undefined);
    const streaming = spec.streaming ? streamingConnection(socket, spec, slot, life) : (): boolean => false;
    socket.on(
      'data',
      reader((type, data) => {
        if (type === 'synthesize-start' && !hasVoice(socket, data)) return;
        if (streaming(type, data)) return;
        if (type === 'describe') {
          const tts =
            spec.fault === 'no-tts'
              ? []
              : [
                  {
                    name: 'test-piper',
                    voices: voices.map((name) => ({ name })),
                    supports_synthesize_streaming: spec.streaming === true,
                  },
                ];
          socket.write(wyomingEvent('info', { asr: [], tts }));
        } else if (type === 'synthesize') {
          if (spec.fault === 'close-early') return void socket.destroy();
          if (!hasVoice(socket, data)) return;
          if (typeof data.text !== 'string' || !life.begin()) return;
          slot((done) =>
            setTimeout(
              () => {
                done();
                if (!socket.destroyed) sentenceEvents(spec, socket);
              },
              (1000 * spec.audioSeconds) / spec.speed,
            ),
          );
        }
      }),
    );
  });
  return listen(server, sockets, life.served, asked);
}

/** `json.loads(body)["text"]` and its `voice`, or undefined when the body is not JSON. */
function parseJsonText(body: string): { text: string; voice: string | null } | undefined {
  try {
    const v = JSON.parse(body) as { text?: unknown; voice?: unknown };
    return { text: typeof v.text === 'string' ? v.text : '', voice: namedVoice(v.voice) };
  } catch {
    return undefined;
  }
}

function wav(seconds: number): Buffer {
  const dataBytes = Math.round(seconds * RATE) * 2;
  // Speech is never exact zeros: zeros at the end would be read as silence the server added.
  const b = Buffer.alloc(44 + dataBytes, 0x11);
  b.write('RIFF', 0, 'ascii');
  b.writeUInt32LE(36 + dataBytes, 4);
  b.write('WAVEfmt ', 8, 'ascii');
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(RATE, 24);
  b.writeUInt32LE(RATE * 2, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36, 'ascii');
  b.writeUInt32LE(dataBytes, 40);
  return b;
}

export function startHttpServer(spec: SpeechServerSpec): Promise<RunningServer> {
  const sockets = new Set<net.Socket>();
  const slot = limiter(spec.slots);
  const server = http.createServer();
  const life = mortal(spec, server, sockets);
  const release = spec.release ?? 'synthesize-json';
  const voices = spec.voices ?? ['test-voice'];
  const asked: Array<string | null> = [];
  server.on('request', (req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (b: Buffer) => parts.push(b));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const fail = (status: number, body: string): void => {
        res.statusCode = status;
        res.end(body);
      };
      if (req.method === 'GET' && url.pathname === '/info' && release === 'synthesize-json')
        return void res.end(
          JSON.stringify({ voice: { name: voices[0], language: 'fr', num_speakers: 1 }, last: null }),
        );
      if (req.method === 'GET' && url.pathname === '/voices' && release !== 'root-text')
        return void res.end(JSON.stringify(Object.fromEntries(voices.map((v) => [v, {}]))));
      const body = Buffer.concat(parts).toString();
      let text: string | undefined;
      let json: ReturnType<typeof parseJsonText>;
      if (release === 'synthesize-json' && req.method === 'POST' && url.pathname === '/synthesize')
        text = (json = parseJsonText(body))?.text;
      else if (release === 'root-json' && req.method === 'POST' && url.pathname === '/') {
        text = (json = parseJsonText(body))?.text;
        // json.loads on a body that is not JSON raises: Flask answers 500.
        if (text === undefined) return fail(500, '<html>Internal Server Error</html>');
      } else if (release === 'root-text' && url.pathname === '/')
        text = req.method === 'POST' ? body : (url.searchParams.get('text') ?? '');
      else if (release !== 'root-text' && req.method === 'GET' && url.pathname === '/')
        return fail(release === 'synthesize-json' ? 200 : 405, '<html>index</html>');
      else return fail(404, '<html>Not Found</html>');
      if (!text?.trim()) return fail(500, 'No text provided');
      if (release !== 'root-text') {
        const name = json?.voice ?? null;
        asked.push(name);
        // piper1-gpl loads a voice it lacks from its data dir, fails, and Flask answers 500.
        if (name !== null && !voices.includes(name)) return fail(500, '<html>Internal Server Error</html>');
      }
      if (spec.fault === 'close-early') return void req.socket.destroy();
      if (!life.begin()) return;
      slot((done) =>
        setTimeout(
          () => {
            done();
            if (spec.fault === 'not-wav') return void res.end('<html>oops</html>');
            const audio = wav(spec.audioSeconds);
            res.setHeader('content-type', 'audio/wav');
            res.setHeader('content-length', audio.length);
            if (spec.fault === 'stall-mid-chunk') return void res.write(audio.subarray(0, 100));
            res.end(audio);
          },
          (1000 * spec.audioSeconds) / spec.speed,
        ),
      );
    });
  });
  return listen(server, sockets, life.served, asked);
}
