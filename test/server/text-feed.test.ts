// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { feedInOrder, type FeedClock } from '../../lib/server/wyoming/text-feed.js';

/**
 * A clock whose pending timers fire latest-due first, as Node 24 was seen to fire two of them: the worst a runtime
 * may do. Time moves only when a timer fires, to the moment it was due (or stays, if that has passed).
 */
function adversarialClock(): FeedClock & { run: () => void } {
  let nowMs = 0;
  const pending: Array<{ dueMs: number; fn: () => void; live: boolean }> = [];
  return {
    elapsedMs: () => nowMs,
    after: (ms, fn) => {
      const t = { dueMs: nowMs + ms, fn, live: true };
      pending.push(t);
      return () => {
        t.live = false;
      };
    },
    run: () => {
      for (;;) {
        const live = pending.filter((t) => t.live);
        if (live.length === 0) return;
        // Whatever is pending, the one due last goes first.
        const t = live.reduce((a, b) => (b.dueMs > a.dueMs ? b : a));
        t.live = false;
        nowMs = Math.max(nowMs, t.dueMs);
        t.fn();
      }
    },
  };
}

const words = ['Non. ', 'Merci. ', '... ', 'à ', 'bientôt. ', '3 ', 'pommes, ', "s'il ", 'vous ', 'plaît. '];
const paced = words.map((item, i) => ({ atMs: 2.25 * (i + 1), item }));

describe('streamed text fed at a pace', () => {
  it('goes in the order written, even where the runtime fires later timers first; none before its time', () => {
    const clock = adversarialClock();
    const sent: Array<{ item: string; atMs: number }> = [];
    feedInOrder(paced, (item) => sent.push({ item, atMs: clock.elapsedMs() }), clock);
    clock.run();
    assert.deepEqual(
      sent.map((s) => s.item),
      words,
    );
    for (const [i, s] of sent.entries()) assert.ok(s.atMs >= (paced[i]?.atMs ?? 0), `${s.item} at ${s.atMs} ms`);
  });

  it('a timer per piece on the same clock sends them out of order (what the feed is there to prevent)', () => {
    const clock = adversarialClock();
    const sent: string[] = [];
    for (const p of paced) clock.after(p.atMs, () => sent.push(p.item));
    clock.run();
    assert.notDeepEqual(sent, words);
  });

  it('what is due at once goes at once, in order; a cancel stops what has not gone', () => {
    const clock = adversarialClock();
    const sent: string[] = [];
    const cancel = feedInOrder(
      [
        { atMs: 0, item: 'a' },
        { atMs: 0, item: 'b' },
        { atMs: 5, item: 'c' },
        { atMs: 9, item: 'd' },
      ],
      (item) => {
        sent.push(item);
        if (item === 'c') cancel();
      },
      clock,
    );
    assert.deepEqual(sent, ['a', 'b']);
    clock.run();
    assert.deepEqual(sent, ['a', 'b', 'c']);
  });
});
