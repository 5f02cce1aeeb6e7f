// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { realTimers, type Wake } from '../../../lib/capacity/trial/timers.js';
import { monotonicMs } from '../../../lib/measure/clock.js';

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
