/**
 * A speech server on virtual time, for the capacity sweep: it synthesizes `slots` sentences at once
 * (1: one global lock, as wyoming-piper's), each at `speed` x real time, in the order they were asked
 * for, every sentence `audioSeconds` long. Its capacity can be worked out by hand.
 */
import type { OpenReply, ServerLink, SynthesisReply } from '../../lib/server/contract/session.js';
import type { Timers } from '../../lib/capacity/trial/timers.js';

export interface FakeServerSpec {
  speed: number;
  slots: number;
  audioSeconds: number;
  /** From this sentence on (counting every session's), the format changes (a broken server). */
  formatChangesAt?: number;
  /** From this sentence on, nothing is answered and every session fails (the server died). */
  diesAt?: number;
}

export class FakeServer {
  private busy = 0;
  private served = 0;
  private readonly queue: Array<(r: SynthesisReply) => void> = [];
  readonly asked: number[] = [];

  constructor(
    private readonly timers: Timers,
    private readonly spec: FakeServerSpec,
  ) {}

  link(): ServerLink {
    return {
      open: (reply: (r: OpenReply) => void) => {
        reply({
          state: 'open',
          session: {
            synthesize: (_text, r) => {
              this.asked.push(this.timers.now());
              this.queue.push(r);
              this.pump();
            },
            close: () => undefined,
          },
        });
        return () => undefined;
      },
    };
  }

  private pump(): void {
    while (this.busy < this.spec.slots && this.queue.length > 0) {
      const reply = this.queue.shift() as (r: SynthesisReply) => void;
      const n = this.served++;
      if (this.spec.diesAt !== undefined && n >= this.spec.diesAt) {
        reply({ state: 'failed', message: 'the server closed the connection' });
        continue;
      }
      this.busy += 1;
      const ms = (1000 * this.spec.audioSeconds) / this.spec.speed;
      const rate = this.spec.formatChangesAt !== undefined && n >= this.spec.formatChangesAt ? 22050 : 16000;
      this.timers.at(this.timers.now() + ms, () => {
        this.busy -= 1;
        reply({
          state: 'done',
          endMs: this.timers.now(),
          audioSeconds: this.spec.audioSeconds,
          format: { rate, width: 2, channels: 1 },
        });
        this.pump();
      });
    }
  }
}
