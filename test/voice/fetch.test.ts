// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PiperParallelError } from '../../lib/core/errors.js';
import { installedVoiceNames } from '../../lib/voice/load.js';
import { fetchCatalogue, fetchVoices } from '../../lib/voice/fetch.js';
import { tempDir } from '../helpers/paths.js';

const md5 = (b: Buffer): string => createHash('md5').update(b).digest('hex');
const GOOD = Buffer.from('pretend onnx bytes '.repeat(5000));
const CONFIG = Buffer.from(JSON.stringify({ audio: { sample_rate: 22050 } }));

/** A loopback mirror of the piper-voices layout with a good, a corrupted and a truncated voice. */
function catalogue(): Record<string, unknown> {
  const entry = (key: string, onnx: Buffer) => ({
    key,
    files: {
      [`fr/fr_FR/${key}/medium/${key}.onnx`]: { size_bytes: onnx.length, md5_digest: md5(onnx) },
      [`fr/fr_FR/${key}/medium/${key}.onnx.json`]: { size_bytes: CONFIG.length, md5_digest: md5(CONFIG) },
      [`fr/fr_FR/${key}/medium/MODEL_CARD`]: { size_bytes: 1, md5_digest: 'x' },
    },
  });
  const other = { key: 'other', files: entry('good', GOOD).files };
  const pair = entry('pair', GOOD);
  // pair's config is listed with a digest its bytes do not have: the model verifies, the config does not.
  (pair.files as Record<string, { size_bytes: number; md5_digest: string }>)[`fr/fr_FR/pair/medium/pair.onnx.json`] = {
    size_bytes: CONFIG.length,
    md5_digest: '0'.repeat(32),
  };
  return {
    good: entry('good', GOOD),
    corrupt: entry('corrupt', GOOD),
    truncated: entry('truncated', GOOD),
    endless: entry('endless', GOOD),
    liar: entry('liar', GOOD),
    slow: entry('slow', GOOD),
    other,
    pair,
  };
}

let server: http.Server;
let base = '';

before(async () => {
  server = http.createServer((req, res) => {
    const url = req.url ?? '';
    if (url === '/voices.json') return void res.end(JSON.stringify(catalogue()));
    if (url === '/huge/voices.json') {
      // A "catalogue" that never ends: a mirror gone wrong, or a hostile one.
      res.write('{"a":"');
      const timer = setInterval(() => res.write(Buffer.alloc(1 << 20, 97)), 1);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if (url.endsWith('.onnx.json')) return void res.end(CONFIG);
    if (url.endsWith('/good.onnx')) return void res.end(GOOD);
    if (url.endsWith('/corrupt.onnx')) {
      const bad = Buffer.from(GOOD);
      bad[10] = (bad[10] ?? 0) ^ 1;
      return void res.end(bad);
    }
    if (url.endsWith('/pair.onnx')) return void res.end(GOOD);
    if (url.endsWith('/liar.onnx')) {
      res.writeHead(200, { 'content-length': String(GOOD.length * 1000) });
      return void res.end();
    }
    if (url.endsWith('/slow.onnx')) {
      // A kilobyte every 20 ms: the whole file would take two seconds.
      const timer = setInterval(() => res.write(GOOD.subarray(0, 1024)), 20);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if (url.endsWith('/endless.onnx')) {
      // A body far longer than the catalogue says (100 times): only the client's limit stops it early.
      let sent = 0;
      const timer = setInterval(() => {
        res.write(Buffer.alloc(64 * 1024, 7));
        sent += 64 * 1024;
        if (sent > 100 * GOOD.length) {
          clearInterval(timer);
          res.end();
        }
      }, 1);
      res.on('close', () => clearInterval(timer));
      return;
    }
    if (url.endsWith('/truncated.onnx')) {
      res.writeHead(200, { 'content-length': String(GOOD.length) });
      res.write(GOOD.subarray(0, 1000));
      setTimeout(() => res.socket?.destroy(), 20);
      return;
    }
    res.statusCode = 404;
    res.end('no');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => server.close());

// Every case ends on its own; one that would hang (a limit gone) fails here instead.
describe('voices fetch', { timeout: 20_000 }, () => {
  it('a fetch cut between its two renames leaves no half voice: a model without its config is not listed', async () => {
    const dir = tempDir('half-voice');
    writeFileSync(path.join(dir, 'cut.onnx'), GOOD);
    writeFileSync(path.join(dir, 'whole.onnx'), GOOD);
    writeFileSync(path.join(dir, 'whole.onnx.json'), CONFIG);
    assert.deepEqual(await installedVoiceNames(dir), ['whole']);
  });

  it('refuses a catalogue past 32 MiB, reading no further', async () => {
    await assert.rejects(
      fetchCatalogue(`${base}/huge`),
      /voices\.json is over 32 MiB: not a voices\.json; check the mirror/,
    );
  });

  it('downloads and verifies a good voice', async () => {
    const dir = tempDir('fetch');
    const written = await fetchVoices(['good'], { voicesDir: dir, baseUrl: base });
    assert.deepEqual(
      written.map((f) => path.basename(f)),
      ['good.onnx', 'good.onnx.json'],
    );
    assert.deepEqual(readFileSync(path.join(dir, 'good.onnx')), GOOD);
    assert.deepEqual(readdirSync(dir).sort(), ['good.onnx', 'good.onnx.json']);
  });

  it('deletes a download whose digest differs and says both digests', async () => {
    const dir = tempDir('fetch');
    await assert.rejects(fetchVoices(['corrupt'], { voicesDir: dir, baseUrl: base }), (err: unknown) => {
      assert.ok(err instanceof PiperParallelError);
      assert.equal(err.code, 'DIGEST_MISMATCH');
      assert.match(
        err.message,
        new RegExp(`expected ${GOOD.length} bytes md5 ${md5(GOOD)}, got ${GOOD.length} bytes md5 [0-9a-f]{32}`),
      );
      return true;
    });
    assert.deepEqual(readdirSync(dir), []);
  });

  it('leaves no half file under the final name when the connection drops', async () => {
    const dir = tempDir('fetch');
    await assert.rejects(fetchVoices(['truncated'], { voicesDir: dir, baseUrl: base }), /broke off|expected/);
    assert.equal(existsSync(path.join(dir, 'truncated.onnx')), false);
    assert.deepEqual(readdirSync(dir), []);
  });

  it('says when a voice is not in the catalogue', async () => {
    await assert.rejects(
      fetchVoices(['fr_FR-nobody-medium'], { voicesDir: tempDir('fetch'), baseUrl: base }),
      /not in the catalogue/,
    );
  });

  it('takes the mirror from the environment', async () => {
    const dir = tempDir('fetch');
    process.env.PIPER_VOICES_BASE_URL = base;
    try {
      await fetchVoices(['good'], { voicesDir: dir });
    } finally {
      delete process.env.PIPER_VOICES_BASE_URL;
    }
    assert.ok(existsSync(path.join(dir, 'good.onnx')));
  });

  it('stops an endless body as soon as it passes the catalogue size, and keeps nothing', async () => {
    const dir = tempDir('fetch');
    await assert.rejects(
      fetchVoices(['endless'], { voicesDir: dir, baseUrl: base }),
      /endless\.onnx broke off after \d+ bytes \(more than the \d+ bytes the catalogue gives\)/,
    );
    assert.deepEqual(readdirSync(dir), []);
  });

  it('refuses a declared length that is not the catalogue size before reading the body', async () => {
    const dir = tempDir('fetch');
    await assert.rejects(
      fetchVoices(['liar'], { voicesDir: dir, baseUrl: base }),
      /declares \d+ bytes where the catalogue gives/,
    );
    assert.deepEqual(readdirSync(dir), []);
  });

  it("refuses a catalogue entry that names another voice's files, and a name that is no catalogue key", async () => {
    const dir = tempDir('fetch');
    await assert.rejects(
      fetchVoices(['other'], { voicesDir: dir, baseUrl: base }),
      /gives voice "other" the files good\.onnx, good\.onnx\.json, not other\.onnx and other\.onnx\.json/,
    );
    for (const name of ['constructor', '__proto__', 'toString'])
      await assert.rejects(fetchVoices([name], { voicesDir: dir, baseUrl: base }), /is not in the catalogue/);
    assert.deepEqual(readdirSync(dir), []);
  });

  it('never writes through a link planted at the temporary name', async () => {
    const dir = tempDir('fetch');
    const victim = path.join(tempDir('victim'), 'precious.txt');
    writeFileSync(victim, 'keep me');
    symlinkSync(victim, path.join(dir, `good.onnx.part-${process.pid}`));
    await fetchVoices(['good'], { voicesDir: dir, baseUrl: base });
    assert.equal(readFileSync(victim, 'utf8'), 'keep me');
    assert.deepEqual(readFileSync(path.join(dir, 'good.onnx')), GOOD);
    assert.deepEqual(readdirSync(dir).sort(), ['good.onnx', 'good.onnx.json']);
  });

  it('a re-fetch that fails on the config leaves the installed pair as it was', async () => {
    const dir = tempDir('fetch');
    writeFileSync(path.join(dir, 'pair.onnx'), 'old model');
    writeFileSync(path.join(dir, 'pair.onnx.json'), 'old config');
    await assert.rejects(fetchVoices(['pair'], { voicesDir: dir, baseUrl: base }), /pair\.onnx\.json: expected/);
    assert.equal(readFileSync(path.join(dir, 'pair.onnx'), 'utf8'), 'old model');
    assert.equal(readFileSync(path.join(dir, 'pair.onnx.json'), 'utf8'), 'old config');
    assert.deepEqual(readdirSync(dir).sort(), ['pair.onnx', 'pair.onnx.json']);
  });

  it('an interrupted download (Ctrl-C) ends at once, as ABORTED, and keeps nothing', async () => {
    const dir = tempDir('fetch');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = performance.now();
    await assert.rejects(
      fetchVoices(['slow'], { voicesDir: dir, baseUrl: base, signal: controller.signal }),
      (err: unknown) => {
        assert.ok(err instanceof PiperParallelError);
        assert.equal(err.code, 'ABORTED', err.message);
        assert.match(err.message, /voices fetch interrupted during .*slow\.onnx; nothing of it was kept/);
        return true;
      },
    );
    // Not at the download's own end (two seconds), nor its timeout.
    assert.ok(performance.now() - started < 1500);
    assert.deepEqual(readdirSync(dir), []);
  });
});
