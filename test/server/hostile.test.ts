// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
/**
 * A hostile or broken server (issue: nothing crashes, hangs or is lost): every fault of
 * test/helpers/hostile-servers.ts against the client as a run uses it, on real sockets on loopback,
 * each within a stated deadline; and two command lines end with one clean line on stderr.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, describe, it } from 'node:test';
import { PiperParallelError } from '../../lib/core/errors.js';
import { parseServerUrl, probeServer } from '../../lib/server/probe.js';
import { wyomingLink } from '../../lib/server/wyoming/session.js';
import { MAX_WAV_BYTES, httpLink } from '../../lib/server/http/session.js';
import { EventParser, MAX_SECTION_BYTES, encodeEvent } from '../../lib/server/wyoming/event.js';
import { serverVoice, stillAnswering } from '../../lib/capacity/setup/server.js';
import { ServerAdapter } from '../../lib/capacity/worker/server-adapter.js';
import type { ServerLink, ServerSession, StreamReply, SynthesisReply } from '../../lib/server/contract/session.js';
import {
  INJECTION,
  startHostileHttp,
  startHostileWyoming,
  type Hostile,
  type HostileWyoming,
} from '../helpers/hostile-servers.js';
import { startWyomingServer } from '../helpers/speech-servers.js';
import { BIN, tempDir } from '../helpers/paths.js';

const running: Array<{ close(): Promise<void> }> = [];
after(async () => {
  for (const s of running) await s.close();
});

async function hostile(kind: HostileWyoming): Promise<Hostile> {
  const s = await startHostileWyoming(kind);
  running.push(s);
  return s;
}

const target = (url: string) => parseServerUrl(url);

/** A server handle as the after-run check takes it: a Wyoming link with `replyTimeoutMs` per reply. */
const wyomingHandle = (url: string, replyTimeoutMs: number) => ({
  description: {
    address: url,
    protocol: 'wyoming' as const,
    endpoint: null,
    request: null,
    streaming: false,
    said: '',
    voices: [],
    voice: null,
  },
  link: (now: () => number) => wyomingLink(target(url), { now, replyTimeoutMs }),
});

/** A listener's worker on a server at `url`, as a capacity trial starts it, handed `texts` as its reply. */
function serverWorker(url: string, replyTimeoutMs: number, texts: readonly string[]) {
  const adapter = new ServerAdapter({
    link: wyomingLink(target(url), { now: () => performance.now(), replyTimeoutMs }),
    now: () => performance.now(),
    address: url,
  });
  const worker = adapter.spawn({ rang: 0, core: undefined });
  const init = () =>
    worker.send({
      type: 'init',
      rang: 0,
      voice: { name: 'server', onnxPath: '', config: serverVoice().config },
      threads: 1,
      prepared: {
        sentences: texts.map((text) => ({ text, phonemes: [], ids: [], phonemizeSeconds: 0 })),
        phonemizeSeconds: 0,
        missingPhonemes: {},
      },
      warmup: 0,
      passes: 1,
    });
  return { worker, init };
}

/** One sentence on a fresh session of the server, with `timeoutMs` per reply. */
function oneSentence(url: string, timeoutMs: number): Promise<SynthesisReply> {
  const t = target(url);
  return new Promise((resolve) =>
    wyomingLink(t, { now: () => performance.now(), replyTimeoutMs: timeoutMs }).open((r) => {
      if (r.state === 'failed') return resolve({ state: 'failed', message: r.message });
      r.session.synthesize('Bonjour.', (x) => {
        r.session.close();
        resolve(x);
      });
    }),
  );
}

const within = async <T>(ms: number, p: Promise<T>): Promise<T> => {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not settled within ${ms} ms: a hang`)), ms);
  });
  try {
    return await Promise.race([p, late]);
  } finally {
    clearTimeout(timer);
  }
};

describe('a hostile Wyoming server', () => {
  it('info {"tts":[null]}: a one-line refusal, not a crash in the socket listener', async () => {
    const s = await hostile('null-voices');
    await assert.rejects(within(5000, probeServer(target(s.url), 'Bonjour.', { timeoutMs: 2000 })), (e: unknown) => {
      assert.ok(e instanceof PiperParallelError);
      assert.match(e.message, /its info lists no tts program/);
      return true;
    });
  });

  it('names that are objects with a "toString" key: read as words, never thrown', async () => {
    const s = await hostile('object-names');
    const d = await within(5000, probeServer(target(s.url), 'Bonjour.', { timeoutMs: 2000 }));
    assert.ok(d.voices.includes('{"toString":1}'), d.voices.join());
    assert.match(d.said, /^Wyoming TTS \{"toString":1\}; voices /);
  });

  it('an info naming 20,000 programs: the probe says four and how many more, not a flood kept in the archive', async () => {
    const s = await hostile('many-programs');
    const { said } = await within(10_000, probeServer(target(s.url), 'Bonjour.', { timeoutMs: 5000 }));
    assert.match(said, /^Wyoming TTS program-0, program-1, program-2, program-3 and 19996 more; /);
    assert.ok(said.length < 400, `${said.length} characters`);
  });

  it('an error whose text is an object: the sentence fails with that text, quoted', async () => {
    const s = await hostile('error-object');
    const r = await within(5000, oneSentence(s.url, 2000));
    assert.deepEqual(r, { state: 'failed', message: 'the server answered error: {"toString":1}' });
  });

  it('two answers to one sentence: refused, not credited to the next request', async () => {
    const s = await hostile('double-answer');
    const r = await within(5000, oneSentence(s.url, 2000));
    assert.equal(r.state, 'failed');
    assert.match(r.state === 'failed' ? r.message : '', /audio-start that no request asked for \(a second answer\?\)/);
  });

  it('audio at 1 Hz: refused as implausible, so no byte counts as a second of speech', async () => {
    const s = await hostile('one-hertz');
    const r = await within(5000, oneSentence(s.url, 2000));
    assert.deepEqual(r, {
      state: 'failed',
      message: 'the server sent an implausible audio format (1 Hz, 16-bit, 1 channel(s))',
    });
  });

  it('pings instead of audio: the sentence fails at its timeout; pings do not move it', async () => {
    const s = await hostile('pings');
    const started = performance.now();
    const r = await within(5000, oneSentence(s.url, 600));
    assert.deepEqual(r, { state: 'failed', message: 'no audio event within 1 s' });
    assert.ok(performance.now() - started < 2000, `${performance.now() - started} ms`);
  });

  it('the after-run check against a server that only pings: false within its timeout, its connection closed', async () => {
    const s = await hostile('pings');
    const handle = wyomingHandle(s.url, 300);
    assert.equal(await within(5000, stillAnswering(handle, 'Bonjour.', 300)), false);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(s.connections(), 0, 'a connection left open would keep the process alive');
  });

  it('a listener whose worker ends while the server has not said hello: its connection closed at once, not at the timeout', async () => {
    const s = await hostile('silent');
    // Ten minutes: a connection left waiting for info would hold the process that long after the run.
    const { worker, init } = serverWorker(s.url, 600_000, ['Bonjour.']);
    init();
    for (let i = 0; i < 50 && s.connections() === 0; i += 1) await new Promise((r) => setTimeout(r, 20));
    assert.equal(s.connections(), 1, 'the connection was never made');
    await worker.terminate();
    for (let i = 0; i < 50 && s.connections() > 0; i += 1) await new Promise((r) => setTimeout(r, 20));
    assert.equal(s.connections(), 0, 'a connection waiting for info outlived its worker');
  });

  it('a second answer in a later write: the one after the last sentence fails the worker, so its trial fails', async () => {
    // No request id: the second answers to sentences 1 and 2 come after the next request and are credited to it;
    // the one after sentence 3 comes when nothing waits, and must reach the trial rather than be dropped.
    const s = await hostile('late-double-answer');
    const { worker, init } = serverWorker(s.url, 2000, ['Bonjour.', 'Il fait beau.', 'À demain.']);
    const seen: string[] = [];
    const failed = new Promise<string>((resolve) =>
      worker.onMessage((m) => {
        seen.push(m.type);
        if (m.type === 'failed') resolve(m.message);
        if (m.type === 'loaded') worker.send({ type: 'job', id: 0, sentence: 0 });
        if (m.type === 'done' && m.id < 2) worker.send({ type: 'job', id: m.id + 1, sentence: m.id + 1 });
      }),
    );
    init();
    const message = await within(5000, failed);
    await worker.terminate();
    assert.match(message, /connection 0: the server sent audio-start that no request asked for \(a second answer\?\)/);
    assert.ok(seen.includes('done'), `the sentences were answered first: ${seen.join(', ')}`);
  });

  it('the after-run check ends at Ctrl-C, not at its timeout, its connection closed', async () => {
    const s = await hostile('pings');
    const handle = wyomingHandle(s.url, 600_000);
    const c = new AbortController();
    setTimeout(() => c.abort(), 100);
    // Ten minutes of timeout: only the abort can end it within the deadline.
    assert.equal(await within(5000, stillAnswering(handle, 'Bonjour.', 600_000, c.signal)), false);
    await new Promise((r) => setTimeout(r, 200));
    assert.equal(s.connections(), 0);
  });

  it('a probe asked after Ctrl-C ends at once, as interrupted (a probe cut mid-answer: the HTTP trickle below)', async () => {
    const s = await hostile('pings');
    const c = new AbortController();
    c.abort();
    await assert.rejects(
      probeServer(target(s.url), 'Bonjour.', { timeoutMs: 2000, signal: c.signal }),
      (e: unknown) => {
        assert.ok(e instanceof PiperParallelError && e.code === 'ABORTED', String(e));
        return true;
      },
    );
  });
});

describe('memory at 32 listeners', () => {
  /**
   * 32 sessions of `link`, each asking one sentence the server answers with `sentBytes` less one byte, then stalls:
   * the most the client's resident memory grew while it held them (until 90% of it all has come, or 10 s).
   */
  async function grownAt32(link: ServerLink, sentBytes: number): Promise<number> {
    const sessions: ServerSession[] = [];
    global.gc?.();
    const before = process.memoryUsage().rss;
    await within(
      20_000,
      Promise.all(
        Array.from(
          { length: 32 },
          () =>
            new Promise<void>((resolve) =>
              link.open((o) => {
                if (o.state === 'failed') return resolve();
                sessions.push(o.session);
                o.session.synthesize('Bonjour.', () => undefined);
                resolve();
              }),
            ),
        ),
      ),
    );
    let grownBytes = 0;
    for (let i = 0; i < 100; i += 1) {
      grownBytes = Math.max(grownBytes, process.memoryUsage().rss - before);
      if (grownBytes > 32 * 0.9 * sentBytes) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    for (const x of sessions) x.close();
    assert.equal(sessions.length, 32);
    process.stdout.write(
      `32 stalled answers of ${sentBytes / 2 ** 20} MiB: grew ${Math.round(grownBytes / 2 ** 20)} MiB\n`,
    );
    return grownBytes;
  }
  // The budget docs/contributing/reliability.md states: 8 MiB a connection, 256 MiB at 32 listeners.
  const BUDGET_BYTES = 32 * 8 * 2 ** 20;
  const now = (): number => performance.now();

  it('each sent the largest chunk the client takes, all but its last byte: the client grows by under 8 MiB a listener', async () => {
    const s = await hostile('stalled-chunk');
    const grownBytes = await grownAt32(wyomingLink(target(s.url), { now, replyTimeoutMs: 30_000 }), MAX_SECTION_BYTES);
    assert.ok(grownBytes < BUDGET_BYTES, `grew ${Math.round(grownBytes / 2 ** 20)} MiB`);
  });

  it('http: each sent a WAV as large as the client takes, all but its last byte: the client grows by under 8 MiB a listener', async () => {
    const s = await startHostileHttp('stalled-wav');
    running.push(s);
    const link = httpLink({ ...target(s.url), style: 'synthesize-json' }, { now, replyTimeoutMs: 30_000 });
    const grownBytes = await grownAt32(link, MAX_WAV_BYTES);
    assert.ok(grownBytes < BUDGET_BYTES, `grew ${Math.round(grownBytes / 2 ** 20)} MiB`);
  });
});

describe('a streamed text answered for ever', () => {
  it('sentence after sentence with no end: refused past 10,000 sentences, not kept until the memory runs out', async () => {
    const s = await hostile('many-pairs');
    const r = await within(
      20_000,
      new Promise<StreamReply>((resolve) =>
        wyomingLink(target(s.url), { now: () => performance.now(), replyTimeoutMs: 15_000 }).open((o) => {
          if (o.state === 'failed') return resolve({ state: 'failed', message: o.message });
          const session = o.session as ServerSession & Required<Pick<ServerSession, 'stream'>>;
          session.stream(['Bonjour.'], null, (x) => {
            session.close();
            resolve(x);
          });
        }),
      ),
    );
    assert.deepEqual(r, {
      state: 'failed',
      message: 'the server sent more than 10000 sentences for one streamed text',
    });
  });
});

describe('a streamed text written slowly', () => {
  it("a sentence's timer starts once its text is all sent, not while the client is still writing it", async () => {
    const s = await startWyomingServer({ speed: 4.5, slots: 1, audioSeconds: 0.45, streaming: true });
    running.push(s);
    const t = target(s.url);
    // 31 characters at 20 a second: 1.55 s of writing, with 0.6 s allowed per reply.
    const r = await within(
      8000,
      new Promise<StreamReply>((resolve) =>
        wyomingLink(t, { now: () => performance.now(), replyTimeoutMs: 600 }).open((o) => {
          if (o.state === 'failed') return resolve({ state: 'failed', message: o.message });
          const session = o.session as ServerSession & Required<Pick<ServerSession, 'stream'>>;
          session.stream(['Un deux trois quatre cinq six.'], 20, (x) => {
            session.close();
            resolve(x);
          });
        }),
      ),
    );
    assert.equal(r.state, 'done', r.state === 'failed' ? r.message : '');
  });
});

describe('a hostile HTTP server', () => {
  it('a body that never ends: refused past 8 MiB', async () => {
    const s = await startHostileHttp('endless-body');
    running.push(s);
    await assert.rejects(
      within(20_000, probeServer(target(s.url), 'Bonjour.', { timeoutMs: 15_000 })),
      /an answer over 8 MiB/,
    );
  });

  it('a byte every 200 ms: the whole answer is due within the timeout, so it ends then', async () => {
    const s = await startHostileHttp('trickle');
    running.push(s);
    const started = performance.now();
    await assert.rejects(
      within(5000, probeServer(target(s.url), 'Bonjour.', { timeoutMs: 1000 })),
      /no whole answer within 1 s/,
    );
    assert.ok(performance.now() - started < 2500);
  });

  it('a WAV of 1 Hz, 8 bits: refused at the probe as an implausible audio format, not 8000 s of speech', async () => {
    const s = await startHostileHttp('one-hertz-wav');
    running.push(s);
    await assert.rejects(
      within(5000, probeServer(target(s.url), 'Bonjour.', { timeoutMs: 2000 })),
      /an implausible audio format: a WAV with 8 bits, 1 Hz, 1 channel\(s\)/,
    );
  });

  it('interrupted while it trickles: ends at once, as interrupted', async () => {
    const s = await startHostileHttp('trickle');
    running.push(s);
    const c = new AbortController();
    setTimeout(() => c.abort(), 150);
    const started = performance.now();
    await assert.rejects(
      within(3000, probeServer(target(s.url), 'Bonjour.', { timeoutMs: 20_000, signal: c.signal })),
      (e: unknown) => {
        assert.ok(e instanceof PiperParallelError && e.code === 'ABORTED', String(e));
        return true;
      },
    );
    assert.ok(performance.now() - started < 1500);
  });
});

describe('--server URLs', () => {
  it('refuses a login or a path, takes http on its default port, needs a port for tcp', () => {
    assert.throws(() => parseServerUrl('http://me:secret@127.0.0.1:5000'), /--server takes no user:password@/);
    assert.throws(() => parseServerUrl('http://127.0.0.1:5000/api/tts'), /--server takes no path, got "\/api\/tts"/);
    assert.deepEqual(parseServerUrl('http://127.0.0.1'), {
      protocol: 'http',
      host: '127.0.0.1',
      port: 80,
      address: 'http://127.0.0.1:80',
    });
    assert.equal(parseServerUrl('http://127.0.0.1:80/').port, 80);
    assert.throws(() => parseServerUrl('tcp://127.0.0.1'), /--server needs a host and a port/);
    assert.throws(
      () => parseServerUrl('http://127.0.0.1:5000/?voice=fr#x'),
      /--server takes no query or fragment, got "\?voice=fr#x" \(neither is sent to the server\)/,
    );
  });
});

describe('a large Wyoming event in many reads', () => {
  it('is copied once, not once per read', () => {
    const payload = Buffer.alloc(4 * 2 ** 20);
    const bytes = encodeEvent('audio-chunk', { rate: 16000, width: 2, channels: 1 }, payload);
    const parser = new EventParser();
    const concat = Buffer.concat;
    let calls = 0;
    Buffer.concat = ((list: readonly Uint8Array[], n?: number) => {
      calls += 1;
      return concat(list, n);
    }) as typeof Buffer.concat;
    let events = 0;
    try {
      for (let at = 0; at < bytes.length; at += 16 * 1024)
        events += parser.push(bytes.subarray(at, at + 16 * 1024)).length;
    } finally {
      Buffer.concat = concat;
    }
    assert.equal(events, 1);
    // 257 reads: the old parser joined the buffer on every one of them.
    assert.ok(calls <= 3, `${calls} joins`);
  });
});

describe('the command line against hostile servers', () => {
  // Asynchronous: the hostile servers live in this process, and a blocking spawn would keep them from answering.
  const run = (args: string[]) =>
    new Promise<{ status: number | null; stdout: string; stderr: string; seconds: number }>((resolve) => {
      const dir = tempDir('hostile-cli');
      const started = performance.now();
      const child = spawn(process.execPath, [BIN, 'capacity', ...args, '--settle', '0', '--out-dir', `${dir}/m`], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
      child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
      // A hang would be killed here, and its null status fail the test.
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('close', (status) => {
        clearTimeout(timer);
        resolve({ status, stdout, stderr, seconds: (performance.now() - started) / 1000 });
      });
    });

  it('an event type with an escape sequence: one line on stderr, exit 1, no control character printed', async () => {
    const s = await hostile('evil-type');
    const r = await run(['--server', s.url, '--server-timeout-s', '2']);
    assert.equal(r.status, 1, r.stderr);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(
      lines[0] ?? '',
      /^piper-parallel: --server tcp:\/\/127\.0\.0\.1:\d+: the server answered describe with info\]0;pwned\[31m, not info/,
    );
    // eslint-disable-next-line no-control-regex -- the point: none may reach the terminal
    assert.doesNotMatch(r.stdout + r.stderr, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    assert.ok(!(r.stdout + r.stderr).includes(INJECTION));
  });

  it('every hostile server: the run ends on its own within its deadline, one line at most on stderr, nothing raw', async () => {
    const kinds: Array<[string, () => Promise<Hostile>]> = [
      ...(
        ['null-voices', 'object-names', 'error-object', 'double-answer', 'late-double-answer', 'one-hertz'] as const
      ).map((k): [string, () => Promise<Hostile>] => [k, () => hostile(k)]),
      ...(['endless-body', 'trickle', 'one-hertz-wav'] as const).map((k): [string, () => Promise<Hostile>] => [
        k,
        async () => {
          const s = await startHostileHttp(k);
          running.push(s);
          return s;
        },
      ]),
    ];
    for (const [kind, start] of kinds) {
      const s = await start();
      const r = await run(['--server', s.url, '--server-timeout-s', '1', '--max-streams', '2', '--rounds', '1']);
      assert.notEqual(r.status, null, `${kind}: killed by the test's timeout, a hang`);
      // None is measured as if it were healthy, but object names: odd words, sound audio, a run that may stand.
      if (kind !== 'object-names') assert.notEqual(r.status, 0, `${kind}: exit 0: ${r.stderr}`);
      assert.ok(r.seconds < 30, `${kind}: ${r.seconds} s`);
      const errors = r.stderr.split('\n').filter((l) => l.startsWith('piper-parallel:'));
      assert.ok(errors.length <= 1, `${kind}: ${r.stderr}`);
      // eslint-disable-next-line no-control-regex -- the point: none may reach the terminal
      assert.doesNotMatch(r.stdout + r.stderr, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/, kind);
    }
  });

  it('a server that only pings: ends within its stated deadline with one line, and exits', async () => {
    const s = await hostile('pings');
    const r = await run(['--server', s.url, '--server-timeout-s', '1', '--max-streams', '1', '--rounds', '1']);
    assert.notEqual(r.status, 0, r.stderr);
    assert.notEqual(r.status, null, 'killed by the test timeout: a hang');
    assert.ok(r.seconds < 20, `${r.seconds} s`);
    const last = r.stderr.trim().split('\n').at(-1) ?? '';
    assert.match(last, /^piper-parallel: .*no audio event within 1 s/);
    // eslint-disable-next-line no-control-regex -- the point: none may reach the terminal
    assert.doesNotMatch(r.stdout + r.stderr, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
  });
});
