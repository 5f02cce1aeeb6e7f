import assert from 'node:assert/strict';
import { execSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BIN, sharedVoicesDir, tempDir } from '../helpers/paths.js';

export interface CliRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  pid: number;
}

export interface CliOptions {
  env?: Record<string, string>;
  /** Called on every chunk of stdout with the child process, e.g. to send it a signal. */
  onStdout?: (all: string, pid: number) => void;
  /** The same for stderr, where the traced command line reports every stream message. */
  onStderr?: (all: string, pid: number) => void;
  /**
   * Run the command line with the fault suite's adapters (test/fixtures/fault-cli.ts): a fault for
   * stream 0 or the archive write, and/or `trace: ...` lines on stderr for every stream message.
   */
  fault?: 'throw-in-pass' | 'hang-before-barrier' | 'exit-in-pass' | 'archive-write';
  trace?: boolean;
  timeoutMs?: number;
}

const FAULT_CLI = fileURLToPath(new URL('../fixtures/fault-cli.js', import.meta.url));

/** Run the real command line; never hangs (SIGKILL at the timeout, reported as a failure). */
export function runCli(args: string[], o: CliOptions = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    const injected = o.fault !== undefined || o.trace === true;
    const env = {
      ...process.env,
      ...o.env,
      ...(o.fault ? { PIPER_PARALLEL_TEST_FAULT: o.fault } : {}),
      ...(o.trace ? { PIPER_PARALLEL_TEST_TRACE: '1' } : {}),
    };
    const child = spawn(process.execPath, [injected ? FAULT_CLI : BIN, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      o.onStdout?.(stdout, child.pid as number);
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      o.onStderr?.(stderr, child.pid as number);
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), o.timeoutMs ?? 180_000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, pid: child.pid as number });
    });
  });
}

/** A folder with a short text, an output folder holding an earlier archive, and the shared voices. */
export function workspace(): { dir: string; text: string; out: string; voices: string; earlier: string } {
  const dir = tempDir('fault');
  const text = path.join(dir, 'short.txt');
  writeFileSync(text, 'Bonjour tout le monde.\n');
  const out = path.join(dir, 'm');
  execSync(`mkdir -p ${out}`);
  const earlier = path.join(out, 'piper-parallel-20000101-000000.json');
  writeFileSync(earlier, '{"earlier": "run"}\n');
  return { dir, text, out, voices: sharedVoicesDir(), earlier };
}

/** The common run arguments of the suite: synthetic voice, short text, no settling. */
export function baseArgs(w: ReturnType<typeof workspace>, passes = '2'): string[] {
  return [
    passes,
    '--settle',
    '0',
    '--voice',
    'synthetic-siwis-medium',
    '--text-file',
    w.text,
    '--out-dir',
    w.out,
    '--voices-dir',
    w.voices,
  ];
}

/**
 * Every process this test file starts (the command line, and its streams after it) carries this
 * variable, so the stream processes it left behind are told from another test file's running
 * beside it (test/helpers/suite.ts), even once an orphan's parent is gone.
 */
const OWNER = 'PIPER_PARALLEL_TEST_OWNER';
process.env[OWNER] = String(process.pid);

function startedHere(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`${OWNER}=${process.pid}`);
  } catch {
    // Gone between the listing and the read: not left behind.
    return false;
  }
}

/** Worker processes of this test file still alive (a throughput stream or a capacity worker); with `parent`, that process's children. */
export function streamPids(parent?: number): number[] {
  const cmd =
    parent === undefined
      ? "pgrep -f '[w]orker/(process-stream|capacity-process)[.]js' || true"
      : `pgrep -P ${parent} || true`;
  const pids = execSync(cmd, { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
  return parent === undefined ? pids.filter(startedHere) : pids;
}

/** What every fault case asserts besides its exit code. */
export function assertClean(w: ReturnType<typeof workspace>, r: CliRun): void {
  assert.deepEqual(streamPids(), [], 'stream processes left behind');
  assert.equal(readFileSync(w.earlier, 'utf8'), '{"earlier": "run"}\n', 'an earlier archive was overwritten');
  assert.deepEqual(
    readdirSync(w.out).filter((f) => f.endsWith('.tmp')),
    [],
    'a temporary archive was left',
  );
  const errLines = r.stderr.split('\n').filter((l) => l.startsWith('piper-parallel:'));
  assert.ok(errLines.length <= 1, `more than one error line: ${r.stderr}`);
}

export function archives(w: ReturnType<typeof workspace>): string[] {
  return readdirSync(w.out)
    .filter((f) => f.endsWith('.json') && f !== path.basename(w.earlier))
    .map((f) => path.join(w.out, f));
}

export function partialArms(w: ReturnType<typeof workspace>): number[] {
  const dir = path.join(w.out, '.partial');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jsonl'))
    .map((f) => readFileSync(path.join(dir, f), 'utf8').trim().split('\n').length - 1);
}
