/** Try a sherpa-ready voice in a child process, and turn however that child ended into one line. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { PiperParallelError } from '../../core/errors.js';
import { ProbeResultSchema, type ProbeRequest, type ProbeResult } from './schema.js';

const ENTRY = fileURLToPath(new URL('./probe-entry.js', import.meta.url));

/** The last line sherpa-onnx wrote before ending, without its source-file prefix. */
function lastWords(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const last = lines[lines.length - 1] ?? '';
  // sherpa-onnx prefixes its messages with "/path/file.cc:Function:line ".
  return last.replace(/^\/\S+:\d+\s+/, '').slice(0, 200);
}

/** The most the parent keeps of the child's stdout: its one JSON line is a few hundred bytes. */
const MAX_STDOUT_CHARS = 64 * 1024;

/** The child's JSON line, checked; a line that is not JSON, or not the shape, is no answer (undefined). */
function answer(stdout: string): ReturnType<typeof ProbeResultSchema.safeParse> | undefined {
  const line = stdout.split('\n').find((l) => l.startsWith('{'));
  if (!line) return undefined;
  try {
    return ProbeResultSchema.safeParse(JSON.parse(line));
  } catch {
    return undefined;
  }
}

export interface ProbeOptions {
  timeoutMs?: number;
  /** The child's entry (tests give one that fails as sherpa-onnx does). */
  entry?: string;
}

export function probeSherpaVoice(request: ProbeRequest, options: ProbeOptions = {}): Promise<ProbeResult> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const name = request.voice.name;
  const fix = `delete ${request.voice.dir} to have it made anew, or use --engine onnxruntime`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [options.entry ?? ENTRY, JSON.stringify(request)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => {
      if (stdout.length < MAX_STDOUT_CHARS) stdout = (stdout + b.toString()).slice(0, MAX_STDOUT_CHARS);
    });
    child.stderr.on('data', (b: Buffer) => (stderr = (stderr + b.toString()).slice(-8000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(
        new PiperParallelError(
          'RUNTIME',
          `could not start a process to try voice ${name} in sherpa-onnx (${err.message})`,
          { cause: err },
        ),
      );
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      const parsed = answer(stdout);
      if (parsed?.success && parsed.data.ok) return resolve(parsed.data);
      if (parsed?.success && !parsed.data.ok)
        return reject(new PiperParallelError('VOICE_LOAD', `${parsed.data.message.replace(/\.$/, '')}`));
      const how =
        signal === 'SIGKILL' && stderr === ''
          ? `did not finish within ${Math.round(timeoutMs / 1000)} s`
          : signal
            ? `was ended by ${signal}`
            : `ended its process with exit code ${code}`;
      const said = lastWords(stderr);
      reject(
        new PiperParallelError(
          'VOICE_LOAD',
          `voice ${name}: sherpa-onnx ${how} while loading its sherpa-ready copy${said ? ` (it said: ${said})` : ''}; ${fix}`,
        ),
      );
    });
  });
}
