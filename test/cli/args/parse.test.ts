// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { settleSeconds, SETTLE_ENV, textFile, TEXT_ENV } from '../../../lib/cli/args/parse.js';

describe('--settle and PIPER_PARALLEL_SETTLE', () => {
  it('the option wins; the variable stands in for it; neither leaves the library default', () => {
    assert.equal(settleSeconds('5', { [SETTLE_ENV]: '0' }), 5);
    assert.equal(settleSeconds(undefined, { [SETTLE_ENV]: '0' }), 0);
    assert.equal(settleSeconds(undefined, { [SETTLE_ENV]: '12' }), 12);
    assert.equal(settleSeconds(undefined, {}), undefined);
    assert.equal(settleSeconds(undefined, { [SETTLE_ENV]: '' }), undefined);
  });

  it('a bad value is a usage error naming the variable and how to fix it', () => {
    assert.throws(
      () => settleSeconds(undefined, { [SETTLE_ENV]: 'soon' }),
      (e: Error & { code?: string }) =>
        e.code === 'USAGE' &&
        /PIPER_PARALLEL_SETTLE must be a whole number of seconds >= 0, got "soon"; e\.g\. PIPER_PARALLEL_SETTLE=0, or unset it/.test(
          e.message,
        ),
    );
    assert.throws(() => settleSeconds(undefined, { [SETTLE_ENV]: '-1' }), /PIPER_PARALLEL_SETTLE/);
    assert.throws(() => settleSeconds('-1', {}), /--settle must be a whole number >= 0/);
  });
});

describe('--text-file and PIPER_PARALLEL_TEXT_FILE', () => {
  it('the option wins, the variable is the default, a resumed run keeps its own text', () => {
    assert.equal(textFile('a.txt', undefined, { [TEXT_ENV]: 'b.txt' }), 'a.txt');
    assert.equal(textFile(undefined, undefined, { [TEXT_ENV]: 'b.txt' }), 'b.txt');
    assert.equal(textFile(undefined, undefined, { [TEXT_ENV]: '' }), undefined);
    assert.equal(textFile(undefined, 'run.jsonl', { [TEXT_ENV]: 'b.txt' }), undefined);
  });
});
