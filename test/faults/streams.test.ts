/** Faults inside the streams: each arm fails in bounded time, the others are reaped, the run goes on. */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { ArchiveSchema } from '../../lib/throughput/schema.js';
import { tempDir } from '../helpers/paths.js';
import { archives, assertClean, baseArgs, runCli, workspace } from './harness.js';

function onlyArchive(w: ReturnType<typeof workspace>) {
  const files = archives(w);
  assert.equal(files.length, 1, `archives: ${files.join(', ')}`);
  return ArchiveSchema.parse(JSON.parse(readFileSync(files[0]!, 'utf8')));
}

describe('faults in the streams', () => {
  it('a child killed with SIGKILL in the middle of the K=2 arm: that arm fails, the K=1 arm before it stays, exit 3', async () => {
    const w = workspace();
    let killed = 0;
    let passesBefore = -1;
    // Stream 1 exists only in the K=2 arm: it is killed once it has said ready for pass 2 of 5,
    // seen in the trace of stream messages, so the kill lands mid-arm however fast the passes run.
    const r = await runCli([...baseArgs(w, '5'), '--rounds', '1', '--streams', '1,2', '--warmup', '0'], {
      trace: true,
      onStderr: (err) => {
        const m = /trace: stream 1 \(pid (\d+)\) ready 2\n/.exec(err);
        if (killed !== 0 || !m) return;
        killed = Number(m[1]);
        passesBefore = (err.match(/trace: stream 1 \(pid \d+\) pass /g) ?? []).length;
        process.kill(killed, 'SIGKILL');
      },
    });
    assert.equal(r.code, 3, r.stderr);
    assert.equal(passesBefore, 2);
    const a = onlyArchive(w);
    assert.equal(a.bras[0]?.etat, 'done');
    assert.equal(a.bras[1]?.etat, 'failed');
    // The K=2 arm kept the passes it finished before the kill, and not all 5.
    assert.ok((a.bras[1]?.enfants[1]?.passes.length ?? 99) < 5);
    assert.match(
      a.bras[1]?.erreur ?? '',
      new RegExp(`stream 1 \\(pid ${killed}\\) exited on signal SIGKILL .*run again`),
    );
    assert.match(r.stdout, /FAILED: round \d: stream 1 \(pid \d+\) exited on signal SIGKILL/);
    assertClean(w, r);
  });

  it('a child that never reaches the barrier: the arm times out naming it, exit 3', async () => {
    const w = workspace();
    const t0 = Date.now();
    const r = await runCli([...baseArgs(w, '1'), '--streams', '2', '--barrier-timeout', '2'], {
      fault: 'hang-before-barrier',
    });
    assert.equal(r.code, 3, r.stderr);
    assert.ok(Date.now() - t0 < 60_000);
    assert.match(
      onlyArchive(w).bras[0]?.erreur ?? '',
      // Passes count from 0 with the two warm-up passes: the first timed one is pass 2.
      /at the barrier of pass 2: no answer within 2 s from stream 0 \(pid \d+\); .*raise --barrier-timeout/,
    );
    assertClean(w, r);
  });

  it("onnxruntime throwing inside session.run during a pass: the arm fails with onnxruntime's message, exit 3", async () => {
    const w = workspace();
    const r = await runCli([...baseArgs(w, '1'), '--streams', '2'], { fault: 'throw-in-pass' });
    assert.equal(r.code, 3, r.stderr);
    // The faulty stream feeds ids beyond the voice's table: the model's Gather rejects them inside session.run.
    assert.match(
      onlyArchive(w).bras[0]?.erreur ?? '',
      /stream 0 failed during pass 2: onnxruntime failed while synthesizing with synthetic-siwis-medium \(.*(out of|bounds|range|idx).*\)/i,
    );
    assertClean(w, r);
  });

  it('a voice whose .onnx is corrupt: the arm fails saying to fetch or build it again, exit 3', async () => {
    const w = workspace();
    const voices = tempDir('corrupt');
    const config = JSON.parse(readFileSync(path.join(w.voices, 'synthetic-siwis-medium.onnx.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    delete config.synthetic;
    writeFileSync(path.join(voices, 'broken-medium.onnx.json'), JSON.stringify(config));
    writeFileSync(path.join(voices, 'broken-medium.onnx'), Buffer.from('this is not an onnx model'));
    const r = await runCli([
      '1',
      '--settle',
      '0',
      '--voice',
      'broken-medium',
      '--streams',
      '2',
      '--text-file',
      w.text,
      '--out-dir',
      w.out,
      '--voices-dir',
      voices,
    ]);
    assert.equal(r.code, 3, r.stderr);
    assert.match(
      onlyArchive(w).bras[0]?.erreur ?? '',
      /stream \d failed while loading the voice: .*broken-medium\.onnx: onnxruntime could not load it .*fetch or build the voice again/,
    );
    assertClean(w, r);
  });

  it("a write error after the archive's file is opened: exit 1, no temporary file left, the partial file keeps every arm", async () => {
    const w = workspace();
    const r = await runCli([...baseArgs(w, '1'), '--streams', '1'], { fault: 'archive-write' });
    assert.equal(r.code, 1);
    // The error came from writing into the opened temporary file (its first 100 bytes were written).
    assert.match(r.stderr, /could not write the archive in \S+ \(ENOSPC: no space left on device, write\)/);
    const m = /every finished arm is still in (\S+\.jsonl)/.exec(r.stderr);
    assert.ok(m, r.stderr);
    assert.equal(readFileSync(m[1]!, 'utf8').trim().split('\n').length, 2);
    assert.deepEqual(archives(w), []);
    assertClean(w, r);
  });

  it('affinity where fewer cores exist than streams: pinned round-robin, said in the cores column', async () => {
    const w = workspace();
    const r = await runCli([...baseArgs(w, '1'), '--streams', '3', '--affinity', 'on']);
    assert.ok(r.code === 0 || r.code === 3, r.stderr);
    const seen = onlyArchive(w).bras[0]?.affinites_vues ?? [];
    assert.deepEqual(
      seen.map((s) => s.length),
      [1, 1, 1],
    );
    assert.equal(seen[0]?.[0], seen[2]?.[0]);
    assertClean(w, r);
  });
});
