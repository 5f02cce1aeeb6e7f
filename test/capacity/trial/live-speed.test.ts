// light test file: asserts no timing and no control, looks at no other process; test/helpers/suite.ts runs it beside another
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deliveredSpeed } from '../../../lib/capacity/trial/live-speed.js';
import type { JobRecord } from '../../../lib/capacity/trial/trial.js';

const job = (o: Partial<JobRecord>): JobRecord => ({
  stream: 0,
  sentence: 0,
  worker: 0,
  dispatchMs: 0,
  startMs: 0,
  endMs: 0,
  audioSeconds: 0,
  ...o,
});

describe("a server's live speed, counted by delivery", () => {
  it("a streamed reply's pairs are each a delivery of their speech; the silence the server added is not speech", () => {
    // One stream: pairs at 1, 2 and 3 s, of 1.2 s (0.2 s of it added silence), 1.2 s (0.2 s) and 1.0 s. After the first
    // delivery, 1.0 + 1.0 s of speech came in 2 s: x1.00 (x1.10 if the silence counted).
    const stream = job({
      endMs: 3000,
      audioSeconds: 3.4,
      pairs: [
        { endMs: 1000, audioSeconds: 1.2, silenceSeconds: 0.2 },
        { endMs: 2000, audioSeconds: 1.2, silenceSeconds: 0.2 },
        { endMs: 3000, audioSeconds: 1.0, silenceSeconds: 0 },
      ],
    });
    const s = deliveredSpeed([stream], [0], 1);
    assert.equal(s.speed?.toFixed(3), '1.000');
    assert.equal(s.spanMs, 2000);
    // Sentences asked one at a time (no pairs): each job its own delivery, as before.
    const plain = [0, 1, 2].map((i) =>
      job({ sentence: i, startMs: 1000 * i, endMs: 1000 * (i + 1), audioSeconds: 1.5 }),
    );
    assert.equal(deliveredSpeed(plain, [0], 1).speed?.toFixed(3), '1.500');
  });
});
