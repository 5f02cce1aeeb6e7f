/**
 * ONNX model metadata (ModelProto.metadata_props, field 14) read and added without decoding the
 * graph: a serialized protobuf message may be extended by appending fields, so adding an entry is
 * appending its bytes. The walk reads only the top level and skips every other field by its length.
 */
import { PiperParallelError } from '../../core/errors.js';

const METADATA_FIELD = 14;
const LENGTH_DELIMITED = 2;

function readVarint(buf: Uint8Array, at: number): { value: number; next: number } {
  let value = 0;
  let scale = 1;
  for (let i = at; i < buf.length && i < at + 10; i += 1) {
    const byte = buf[i] as number;
    value += (byte & 0x7f) * scale;
    if ((byte & 0x80) === 0) return { value, next: i + 1 };
    scale *= 128;
  }
  throw new PiperParallelError('VOICE_LOAD', `truncated varint at byte ${at}`);
}

function writeVarint(value: number): number[] {
  const out: number[] = [];
  let v = value;
  while (v >= 0x80) {
    out.push((v % 128) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}

/** The fields of one message, top level only: field number, wire type, and where a length-delimited value sits. */
function* fields(buf: Uint8Array): Generator<{ field: number; wire: number; start: number; end: number }> {
  let at = 0;
  while (at < buf.length) {
    const tag = readVarint(buf, at);
    const field = Math.floor(tag.value / 8);
    const wire = tag.value % 8;
    let start = tag.next;
    let end: number;
    if (wire === 0) end = readVarint(buf, start).next;
    else if (wire === 1) end = start + 8;
    else if (wire === 5) end = start + 4;
    else if (wire === LENGTH_DELIMITED) {
      const len = readVarint(buf, start);
      start = len.next;
      end = start + len.value;
    } else throw new PiperParallelError('VOICE_LOAD', `unsupported protobuf wire type ${wire} at byte ${at}`);
    if (end > buf.length)
      throw new PiperParallelError('VOICE_LOAD', `protobuf field ${field} runs past the end of the file`);
    yield { field, wire, start, end };
    at = end;
  }
}

const decoder = new TextDecoder('utf-8', { fatal: false });

/** The model's metadata as key → value; throws PiperParallelError('VOICE_LOAD') on a file that is not protobuf. */
export function readModelMetadata(model: Uint8Array): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of fields(model)) {
    if (f.field !== METADATA_FIELD || f.wire !== LENGTH_DELIMITED) continue;
    let key = '';
    let value = '';
    for (const g of fields(model.subarray(f.start, f.end))) {
      const text = decoder.decode(model.subarray(f.start + g.start, f.start + g.end));
      if (g.field === 1) key = text;
      else if (g.field === 2) value = text;
    }
    out.set(key, value);
  }
  return out;
}

function lengthDelimited(field: number, payload: Uint8Array): Uint8Array {
  const head = [...writeVarint(field * 8 + LENGTH_DELIMITED), ...writeVarint(payload.length)];
  const out = new Uint8Array(head.length + payload.length);
  out.set(head, 0);
  out.set(payload, head.length);
  return out;
}

/** The model's bytes with these metadata entries appended (keys it already has are left as they are). */
export function withModelMetadata(model: Uint8Array, entries: Readonly<Record<string, string>>): Uint8Array {
  const present = readModelMetadata(model);
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [model];
  for (const [key, value] of Object.entries(entries)) {
    if (present.has(key)) continue;
    const k = lengthDelimited(1, encoder.encode(key));
    const v = lengthDelimited(2, encoder.encode(value));
    const entry = new Uint8Array(k.length + v.length);
    entry.set(k, 0);
    entry.set(v, k.length);
    parts.push(lengthDelimited(METADATA_FIELD, entry));
  }
  const total = parts.reduce((n, p) => n + p.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
