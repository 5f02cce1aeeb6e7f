import { stripControl } from '../../report/markdown.js';
import type { Progress } from '../run/run-arms.js';

export interface ProgressOptions {
  /** A terminal gets one live line, redrawn in place; anything else one plain line per arm. */
  tty: boolean;
  write: (text: string) => void;
  now?: () => number;
}

/** `75 s`, `2m05s`, `1h02m`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/**
 * Live progress of a run on stderr: arm i of N (an arm in one round; N counts every arm of every
 * round), the round, pass j of P, elapsed and estimated time left. The estimate is the time per pass
 * measured so far (loading included) times the passes left; arm rounds carried over by --resume are
 * not counted as left, nor as time spent.
 */
export class ProgressReporter {
  private readonly now: () => number;
  private startedMs: number | undefined;
  private measuredPasses = 0;
  private passesPerArm: number | undefined;
  private arm = 0;
  private arms = 0;
  private round = '';
  private current = false;
  private pass = 0;
  private shown = false;
  private open = '';

  constructor(private readonly options: ProgressOptions) {
    this.now = options.now ?? (() => performance.now());
  }

  handle(e: Progress): void {
    if (e.kind === 'arm-start') {
      this.startedMs ??= this.now();
      this.arm = e.index;
      this.arms = e.total;
      this.round = e.rounds > 1 ? ` (round ${e.round}/${e.rounds})` : '';
      this.current = true;
      this.pass = 0;
      if (this.options.tty) this.draw();
    } else if (e.kind === 'pass') {
      this.passesPerArm = e.passes;
      this.pass = e.pass;
      this.measuredPasses += 1;
      if (this.options.tty) this.draw();
    } else if (e.kind === 'look') {
      this.open = e.open.length > 0 ? `; ${e.open.length} question(s) open` : '';
    } else if (e.kind === 'round-arm-end') {
      this.arms = e.total;
      this.current = false;
      if (!this.options.tty) this.options.write(`${this.armLabel(e.index)} done; ${this.timing()}\n`);
    }
  }

  /** Remove the live line (before other output, and at the end). */
  clear(): void {
    if (this.options.tty && this.shown) this.options.write('\r\x1b[2K');
    this.shown = false;
  }

  /** Seconds left, or undefined before the first pass. */
  secondsLeft(): number | undefined {
    if (this.startedMs === undefined || this.measuredPasses === 0 || this.passesPerArm === undefined) return undefined;
    const perPass = (this.now() - this.startedMs) / 1000 / this.measuredPasses;
    const inCurrent = this.current ? this.passesPerArm - this.pass : 0;
    const left = (this.arms - this.arm) * this.passesPerArm + inCurrent;
    return Math.max(0, left) * perPass;
  }

  private armLabel(index: number): string {
    return `arm ${index}/${this.arms}${this.round}`;
  }

  private timing(): string {
    const elapsed = this.startedMs === undefined ? 0 : (this.now() - this.startedMs) / 1000;
    const left = this.secondsLeft();
    return `elapsed ${formatDuration(elapsed)}, ${left === undefined ? 'time left not known yet' : `about ${formatDuration(left)} left`}`;
  }

  private draw(): void {
    const pass =
      this.passesPerArm === undefined || this.pass === 0 ? 'loading' : `pass ${this.pass}/${this.passesPerArm}`;
    this.options.write(`\r\x1b[2K${this.armLabel(this.arm)}, ${pass}${this.open}; ${this.timing()}`);
    this.shown = true;
  }
}

/**
 * Colour as Node decides it for a stream: FORCE_COLOR first (0 or false: none; anything else: colour, even
 * piped), then a terminal's own `hasColors()` (NO_COLOR, NODE_DISABLE_COLORS, TERM=dumb); never on a pipe.
 */
export function colorEnabled(
  stream: { isTTY?: boolean; hasColors?: (env?: object) => boolean },
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force !== 'false';
  if (stream.isTTY !== true) return false;
  // no-color.org: an empty NO_COLOR is unset (Node's own check counts it as set).
  const { NO_COLOR: noColor, ...rest } = env;
  if (stream.hasColors) return stream.hasColors(noColor === '' ? rest : env);
  return (env.NO_COLOR === undefined || env.NO_COLOR === '') && env.TERM !== 'dumb';
}

/** OK in green, FAILED / TIMED-OUT in red, NOISY in yellow; whatever control characters the line held, removed first. */
export function paintStatus(line: string): string {
  return (
    stripControl(line)
      // The status opens the arm line's last column (columns are two spaces apart).
      .replace(/(^| {2})OK\b/, '$1\x1b[32mOK\x1b[0m')
      .replace(/\b(FAILED|TIMED-OUT|ABORTED)\b/g, '\x1b[31m$1\x1b[0m')
      .replace(/\bNOISY\b/g, '\x1b[33mNOISY\x1b[0m')
  );
}
