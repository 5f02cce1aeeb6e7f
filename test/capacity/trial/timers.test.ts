// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { machineStoppedMs, realTimers, type Wake } from '../../../lib/capacity/trial/timers.js';
import { monotonicMs } from '../../../lib/measure/clock.js';
import { readOwnTimes, type OwnTimes } from '../../../lib/measure/thread-cpu.js';

/** A wake that inverts delays: what is asked for later fires sooner, the worst order a runtime may give timers. */
const inverted: Wake = (fn, ms) => {
  const t = setTimeout(fn, Math.max(0, 25 - ms));
  return () => clearTimeout(t);
};

/** 30 events within 20 ms, set in a shuffled order, some at the same instant. */
function events(): Array<{ id: number; offsetMs: number }> {
  const list = Array.from({ length: 30 }, (_, id) => ({ id, offsetMs: Math.floor(id / 2) * 1.3 }));
  let x = 7;
  for (let i = list.length - 1; i > 0; i -= 1) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    const j = x % (i + 1);
    [list[i], list[j]] = [list[j] as (typeof list)[number], list[i] as (typeof list)[number]];
  }
  return list;
}

/** In time order, then in the order set: what the virtual clock does. */
function expectedOrder(list: Array<{ id: number; offsetMs: number }>): number[] {
  return list
    .map((e, setAt) => ({ ...e, setAt }))
    .sort((a, b) => a.offsetMs - b.offsetMs || a.setAt - b.setAt)
    .map((e) => e.id);
}

describe('the real clock of a capacity trial', () => {
  it('runs events in time order, then in the order set, whatever order its wake-ups come in; none early', async () => {
    const timers = realTimers(1, inverted);
    const list = events();
    const t0 = monotonicMs() + 2;
    const fired: number[] = [];
    let early = 0;
    await new Promise<void>((resolve) => {
      for (const e of list)
        timers.at(t0 + e.offsetMs, () => {
          if (monotonicMs() < t0 + e.offsetMs) early += 1;
          fired.push(e.id);
          if (fired.length === list.length) resolve();
        });
    });
    assert.deepEqual(fired, expectedOrder(list));
    assert.equal(early, 0);
  });

  it('a cancelled event never runs, and the ones after it still do', async () => {
    const timers = realTimers(1, inverted);
    const t0 = monotonicMs() + 2;
    const fired: string[] = [];
    await new Promise<void>((resolve) => {
      timers.at(t0, () => fired.push('a'));
      const cancel = timers.at(t0 + 3, () => fired.push('b'));
      timers.at(t0 + 6, () => {
        fired.push('c');
        resolve();
      });
      cancel();
    });
    assert.deepEqual(fired, ['a', 'c']);
  });

  it('cancelling the events leaves no wake-up pending, so nothing keeps the process alive', () => {
    let pending = 0;
    const counted: Wake = (fn, ms) => {
      pending += 1;
      const cancel = inverted(() => {
        pending -= 1;
        fn();
      }, ms);
      return () => {
        pending -= 1;
        cancel();
      };
    };
    const timers = realTimers(1, counted);
    const t0 = monotonicMs();
    const late = timers.at(t0 + 60_000, () => undefined);
    const later = timers.at(t0 + 120_000, () => undefined);
    late();
    assert.equal(pending, 1);
    later();
    assert.equal(pending, 0);
  });

  it('a timer per event, on the same wake-ups, runs them out of order (what the one armed timer prevents)', async () => {
    const list = events();
    const t0 = monotonicMs() + 2;
    const fired: number[] = [];
    await new Promise<void>((resolve) => {
      for (const e of list)
        inverted(
          () => {
            fired.push(e.id);
            if (fired.length === list.length) resolve();
          },
          Math.max(0, t0 + e.offsetMs - monotonicMs()),
        );
    });
    assert.notDeepEqual(fired, expectedOrder(list));
  });
});

describe("a late wake: the parent's or the machine's", () => {
  const own = (onCpuMs: number, waitingMs = 0, majorFaults = 0): OwnTimes => ({ onCpuMs, waitingMs, majorFaults });

  it("lateness its thread neither ran nor waited a core for, beyond the timer's 1 ms grain, is the machine stopped; the rest is the parent", () => {
    assert.equal(machineStoppedMs(40, own(100), own(102, 1)), 36);
    // Within the timer's grain: the timer's, not the machine's.
    assert.equal(machineStoppedMs(0.9, own(100), own(100)), 0);
    // The parent ran its own work for the whole lateness: none of it is the machine's.
    assert.equal(machineStoppedMs(40, own(100), own(145)), 0);
    // It waited for a core (the machine was busy, not stopped): the harness's, none left out.
    assert.equal(machineStoppedMs(40, own(100, 10), own(100, 50)), 0);
    // A major page fault is a wait on the disk, its own: nothing is left out.
    assert.equal(machineStoppedMs(40, own(100, 0, 3), own(100, 0, 4)), 0);
    // Unreadable times, or a wake on time: nothing.
    assert.equal(machineStoppedMs(40, null, own(100)), 0);
    assert.equal(machineStoppedMs(0, own(100), own(100)), 0);
  });

  it('the real clock gives a wake that came late with its thread idle to the events it runs, and only to them', async () => {
    // Wakes come 30 ms after they are asked for; the thread's times say it ran 4 ms meanwhile.
    const late: Wake = (fn, ms) => {
      const t = setTimeout(fn, ms + 30);
      return () => clearTimeout(t);
    };
    let cpuMs = 0;
    const timers = realTimers(1, late, () => own((cpuMs += 2)));
    const t0 = monotonicMs();
    const seen: number[] = [];
    let firedMs = 0;
    await new Promise<void>((resolve) => {
      timers.at(t0 + 5, () => seen.push(timers.stoppedMs()));
      timers.at(t0 + 5, () => {
        seen.push(timers.stoppedMs());
        firedMs = monotonicMs();
        resolve();
      });
    });
    // 30 ms after the wake asked for, 1 ms before the instant (the spin): 29 ms late, less the 2 ms the
    // reader says it ran and the 1 ms grain (setTimeout keeps whole ms: up to 1-2 ms less); never more
    // than the lateness past the instant.
    for (const s of seen) assert.ok(s >= 23 && s <= firedMs - (t0 + 5) - 3 + 0.5, `stopped ${s} ms`);
    assert.equal(seen[0], seen[1]);
    assert.equal(timers.stoppedMs(), 0);
  });

  it(
    "this thread's own times are read from /proc where it exists, and grow as it runs",
    { skip: process.platform !== 'linux' },
    () => {
      const a = readOwnTimes();
      assert.ok(a);
      // Spin until the thread has run 10 ms by its own times, up to 5 s of wall: a loaded machine (the
      // light suite runs files side by side on 2 cores) may give it far less than 20 ms of a 20 ms spin,
      // so the wall is only a bound; times that never grow fail at it.
      const until = monotonicMs() + 5000;
      let b = readOwnTimes();
      while (b && b.onCpuMs - a.onCpuMs < 10 && monotonicMs() < until) b = readOwnTimes();
      assert.ok(b);
      assert.ok(b.onCpuMs - a.onCpuMs >= 10, `${b.onCpuMs - a.onCpuMs} ms on CPU in 5 s of spinning`);
      assert.equal(
        readOwnTimes(() => 'not a schedstat'),
        null,
      );
      // A command name with a space and a parenthesis: fields are counted after the last ')'.
      const fake = (p: string): string =>
        p.endsWith('schedstat') ? '5000000 2000000 7' : '9 (a) b) S 1 9 9 0 -1 4194304 100 0 3 0 0';
      assert.deepEqual(readOwnTimes(fake), { onCpuMs: 5, waitingMs: 2, majorFaults: 3 });
    },
  );
});
