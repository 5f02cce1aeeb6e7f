// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { chmodSync, chownSync, mkdirSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it } from 'node:test';
import { PartialLog, takeOver } from '../../lib/archive/partial.js';
import { tempDir } from '../helpers/paths.js';

describe('the partial file in a shared or damaged folder', () => {
  it('a whole last line that only lost its newline is kept and ended, not cut', async () => {
    const dir = tempDir('partial');
    const file = path.join(dir, 'run.jsonl');
    writeFileSync(file, '{"kind":"header"}\n{"kind":"round","key":"a","round":1}');
    const log = await PartialLog.reopen(file, []);
    assert.equal(readFileSync(file, 'utf8'), '{"kind":"header"}\n{"kind":"round","key":"a","round":1}\n');
    await log.append({ key: 'b', round: 1, order: 2, run: {} });
    assert.equal(readFileSync(file, 'utf8').split('\n').filter(Boolean).length, 3);
    await log.remove();
    // A line cut in the middle is still removed.
    writeFileSync(file, '{"kind":"header"}\n{"kind":"rou');
    const again = await PartialLog.reopen(file, []);
    assert.equal(readFileSync(file, 'utf8'), '{"kind":"header"}\n');
    await again.remove();
  });

  it("taking over a dead run's lock never removes the lock another run took first", async () => {
    const dir = tempDir('partial-lock');
    const file = path.join(dir, 'run.jsonl');
    // This run read the dead holder 999999; meanwhile a live run (this test's parent, say) took the lock over.
    writeFileSync(`${file}.lock`, String(process.ppid));
    await assert.rejects(takeOver(file, '999999'), /is being written by another piper-parallel run/);
    assert.equal(readFileSync(`${file}.lock`, 'utf8'), String(process.ppid));
    // The dead holder's lock itself is taken away.
    writeFileSync(`${file}.lock`, '999999');
    await takeOver(file, '999999');
    assert.throws(() => readFileSync(`${file}.lock`), /ENOENT/);
    // So is a lock left empty or garbled (a crash while it was made): a resume is not refused for ever.
    writeFileSync(file, '{"kind":"header"}\n');
    writeFileSync(`${file}.lock`, '');
    const log = await PartialLog.reopen(file, []);
    assert.equal(readFileSync(`${file}.lock`, 'utf8'), String(process.pid));
    await log.remove();
  });

  it('a .partial folder anyone can write to, or of another user, is refused; a link is never written through', async () => {
    const open = path.join(tempDir('partial-open'), 'm');
    mkdirSync(path.join(open, '.partial'), { recursive: true });
    chmodSync(path.join(open, '.partial'), 0o777);
    await assert.rejects(
      PartialLog.create(open, 'run', {}),
      /\.partial can be written by any user: .*give another --out-dir/,
    );
    if (process.getuid?.() === 0) {
      const theirs = path.join(tempDir('partial-theirs'), 'm');
      mkdirSync(path.join(theirs, '.partial'), { recursive: true, mode: 0o755 });
      chownSync(path.join(theirs, '.partial'), 12345, 12345);
      await assert.rejects(PartialLog.create(theirs, 'run', {}), /belongs to another user \(uid 12345\)/);
    }
    const mine = path.join(tempDir('partial-mine'), 'm');
    const log = await PartialLog.create(mine, 'run', {});
    const elsewhere = path.join(tempDir('partial-target'), 'victim.txt');
    writeFileSync(elsewhere, 'keep me\n');
    unlinkSync(log.file);
    symlinkSync(elsewhere, log.file);
    await assert.rejects(log.append({ key: 'a', round: 1, order: 1, run: {} }), /ELOOP/);
    assert.equal(readFileSync(elsewhere, 'utf8'), 'keep me\n');
    await log.remove();
  });
});

describe('the lock of a partial file', () => {
  it('a lock still empty (made without hard links, its pid not yet written) is read again, not taken over', async () => {
    const file = path.join(tempDir('partial-empty-lock'), 'run.jsonl');
    writeFileSync(file, '{"kind":"header"}\n');
    writeFileSync(`${file}.lock`, '');
    // The other run writes its pid a moment later, as an exclusive create then a write does.
    setTimeout(() => writeFileSync(`${file}.lock`, String(process.ppid)), 100);
    await assert.rejects(PartialLog.reopen(file, []), /is being written by another piper-parallel run \(pid \d+\)/);
    assert.equal(readFileSync(`${file}.lock`, 'utf8'), String(process.ppid));
  });

  it('a run lets go only of a lock it still holds; one file is never written twice by one process', async () => {
    const file = path.join(tempDir('partial-release'), 'run.jsonl');
    writeFileSync(file, '{"kind":"header"}\n');
    const log = await PartialLog.reopen(file, []);
    await assert.rejects(PartialLog.reopen(file, []), /is already being written by this process/);
    // Another run took the lock over (this one was thought dead): letting go leaves that run's lock alone.
    writeFileSync(`${file}.lock`, String(process.ppid));
    log.unlock();
    assert.equal(readFileSync(`${file}.lock`, 'utf8'), String(process.ppid));
  });

  it('--resume of a link, or of a file in a folder anyone can write to, is refused before anything is repaired', async () => {
    const dir = tempDir('partial-resume-link');
    const target = path.join(dir, 'victim.txt');
    writeFileSync(target, 'keep me');
    const link = path.join(dir, 'run.jsonl');
    symlinkSync(target, link);
    await assert.rejects(PartialLog.reopen(link, []), /--resume .*run\.jsonl is a link; give the partial file itself/);
    assert.equal(readFileSync(target, 'utf8'), 'keep me');
    const open = tempDir('partial-resume-open');
    chmodSync(open, 0o777);
    writeFileSync(path.join(open, 'run.jsonl'), '{"kind":"header"}\n{"kind":"rou');
    await assert.rejects(PartialLog.reopen(path.join(open, 'run.jsonl'), []), /can be written by any user/);
    assert.equal(readFileSync(path.join(open, 'run.jsonl'), 'utf8'), '{"kind":"header"}\n{"kind":"rou');
  });
});

describe('what a killed run leaves', () => {
  it("a dead run's temporary archive and partial lock are swept by the next run; a live run's are kept", async () => {
    const { writeExclusive } = await import('../../lib/archive/writer.js');
    const { existsSync } = await import('node:fs');
    const dir = path.join(tempDir('sweep'), 'm');
    mkdirSync(path.join(dir, '.partial'), { recursive: true, mode: 0o755 });
    const dead = path.join(dir, '.capacity-x.999999.0f0e0d0c-0b0a-4908-8706-050403020100.tmp');
    const live = path.join(dir, `.capacity-x.${process.ppid}.0f0e0d0c-0b0a-4908-8706-050403020101.tmp`);
    writeFileSync(dead, 'half');
    writeFileSync(live, 'half');
    await writeExclusive(dir, 'capacity-y', '{}\n');
    assert.equal(existsSync(dead), false, 'the dead run left its temporary archive');
    assert.equal(existsSync(live), true, "a live run's temporary archive was removed");
    // The folder probe's files, a page's temporary file (--out), and a lock being made or taken over, all of a dead run.
    const uuid = '0f0e0d0c-0b0a-4908-8706-050403020102';
    const leftovers = [
      path.join(dir, `.write-test-999999-${uuid}`),
      path.join(dir, `.write-test-999999-${uuid}.tmp`),
      path.join(dir, `.summary.html.999999.${uuid}.tmp`),
    ];
    for (const f of leftovers) writeFileSync(f, '');
    await writeExclusive(dir, 'capacity-z', '{}\n');
    for (const f of leftovers) assert.equal(existsSync(f), false, `${path.basename(f)} was left`);
    const lock = path.join(dir, '.partial', 'old.jsonl.lock');
    writeFileSync(lock, '999999');
    const making = [`${lock}.999999.new`, `${lock}.999999.stale`, `${lock}.${process.ppid}.new`];
    for (const f of making) writeFileSync(f, '999999');
    const log = await PartialLog.create(dir, 'run', {});
    assert.equal(existsSync(lock), false, 'a dead run left its lock');
    assert.deepEqual(
      making.map((f) => existsSync(f)),
      [false, false, true],
      "a dead run's lock in the making is swept, a live run's kept",
    );
    await log.remove();
  });
});

describe('a resume takes the lock before it reads', () => {
  it('a file another live run writes is refused first, before its header is acted on (here, a voice that is not there)', async () => {
    const { runCapacity } = await import('../../lib/capacity/run/run-capacity.js');
    const dir = path.join(tempDir('resume-lock'), 'm', '.partial');
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    const capacity = path.join(dir, 'capacity-x.jsonl');
    const header = {
      kind: 'capacity',
      base: 'capacity-x',
      date_utc: '2026-12-03T00:00:00.000Z',
      voices: ['no-such-voice'],
      text: { source: 'x', lines: ['Oui.'] },
      arrivals: 'together',
      schedule: 'deadline',
      firstAudioMs: 500,
      maxStreams: 2,
      rounds: 3,
      prebuffersMs: [0],
      maxMinutes: 7.5,
      seed: 1,
      label: null,
      layouts: [{ workers: 'K', threads: 1, pinned: false, isolation: 'process' }],
      command: 'x',
    };
    writeFileSync(capacity, `${JSON.stringify({ kind: 'header', header })}\n`);
    // The holder is alive (this test's parent): a resume that planned first would fail on the voice instead.
    writeFileSync(`${capacity}.lock`, String(process.ppid));
    await assert.rejects(
      runCapacity({ resume: capacity, settleSeconds: 0 }),
      /is being written by another piper-parallel run/,
    );
  });
});
