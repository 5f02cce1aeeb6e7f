/**
 * Wyoming events on a byte stream: one UTF-8 JSON header line (`type`, optional `data`,
 * `data_length`, `payload_length`), then exactly `data_length` bytes of JSON merged over the
 * header's `data`, then exactly `payload_length` bytes of payload (PCM for audio). Written from the
 * protocol's description (OHF-Voice/wyoming); anything else is refused with what was wrong.
 */
import { z } from 'zod';

export interface WyomingEvent {
  type: string;
  data: Record<string, unknown>;
  payload: Buffer | null;
}

const HeaderSchema = z.looseObject({
  type: z.string().min(1),
  data: z.record(z.string(), z.unknown()).optional(),
  data_length: z.number().int().nonnegative().optional(),
  payload_length: z.number().int().nonnegative().optional(),
});

/** A header line longer than this is not Wyoming (a web page, a stray binary stream). */
const MAX_HEADER_BYTES = 64 * 1024;
/**
 * No event of a TTS server carries more than this in its data or its payload: a second of 48 kHz stereo is 192 kB,
 * wyoming-piper's chunks are 1024 samples, an info listing every Piper voice is well under 1 MB. With the header, a
 * connection buffers at most about 8 MiB: 256 MiB at 32 listeners, against 512 MiB at the 16 MiB cap it replaced.
 */
export const MAX_SECTION_BYTES = 4 * 2 ** 20;

export function encodeEvent(type: string, data: Record<string, unknown> = {}, payload?: Buffer): Buffer {
  const body = Buffer.from(JSON.stringify(data), 'utf8');
  const header: Record<string, unknown> = { type, data_length: body.length };
  if (payload) header.payload_length = payload.length;
  return Buffer.concat([Buffer.from(`${JSON.stringify(header)}\n`, 'utf8'), body, payload ?? Buffer.alloc(0)]);
}

/** Shows what a peer sent, for an error message: printable, short. */
export const preview = (b: Buffer): string =>
  JSON.stringify(
    b
      .subarray(0, 60)
      .toString('latin1')
      .replace(/[^\x20-\x7e]/g, '.'),
  );

/**
 * Incremental parser: push bytes as they come, take whole events out. Throws on a header that is not
 * a JSON object with a type, on lengths that are not byte counts, on data that is not a JSON object.
 */
export class EventParser {
  // The bytes come as the socket's chunks; they are joined only once an event's bytes are all there, so a large
  // payload in many reads is copied once, not once per read.
  private parts: Buffer[] = [];
  private size = 0;
  private header: { type: string; data: Record<string, unknown>; dataLength: number; payloadLength: number } | null =
    null;

  push(chunk: Buffer): WyomingEvent[] {
    if (chunk.length > 0) {
      this.parts.push(chunk);
      this.size += chunk.length;
    }
    const out: WyomingEvent[] = [];
    for (let e = this.next(); e; e = this.next()) out.push(e);
    return out;
  }

  /** Bytes of an event begun but not finished (a peer that closes now truncated it). */
  get pendingBytes(): number {
    return this.size + (this.header ? 1 : 0);
  }

  private joined(): Buffer {
    if (this.parts.length !== 1) this.parts = [Buffer.concat(this.parts, this.size)];
    return this.parts[0] as Buffer;
  }

  private consume(n: number): void {
    const rest = this.joined().subarray(n);
    this.parts = rest.length > 0 ? [rest] : [];
    this.size = rest.length;
  }

  private next(): WyomingEvent | undefined {
    if (!this.header) {
      if (this.size === 0) return undefined;
      // A header line is short (at most 64 KiB): joining what came while looking for its end stays cheap.
      const buf = this.joined();
      const nl = buf.indexOf(0x0a);
      if (nl < 0) {
        if (this.size > MAX_HEADER_BYTES)
          throw new Error(`no event header line within ${MAX_HEADER_BYTES} bytes: ${preview(buf)}`);
        return undefined;
      }
      this.header = parseHeader(buf.subarray(0, nl));
      this.consume(nl + 1);
    }
    const { type, data, dataLength, payloadLength } = this.header;
    if (this.size < dataLength + payloadLength) return undefined;
    const buf = this.joined();
    const merged = dataLength > 0 ? { ...data, ...parseData(buf.subarray(0, dataLength), type) } : data;
    const payload = payloadLength > 0 ? Buffer.from(buf.subarray(dataLength, dataLength + payloadLength)) : null;
    this.consume(dataLength + payloadLength);
    this.header = null;
    return { type, data: merged, payload };
  }
}

function parseHeader(line: Buffer) {
  let json: unknown;
  try {
    json = JSON.parse(line.toString('utf8'));
  } catch {
    throw new Error(`an event header that is not JSON: ${preview(line)}`);
  }
  const h = HeaderSchema.safeParse(json);
  if (!h.success) throw new Error(`an event header without a type or with bad lengths: ${preview(line)}`);
  const dataLength = h.data.data_length ?? 0;
  const payloadLength = h.data.payload_length ?? 0;
  if (dataLength > MAX_SECTION_BYTES || payloadLength > MAX_SECTION_BYTES)
    throw new Error(
      `${an(h.data.type)} event announcing ${Math.max(dataLength, payloadLength)} bytes, over ${MAX_SECTION_BYTES / 2 ** 20} MiB`,
    );
  return { type: h.data.type, data: h.data.data ?? {}, dataLength, payloadLength };
}

const an = (type: string): string => `${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}`;

function parseData(bytes: Buffer, type: string): Record<string, unknown> {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new Error(`${an(type)} event whose data_length does not cover its JSON data: ${preview(bytes)}`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json))
    throw new Error(`${an(type)} event whose data is not a JSON object: ${preview(bytes)}`);
  return json as Record<string, unknown>;
}
