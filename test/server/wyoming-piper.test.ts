// Runs alone: one test asserts a wait (a lower bound the server's own timer makes).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { OpenReply, ServerSession, StreamReply, SynthesisReply } from '../../lib/server/contract/session.js';
import { wyomingLink } from '../../lib/server/wyoming/session.js';
import { servedVoices } from '../../lib/server/probe.js';
import { splitSentences, SentenceSplitter } from '../helpers/sentence-stream.js';
import { startWyomingPiper, type WyomingPiperServer } from '../helpers/wyoming-piper-server.js';

const servers: WyomingPiperServer[] = [];
after(async () => {
  for (const s of servers) await s.close();
});

const open = (s: WyomingPiperServer, replyTimeoutMs = 5000): Promise<OpenReply & { atMs: number }> =>
  new Promise((resolve) =>
    wyomingLink({ host: '127.0.0.1', port: s.port }, { now: () => performance.now(), replyTimeoutMs }).open((r) =>
      resolve({ ...r, atMs: performance.now() }),
    ),
  );
const sessionOf = (r: OpenReply): ServerSession => {
  if (r.state !== 'open') throw new Error(r.message);
  return r.session;
};

describe("the test server's splitter, against sentence-stream 1.3.0's rules", () => {
  it('ends a sentence before a capital only; holds short capitalised words; splits after an ellipsis', () => {
    assert.deepEqual(splitSentences('Bonjour. Comment allez-vous ? Très bien.'), [
      'Bonjour.',
      'Comment allez-vous ?',
      'Très bien.',
    ]);
    assert.deepEqual(splitSentences('Non. Merci.'), ['Non. Merci.']);
    assert.deepEqual(splitSentences('M. Dupont arrive. Il est là.'), ['M. Dupont arrive.', 'Il est là.']);
    assert.deepEqual(splitSentences('Merci. ... à bientôt. 3 pommes.'), ['Merci. ... à bientôt. 3 pommes.']);
    assert.deepEqual(splitSentences('Attendez... Je reviens.'), ['Attendez...', 'Je reviens.']);
    // A numbered item starts a sentence; its "2." then ends one too (a capital follows, and 2 is no initial).
    assert.deepEqual(splitSentences('Voici. 2. Le deuxième.'), ['Voici.', '2.', 'Le deuxième.']);
    // Streamed: a sentence is given out only once the next one's first letter has come.
    const s = new SentenceSplitter();
    assert.deepEqual(s.add('Bonjour. '), []);
    assert.deepEqual(s.add('Comment'), ['Bonjour.']);
    assert.equal(s.finish(), 'Comment');
  });
});

describe('a server that behaves as wyoming-piper 2.4 does', () => {
  it("one blocking loop: a describe sent while another connection's sentence is made is answered after it", async () => {
    const s = await startWyomingPiper({ speed: 2, secondsPerChar: 0.02 });
    servers.push(s);
    const a = sessionOf(await open(s));
    const t0 = performance.now();
    // 60 characters: 1.2 s of audio, the loop held 600 ms.
    const done = new Promise<StreamReply>((resolve) =>
      a.stream?.(['Une phrase assez longue pour tenir la boucle un bon moment.'], null, resolve),
    );
    await new Promise((r) => setTimeout(r, 100));
    const b = await open(s);
    assert.equal(b.state, 'open');
    // Time to info includes the server's own queueing: B waited for A's sentence.
    assert.ok(b.atMs - t0 >= 550, `info came ${Math.round(b.atMs - t0)} ms after the stream began`);
    const r = await done;
    assert.equal(r.state, 'done');
    a.close();
    sessionOf(b).close();
  });

  it('a plain synthesize on a connection that has streamed gets no answer: the client gives up at its timeout, saying so', async () => {
    const s = await startWyomingPiper({ speed: 50, secondsPerChar: 0.02 });
    servers.push(s);
    const a = sessionOf(await open(s, 400));
    const streamed = await new Promise<StreamReply>((resolve) => a.stream?.(['Bonjour.'], null, resolve));
    assert.equal(streamed.state, 'done');
    const plain = await new Promise<SynthesisReply>((resolve) => a.synthesize('Encore.', resolve));
    assert.equal(plain.state, 'failed');
    assert.match(plain.state === 'failed' ? plain.message : '', /^no audio within 0 s$|^no audio within/);
    a.close();
  });

  it('--sentence-silence: zeros after every streamed sentence but the last, read as silence apart from speech', async () => {
    const s = await startWyomingPiper({ speed: 50, secondsPerChar: 0.02, sentenceSilenceSeconds: 0.25 });
    servers.push(s);
    const a = sessionOf(await open(s));
    const r = await new Promise<StreamReply>((resolve) => a.stream?.(['Bonjour.', 'Au revoir.'], null, resolve));
    assert.equal(r.state, 'done');
    const pairs = r.state === 'done' ? r.pairs : [];
    assert.deepEqual(
      pairs.map((p) => p.silenceSeconds.toFixed(3)),
      ['0.250', '0.000'],
    );
    // "Bonjour." is 8 characters, 0.16 s of speech, under the 0.2 s floor: 0.2 s, plus its silence.
    assert.equal(pairs[0]?.audioSeconds.toFixed(3), '0.450');
    a.close();
  });
});

describe('what the archive keeps of the voices a server lists', () => {
  it('the loaded one where said, a short list, else a count', () => {
    assert.deepEqual(servedVoices(['a', 'b'], 'a'), { voices: ['a'], words: 'voice a loaded (2 listed)' });
    assert.deepEqual(servedVoices(['a', 'b']), { voices: ['a', 'b'], words: 'voices a, b' });
    const many = servedVoices(Array.from({ length: 163 }, (_, i) => `v${i}`));
    assert.deepEqual(many.voices, []);
    assert.match(many.words, /^163 voices listed, a catalogue/);
  });
});
