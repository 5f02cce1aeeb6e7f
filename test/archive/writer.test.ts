// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, readdirSync, readFileSync, readlinkSync, writeFileSync, chmodSync, mkdirSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { describe, it } from 'node:test';
import { archiveBaseName, checkWritable, writeExclusive, type ArchiveFiles } from '../../lib/archive/writer.js';
import { PartialLog, readPartialLines } from '../../lib/archive/partial.js';
import { writeOut } from '../../lib/cli/io/output.js';
import { tempDir } from '../helpers/paths.js';

describe('archive naming and writing', () => {
  it('names archives by UTC second', () => {
    assert.equal(archiveBaseName(new Date(Date.UTC(2026, 0, 2, 3, 4, 5))), 'piper-parallel-20260102-030405');
  });

  it('never overwrites: 20 concurrent writers in the same second get 20 files', async () => {
    const dir = tempDir('arch');
    const base = archiveBaseName(new Date(Date.UTC(2026, 0, 2, 3, 4, 5)));
    writeFileSync(path.join(dir, `${base}.json`), 'earlier run');
    const paths = await Promise.all(Array.from({ length: 20 }, (_, i) => writeExclusive(dir, base, `{"n":${i}}`)));
    assert.equal(new Set(paths).size, 20);
    assert.equal(readFileSync(path.join(dir, `${base}.json`), 'utf8'), 'earlier run');
    assert.equal(readdirSync(dir).length, 21);
    const contents = paths.map((p) => (JSON.parse(readFileSync(p, 'utf8')) as { n: number }).n).sort((a, b) => a - b);
    assert.deepEqual(
      contents,
      Array.from({ length: 20 }, (_, i) => i),
    );
  });

  it(
    'detects an unwritable output folder before measuring',
    { skip: process.getuid?.() === 0 && 'root writes anywhere; see the file-in-the-way case' },
    async () => {
      const dir = tempDir('ro');
      chmodSync(dir, 0o500);
      await assert.rejects(checkWritable(dir), /--out-dir .* is not writable/);
    },
  );

  it('detects an output path that is a file', async () => {
    const dir = tempDir('ro');
    const file = path.join(dir, 'afile');
    writeFileSync(file, 'x');
    await assert.rejects(checkWritable(path.join(file, 'sub')), /--out-dir .* is not writable/);
  });

  it('the partial log refuses an arm round it already holds, and takes the same arm in another round; each append reaches the disk', async () => {
    const dir = tempDir('partial');
    mkdirSync(dir, { recursive: true });
    const log = await PartialLog.create(dir, 'run', { x: 1 });
    const entry = { key: 'v|K2|T1|pinned|process', round: 1, order: 3, run: {} };
    // Every file handle's datasync and sync, counted: an append not forced to the disk is lost on a power cut.
    const probe = await open(log.file, 'r');
    const proto = Object.getPrototypeOf(probe) as { datasync: () => Promise<void>; sync: () => Promise<void> };
    await probe.close();
    const { datasync, sync } = proto;
    let synced = 0;
    proto.datasync = function (this: unknown) {
      synced += 1;
      return datasync.call(this);
    };
    proto.sync = function (this: unknown) {
      synced += 1;
      return sync.call(this);
    };
    try {
      await log.append(entry);
    } finally {
      Object.assign(proto, { datasync, sync });
    }
    assert.equal(synced, 1, 'the append was not synced');
    await assert.rejects(
      log.append(entry),
      /already holds arm v\|K2\|T1\|pinned\|process in round 1; refusing a duplicate/,
    );
    await log.append({ ...entry, round: 2 });
    const lines = readFileSync(log.file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { kind: string; round?: number });
    assert.deepEqual(
      lines.map((l) => [l.kind, l.round]),
      [
        ['header', undefined],
        ['round', 1],
        ['round', 2],
      ],
    );
  });

  it('on a file system without hard links the archive still lands, and still never overwrites', async () => {
    const dir = tempDir('nolink');
    const base = archiveBaseName(new Date(Date.UTC(2026, 0, 2, 3, 4, 5)));
    const links: string[] = [];
    // As FAT, exFAT or vboxsf answer link(2).
    const noLinks: ArchiveFiles = {
      open,
      link: async (_from, to) => {
        links.push(to);
        throw Object.assign(new Error('operation not permitted'), { code: 'EPERM' });
      },
    };
    await checkWritable(dir, '--out-dir', noLinks);
    writeFileSync(path.join(dir, `${base}.json`), 'earlier run');
    const paths = await Promise.all(
      Array.from({ length: 10 }, (_, i) => writeExclusive(dir, base, `{"n":${i}}`, '.json', noLinks)),
    );
    assert.ok(links.length >= 10, 'link was tried first');
    assert.equal(new Set(paths).size, 10);
    assert.equal(readFileSync(path.join(dir, `${base}.json`), 'utf8'), 'earlier run');
    const n = paths.map((p) => (JSON.parse(readFileSync(p, 'utf8')) as { n: number }).n).sort((a, b) => a - b);
    assert.deepEqual(
      n,
      Array.from({ length: 10 }, (_, i) => i),
    );
    // Nothing else is left: no temporary file, no empty claim.
    assert.equal(readdirSync(dir).length, 11);
  });

  it('a link refused for another reason is an error naming the file, and nothing is left', async () => {
    const dir = tempDir('linkfail');
    const broken: ArchiveFiles = {
      open,
      link: async () => {
        throw Object.assign(new Error('input/output error'), { code: 'EIO' });
      },
    };
    await assert.rejects(
      writeExclusive(dir, 'x', '{}', '.json', broken),
      /could not create .*x\.json \(input\/output error\)/,
    );
    assert.deepEqual(readdirSync(dir), []);
    await assert.rejects(
      checkWritable(dir, '--out-dir', broken),
      /--out-dir .* is not writable \(input\/output error\)/,
    );
    assert.deepEqual(readdirSync(dir), []);
  });

  it('resume after a crash mid-line: the cut-off fragment is removed, so the next line is whole JSON', async () => {
    const dir = tempDir('partial-cut');
    const log = await PartialLog.create(dir, 'run', { x: 1 });
    await log.append({ key: 'a', round: 1, order: 1, run: {} });
    // A crash while the second line was written: a fragment with no newline, and the dead run's lock.
    appendFileSync(log.file, '{"kind":"round","key":"b","rou');
    log.unlock();
    writeFileSync(`${log.file}.lock`, '999999');
    const again = await PartialLog.reopen(log.file, ['a#1']);
    await again.append({ key: 'b', round: 1, order: 2, run: {} });
    const lines = await readPartialLines(log.file);
    assert.deepEqual(
      lines.map((l) => (l as { key?: string }).key ?? 'header'),
      ['header', 'a', 'b'],
    );
  });

  it('a partial file another live run is writing is refused; one whose run is gone is taken over', async () => {
    const dir = tempDir('partial-lock');
    const log = await PartialLog.create(dir, 'run', { x: 1 });
    log.unlock();
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    try {
      writeFileSync(`${log.file}.lock`, String(other.pid));
      await assert.rejects(
        PartialLog.reopen(log.file, []),
        new RegExp(`is being written by another piper-parallel run \\(pid ${other.pid}\\); wait for it to end`),
      );
    } finally {
      other.kill('SIGKILL');
      await once(other, 'exit');
    }
    // Its process is gone now: the lock is stale and taken over.
    const again = await PartialLog.reopen(log.file, []);
    assert.equal(readFileSync(`${log.file}.lock`, 'utf8'), String(process.pid));
    await again.remove();
    assert.deepEqual(readdirSync(path.join(dir, '.partial')), []);
  });

  it('an archive is synced, then its folder: a power cut right after publishing keeps the name', async () => {
    const dir = tempDir('sync-folder');
    const probe = await open(path.join(dir, 'probe'), 'w');
    const proto = Object.getPrototypeOf(probe) as { sync: () => Promise<void> };
    await probe.close();
    const { sync } = proto;
    const synced: string[] = [];
    proto.sync = async function (this: { fd: number }) {
      // What the handle is: the folder or a file.
      synced.push(readlinkSync(`/proc/self/fd/${this.fd}`));
      return sync.call(this);
    };
    try {
      await writeExclusive(dir, 'capacity-x', '{}\n');
    } finally {
      proto.sync = sync;
    }
    assert.deepEqual(
      synced.map((f) => (f === dir ? 'folder' : 'file')),
      ['file', 'folder'],
    );
  });

  it('--out is replaced whole: written beside it, renamed over it; a failure keeps the earlier file', async () => {
    const dir = tempDir('out');
    const file = path.join(dir, 'report.html');
    writeFileSync(file, 'earlier');
    await writeOut(file, 'new page');
    assert.equal(readFileSync(file, 'utf8'), 'new page');
    assert.deepEqual(readdirSync(dir), ['report.html']);
    await assert.rejects(
      writeOut(path.join(dir, 'no-such-dir', 'x.html'), 'x'),
      /--out .*x\.html cannot be written \(ENOENT\)/,
    );
    assert.deepEqual(readdirSync(dir), ['report.html']);
  });

  it('--out never replaces what the command read, an archive, or what is not a plain file: one line, bytes unchanged', async () => {
    const dir = tempDir('out-refused');
    const archive = path.join(dir, 'capacity-20261205-070251.json');
    writeFileSync(archive, '\n  {"type": "capacite"}');
    const input = path.join(dir, 'notes.md');
    writeFileSync(input, '# read by the command');
    await assert.rejects(
      writeOut(archive, 'page'),
      /--out .*070251\.json is a JSON file \(an archive\?\), which --out never replaces; name a new file/,
    );
    await assert.rejects(writeOut(input, 'page', [archive, input]), /--out .*notes\.md is what this command reads/);
    await assert.rejects(writeOut(dir, 'page'), /--out .* is not a plain file/);
    assert.equal(readFileSync(archive, 'utf8'), '\n  {"type": "capacite"}');
    assert.equal(readFileSync(input, 'utf8'), '# read by the command');
    assert.deepEqual(readdirSync(dir).sort(), ['capacity-20261205-070251.json', 'notes.md']);
    // A page written before is replaced, as a report asked again should be.
    await writeOut(input, 'page', [archive]);
    assert.equal(readFileSync(input, 'utf8'), 'page');
  });
});
