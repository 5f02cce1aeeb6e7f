/**
 * docs/home-assistant.md's `sh` blocks run as written, in order, in one folder, against a test
 * server that behaves as wyoming-piper does: only its address is replaced, and every capacity run
 * is kept short (--max-streams 2 --rounds 1 --settle 0) so the suite stays quick.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BIN, tempDir } from './helpers/paths.js';
import { startWyomingPiper, type WyomingPiperServer } from './helpers/wyoming-piper-server.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const DOC = readFileSync(path.join(ROOT, 'docs', 'home-assistant.md'), 'utf8');
const SHORT = '--max-streams 2 --rounds 1 --settle 0 --first-audio-ms 5000';

const servers: WyomingPiperServer[] = [];
after(async () => {
  for (const s of servers) await s.close();
});

/** The doc's sh blocks, in order. */
const blocks = [...DOC.matchAll(/```sh home-assistant\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');

function sh(script: string, cwd: string): Promise<{ code: number | null; out: string; err: string }> {
  // npx piper-parallel is this build's bin, as in the README test.
  const bin = `node ${JSON.stringify(BIN)}`;
  return new Promise((resolve) =>
    execFile('bash', ['-c', script.replaceAll('npx piper-parallel', bin)], { cwd, timeout: 300_000 }, (e, out, err) =>
      resolve({ code: e ? (typeof e.code === 'number' ? e.code : null) : 0, out, err }),
    ),
  );
}

describe('docs/home-assistant.md', () => {
  it('every sh block runs against a wyoming-piper-like server, and the capacity runs answer for it', async () => {
    assert.ok(blocks.length >= 3, `${blocks.length} sh blocks`);
    const server = await startWyomingPiper({
      speed: 20,
      secondsPerChar: 0.02,
      catalogVoices: 3,
      voiceNames: ['fr_FR-siwis-medium', 'en_US-lessac-medium'],
    });
    servers.push(server);
    const dir = tempDir('home-assistant');
    for (const block of blocks) {
      const script = block
        .replaceAll('tcp://homeassistant.local:10200', server.url)
        .replace(/(npx piper-parallel capacity [^\n]*)/g, `$1 ${SHORT} --out-dir m`);
      const r = await sh(script, dir);
      assert.ok(r.code === 0 || r.code === 3, `${block}\n${r.err}`);
      if (/piper-parallel capacity/.test(block))
        assert.match(
          r.out,
          new RegExp(`^the server at ${server.url.replaceAll('.', '\\.')}: (plan on|no number)`, 'm'),
        );
    }
    assert.ok(server.made.some((m) => m.text === 'It is 21 degrees in the living room.'));
    // --server-voice reached the server as voice.name, and the runs without it named none.
    assert.ok(server.made.some((m) => m.voice === 'en_US-lessac-medium'));
    assert.ok(server.made.some((m) => m.voice === null));
    const asked = readdirSync(path.join(dir, 'm'))
      .filter((f) => /^capacity-.*\.json$/.test(f))
      .map((f) => JSON.parse(readFileSync(path.join(dir, 'm', f), 'utf8')) as { serveur?: { voix_demandee?: unknown } })
      .map((a) => a.serveur?.voix_demandee);
    assert.ok(asked.includes('en_US-lessac-medium'), `archived: ${JSON.stringify(asked)}`);
    assert.ok(asked.includes(null), `archived: ${JSON.stringify(asked)}`);
  });
});
