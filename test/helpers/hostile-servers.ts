/**
 * Servers that are broken or hostile on purpose, on loopback only, each doing one named thing wrong:
 * what a client of Wyoming or Piper's HTTP server must survive with one line and no hang. Written
 * from the protocols' descriptions, not from lib/server.
 */
import http from 'node:http';
import net from 'node:net';
import { MAX_SECTION_BYTES } from '../../lib/server/wyoming/event.js';
import { MAX_WAV_BYTES } from '../../lib/server/http/session.js';

/** An OSC sequence (retitles a terminal window) and a bell: must never reach a terminal. */
export const INJECTION = '\u001b]0;pwned\u0007\u001b[31m';

export type HostileWyoming =
  /** info `{"tts":[null]}`. */
  | 'null-voices'
  /** names and voices that are JSON objects with a "toString" key, and an escape sequence. */
  | 'object-names'
  /** every synthesize answered by an error whose text is an object. */
  | 'error-object'
  /** every synthesize answered twice, both answers in one write. */
  | 'double-answer'
  /** every synthesize answered twice, the second 20 ms later, in a write of its own (after the next request). */
  | 'late-double-answer'
  /** audio at 1 Hz: each byte would be a second of speech. */
  | 'one-hertz'
  /** never answers a synthesize: pings every 100 ms instead, forever. */
  | 'pings'
  /** answers describe with an event whose type carries an escape sequence. */
  | 'evil-type'
  /** accepts the connection and never says anything, describe included. */
  | 'silent'
  /** says it streams text, then answers a streamed text with sentence after sentence, never stopping. */
  | 'many-pairs'
  /** answers a synthesize with an audio chunk as large as the client takes, all of it but its last byte. */
  | 'stalled-chunk'
  /** an info naming 20,000 tts programs. */
  | 'many-programs';

export type HostileHttp =
  /** a 200 whose body never ends. */
  | 'endless-body'
  /** a 200 whose body comes a byte every 200 ms. */
  | 'trickle'
  /** every request answered with a whole WAV of 1 Hz, 8 bits, mono, 8000 bytes: 8000 s of "speech". */
  | 'one-hertz-wav'
  /** a WAV as large as the client takes (its Content-Length said), all of it but its last byte, then nothing. */
  | 'stalled-wav';

export interface Hostile {
  url: string;
  /** Connections open now. */
  connections(): number;
  close(): Promise<void>;
}

function event(type: string, data: Record<string, unknown>, payload?: Buffer): Buffer {
  const body = Buffer.from(JSON.stringify(data));
  const head = { type, data_length: body.length, payload_length: payload?.length ?? 0 };
  return Buffer.concat([Buffer.from(`${JSON.stringify(head)}\n`), body, payload ?? Buffer.alloc(0)]);
}

/** Event types the client sent; each event's data and payload bytes are skipped (these servers never need them). */
function types(onType: (type: string) => void): (b: Buffer) => void {
  let buf = '';
  let skip = 0;
  return (b) => {
    // latin1: one character a byte, so byte lengths slice the string exactly.
    buf += b.toString('latin1');
    for (;;) {
      if (skip > 0) {
        const n = Math.min(skip, buf.length);
        buf = buf.slice(n);
        skip -= n;
        if (skip > 0) return;
      }
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      try {
        const h = JSON.parse(line) as { type?: unknown; data_length?: number; payload_length?: number };
        skip = (h.data_length ?? 0) + (h.payload_length ?? 0);
        if (typeof h.type === 'string') onType(h.type);
      } catch {
        // Not a header line: noise.
      }
    }
  };
}

const fmt = { rate: 16000, width: 2, channels: 1 };
const answer = (rate = 16000): Buffer =>
  Buffer.concat([
    event('audio-start', { ...fmt, rate }),
    event('audio-chunk', { ...fmt, rate }, Buffer.alloc(8000)),
    event('audio-stop', {}),
  ]);

function info(kind: HostileWyoming): Record<string, unknown> {
  if (kind === 'null-voices') return { tts: [null] };
  if (kind === 'many-programs')
    return { tts: Array.from({ length: 20_000 }, (_, i) => ({ name: `program-${i}`, voices: [{ name: 'x' }] })) };
  if (kind === 'object-names')
    return {
      tts: [{ name: { toString: 1 }, voices: [{ name: { toString: 1 } }, { name: `v${INJECTION}` }, null, 7] }],
    };
  const streaming = kind === 'many-pairs';
  return { tts: [{ name: `hostile${INJECTION}`, voices: [{ name: 'x' }], supports_synthesize_streaming: streaming }] };
}

function listen(server: net.Server | http.Server, sockets: Set<net.Socket>, scheme: string): Promise<Hostile> {
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `${scheme}://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
        connections: () => sockets.size,
        close: () =>
          new Promise((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      }),
    ),
  );
}

/** The largest payload the client takes (lib's cap, read so the test follows it), one buffer shared by every socket. */
let largest: Buffer | undefined;
function stalledChunk(socket: net.Socket): void {
  largest ??= Buffer.alloc(MAX_SECTION_BYTES - 1, 0x11);
  const data = Buffer.from(JSON.stringify(fmt));
  const head = { type: 'audio-chunk', data_length: data.length, payload_length: MAX_SECTION_BYTES };
  socket.write(event('audio-start', fmt));
  socket.write(Buffer.concat([Buffer.from(`${JSON.stringify(head)}\n`), data]));
  socket.write(largest);
}

export function startHostileWyoming(kind: HostileWyoming): Promise<Hostile> {
  const sockets = new Set<net.Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const server = net.createServer((socket) => {
    socket.on(
      'data',
      types((type) => {
        if (kind === 'silent') return;
        if (type === 'describe' && kind === 'evil-type') return void socket.write(event(`info${INJECTION}`, {}));
        if (type === 'describe') return void socket.write(event('info', info(kind)));
        if (kind === 'many-pairs' && type === 'synthesize-stop')
          return void socket.write(Buffer.concat(Array.from({ length: 10_050 }, () => answer())));
        if (type !== 'synthesize') return;
        if (kind === 'stalled-chunk') return void stalledChunk(socket);
        if (kind === 'error-object')
          return void socket.write(event('error', { text: { toString: 1 }, code: INJECTION }));
        if (kind === 'double-answer') return void socket.write(Buffer.concat([answer(), answer()]));
        if (kind === 'late-double-answer') {
          socket.write(answer());
          const t = setTimeout(() => socket.writable && socket.write(answer()), 20);
          timers.add(t);
          return;
        }
        if (kind === 'one-hertz') return void socket.write(answer(1));
        if (kind === 'pings') {
          const t = setInterval(() => socket.write(event('ping', { text: INJECTION })), 100);
          timers.add(t);
          socket.on('close', () => clearInterval(t));
          return;
        }
        socket.write(answer());
      }),
    );
  });
  server.on('close', () => {
    for (const t of timers) clearInterval(t);
  });
  return listen(server, sockets, 'tcp');
}

/** A whole RIFF/WAVE file of `dataBytes` zero bytes in the format given, written by hand from the format's layout. */
function wavOf(f: { rate: number; bits: number; channels: number }, dataBytes: number): Buffer {
  const h = Buffer.alloc(44);
  h.write('RIFF', 0, 'latin1');
  h.writeUInt32LE(36 + dataBytes, 4);
  h.write('WAVEfmt ', 8, 'latin1');
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(f.channels, 22);
  h.writeUInt32LE(f.rate, 24);
  h.writeUInt32LE((f.rate * f.channels * f.bits) / 8, 28);
  h.writeUInt16LE((f.channels * f.bits) / 8, 32);
  h.writeUInt16LE(f.bits, 34);
  h.write('data', 36, 'latin1');
  h.writeUInt32LE(dataBytes, 40);
  return Buffer.concat([h, Buffer.alloc(dataBytes)]);
}

let largestWav: Buffer | undefined;

export function startHostileHttp(kind: HostileHttp): Promise<Hostile> {
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    req.resume();
    if (kind === 'stalled-wav') {
      // 16 kHz, 16-bit speech (never zeros), one buffer shared by every answer.
      largestWav ??= Buffer.concat([
        wavOf({ rate: 16000, bits: 16, channels: 1 }, 0).subarray(0, 40),
        Buffer.from(Uint32Array.of(MAX_WAV_BYTES - 44).buffer),
        Buffer.alloc(MAX_WAV_BYTES - 44 - 1, 0x11),
      ]);
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': MAX_WAV_BYTES });
      res.write(largestWav);
      return;
    }
    res.writeHead(200, { 'content-type': 'audio/wav' });
    if (kind === 'one-hertz-wav') {
      res.end(wavOf({ rate: 1, bits: 8, channels: 1 }, 8000));
      return;
    }
    const tick = setInterval(
      () => {
        if (res.destroyed) return clearInterval(tick);
        res.write(kind === 'endless-body' ? Buffer.alloc(1 << 20) : Buffer.from('R'));
      },
      kind === 'endless-body' ? 1 : 200,
    );
    res.on('close', () => clearInterval(tick));
  });
  return listen(server, sockets, 'http');
}
