// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import net from 'node:net';
import { after, describe, it } from 'node:test';
import type { ServerLink, StreamReply, SynthesisReply } from '../../lib/server/contract/session.js';
import { wyomingLink } from '../../lib/server/wyoming/session.js';
import { httpLink, wavAudio, type HttpRequestStyle } from '../../lib/server/http/session.js';
import { parseServerUrl, probeServer } from '../../lib/server/probe.js';
import {
  startHttpServer,
  startWyomingServer,
  type RunningServer,
  type SpeechServerSpec,
} from '../helpers/speech-servers.js';

const now = (): number => performance.now();
const running: RunningServer[] = [];
after(async () => {
  for (const s of running) await s.close();
});

async function start(kind: 'wyoming' | 'http', spec: Partial<SpeechServerSpec> = {}): Promise<RunningServer> {
  const full = { speed: 20, slots: 1, audioSeconds: 0.5, ...spec };
  const s = await (kind === 'wyoming' ? startWyomingServer(full) : startHttpServer(full));
  running.push(s);
  return s;
}

const linkTo = (
  kind: 'wyoming' | 'http',
  s: RunningServer,
  style: HttpRequestStyle = 'synthesize-json',
  replyTimeoutMs = 2000,
): ServerLink =>
  kind === 'wyoming'
    ? wyomingLink({ host: '127.0.0.1', port: s.port }, { now, replyTimeoutMs })
    : httpLink({ host: '127.0.0.1', port: s.port, style }, { now, replyTimeoutMs });

/** Opens a session and asks for `n` sentences one after the other; every reply, or the open's failure. */
function ask(link: ServerLink, n: number): Promise<Array<SynthesisReply | { state: 'open-failed'; message: string }>> {
  return new Promise((resolve) => {
    link.open((r) => {
      if (r.state === 'failed') return resolve([{ state: 'open-failed', message: r.message }]);
      const out: SynthesisReply[] = [];
      const next = (): void => {
        if (out.length === n) {
          r.session.close();
          return resolve(out);
        }
        r.session.synthesize(`Phrase ${out.length}.`, (x) => {
          out.push(x);
          if (x.state === 'failed') {
            r.session.close();
            return resolve(out);
          }
          next();
        });
      };
      next();
    });
  });
}

const messages = (rs: Array<{ state: string; message?: string }>): string =>
  rs.map((r) => r.message ?? r.state).join(' | ');

describe('a session to a running server, over loopback', () => {
  for (const kind of ['wyoming', 'http'] as const) {
    it(`${kind}: each sentence's audio seconds and format, as the server sent them`, async () => {
      const s = await start(kind);
      const rs = await ask(linkTo(kind, s), 3);
      assert.deepEqual(
        rs.map((r) => (r.state === 'done' ? [r.audioSeconds, r.format.rate, r.format.width, r.format.channels] : r)),
        [
          [0.5, 16000, 2, 1],
          [0.5, 16000, 2, 1],
          [0.5, 16000, 2, 1],
        ],
      );
    });

    it(`${kind}: a server that stalls in the middle of a sentence fails it after the timeout`, async () => {
      const s = await start(kind, { fault: 'stall-mid-chunk' });
      const rs = await ask(linkTo(kind, s, 'synthesize-json', 300), 1);
      assert.match(messages(rs), /no (audio event|whole answer) within 0 s/);
    });

    it(`${kind}: a server that closes the connection on a sentence fails it`, async () => {
      const s = await start(kind, { fault: 'close-early' });
      const rs = await ask(linkTo(kind, s), 1);
      assert.match(
        messages(rs),
        kind === 'wyoming' ? /the server closed the connection$/ : /the request failed: socket hang up/,
      );
    });
  }

  it('wyoming: a truncated event, and a data_length that does not cover the data, fail the sentence saying so', async () => {
    const t = await start('wyoming', { fault: 'truncate' });
    assert.match(
      messages(await ask(linkTo('wyoming', t), 1)),
      /closed the connection in the middle of an event \(truncated\)/,
    );
    const b = await start('wyoming', { fault: 'bad-data-length' });
    assert.match(
      messages(await ask(linkTo('wyoming', b), 1)),
      /the server sent an audio-start event whose data_length does not cover its JSON data/,
    );
  });

  it('wyoming, streaming text in: the whole text at once, or written at a rate; the answer is every pair the server sent', async () => {
    const s = await start('wyoming', { streaming: true });
    const link = linkTo('wyoming', s);
    const streamed = (rate: number | null): Promise<{ r: StreamReply; t0: number }> =>
      new Promise((resolve) =>
        link.open((o) => {
          if (o.state === 'failed') throw new Error(o.message);
          const t0 = now();
          o.session.stream?.(['Un.', 'Deux deux.', 'Trois trois trois.'], rate, (r) => {
            o.session.close();
            resolve({ r, t0 });
          });
        }),
      );
    const atOnce = await streamed(null);
    assert.equal(atOnce.r.state, 'done', atOnce.r.state === 'failed' ? atOnce.r.message : '');
    assert.deepEqual(atOnce.r.state === 'done' ? atOnce.r.pairs.map((p) => [p.audioSeconds, p.silenceSeconds]) : [], [
      [0.5, 0],
      [0.5, 0],
      [0.5, 0],
    ]);
    // At 100 characters a second, "Un. Deux deux. Trois trois trois. " is written whole at 40, 150 and 340 ms: no
    // sentence can come before its text (the server then takes 25 ms for it).
    const slow = await streamed(100);
    assert.equal(slow.r.state, 'done');
    (slow.r.state === 'done' ? slow.r.pairs : []).forEach((p, i) =>
      assert.ok(p.endMs - slow.t0 >= [40, 150, 340][i]!, `sentence ${i} came at ${p.endMs - slow.t0} ms`),
    );
  });

  it('wyoming, streaming text in: a stream that replaces one still being written stops the old feed', async () => {
    const s = await start('wyoming', { streaming: true });
    const link = linkTo('wyoming', s);
    const served = await new Promise<number>((resolve) =>
      link.open((o) => {
        if (o.state === 'failed') throw new Error(o.message);
        const session = o.session;
        // At 40 characters a second the first stream's words would land over 850 ms; the second replaces it at once.
        session.stream?.(['Un.', 'Deux deux.', 'Trois trois trois.'], 40, () => undefined);
        session.stream?.(['Quatre.'], null, (r) => {
          assert.equal(r.state, 'done', r.state === 'failed' ? r.message : '');
          // The session stays open past the old feed's end: its words, had they gone on, would be sentences begun.
          setTimeout(() => {
            resolve(s.served());
            session.close();
          }, 1200);
        });
      }),
    );
    assert.equal(served, 1);
  });

  it('http: an answer that is not a WAV fails the sentence, showing what came', async () => {
    const s = await start('http', { fault: 'not-wav' });
    assert.match(
      messages(await ask(linkTo('http', s), 1)),
      /POST \/synthesize \(JSON\) gave an answer that is not a WAV .*"<html>oops/,
    );
  });

  for (const kind of ['wyoming', 'http'] as const)
    it(`${kind}: leaves no connection open once its sessions close, failed or not`, async () => {
      for (const spec of [{}, { fault: 'stall-mid-chunk' as const }]) {
        const s = await start(kind, spec);
        await ask(linkTo(kind, s, 'synthesize-json', 300), 2);
        for (let i = 0; i < 50 && s.connections() > 0; i += 1) await new Promise((r) => setTimeout(r, 10));
        assert.equal(s.connections(), 0, JSON.stringify(spec));
      }
    });
});

describe('--server: read, then the server asked what it is', () => {
  it('refuses a URL it cannot use, naming --server and the fix', () => {
    assert.throws(
      () => parseServerUrl('localhost:10200'),
      /--server takes tcp:\/\/ \(Wyoming\) or http:\/\/|--server speaks tcp/,
    );
    assert.throws(
      () => parseServerUrl('https://x:1'),
      /--server speaks tcp:\/\/ \(Wyoming\) or http:\/\/ .*, got "https:\/\/x:1"; e\.g\. --server tcp:/,
    );
    assert.throws(() => parseServerUrl('tcp://127.0.0.1'), /--server needs a host and a port/);
    assert.throws(() => parseServerUrl('not a url'), /--server takes a URL, got "not a url"/);
  });

  it('wyoming: what info says, streaming or not', async () => {
    const s = await start('wyoming', { streaming: true });
    const d = await probeServer(parseServerUrl(s.url), 'Bonjour.', { timeoutMs: 2000 });
    assert.deepEqual([d.protocol, d.streaming, d.voices, d.endpoint], ['wyoming', true, ['test-voice'], null]);
    assert.match(d.said, /Wyoming TTS test-piper; voices test-voice/);
  });

  it("http: every release's way found, as its code takes a sentence (detected, archived, said)", async () => {
    const now = await start('http');
    const d = await probeServer(parseServerUrl(now.url), 'Bonjour.', { timeoutMs: 2000 });
    assert.deepEqual(
      [d.protocol, d.endpoint, d.request, d.voices],
      ['http', '/synthesize', 'synthesize-json', ['test-voice']],
    );
    assert.match(d.said, /^Piper HTTP server \(POST \/synthesize \(JSON\): piper1-gpl 1\.5 or later\)/);
    // piper1-gpl 1.3 to 1.4: POST / with JSON only; a text body is a 500 there (the client's old fallback, refused).
    const json = await start('http', { release: 'root-json' });
    const e = await probeServer(parseServerUrl(json.url), 'Bonjour.', { timeoutMs: 2000 });
    assert.deepEqual([e.endpoint, e.request, e.voices], ['/', 'root-json', ['test-voice']]);
    assert.match(e.said, /\(POST \/ \(JSON\): piper1-gpl 1\.3 to 1\.4\)/);
    // rhasspy/piper: the body is the text (asked as text first: a JSON body would be spoken as JSON).
    const text = await start('http', { release: 'root-text' });
    const f = await probeServer(parseServerUrl(text.url), 'Bonjour.', { timeoutMs: 2000 });
    assert.deepEqual([f.endpoint, f.request], ['/', 'root-text']);
    assert.match(f.said, /\(POST \/ \(text\): rhasspy\/piper\)/);
  });

  it('one line naming the URL and what came back: nobody there, garbage, no TTS, not a WAV', async () => {
    const free = net.createServer();
    await new Promise<void>((r) => free.listen(0, '127.0.0.1', () => r()));
    const port = (free.address() as net.AddressInfo).port;
    await new Promise((r) => free.close(r));
    await assert.rejects(
      probeServer(parseServerUrl(`tcp://127.0.0.1:${port}`), 'x', { timeoutMs: 2000 }),
      (err: Error) => {
        assert.match(
          err.message,
          new RegExp(`^--server tcp://127\\.0\\.0\\.1:${port}: the connection failed: connect ECONNREFUSED`),
        );
        assert.equal(err.message.split('\n').length, 1);
        return true;
      },
    );
    const garbage = await start('wyoming', { fault: 'garbage' });
    await assert.rejects(
      probeServer(parseServerUrl(garbage.url), 'x', { timeoutMs: 2000 }),
      /the server sent an event header that is not JSON: "HTTP\/1\.1 400/,
    );
    const none = await start('wyoming', { fault: 'no-tts' });
    await assert.rejects(
      probeServer(parseServerUrl(none.url), 'x', { timeoutMs: 2000 }),
      /its info lists no tts program/,
    );
    const html = await start('http', { fault: 'not-wav' });
    await assert.rejects(
      probeServer(parseServerUrl(html.url), 'x', { timeoutMs: 2000 }),
      /POST \/synthesize \(JSON\) gave an answer that is not a WAV/,
    );
  });
});

describe("an HTTP server's WAV", () => {
  /** 16 kHz, 16-bit mono: `speech` seconds of non-zero samples, then `zeros` seconds of exact zeros. */
  const wavOf = (speech: number, zeros: number): Buffer => {
    const data = Buffer.concat([Buffer.alloc(speech * 32000, 0x11), Buffer.alloc(zeros * 32000)]);
    const h = Buffer.alloc(44);
    h.write('RIFF', 0, 'ascii');
    h.writeUInt32LE(36 + data.length, 4);
    h.write('WAVEfmt ', 8, 'ascii');
    h.writeUInt32LE(16, 16);
    h.writeUInt16LE(1, 20);
    h.writeUInt16LE(1, 22);
    h.writeUInt32LE(16000, 24);
    h.writeUInt32LE(32000, 28);
    h.writeUInt16LE(2, 32);
    h.writeUInt16LE(16, 34);
    h.write('data', 36, 'ascii');
    h.writeUInt32LE(data.length, 40);
    return Buffer.concat([h, data]);
  };

  it('keeps the silence a server added at its end apart from speech, as a Wyoming pair does; a quiet end under 20 ms is speech', () => {
    const added = wavAudio(wavOf(0.5, 0.25));
    assert.ok(typeof added !== 'string', String(added));
    assert.deepEqual([added.audioSeconds, added.silenceSeconds], [0.75, 0.25]);
    const quiet = wavAudio(wavOf(0.5, 0.01));
    assert.ok(typeof quiet !== 'string');
    assert.equal(quiet.silenceSeconds, 0);
  });
});

describe('--server-voice: the voice asked for in every request', () => {
  const two = { voices: ['fr_FR-siwis-medium', 'en_US-lessac-medium'] };

  for (const kind of ['wyoming', 'http'] as const)
    it(`${kind}: checked against what the server lists, then sent with each sentence; unnamed, nothing is sent`, async () => {
      const s = await start(kind, two);
      const d = await probeServer(parseServerUrl(s.url), 'Bonjour.', { timeoutMs: 2000, voice: 'en_US-lessac-medium' });
      assert.equal(d.voice, 'en_US-lessac-medium');
      assert.match(d.said, /; asked for voice en_US-lessac-medium$/);
      const before = s.asked().length;
      const link = (kind === 'wyoming' ? wyomingLink : httpLink)(
        { host: '127.0.0.1', port: s.port, style: 'synthesize-json' },
        { now, replyTimeoutMs: 2000, voice: 'en_US-lessac-medium' },
      );
      const replies = await ask(link, 2);
      assert.deepEqual(
        replies.map((r) => r.state),
        ['done', 'done'],
      );
      assert.deepEqual(s.asked().slice(before), ['en_US-lessac-medium', 'en_US-lessac-medium']);
      const plain = s.asked().length;
      await ask(linkTo(kind, s), 1);
      assert.deepEqual(s.asked().slice(plain), [null]);
      // A voice it does not list: one line naming the flag, what it lists and the fix, before anything is measured.
      await assert.rejects(
        probeServer(parseServerUrl(s.url), 'Bonjour.', { timeoutMs: 2000, voice: 'de_DE-thorsten-high' }),
        (e: Error) =>
          /^--server-voice de_DE-thorsten-high: .* lists no such voice \(it lists fr_FR-siwis-medium, en_US-lessac-medium\); give one it lists, or leave --server-voice out/.test(
            e.message,
          ) && e.message.split('\n').length === 1,
      );
    });

  it('wyoming, streaming text in: the voice goes in synthesize-start', async () => {
    const s = await start('wyoming', { ...two, streaming: true });
    const link = wyomingLink(
      { host: '127.0.0.1', port: s.port },
      { now, replyTimeoutMs: 2000, voice: 'fr_FR-siwis-medium' },
    );
    const r = await new Promise<StreamReply>((resolve) =>
      link.open((o) => {
        if (o.state === 'failed') throw new Error(o.message);
        o.session.stream?.(['Un.', 'Deux.'], null, (x) => {
          o.session.close();
          resolve(x);
        });
      }),
    );
    assert.equal(r.state, 'done');
    assert.deepEqual(s.asked(), ['fr_FR-siwis-medium']);
  });

  it("http: rhasspy/piper's release takes no voice: refused in one line; piper1-gpl 1.3's JSON takes it", async () => {
    const old = await start('http', { release: 'root-text' });
    await assert.rejects(
      probeServer(parseServerUrl(old.url), 'Bonjour.', { timeoutMs: 2000, voice: 'x' }),
      /--server-voice: .*rhasspy\/piper\) takes no voice in its request; leave --server-voice out/,
    );
    const json = await start('http', { release: 'root-json', ...two });
    const d = await probeServer(parseServerUrl(json.url), 'Bonjour.', { timeoutMs: 2000, voice: 'fr_FR-siwis-medium' });
    assert.equal(d.voice, 'fr_FR-siwis-medium');
    assert.equal(json.asked().at(-1), 'fr_FR-siwis-medium');
  });
});
