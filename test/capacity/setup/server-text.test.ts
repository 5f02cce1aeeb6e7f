// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { serverText, streamText } from '../../../lib/capacity/setup/server.js';

describe('the text a server is sent', () => {
  it('one request per non-empty line; a text with none is refused, saying what to give', () => {
    assert.deepEqual(
      serverText(['  Bonjour. ', '', 'Merci.']).sentences.map((s) => s.text),
      ['Bonjour.', 'Merci.'],
    );
    assert.throws(() => serverText(['', '  ']), /the text has no line to send the server; give a --text-file/);
  });

  it('a streaming server is sent the whole text as one job, its lines kept apart, however many sentences a line holds', () => {
    const t = streamText(['Bonjour.', '', 'Oui. Non merci.', '3 pommes.']);
    assert.deepEqual(
      t.sentences.map((s) => s.text),
      ['Bonjour.\nOui. Non merci.\n3 pommes.'],
    );
    assert.throws(() => streamText(['']), /the text has no line to send the server/);
  });
});
