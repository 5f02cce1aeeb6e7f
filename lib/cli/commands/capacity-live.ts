/**
 * Capacity's live line on a terminal, as the throughput run has: the trial under way, the round,
 * the time gone and about how much is left, redrawn in place; cleared before any other line.
 */
import { formatDuration } from '../../throughput/report/progress.js';
import { stripControl } from '../../report/markdown.js';
import type { CapacityProgress } from '../../capacity/setup/options.js';

const CLEAR = '\r\x1b[2K';

export class CapacityLiveLine {
  private shown = false;
  private plannedSeconds: number | null = null;
  private readonly startedMs: number;

  constructor(
    private readonly write: (raw: string) => void,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.startedMs = now();
  }

  /** Whatever the event is, the line after it (drawn for a trial that starts). */
  handle(e: CapacityProgress): void {
    if (e.kind === 'plan') this.plannedSeconds = e.seconds;
    if (e.kind !== 'trial-start') return;
    const gone = (this.now() - this.startedMs) / 1000;
    const left =
      this.plannedSeconds === null
        ? 'time left not known yet'
        : `about ${formatDuration(Math.max(0, this.plannedSeconds - gone))} left`;
    const what = e.purpose === 'premier_son' ? 'first audio' : e.purpose === 'reference' ? 'reference' : 'whole';
    // Written raw (it erases the line it redraws): a voice's name, a file's, is stripped of control codes first.
    this.write(
      `${CLEAR}trial ${e.index} (round ${e.round}): ${stripControl(e.voice)}, ${stripControl(e.layout)}, K=${e.k} ${what}; ` +
        `elapsed ${formatDuration(gone)}, ${left}`,
    );
    this.shown = true;
  }

  /** Before a line of its own is printed. */
  clear(): void {
    if (!this.shown) return;
    this.write(CLEAR);
    this.shown = false;
  }
}
