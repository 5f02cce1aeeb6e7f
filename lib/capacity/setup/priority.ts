/**
 * The parent stands for the arriving listeners, so it must keep their time while every core is
 * busy synthesizing. Measured here with 20 busy worker processes at nice 10 on 2 cores: a timer
 * that woke 5 ms early and spun was still up to 15 ms late (the kernel let the workers finish their
 * slice); with the parent under SCHED_FIFO, 0.03 ms at worst. So, where the OS allows it (root,
 * CAP_SYS_NICE or an RLIMIT_RTPRIO), the parent runs SCHED_FIFO for the run, with reset-on-fork so
 * no worker inherits it, and gets its old policy back after; elsewhere the workers' nice value is
 * all there is, and the arrivals control says whether it was enough.
 */
import { execFileSync } from 'node:child_process';

export interface ParentPriority {
  /** 'realtime': SCHED_FIFO for the run; 'normal': not permitted here (or no util-linux chrt). */
  kind: 'realtime' | 'normal';
  why: string;
  /** Said on the terminal when SCHED_FIFO was refused: what it risks, and how to permit it. */
  note?: string;
  restore(): void;
}

/** util-linux chrt, where it is. */
function chrt(args: string[]): void {
  execFileSync('chrt', args, { stdio: 'ignore', timeout: 5000 });
}

export function raiseParentPriority(pid = process.pid): ParentPriority {
  try {
    chrt(['-f', '-R', '-p', '10', String(pid)]);
    return {
      kind: 'realtime',
      why: 'the parent ran SCHED_FIFO 10 (reset on fork) while it stood for the listeners',
      restore: () => {
        try {
          chrt(['-o', '-p', '0', String(pid)]);
        } catch {
          // Already gone, or chrt vanished: nothing more to undo.
        }
      },
    };
  } catch (err) {
    const reason = (err as Error).message.split('\n')[0];
    return {
      kind: 'normal',
      why: `the parent kept its normal priority (${reason}); workers at nice 10 only`,
      // A container without CAP_SYS_NICE (Docker's default) lands here. At normal priority a wake was seen
      // here up to 15 ms late under load: trials fail the arrivals control, and a K is given up after three tries.
      note:
        `the parent could not run SCHED_FIFO (${reason}): on a busy machine a listener may arrive late and fail ` +
        'the arrivals control; run as root, or in a container with CAP_SYS_NICE (docker run --cap-add SYS_NICE)',
      restore: () => undefined,
    };
  }
}
