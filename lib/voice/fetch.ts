import { createHash } from 'node:crypto';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
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
}

export function resolveBaseUrl(explicit?: string): string {
  return (explicit ?? process.env[BASE_URL_ENV] ?? DEFAULT_VOICES_BASE_URL).replace(/\/+$/, '');
}

async function get(url: string, timeoutMs: number): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
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

export async function fetchCatalogue(baseUrl: string, timeoutMs = 60_000): Promise<Catalogue> {
  const url = `${baseUrl}/voices.json`;
  const res = await get(url, timeoutMs);
  let body: unknown;
  try {
    body = await res.json();
  } catch (err) {
    throw new PiperParallelError('FETCH', `${url} is not valid JSON; check the mirror`, { cause: err });
  }
  const parsed = CatalogueSchema.safeParse(body);
  if (!parsed.success)
    throw new PiperParallelError('FETCH', `${url} is not a Piper voices.json catalogue; check the mirror`, {
      cause: parsed.error,
    });
  return parsed.data;
}

/** Download one file to a temporary name, check size and MD5, rename only when both match. */
async function downloadVerified(
  url: string,
  dest: string,
  expected: { size_bytes: number; md5_digest: string },
  timeoutMs: number,
): Promise<number> {
  const tmp = `${dest}.part-${process.pid}`;
  const md5 = createHash('md5');
  let size = 0;
  try {
    const res = await get(url, timeoutMs);
    const body = Readable.fromWeb(res.body as WebReadableStream<Uint8Array>);
    body.on('data', (chunk: Buffer) => {
      md5.update(chunk);
      size += chunk.length;
    });
    await pipeline(body, createWriteStream(tmp));
  } catch (err) {
    await rm(tmp, { force: true });
    if (err instanceof PiperParallelError) throw err;
    throw new PiperParallelError(
      'FETCH',
      `download of ${url} broke off after ${size} bytes (${toError(err).message}); nothing was kept, run the command again`,
      { cause: err },
    );
  }
  const digest = md5.digest('hex');
  if (size !== expected.size_bytes || digest !== expected.md5_digest) {
    await rm(tmp, { force: true });
    throw new PiperParallelError(
      'DIGEST_MISMATCH',
      `${path.basename(dest)}: expected ${expected.size_bytes} bytes md5 ${expected.md5_digest}, got ` +
        `${size} bytes md5 ${digest}; the download was deleted, try again or use another mirror`,
    );
  }
  await rename(tmp, dest);
  return size;
}

/** Fetch voices by catalogue key (e.g. fr_FR-siwis-medium) into `voicesDir`. */
export async function fetchVoices(names: readonly string[], options: FetchOptions): Promise<string[]> {
  const baseUrl = resolveBaseUrl(options.baseUrl);
  const timeoutMs = options.timeoutMs ?? 30 * 60_000;
  const catalogue = await fetchCatalogue(baseUrl);
  await mkdir(options.voicesDir, { recursive: true });
  const written: string[] = [];
  for (const name of names) {
    const entry = catalogue[name];
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
    // The config last, so a voice is never half-installed under its final names.
    files.sort(([a], [b]) => Number(a.endsWith('.json')) - Number(b.endsWith('.json')));
    for (const [filePath, expected] of files) {
      const dest = path.join(options.voicesDir, path.basename(filePath));
      const bytes = await downloadVerified(`${baseUrl}/${filePath}`, dest, expected, timeoutMs);
      options.onFile?.(dest, bytes);
      written.push(dest);
    }
  }
  return written;
}
