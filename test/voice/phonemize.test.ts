// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { phonemesToIds, phonemizeLine, splitSentences } from '../../lib/voice/phonemize.js';
import { standardPhonemeIdMap } from '../../lib/voice/format/phoneme-map.js';

const STD = standardPhonemeIdMap();

describe('phonemize (piper_phonemize WebAssembly)', () => {
  it('gives the reference en-us vector', async () => {
    const [s, ...more] = await phonemizeLine('Hello world, this is a test.', 'en-us');
    assert.equal(more.length, 0);
    const expected = [
      1, 0, 20, 0, 59, 0, 24, 0, 120, 0, 27, 0, 100, 0, 3, 0, 35, 0, 120, 0, 62, 0, 122, 0, 24, 0, 17, 0, 8, 0, 3, 0,
      41, 0, 74, 0, 31, 0, 3, 0, 74, 0, 38, 0, 3, 0, 50, 0, 3, 0, 32, 0, 120, 0, 61, 0, 31, 0, 32, 0, 10, 0, 2,
    ];
    assert.deepEqual(s?.standardIds, expected);
    assert.deepEqual(phonemesToIds(s?.phonemes ?? [], STD).ids, expected);
  });

  it('splits French text into sentences as piper_phonemize does, and our ids match its ids', async () => {
    const sentences = await phonemizeLine('Bonjour tout le monde. Comment allez-vous ? Très bien, merci !', 'fr');
    assert.equal(sentences.length, 3);
    // Vector recorded from piper_phonemize itself (espeak-ng fork, voice fr).
    assert.equal(sentences[0]?.phonemes.join(''), 'bɔ̃ʒˈuʁ tulmˈɔ̃d.');
    assert.deepEqual(
      sentences[0]?.standardIds,
      [
        1, 0, 15, 0, 54, 0, 141, 0, 108, 0, 120, 0, 33, 0, 94, 0, 3, 0, 32, 0, 33, 0, 24, 0, 25, 0, 120, 0, 54, 0, 141,
        0, 17, 0, 10, 0, 2,
      ],
    );
    for (const s of sentences) assert.deepEqual(phonemesToIds(s.phonemes, STD).ids, s.standardIds);
  });

  it('keeps parity on French text with nasal vowels, liaisons and digits', async () => {
    for (const text of ['Un bon vin blanc.', 'Les enfants ont vingt-trois ans.', 'Il est 7 h 45, quai numéro 12.']) {
      for (const s of await phonemizeLine(text, 'fr'))
        assert.deepEqual(phonemesToIds(s.phonemes, STD).ids, s.standardIds, text);
    }
  });

  it('the module is reused: a second call answers the same', async () => {
    const a = await phonemizeLine('Deuxième appel.', 'fr');
    const b = await phonemizeLine('Deuxième appel.', 'fr');
    assert.deepEqual(a, b);
  });
});

describe('phonemesToIds', () => {
  it('BOS, PAD after each, EOS, from the voice own map', () => {
    const map = { '^': [1], _: [0], $: [2], a: [5], b: [6, 7] };
    assert.deepEqual(phonemesToIds(['a', 'b'], map).ids, [1, 0, 5, 0, 6, 7, 0, 2]);
  });

  it('skips and counts phonemes the map lacks', () => {
    const map = { '^': [1], _: [0], $: [2], a: [5] };
    const r = phonemesToIds(['a', 'X', 'a', 'X', 'Y'], map);
    assert.deepEqual(r.ids, [1, 0, 5, 0, 5, 0, 2]);
    assert.deepEqual(Object.fromEntries(r.missing), { X: 2, Y: 1 });
  });

  it('applies phoneme_map before the ids', () => {
    const map = { '^': [1], _: [0], $: [2], a: [5], b: [6] };
    assert.deepEqual(phonemesToIds(['c'], map, { c: ['a', 'b'] }).ids, [1, 0, 5, 0, 6, 0, 2]);
  });
});

describe('splitSentences', () => {
  it('cuts the flat phoneme list at the id boundaries', () => {
    const out = splitSentences(['a', 'b', '.', 'c', '?'], [1, 0, 14, 0, 15, 0, 10, 0, 2, 1, 0, 16, 0, 13, 0, 2]);
    assert.deepEqual(
      out.map((s) => s.phonemes.join('')),
      ['ab.', 'c?'],
    );
  });

  it('refuses inconsistent output instead of guessing', () => {
    assert.throws(() => splitSentences(['a', 'z'], [1, 0, 14, 0, 15, 0, 2]), /inconsistent/);
  });
});
