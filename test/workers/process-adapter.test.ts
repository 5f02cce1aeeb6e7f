// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ProcessAdapter } from '../../lib/workers/process-adapter.js';
import { tempDir } from '../helpers/paths.js';

describe('a process worker', () => {
  it('its stderr reaches the terminal stripped of control codes, as every other line does', async () => {
    const entry = path.join(tempDir('stderr-worker'), 'worker.mjs');
    // An escape sequence that would retitle the terminal, as a voice file's words in an error could carry.
    writeFileSync(entry, "process.stderr.write('warning \\u001b]0;pwned\\u0007from the worker\\n');\n");
    const seen: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
      seen.push(String(chunk));
      return (write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stderr.write;
    try {
      const worker = new ProcessAdapter({ entry, taskset: null }).spawn({ rang: 0, core: undefined });
      await worker.exited;
      // The pipe may deliver after the exit: a moment for it.
      for (let i = 0; i < 50 && !seen.join('').includes('from the worker'); i += 1)
        await new Promise((r) => setTimeout(r, 20));
    } finally {
      process.stderr.write = write;
    }
    const text = seen.join('');
    assert.match(text, /warning \]0;pwnedfrom the worker\n/);
    assert.ok(!text.includes('\u001b') && !text.includes('\u0007'), JSON.stringify(text));
  });
});
