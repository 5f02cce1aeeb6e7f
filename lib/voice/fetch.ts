import { createHash } from 'node:crypto';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { PiperParallelError, toError } from '../core/errors.js';

export const DEFAULT_VOICES_BASE_URL = 'https://huggingface.co/rhasspy/piper-voices/resolve/v1.0.0';
export const BASE_URL_ENV = 'PIPER_VOICES_BASE_URL';

const CatalogueEntrySchema = z.looseObject({
  key: z.string(),
  files: z.record(z.string(), z.looseObject({ size_bytes: z.number().int().nonnegative(), md5_digest: z.string() })),
});
export const CatalogueSchema = z.record(z.string(), CatalogueEntrySchema);
export type Catalogue = z.infer<typeof CatalogueSchema>;

export interface FetchOptions {
  voicesDir: string;
  baseUrl?: string;
  /** Whole download limit per file. */
  timeoutMs?: number;
  onFile?: (file: string, bytes: number) => void;
  /** Aborts the download in flight (Ctrl-C); its partial file is removed. */
  signal?: AbortSignal;
}

export function resolveBaseUrl(explicit?: string): string {
  return (explicit ?? process.env[BASE_URL_ENV] ?? DEFAULT_VOICES_BASE_URL).replace(/\/+$/, '');
}

async function get(url: string, timeoutMs: number, signal?: AbortSignal): Promise<Response> {
  let res: Response;
  const timeout = AbortSignal.timeout(timeoutMs);
  try {
    res = await fetch(url, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  } catch (err) {
    throw new PiperParallelError(
      'FETCH',
      `could not reach ${url} (${toError(err).message}); check the network or set --base-url / ${BASE_URL_ENV} to a mirror`,
      { cause: err },
    );
  }
  if (!res.ok || !res.body) {
    throw new PiperParallelError(
      'FETCH',
      `${url} answered HTTP ${res.status}; check the voice name or the mirror (--base-url / ${BASE_URL_ENV})`,
    );
  }
  return res;
}

/** The real catalogue is about 1 MB; a mirror that sends far more is not one. */
const MAX_CATALOGUE_BYTES = 32 * 2 ** 20;

async function boundedText(res: Response, limit: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > limit) {
      await res.body?.cancel().catch(() => undefined);
      throw new PiperParallelError(
        'FETCH',
        `${res.url || 'the catalogue'} is over ${limit / 2 ** 20} MiB: not a voices.json; check the mirror`,
      );
    }
    parts.push(Buffer.from(chunk));
  }
  return Buffer.concat(parts);
}

export async function fetchCatalogue(baseUrl: string, timeoutMs = 60_000): Promise<Catalogue> {
  const url = `${baseUrl}/voices.json`;
  const res = await get(url, timeoutMs);
  let body: unknown;
  try {
    body = JSON.parse((await boundedText(res, MAX_CATALOGUE_BYTES)).toString('utf8'));
  } catch (err) {
    if (err instanceof PiperParallelError) throw err;
    throw new PiperParallelError('FETCH', `${url} is not valid JSON; check the mirror`, { cause: err });
  }
  const parsed = CatalogueSchema.safeParse(body);
  if (!parsed.success)
    throw new PiperParallelError('FETCH', `${url} is not a Piper voices.json catalogue; check the mirror`, {
      cause: parsed.error,
    });
  return parsed.data;
}

/** Counts and hashes the body as it arrives, and stops it as soon as it passes what the catalogue says. */
function counted(body: Readable, limit: number, seen: { size: number; md5: ReturnType<typeof createHash> }): Readable {
  body.on('data', (chunk: Buffer) => {
    seen.md5.update(chunk);
    seen.size += chunk.length;
    if (seen.size > limit) body.destroy(new Error(`more than the ${limit} bytes the catalogue gives`));
  });
  return body;
}

/**
 * Download one file to `dest.part-PID` (created exclusively: never through a planted link), check
 * size and MD5, and fsync it; the caller renames it into place. A declared or streamed size beyond
 * the catalogue's stops the download at once.
 */
async function downloadVerified(
  url: string,
  dest: string,
  expected: { size_bytes: number; md5_digest: string },
  o: { timeoutMs: number; signal?: AbortSignal },
): Promise<{ tmp: string; bytes: number }> {
  const tmp = `${dest}.part-${process.pid}`;
  const seen = { size: 0, md5: createHash('md5') };
  await rm(tmp, { force: true });
  try {
    const res = await get(url, o.timeoutMs, o.signal);
    const declared = Number(res.headers.get('content-length') ?? Number.NaN);
    if (Number.isFinite(declared) && declared !== expected.size_bytes)
      throw new PiperParallelError(
        'DIGEST_MISMATCH',
        `${url} declares ${declared} bytes where the catalogue gives ${expected.size_bytes}; nothing was kept, check the mirror`,
      );
    const body = counted(Readable.fromWeb(res.body as WebReadableStream<Uint8Array>), expected.size_bytes, seen);
    await pipeline(body, createWriteStream(tmp, { flags: 'wx' }), { signal: o.signal });
    const h = await open(tmp, 'r');
    await h.sync();
    await h.close();
  } catch (err) {
    await rm(tmp, { force: true });
    if (err instanceof PiperParallelError) throw err;
    if (o.signal?.aborted)
      throw new PiperParallelError('ABORTED', `voices fetch interrupted during ${url}; nothing of it was kept`, {
        cause: err,
      });
    throw new PiperParallelError(
      'FETCH',
      `download of ${url} broke off after ${seen.size} bytes (${toError(err).message}); nothing was kept, run the command again`,
      { cause: err },
    );
  }
  const digest = seen.md5.digest('hex');
  if (seen.size !== expected.size_bytes || digest !== expected.md5_digest) {
    await rm(tmp, { force: true });
    throw new PiperParallelError(
      'DIGEST_MISMATCH',
      `${path.basename(dest)}: expected ${expected.size_bytes} bytes md5 ${expected.md5_digest}, got ` +
        `${seen.size} bytes md5 ${digest}; the download was deleted, try again or use another mirror`,
    );
  }
  return { tmp, bytes: seen.size };
}

/** The catalogue's entry for `name`, with exactly its own two files; anything else is refused by name. */
function voiceFiles(
  catalogue: Catalogue,
  name: string,
  baseUrl: string,
): Array<[string, Catalogue[string]['files'][string]]> {
  // Own keys only: "constructor" or "__proto__" are names no catalogue holds.
  const entry = Object.hasOwn(catalogue, name) ? catalogue[name] : undefined;
  if (!entry) {
    const close = Object.keys(catalogue)
      .filter((k) => k.split('-')[0] === name.split('-')[0])
      .slice(0, 8);
    throw new PiperParallelError(
      'FETCH',
      `voice "${name}" is not in the catalogue at ${baseUrl}/voices.json${close.length ? ` (same language: ${close.join(', ')})` : ''}; check the name`,
    );
  }
  const files = Object.entries(entry.files).filter(([p]) => p.endsWith('.onnx') || p.endsWith('.onnx.json'));
  const names = files.map(([p]) => path.posix.basename(p)).sort();
  const safe = files.every(([p]) => !p.split('/').includes('..') && !p.startsWith('/'));
  if (!safe || names.join(' ') !== `${name}.onnx ${name}.onnx.json`)
    throw new PiperParallelError(
      'FETCH',
      `the catalogue at ${baseUrl}/voices.json gives voice "${name}" the files ${names.join(', ') || 'none'}, ` +
        `not ${name}.onnx and ${name}.onnx.json; check the mirror`,
    );
  return files;
}

/**
 * Fetch voices by catalogue key (e.g. fr_FR-siwis-medium) into `voicesDir`. Both files of a voice are
 * downloaded and verified before either is renamed into place (the model first, its config last),
 * so a failure never leaves a new model beside an old config.
 */
export async function fetchVoices(names: readonly string[], options: FetchOptions): Promise<string[]> {
  const baseUrl = resolveBaseUrl(options.baseUrl);
  const timeoutMs = options.timeoutMs ?? 30 * 60_000;
  const catalogue = await fetchCatalogue(baseUrl);
  await mkdir(options.voicesDir, { recursive: true });
  const written: string[] = [];
  for (const name of names) {
    const files = voiceFiles(catalogue, name, baseUrl);
    files.sort(([a], [b]) => Number(a.endsWith('.json')) - Number(b.endsWith('.json')));
    const done: Array<{ dest: string; tmp: string; bytes: number }> = [];
    try {
      for (const [filePath, expected] of files) {
        const dest = path.join(options.voicesDir, path.posix.basename(filePath));
        done.push({
          dest,
          ...(await downloadVerified(`${baseUrl}/${filePath}`, dest, expected, { timeoutMs, signal: options.signal })),
        });
      }
    } catch (err) {
      for (const d of done) await rm(d.tmp, { force: true });
      throw err;
    }
    for (const d of done) {
      await rename(d.tmp, d.dest);
      options.onFile?.(d.dest, d.bytes);
      written.push(d.dest);
    }
  }
  return written;
}
