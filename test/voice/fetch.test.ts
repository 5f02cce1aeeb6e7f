// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { PiperParallelError } from '../../lib/core/errors.js';
import { fetchVoices } from '../../lib/voice/fetch.js';
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
  return { good: entry('good', GOOD), corrupt: entry('corrupt', GOOD), truncated: entry('truncated', GOOD) };
}

let server: http.Server;
let base = '';

before(async () => {
  server = http.createServer((req, res) => {
    const url = req.url ?? '';
    if (url === '/voices.json') return void res.end(JSON.stringify(catalogue()));
    if (url.endsWith('.onnx.json')) return void res.end(CONFIG);
    if (url.endsWith('/good.onnx')) return void res.end(GOOD);
    if (url.endsWith('/corrupt.onnx')) {
      const bad = Buffer.from(GOOD);
      bad[10] = (bad[10] ?? 0) ^ 1;
      return void res.end(bad);
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

describe('voices fetch', () => {
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
});
