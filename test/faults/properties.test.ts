// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
/**
 * Property-based tests (fast-check, seeded, a bounded number of cases each): thousands of malformed
 * archives, voice configs, text files and command lines. Every one ends in a value or in one
 * PiperParallelError of one line, never another exception, a stack or a hang; the command line
 * writes nothing outside its folders. Case counts are in docs/contributing/reliability.md.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import { readJsonFile } from '../../lib/archive/read.js';
import { capacityView } from '../../lib/capacity/archive/view.js';
import { main } from '../../lib/cli/main.js';
import type { Io } from '../../lib/cli/io/io.js';
import { PiperParallelError } from '../../lib/core/errors.js';
import { summarizeMachines } from '../../lib/summary/summarize.js';
import { readComparable } from '../../lib/throughput/compare/read.js';
import { readArchive } from '../../lib/throughput/read.js';
import { loadText } from '../../lib/voice/text-source.js';
import { parseVoiceConfig, parseVoiceConfigText } from '../../lib/voice/format/config.js';
import { realArchive } from '../helpers/archive.js';
import { pythonArchive } from '../helpers/old-archives.js';
import { tempDir } from '../helpers/paths.js';
import { capacityTemplate } from '../helpers/summary-fixtures.js';

export const SEED = 20261201;
export const CASES = { archives: 400, configs: 500, texts: 300, commandLines: 300 };

/** A value or a one-line PiperParallelError; anything else fails the property. */
async function endsCleanly(work: () => unknown): Promise<boolean> {
  try {
    await work();
    return true;
  } catch (err) {
    if (!(err instanceof PiperParallelError)) throw err;
    assert.ok(!err.message.includes('\n'), `a message of more than one line: ${err.message}`);
    assert.ok(err.message.length > 0);
    return true;
  }
}

/** Arbitrary JSON, and valid archives with one part broken: a key dropped, a value of the wrong kind, an array cut. */
function mutated(valid: readonly unknown[]): fc.Arbitrary<unknown> {
  const broken = fc.tuple(fc.constantFrom(...valid), fc.nat(), fc.jsonValue(), fc.nat(3)).map(([v, at, junk, how]) => {
    const copy = structuredClone(v) as Record<string, unknown>;
    const paths: Array<[Record<string, unknown> | unknown[], string | number]> = [];
    const walk = (x: unknown): void => {
      if (x === null || typeof x !== 'object') return;
      for (const [k, child] of Object.entries(x)) {
        paths.push([x as Record<string, unknown>, Array.isArray(x) ? Number(k) : k]);
        if (paths.length < 5000) walk(child);
      }
    };
    walk(copy);
    const [parent, key] = paths[at % paths.length] ?? [copy, 'outil'];
    const target = parent as Record<string | number, unknown>;
    if (how === 0) delete target[key];
    else if (how === 1) target[key] = junk;
    else if (how === 2 && Array.isArray(target[key])) (target[key] as unknown[]).length = 0;
    else target[key] = typeof target[key] === 'number' ? Number.NaN : null;
    return copy;
  });
  return fc.oneof({ weight: 1, arbitrary: fc.jsonValue() }, { weight: 3, arbitrary: broken });
}

let valid: unknown[] = [];
before(async () => {
  valid = [(await realArchive()).archive, await capacityTemplate(), pythonArchive(5)];
});

describe('property: malformed input ends in one line, never a crash', () => {
  it(`archives: ${CASES.archives} broken or arbitrary files through every reader (throughput, capacity, compare, summary)`, async () => {
    const dir = tempDir('prop-archives');
    let n = 0;
    await fc.assert(
      fc.asyncProperty(mutated(valid), fc.boolean(), async (value, asText) => {
        n += 1;
        const file = path.join(dir, `piper-parallel-20260101-0000${String(n % 100).padStart(2, '0')}.json`);
        // Half the cases as JSON text cut at a random point: a truncated download.
        const text = JSON.stringify(value) ?? 'null';
        writeFileSync(file, asText ? text.slice(0, Math.max(1, Math.floor(text.length * 0.7))) : text);
        const ok = [
          await endsCleanly(() => readArchive(file)),
          await endsCleanly(() => readComparable(file)),
          await endsCleanly(async () => capacityView(await readJsonFile(file), file)),
          await endsCleanly(() => summarizeMachines([file], { prices: [] })),
        ];
        return ok.every(Boolean);
      }),
      { seed: SEED, numRuns: CASES.archives },
    );
  });

  it(`voice configs: ${CASES.configs} arbitrary or broken .onnx.json values and texts`, async () => {
    const config = {
      audio: { sample_rate: 22050 },
      espeak: { voice: 'fr' },
      num_symbols: 3,
      num_speakers: 1,
      phoneme_id_map: { _: [0], '^': [1], $: [2] },
    };
    await fc.assert(
      fc.asyncProperty(
        mutated([config]),
        fc.string(),
        async (value, text) =>
          (await endsCleanly(() => parseVoiceConfig(value, 'x.onnx.json'))) &&
          (await endsCleanly(() => parseVoiceConfigText(text, 'x.onnx.json'))),
      ),
      { seed: SEED, numRuns: CASES.configs },
    );
  });

  it(`text files: ${CASES.texts} files of arbitrary bytes`, async () => {
    const dir = tempDir('prop-texts');
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 2000 }), async (bytes) => {
        const file = path.join(dir, 'text.txt');
        writeFileSync(file, bytes);
        return endsCleanly(() => loadText(file));
      }),
      { seed: SEED, numRuns: CASES.texts },
    );
  });

  it(`command lines: ${CASES.commandLines} arbitrary ones end in an exit code or one line, and write only in their folder`, async () => {
    const cwd = tempDir('prop-cli');
    const home = process.cwd();
    const cache = process.env.XDG_CACHE_HOME;
    const words = fc.constantFrom(
      ...['compare', 'report', 'summary', 'schema', 'voices', 'list', 'capacity', 'capcity', 'run', '6', '0', '-1'],
      ...['--streams', '--threads', '--rounds', '--tolerance', '--format', '--out', '--price', '--json', '--force'],
      ...['--voice', 'no-such-voice', '--label', '--seed', '--arrivals', '--help', '--version', '-h', '--', '-5 °C'],
      ...[
        'abc',
        '1,2',
        'x=1',
        '',
        'both',
        'html',
        'poisson',
        'out.html',
        'a.json',
        'nope/x.json',
        '--bogus',
        '\u001b[2J',
      ],
    );
    process.chdir(cwd);
    process.env.XDG_CACHE_HOME = path.join(cwd, 'cache');
    const io: Io = { out: () => undefined, err: () => undefined };
    try {
      await fc.assert(
        fc.asyncProperty(fc.array(words, { maxLength: 8 }), async (argv) => {
          // Anything that would measure is pointed at voices that do not exist: it must stop there.
          const guarded = [...argv, '--voices-dir', 'no-voices', '--voice', 'no-such-voice', '--settle', '0'];
          const measures = !['compare', 'report', 'summary', 'schema', 'voices'].includes(argv[0] ?? '');
          const line = measures ? guarded : argv;
          return endsCleanly(async () => {
            const code = await main(line, io);
            assert.ok(Number.isInteger(code), `exit ${code}`);
          });
        }),
        { seed: SEED, numRuns: CASES.commandLines },
      );
    } finally {
      process.chdir(home);
      if (cache === undefined) delete process.env.XDG_CACHE_HOME;
      else process.env.XDG_CACHE_HOME = cache;
    }
    // Nothing was measured: no archive anywhere in the folder.
    const made = existsSync(path.join(cwd, 'measurements')) ? readdirSync(path.join(cwd, 'measurements')) : [];
    assert.deepEqual(
      made.filter((f) => f.endsWith('.json')),
      [],
    );
  });
});
