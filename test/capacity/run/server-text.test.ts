// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { oneSentencePerLine, serverText } from '../../../lib/capacity/run/server.js';
import { CAPACITY_SENTENCES } from '../../../lib/voice/default-text.js';

describe('the text a server is sent', () => {
  it('one request per non-empty line; a text with none is refused, saying what to give', () => {
    assert.deepEqual(
      serverText(['  Bonjour. ', '', 'Merci.']).sentences.map((s) => s.text),
      ['Bonjour.', 'Merci.'],
    );
    assert.throws(() => serverText(['', '  ']), /the text has no line to send the server; give a --text-file/);
  });

  it('a streaming server answers by sentence: a line holding two is refused, naming it; the built-in text passes', () => {
    assert.throws(
      () => oneSentencePerLine(serverText(['Bonjour.', 'Oui. Non merci.'])),
      /the text's line 2 holds more than one sentence \("Oui\. Non merci\."\); .*give one sentence per line/,
    );
    assert.doesNotThrow(() => oneSentencePerLine(serverText([...CAPACITY_SENTENCES, 'Comment allez-vous ?'])));
  });
});
